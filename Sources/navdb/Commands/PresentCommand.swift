import NavStore
import NavStoreTools

/// `navdb present KEY ID [item options] [--route R] [--param k=v]... [--modal-in-presentation]`:
/// presents a new navigation stack rooted at the entry, modally over the top layer.
struct PresentCommand: WritingCommand {
    var key: String
    var action: PresentAction
    var write: WriteOptions
}

/// What `present` adds to a writing command: the root entry and whether the layer is modal in
/// presentation.
struct PresentAction: NavigationAction {
    /// `--modal-in-presentation`.
    static let modalInPresentation = Flag(
        "modal-in-presentation",
        help: "isModalInPresentation: a swipe-down dismissal is vetoed (and recorded); a programmatic dismiss works.")

    static let spec = CommandSpec(
        abstract: "Present a new navigation stack modally, rooted at a new entry.",
        discussion: "Its back button and menu list only its own entries. Refused over an empty base layer.",
        arguments: [Argument.id.spec],
        options: ItemOptions.options + EntryOptions.options + [modalInPresentation.spec],
        collapsedSections: ItemOptions.collapsed)

    var entry: Entry
    var modalInPresentation: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        entry = try EntryOptions(arguments).entry(id: arguments.value(Argument.id), item: ItemOptions(arguments).item)
        modalInPresentation = arguments.flag(Self.modalInPresentation)
    }

    var command: NavigationCommand { .present(entry, modalInPresentation: modalInPresentation) }
}
