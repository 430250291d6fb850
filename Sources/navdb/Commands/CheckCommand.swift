import NavStore
import NavStoreTools

/// `navdb check`: verifies integrity, gapless versions, projections and snapshots.
struct CheckCommand: Command {
    static let spec = CommandSpec(
        abstract: "Verify the database: integrity, gapless versions, projections and snapshots.",
        discussion:
            "Read-only. Exits 74 when a problem was found (each is listed; 'navdb rebuild' repairs projections and snapshots), 0 when the database is sound."
    )

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    func run(_ context: Context) throws -> Outcome {
        let store = try context.store()
        let progress = Progress("check")
        let report = try store.check { done, total in progress.show(done, of: total) }
        progress.finish()
        if context.json {
            try JSONOutput.print(report)
        } else {
            Console.line(
                "checked \(report.sessions) session(s), \(report.events) event(s), \(report.snapshots) snapshot(s)")
            Console.line(report.isClean ? "ok" : "\(report.problems.count) problem(s):")
            for problem in report.problems { try Console.streamLine("  " + Text.escaped(problem)) }
        }
        if !report.isClean { throw MaintenanceFailure.problems(report.problems.count) }
        return .success
    }
}
