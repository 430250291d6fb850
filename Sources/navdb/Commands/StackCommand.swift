import NavStore
import NavStoreTools

/// `navdb stack KEY [--at P]`: the layers and entries now or at a point in history.
struct StackCommand: Command {
    static let spec = CommandSpec(
        abstract: "Show the layers and entries, now or at a point in history.",
        discussion: """
            --json prints {"session","version","layers":[{"modalInPresentation","entries":[{"id","route","params","item":{...}}]}]} \
            with every item field. At a session.restored marker the state is the log's (a marker changes \
            nothing); when the restore it marks handed out a fallback, a line says which state the app \
            was given instead.
            """,
        arguments: [Argument.key.spec],
        options: TimeTravelOptions.options)

    var key: String
    var point: HistoryPoint?
    var platform: PlatformGeneration?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = try arguments.value(Argument.key)
        (point, platform) = try TimeTravelOptions(arguments).pair
    }

    func run(_ context: Context) throws -> Outcome {
        let state = try context.store().state(session: key, at: point, platform: platform)
        if context.json {
            try JSONOutput.print(StackJSON(state))
        } else {
            Console.out(
                StateText.heading(state) + "\n" + (try fallbackNote(state, context)) + StateText.stack(state.state))
        }
        return .success
    }

    /// When the event at `state.version` is a restart marker whose restore handed out a fallback:
    /// a line saying which state the app was given, so the log's state below is not taken for it.
    private func fallbackNote(_ state: VersionedState, _ context: Context) throws -> String {
        var marker: RestoreMarker?
        try context.store().events(
            session: key, filter: EventFilter(fromVersion: state.version, toVersion: state.version)
        ) { event in
            if case .sessionRestored(let found) = event.body { marker = found }
        }
        guard let marker, marker.isFallback, !marker.acknowledged, let restored = marker.restoredVersion else {
            return ""
        }
        let given = restored == 0 ? "the base root alone" : "version \(restored)'s state"
        return "restart marker: the app was handed \(given) here, not the state below "
            + "(\(EventSummary.restored(marker))); the log holds what the app shows only after \(ShellWord.suggestion("restore", key: key, options: "--ack"))\n"
    }
}
