import NavStore

/// `navdb pop KEY [--source back-button|gesture|content-gesture|programmatic] [--confirm]`: pops
/// the top entry; a back-button tap asks the entry's pop guard.
struct PopCommand: WritingCommand {
    var key: String
    var action: PopAction
    var write: WriteOptions
}

/// What `pop` adds to a writing command: how the pop was made, and the answer to a guard.
struct PopAction: NavigationAction {
    /// `--source <source>`.
    static let source = Option<PopSource>(
        "source", "source", default: .backButton,
        help: """
            back-button: the user taps the back button (UINavigationBar asks navigationBar(_:shouldPop:) first); \
            gesture: the interactive edge swipe (interactivePopGestureRecognizer; no guard asked); \
            content-gesture: iOS 26's swipe anywhere in the content (interactiveContentPopGestureRecognizer; no guard asked; ios26 sessions only); \
            programmatic: the app calls popViewController(animated:) (no guard asked).
            """, parser: .choice(among: [.backButton, .gesture, .contentGesture, .programmatic]))
    /// `--confirm`.
    static let confirm = Flag("confirm", help: "Answer yes to the top entry's pop guard.")

    static let spec = CommandSpec(
        abstract: "Pop the top entry of the top layer.",
        discussion: """
            A back-button tap on a guarded entry is vetoed (exit 3, recorded) unless --confirm is given; \
            a swipe (gesture) and a programmatic pop ignore guards. Popping a layer's root is refused.
            """,
        options: [source.spec, confirm.spec])

    var source: PopSource
    var confirm: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        source = try arguments.value(Self.source)
        confirm = arguments.flag(Self.confirm)
    }

    var command: NavigationCommand { .pop(source: source, confirmed: confirm) }
}
