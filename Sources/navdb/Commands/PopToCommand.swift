import NavStore
import NavStoreTools

/// `navdb pop-to KEY ID [--source back-menu|programmatic]`: pops everything above an entry of the
/// top layer.
struct PopToCommand: WritingCommand {
    var key: String
    var action: PopToAction
    var write: WriteOptions
}

/// What `pop-to` adds to a writing command: the entry to pop to, and how.
struct PopToAction: NavigationAction {
    /// `<id>`: the entry that stays.
    static let id = Argument.entry(help: "The entry to pop to (it stays).")
    /// `--source <source>`.
    static let source = Option<PopSource>(
        "source", "source", default: .programmatic,
        help: """
            programmatic: the app calls popToViewController(_:animated:); \
            back-menu: the user picks the entry's row in the long-press back menu.
            """, parser: .choice(among: [.backMenu, .programmatic]))

    static let spec = CommandSpec(
        abstract: "Pop to an entry of the top layer.",
        discussion:
            "With --source back-menu the entry must be a row of the current back menu; guards are not consulted. Popping to the top entry changes nothing.",
        arguments: [id.spec],
        options: [source.spec])

    var id: String
    var source: PopSource

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.value(Self.id)
        source = try arguments.value(Self.source)
    }

    var command: NavigationCommand { .popTo(entryID: id, source: source) }
    var unchanged: String? { "'\(Text.escaped(id))' is already the top entry; nothing popped" }
}
