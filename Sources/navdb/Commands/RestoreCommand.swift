import NavStore

/// `navdb restore KEY [--mark] [--ack]`: the restoration payload after a restart, with crash-loop
/// protection; `--ack` reports that the last restore worked.
struct RestoreCommand: Command {
    static let spec = CommandSpec(
        path: ["restore"],
        abstract: "Print what an app needs to rebuild its navigation after a restart.",
        discussion: """
        Each call counts a restore attempt; after repeated attempts without --ack the last state that \
        did restore is returned instead ("fallback" says why). --at P shows the payload of a past \
        point without counting an attempt. --json prints {"session","version","restoredVersion",\
        "layers":[...],"backButton","backMenu","attempts","fallback"}.
        """,
        arguments: [.key],
        options: [
            PointOption.spec,
            .flag("mark", help: "Also record a session.restored event (a restart marker in the history)."),
            .flag("ack", help: "Report that the last restore worked: clears the attempt count; prints nothing else."),
            .value("time", "iso8601", help: "The marker's time with --mark (ISO-8601)."),
        ])

    var key: String
    var point: HistoryPoint?
    var mark: Bool
    var ack: Bool
    var at: Int64?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        point = try arguments.point("at")
        mark = arguments.flag("mark")
        ack = arguments.flag("ack")
        at = try arguments.time("time")
        if ack && (mark || point != nil) {
            throw arguments.error("--ack cannot be combined with --mark or --at: it only reports that the last restore worked")
        }
        if point != nil && mark {
            throw arguments.error("--mark cannot be combined with --at: a past point is shown without restoring")
        }
        if at != nil && !mark {
            throw arguments.error("--time needs --mark: it is the time of the restart marker")
        }
    }

    func run(_ context: Context) throws -> Outcome {
        if ack {
            let version = try context.store().acknowledgeRestore(session: key)
            if context.json {
                try JSONOutput.print(["session": JSONValue.string(key), "acknowledgedVersion": .integer(Int64(version))])
            } else {
                Console.line("acknowledged version \(version)")
            }
            return .success
        }
        let store = try context.store()
        let payload = try point.map { point throws(StoreError) in RestorePayload(try store.state(session: key, at: point)) }
            ?? (try store.restore(session: key, mark: mark, at: at))
        if context.json {
            try JSONOutput.print(payload)
            return .success
        }
        let state = SessionState(layers: payload.layers)
        var text = "session \(Text.display(payload.session))  version \(payload.version)"
        if payload.restoredVersion != payload.version { text += "  restoring version \(payload.restoredVersion)" }
        if point == nil { text += "  attempt \(payload.attempts)" }
        text += "\n"
        if let fallback = payload.fallback { text += "fallback: \(fallback)\n" }
        text += StateText.stack(state) + StateText.bar(state)
        Console.out(text)
        return .success
    }
}
