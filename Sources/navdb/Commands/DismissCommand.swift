import NavStore

/// `navdb dismiss KEY [--source gesture|programmatic]`: dismisses the top modal layer (rule 15).
struct DismissCommand: Command {
    static let spec = CommandSpec(
        path: ["dismiss"],
        abstract: "Dismiss the top modal layer.",
        discussion: """
            A swipe (gesture) on a layer presented with --modal-in-presentation is vetoed (exit 3, recorded). \
            The default source differs from pop's: a dismissal is most often the app's own call (a Cancel or \
            Done button), a pop most often the user's tap on the back button.
            """,
        arguments: [.key],
        options: [
            .value(
                "source", "source",
                help: """
                    programmatic: the app calls dismiss(animated:completion:), which works on any layer; \
                    gesture: the user swipes the sheet down (an interactive dismissal, vetoed on a modalInPresentation layer).
                    """, default: DismissSource.programmatic.rawValue, choices: DismissSource.allCases.map(\.rawValue))
        ] + WriteOptions.specs)

    var key: String
    var source: DismissSource
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        source = try arguments.choice("source") ?? .programmatic
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        try WriteOutput.render(
            context.store().execute(
                .dismiss(source: source), session: key, at: write.at, expectedVersion: write.expectedVersion), context)
    }
}
