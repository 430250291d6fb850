import NavStore

/// `navdb push KEY ID [item options] [--route R] [--param k=v]...`: pushes an entry on the top layer.
struct PushCommand: Command {
    static let spec = CommandSpec(
        path: ["push"],
        abstract: "Push an entry on the top layer.",
        discussion: "Refused (exit 1) when the id is already live in any layer (rule 16).",
        arguments: [.key, .id],
        options: ItemOptions.specs + EntryOptions.specs + WriteOptions.specs,
        collapsedSections: ItemOptions.collapsed)

    var key: String
    var entry: Entry
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        entry = try EntryOptions(arguments).entry(id: arguments.argument("id"), item: ItemOptions(arguments).item)
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        try WriteOutput.render(
            context.store().execute(.push(entry), session: key, at: write.at, expectedVersion: write.expectedVersion),
            context)
    }
}
