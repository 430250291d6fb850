import NavStore
import NavStoreTools

/// `navdb pop KEY [--source back-button|gesture|content-gesture|programmatic] [--confirm]
/// [--cancelled]`: pops the top entry; a back-button tap asks the entry's pop guard; with
/// `--cancelled`, records a swipe that began and was let go (`pop.cancelled`).
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
    /// `--cancelled`.
    static let cancelled = Flag(
        "cancelled",
        help:
            "The swipe (gesture or content-gesture) began and was cancelled (the user let go early): records pop.cancelled, pops nothing."
    )
    /// The sources `--cancelled` takes: the swipes.
    static let swipeSources: [PopSource] = [.gesture, .contentGesture]

    static let spec = CommandSpec(
        abstract: "Pop the top entry of the top layer.",
        discussion: """
            A back-button tap on a guarded entry is vetoed (exit 3, recorded) unless --confirm is given; \
            a swipe (gesture) and a programmatic pop ignore guards. Popping a layer's root is refused. \
            A swipe is refused under a hidden navigation bar (update-layer --navigation-bar-hidden) and on a \
            screen that turns it off (--interactive-pop-disabled, --content-pop-disabled); with --cancelled it \
            is refused where the swipe would be, and otherwise recorded without changing the stack.
            """,
        options: [source.spec, confirm.spec, cancelled.spec])

    var source: PopSource
    var confirm: Bool
    var cancelled: Bool

    /// - Throws: ``UsageError`` for `--cancelled` with a source that is no swipe, or with `--confirm`.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        source = try arguments.value(Self.source)
        confirm = arguments.flag(Self.confirm)
        cancelled = arguments.flag(Self.cancelled)
        guard cancelled else { return }
        if !Self.swipeSources.contains(source) {
            throw arguments.error(
                "--cancelled records a swipe that began and was cancelled: it takes --source gesture or --source content-gesture, not '\(source.rawValue)' (accepted: \(Self.swipeSources.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        if confirm {
            throw arguments.error(
                "--cancelled and --confirm cannot be combined: --confirm answers a pop guard, which a swipe never asks")
        }
    }

    var command: NavigationCommand {
        cancelled ? .cancelPop(source: source) : .pop(source: source, confirmed: confirm)
    }
}
