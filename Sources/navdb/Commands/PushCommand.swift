import NavStore
import NavStoreTools

/// `navdb push KEY ID [item options] [--route R] [--param k=v]...`: pushes an entry on the top layer.
struct PushCommand: WritingCommand {
    var key: String
    var action: PushAction
    var write: WriteOptions
}

/// What `push` adds to a writing command: the entry.
struct PushAction: NavigationAction {
    static let spec = CommandSpec(
        abstract: "Push an entry on the top layer.",
        discussion:
            "Refused (exit 1) when the id is already live in any layer: an id names one screen of the session at a time.",
        arguments: [Argument.id.spec],
        options: ItemOptions.options + EntryOptions.options,
        collapsedSections: ItemOptions.collapsed)

    var entry: Entry

    init(_ arguments: ParsedArguments) throws(UsageError) {
        entry = try EntryOptions(arguments).entry(id: arguments.value(Argument.id), item: ItemOptions(arguments).item)
    }

    var command: NavigationCommand { .push(entry) }
}
