import NavStore
import NavStoreTools

/// `navdb dismiss KEY [--source gesture|programmatic]`: dismisses the top modal layer; a swipe on a
/// layer that is modal in presentation is vetoed.
struct DismissCommand: WritingCommand {
    var key: String
    var action: DismissAction
    var write: WriteOptions
}

/// What `dismiss` adds to a writing command: how the dismissal was made.
struct DismissAction: NavigationAction {
    /// `--source <source>`.
    static let source = Option<DismissSource>(
        "source", "source", default: .programmatic,
        help: """
            programmatic: the app calls dismiss(animated:completion:), which works on any layer; \
            gesture: the user swipes the sheet down (an interactive dismissal, vetoed on a modalInPresentation layer).
            """, parser: DismissSource.parser)

    static let spec = CommandSpec(
        abstract: "Dismiss the top modal layer.",
        discussion: """
            A swipe (gesture) on a layer presented with --modal-in-presentation is vetoed (exit 3, recorded). \
            The default source differs from pop's: a dismissal is most often the app's own call (a Cancel or \
            Done button), a pop most often the user's tap on the back button.
            """,
        options: [source.spec])

    var source: DismissSource

    init(_ arguments: ParsedArguments) throws(UsageError) {
        source = try arguments.value(Self.source)
    }

    var command: NavigationCommand { .dismiss(source: source) }
}
