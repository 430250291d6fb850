import NavStore
import NavStoreTools

/// `navdb rebuild [--verify]`: re-derives projections and snapshots from the log alone.
struct RebuildCommand: Command {
    static let changesDatabase = true
    static let spec = CommandSpec(
        abstract: "Rebuild projections and snapshots from the event log.",
        discussion:
            "With --verify, first compares them with the fold of the log and reports every difference (exit 1 when there was one).",
        options: [verify.spec])

    /// `--verify`.
    static let verify = Flag("verify", help: "Report differences between the old projections or snapshots and the log.")

    var verify: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        verify = arguments.flag(Self.verify)
    }

    func run(_ context: Context) throws -> Outcome {
        let store = try context.store()
        let progress = Progress("rebuild")
        let report = try store.rebuild(verify: verify) { done, total in progress.show(done, of: total) }
        progress.finish()
        if context.json {
            try JSONOutput.print(report)
        } else {
            Console.line(
                "rebuilt \(report.sessions) session(s) from \(report.events) event(s); \(report.snapshots) snapshot(s) written"
            )
            if verify {
                Console.line(
                    report.differences.isEmpty
                        ? "verify: projections and snapshots matched the log"
                        : "verify: \(report.differences.count) difference(s):")
                for difference in report.differences { try Console.streamLine("  " + Text.escaped(difference)) }
            }
        }
        if !report.differences.isEmpty { throw MaintenanceFailure.differences(report.differences.count) }
        return .success
    }
}
