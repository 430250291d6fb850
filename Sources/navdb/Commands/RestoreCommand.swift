import NavStore
import NavStoreTools

/// `navdb restore KEY [--mark] [--ack] [--dry-run]`: the restoration payload after a restart,
/// with crash-loop protection; `--ack` reports that the last restore worked; `--dry-run` looks
/// without counting.
struct RestoreCommand: Command {
    static let changesDatabase = true
    static let spec = CommandSpec(
        abstract: "Print what an app needs to rebuild its navigation after a restart.",
        discussion: """
            At launch an app calls 'navdb restore KEY' once (it counts an attempt), rebuilds its screens \
            from the payload, then calls 'navdb restore KEY --ack' once they are up. To look without \
            changing anything, a person uses --dry-run (what that launch call would return now: counts \
            nothing, writes nothing) or --at P (a past point). After 2 restores of the same state \
            without --ack, the next one falls back to the newest acknowledged state other than the \
            failing one, then to the base root alone ("fallback" says why, and stderr says when the next \
            plain restore will fall back), until the session moves on (an event other than a --mark \
            marker). An attempt counts only once its payload was written out: when the output cannot be \
            written, nothing is counted (exit 73). --ack with no restore pending changes nothing and says \
            so (exit 0); after a fallback it brings the log in line with what the app shows, and it is \
            refused (exit 1) when navigation was recorded since that restore. --mark records the version \
            handed out, the attempt and the failed versions in a session.restored marker, which changes \
            no state (the state at a marker is the log's, not what the app was handed). --json prints \
            {"session","version","restoredVersion","layers":[...],"tabs","selectedTab","backButton","backMenu","attempts",\
            "fallback"}; with --ack {"session","pending","acknowledgedVersion","baseRootOnly",\
            "newestAcknowledgedVersion","alignedVersion"}.
            """,
        arguments: [Argument.key.spec],
        options: [
            TimeTravelOptions.at.spec, dryRun.spec, mark.spec, ack.spec, expectVersion.spec, time.spec,
            WriteOptions.allowFutureTime.spec,
        ])

    /// `--dry-run`.
    static let dryRun = Flag(
        "dry-run", help: "Show what a plain restore would return now, without counting an attempt or writing anything.")
    /// `--mark`.
    static let mark = Flag(
        "mark",
        help: "Also record a session.restored event (a restart marker in the history, naming the version handed out).")
    /// `--ack`.
    static let ack = Flag(
        "ack", help: "Report that the last restore worked: clears the attempt count; prints what was acknowledged.")
    /// `--expect-version <n>`.
    static let expectVersion = Option<Int?>(
        "expect-version", "n",
        help: "Refuse with exit 4 unless the session is at version <n>: nothing is appended and no attempt counted.",
        parser: .integer(atLeast: 0))
    /// `--time <iso8601>`.
    static let time = Option<Int64?>(
        "time", "iso8601",
        help:
            "With --mark, the marker's time; with --ack, the time of the events that bring the log in line with an acknowledged fallback (ISO-8601; at most 24 hours ahead of the clock unless --allow-future-time).",
        parser: .time())

