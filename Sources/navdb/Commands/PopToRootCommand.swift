import NavStore

/// `navdb pop-to-root KEY`: pops everything above the top layer's root (rule 11).
struct PopToRootCommand: Command {
    static let spec = CommandSpec(
        path: ["pop-to-root"],
        abstract: "Pop everything above the top layer's root.",
        discussion: """
            As UIKit's popToRootViewController(animated:), which returns no view controllers at the root: \
            at the root already it succeeds (exit 0), appends nothing and says so, where 'pop' on a root \
            is refused (exit 1) because there is nothing below to go back to.
            """,
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
            context.store().execute(.popToRoot, session: key, at: write.at, expectedVersion: write.expectedVersion),
            context, unchanged: "already at the root; nothing popped")
    }
}
