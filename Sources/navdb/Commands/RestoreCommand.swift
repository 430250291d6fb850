import NavStore

/// `navdb restore KEY [--mark] [--ack]`: the restoration payload after a restart, with crash-loop
/// protection; `--ack` reports that the last restore worked.
struct RestoreCommand: Command {
    static let spec = CommandSpec(
        path: ["restore"],
        abstract: "Print what an app needs to rebuild its navigation after a restart.",
        discussion: """
        Each call counts a restore of the state it prints; after repeated restores of the same state \
        without --ack, the newest acknowledged earlier state is returned instead, then the base root \
        alone ("fallback" says why), until the session moves on (an event other than a --mark \
        marker). --at P shows the payload of a past point without counting an attempt. --json \
        prints {"session","version","restoredVersion","layers":[...],"backButton","backMenu",\
        "attempts","fallback"}.
        """,
        arguments: [.key],
        options: [
            PointOption.spec,
            .flag("mark", help: "Also record a session.restored event (a restart marker in the history)."),
            .flag("ack", help: "Report that the last restore worked: clears the attempt count; prints what was acknowledged."),
            .value("expect-version", "n", help: "Refuse with exit 4 unless the session is at version <n>: nothing is appended and no attempt counted."),
            .value("time", "iso8601", help: "With --mark, the marker's time; with --ack, the time of the events that bring the log in line with an acknowledged fallback (ISO-8601)."),
        ])

    var key: String
    var point: HistoryPoint?
    var mark: Bool
    var ack: Bool
    var at: Int64?
    var expectedVersion: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        point = try arguments.point("at")
        mark = arguments.flag("mark")
        ack = arguments.flag("ack")
        at = try arguments.time("time")
        expectedVersion = try arguments.int("expect-version", minimum: 0)
        if ack && (mark || point != nil) {
            throw arguments.error("--ack cannot be combined with --mark or --at: it only reports that the last restore worked")
        }
        if point != nil && mark {
            throw arguments.error("--mark cannot be combined with --at: a past point is shown without restoring")
        }
        if expectedVersion != nil && (ack || point != nil) {
            throw arguments.error("--expect-version cannot be combined with --ack or --at: it guards a restore, which counts an attempt")
        }
        if at != nil && !mark && !ack {
            throw arguments.error("--time needs --mark or --ack: it is the time of the events they append")
        }
    }

    func run(_ context: Context) throws -> Outcome {
        if ack {
            let acknowledged = try context.store().acknowledgeRestore(session: key, at: at)
            if context.json {
                try JSONOutput.print([
                    "session": JSONValue.string(key),
                    "acknowledgedVersion": .integer(Int64(acknowledged.version)),
                    "baseRootOnly": .bool(acknowledged.isBaseRootOnly),
                    "newestAcknowledgedVersion": acknowledged.newestAcknowledgedVersion.map { .integer(Int64($0)) } ?? .null,
                    "alignedVersion": acknowledged.alignedVersion.map { .integer(Int64($0)) } ?? .null,
                ])
            } else {
                var text = acknowledged.isBaseRootOnly
                    ? "acknowledged the base root alone (the last fallback after repeated unacknowledged restores)"
                    : "acknowledged version \(acknowledged.version)"
                if let aligned = acknowledged.alignedVersion {
                    text += "; the log now holds that state at version \(aligned), so navigation continues from what the app shows"
                } else if acknowledged.isBaseRootOnly {
                    text += "; " + (acknowledged.newestAcknowledgedVersion.map { "version \($0) stays the newest acknowledged state" }
                        ?? "no version's state has been acknowledged")
                }
                Console.line(text)
            }
            return .success
        }
        let store = try context.store()
        let payload = try point.map { point throws(StoreError) in RestorePayload(try store.state(session: key, at: point)) }
            ?? (try store.restore(session: key, mark: mark, at: at, expectedVersion: expectedVersion))
        if context.json {
            try JSONOutput.print(payload)
            return .success
        }
        let state = SessionState(layers: payload.layers)
        var text = "session \(Text.display(payload.session))  version \(payload.version)"
        if payload.restoredVersion != payload.version {
            text += payload.restoredVersion != 0 ? "  restoring version \(payload.restoredVersion)"
                : payload.layers.first?.entries.isEmpty ?? true ? "  restoring an empty stack" : "  restoring the base root alone"
        }
        if point == nil { text += "  attempt \(payload.attempts)" }
        text += "\n"
        if let fallback = payload.fallback { text += "fallback: \(fallback)\n" }
        text += StateText.stack(state) + StateText.bar(state)
        Console.out(text)
        return .success
    }
}
