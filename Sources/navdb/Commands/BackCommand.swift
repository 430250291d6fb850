import NavStore

/// `navdb back KEY`: goes back the `CanGoBack` way (rule 14).
struct BackCommand: Command {
    static let spec = CommandSpec(
        path: ["back"],
        abstract: "Go back: pop, or dismiss at the root of a modal layer.",
        discussion:
            "The app's own action: programmatic, so guards are not consulted. Refused at the root of the base layer.",
        arguments: [.key],
        options: WriteOptions.specs)

    var key: String
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        try WriteOutput.render(
            context.store().execute(.back, session: key, at: write.at, expectedVersion: write.expectedVersion), context)
    }
}
