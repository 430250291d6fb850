import NavStore

/// `navdb pop-to-root KEY`: pops everything above the top layer's root (rule 11).
struct PopToRootCommand: Command {
    static let spec = CommandSpec(
        path: ["pop-to-root"],
        abstract: "Pop everything above the top layer's root.",
        discussion: "At the root already, it succeeds and appends nothing.",
        arguments: [.key],
        options: WriteOptions.specs)

    var key: String
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        try WriteOutput.render(context.store().execute(.popToRoot, session: key, at: write.at, expectedVersion: write.expectedVersion), context)
    }
}