    var key: String
    var point: HistoryPoint?
    var dryRun: Bool
    var mark: Bool
    var ack: Bool
    var at: Int64?
    var expectedVersion: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        point = try arguments.value(TimeTravelOptions.at)
        dryRun = arguments.flag(Self.dryRun)
        mark = arguments.flag(Self.mark)
        ack = arguments.flag(Self.ack)
        at = try arguments.eventTime(Self.time, allowFuture: arguments.flag(WriteOptions.allowFutureTime))
        expectedVersion = try arguments.value(Self.expectVersion)
        // --at is a read of the past, which counts and writes nothing either: --dry-run adds nothing to it.
        if dryRun && (ack || mark || expectedVersion != nil) {
            throw arguments.error(
                "--dry-run cannot be combined with --ack, --mark or --expect-version: it only shows what a plain restore would return (now, or at --at)"
            )
        }
        if ack && (mark || point != nil) {
            throw arguments.error(
                "--ack cannot be combined with --mark or --at: it only reports that the last restore worked")
        }
        if point != nil && mark {
            throw arguments.error("--mark cannot be combined with --at: a past point is shown without restoring")
        }
        if expectedVersion != nil && (ack || point != nil) {
            throw arguments.error(
                "--expect-version cannot be combined with --ack or --at: it guards a restore, which counts an attempt")
        }
        if at != nil && !mark && !ack {
            throw arguments.error("--time needs --mark or --ack: it is the time of the events they append")
        }
    }

    func run(_ context: Context) throws -> Outcome {
        if ack { return try acknowledge(context) }
        let store = try context.store()
        if let point {
            Console.out(try render(RestorePayload(try store.state(session: key, at: point)), context, counted: false))
            return .success
        }
        if dryRun {
            let payload = try store.previewRestore(session: key)
            Console.out(try render(payload, context, counted: false))
            if let next = payload.nextFallback {
                Console.err(
                    "note: a plain restore of '\(Text.escaped(key))' now would fall back: \(Text.escaped(next))\n")
            }
            return .success
        }
        let payload = try store.restore(session: key, mark: mark, at: at, expectedVersion: expectedVersion) {
            payload throws(StoreError) in
            // The attempt counts only if the payload reached the output (issue: a restore written
            // to a full disk or a closed pipe was never seen by the app).
            let text: String
            do { text = try render(payload, context, counted: true) } catch {
                throw .restoreNotDelivered(reason: "cannot encode it: \(error)")
            }
            Console.out(text)
            if let reason = Console.deliver() { throw .restoreNotDelivered(reason: reason) }
        }
        if let next = payload.nextFallback {
            Console.err(
                "note: unless this restore is acknowledged (\(ShellWord.suggestion("restore", key: key, options: "--ack"))), the next one falls back: \(Text.escaped(next))\n"
            )
        }
        return .success
    }

    /// The payload as printed: JSON, or the header, fallback line, stack and bar.
    private func render(_ payload: RestorePayload, _ context: Context, counted: Bool) throws -> String {
        if context.json { return try JSONOutput.text(payload) + "\n" }
        // Drawn under the session's rules, as the payload's back button and menu were.
        var state = SessionState(layers: payload.layers, platform: payload.platform)
        state.tabBar = payload.tabBar
        var text = "session \(Text.display(payload.session))  version \(payload.version)"
        if payload.restoredVersion != payload.version {
            text +=
                payload.restoredVersion != 0
                ? "  restoring version \(payload.restoredVersion)"
                : payload.layers.first?.entries.isEmpty ?? true
                    ? "  restoring an empty stack" : "  restoring the base root alone"
        }
        if counted {
            text += "  attempt \(payload.attempts)"
        } else if dryRun && point == nil {
            text += "  would be attempt \(payload.attempts) (dry run: nothing counted or written)"
        }
        text += "\n"
        if let fallback = payload.fallback { text += "fallback: \(Text.escaped(fallback))\n" }
        return text + StateText.stack(state) + StateText.bar(state)
    }

    private func acknowledge(_ context: Context) throws -> Outcome {
        let acknowledged = try context.store().acknowledgeRestore(session: key, at: at)
        if context.json {
            try JSONOutput.print([
                "session": JSONValue.string(key),
                "pending": .bool(acknowledged.wasPending),
                "acknowledgedVersion": acknowledged.version.map { .integer(Int64($0)) } ?? .null,
                "baseRootOnly": .bool(acknowledged.isBaseRootOnly),
                "newestAcknowledgedVersion": acknowledged.newestAcknowledgedVersion.map { .integer(Int64($0)) }
                    ?? .null,
                "alignedVersion": acknowledged.alignedVersion.map { .integer(Int64($0)) } ?? .null,
            ])
            return .success
        }
        guard let version = acknowledged.version else {
            Console.line(
                "nothing to acknowledge: no restore of session \(Text.display(key)) is pending (none since the last --ack)"
                    + (acknowledged.newestAcknowledgedVersion.map {
                        "; version \($0) stays the newest acknowledged state"
                    } ?? "; no state has been acknowledged"))
            return .success
        }
        var text =
            acknowledged.isBaseRootOnly
            ? "acknowledged the base root alone (the last fallback after repeated unacknowledged restores)"
            : "acknowledged version \(version)"
        if let aligned = acknowledged.alignedVersion {
            text +=
                "; the log now holds that state at version \(aligned), so navigation continues from what the app shows"
        } else if acknowledged.isBaseRootOnly {
            text +=
                "; "
                + (acknowledged.newestAcknowledgedVersion.map { "version \($0) stays the newest acknowledged state" }
                    ?? "no version's state has been acknowledged")
        }
        Console.line(text)
        return .success
    }
}
