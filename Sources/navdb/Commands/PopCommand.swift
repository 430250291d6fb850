import NavStore

/// `navdb pop KEY [--source back-button|gesture|programmatic] [--confirm]`: pops the top entry (rule 10).
struct PopCommand: Command {
    static let sources: [PopSource] = [.backButton, .gesture, .contentGesture, .programmatic]

    static let spec = CommandSpec(
        path: ["pop"],
        abstract: "Pop the top entry of the top layer.",
        discussion: """
            A back-button tap on a guarded entry is vetoed (exit 3, recorded) unless --confirm is given; \
            a swipe (gesture) and a programmatic pop ignore guards. Popping a layer's root is refused.
            """,
        arguments: [.key],
        options: [
            .value(
                "source", "source",
                help: """
                    back-button: the user taps the back button (UINavigationBar asks navigationBar(_:shouldPop:) first); \
                    gesture: the interactive edge swipe (interactivePopGestureRecognizer; no guard asked); \
                    content-gesture: iOS 26's swipe anywhere in the content (interactiveContentPopGestureRecognizer; no guard asked; ios26 sessions only); \
                    programmatic: the app calls popViewController(animated:) (no guard asked).
                    """, default: PopSource.backButton.rawValue, choices: Self.sources.map(\.rawValue)),
            .flag("confirm", help: "Answer yes to the top entry's pop guard."),
        ] + WriteOptions.specs)

    var key: String
    var source: PopSource
    var confirm: Bool
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        source = try arguments.choice("source", accepted: Self.sources) ?? .backButton
        confirm = arguments.flag("confirm")
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        let command = NavigationCommand.pop(source: source, confirmed: confirm)
        return try WriteOutput.render(
            context.store().execute(command, session: key, at: write.at, expectedVersion: write.expectedVersion),
            context)
    }
}
