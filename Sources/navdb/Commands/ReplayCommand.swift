import NavStore
import NavStoreTools

/// `navdb replay KEY [--from V] [--to V] [--platform G]`: each event followed by the back button
/// and back menu after it, for stepping through a bug report; with `--platform`, the labels as
/// another generation would resolve them (a what-if read: the log is not changed).
struct ReplayCommand: Command {
    static let spec = CommandSpec(
        abstract: "Step through events, each followed by the back button and back menu after it.",
        discussion: """
            --json prints one line per event: {"backButton","backMenu","event":{...as history --json...},"stack":[[ids per layer]]}. \
            A truncated session starts at its base: a note and the base's bar, or with --json a first \
            line {"backButton","backMenu","base":{...the session.truncated record...},"stack"}.
            """,
        arguments: [Argument.key.spec],
        options: [from.spec, to.spec, TimeTravelOptions.platform.spec])

    /// `--from <version>`.
    static let from = Option<Int?>(
        "from", "version",
        help:
            "The first version to show (default 1, or the one after a truncated session's base); a version the session does not have is refused (exit 1), as with stack --at.",
        parser: .integer(atLeast: 1))
    /// `--to <version>`.
    static let to = Option<Int?>(
        "to", "version",
        help: "The last version to show (default the newest); refused as --from when the session does not have it.",
        parser: .integer(atLeast: 1))

    var key: String
    var from: Int?
    var to: Int?
    var platform: PlatformGeneration?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        (from, to) = try arguments.versionRange(Self.from, Self.to)
        platform = try arguments.value(TimeTravelOptions.platform)
    }

    func run(_ context: Context) throws -> Outcome {
        let store = try context.store()
        // A version the session does not have is refused as `stack --at` refuses it (exit 1).
        if let from { _ = try store.version(session: key, at: .version(from)) }
        if let to { _ = try store.version(session: key, at: .version(to)) }
        // The state before the first event shown; the events are folded here with the model's
        // own `apply`, the same function the store uses.
        var state = SessionState()
        // A truncated session replays from its base (NavStore.docc/Retention.md), and says so.
        let base = try store.base(session: key)
        let from = self.from ?? (base?.version ?? 0) + 1
        if let base, from == base.version + 1 {
            state = base.state
            if context.json {
                Console.line(try ReplayJSON.baseLine(base, encoder: JSONOutput.makeEncoder()))
            } else {
                Console.out(
                    HistoryCommand.truncationNote(base) + "\n"
                        + StateText.bar(platform.map { state.with(platform: $0) } ?? state, indent: "          ") + "\n"
                )
            }
        } else if from > 1 {
            do {
                state = try store.state(session: key, at: .version(from - 1)).state
            } catch {
                // Name the version the user gave, not the one before it that was read.
                guard case .pointOutOfRange(let session, _, let accepted) = error else { throw error }
                throw StoreError.pointOutOfRange(session: session, point: "version \(from)", accepted: accepted)
            }
        }
        let encoder = JSONOutput.makeEncoder()
        // A what-if read resolves the labels under another generation; the folded state keeps the
        // session's own, which `session.started` sets.
        let shown: (SessionState) -> SessionState = { [platform] state in
            platform.map { state.with(platform: $0) } ?? state
        }
        var progress = Progress("replay")
        var count = 0
        try store.events(session: key, filter: EventFilter(fromVersion: from, toVersion: to)) { event in
            state.apply(event.body)
            if context.json {
                try Console.streamLine(try ReplayJSON.line(event, state: shown(state), encoder: encoder))
            } else {
                try Console.streamLine(
                    EventLines.human(event) + "\n" + StateText.bar(shown(state), indent: "          "))
            }
            count += 1
            progress.update(count, every: 5_000)
        }
        progress.finish()
        if count == 0 && !context.json { Console.line("(no events in that range)") }
        return .success
    }
}
