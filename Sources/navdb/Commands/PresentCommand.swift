import NavStore

/// `navdb present KEY ID [item options] [--route R] [--param k=v]... [--modal-in-presentation]`:
/// presents a new navigation stack rooted at the entry, modally over the top layer.
struct PresentCommand: Command {
    static let spec = CommandSpec(
        path: ["present"],
        abstract: "Present a new navigation stack modally, rooted at a new entry.",
        discussion: "Its back button and menu list only its own entries. Refused over an empty base layer.",
        arguments: [.key, .id],
        options: ItemOptions.specs + EntryOptions.specs + [
            .flag("modal-in-presentation", help: "isModalInPresentation: a swipe-down dismissal is vetoed (rule 15).")
        ] + WriteOptions.specs,
        collapsedSections: ItemOptions.collapsed)

    var key: String
    var entry: Entry
    var modalInPresentation: Bool
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        entry = try EntryOptions(arguments).entry(id: arguments.argument("id"), item: ItemOptions(arguments).item)
        modalInPresentation = arguments.flag("modal-in-presentation")
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        let command = NavigationCommand.present(entry, modalInPresentation: modalInPresentation)
        return try WriteOutput.render(
            context.store().execute(command, session: key, at: write.at, expectedVersion: write.expectedVersion),
            context)
    }
}
