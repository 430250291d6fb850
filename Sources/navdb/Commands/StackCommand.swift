import NavStore

/// `navdb stack KEY [--at P]`: the layers and entries now or at a point in history.
struct StackCommand: Command {
    static let spec = CommandSpec(
        path: ["stack"],
        abstract: "Show the layers and entries, now or at a point in history.",
        discussion: """
        --json prints {"session","version","layers":[{"modalInPresentation","entries":[{"id","route","params","item":{...}}]}]} \
        with every item field.
        """,
        arguments: [.key],
        options: [PointOption.spec])

    var key: String
    var point: HistoryPoint?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        point = try arguments.point("at")
    }

    func run(_ context: Context) throws -> Outcome {
        let state = try context.store().state(session: key, at: point)
        if context.json {
            try JSONOutput.print(StackJSON(state))
        } else {
            Console.out(StateText.heading(state) + "\n" + StateText.stack(state.state))
        }
        return .success
    }
}
