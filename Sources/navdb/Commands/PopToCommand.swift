import NavStore

/// `navdb pop-to KEY ID [--source back-menu|programmatic]`: pops everything above an entry of the
/// top layer (rules 9, 11).
struct PopToCommand: Command {
    static let sources: [PopSource] = [.backMenu, .programmatic]

    static let spec = CommandSpec(
        path: ["pop-to"],
        abstract: "Pop to an entry of the top layer.",
        discussion:
            "With --source back-menu the entry must be a row of the current back menu; guards are not consulted. Popping to the top entry changes nothing.",
        arguments: [.key, ArgumentSpec(name: "id", help: "The entry to pop to (it stays).")],
        options: [
            .value(
                "source", "source",
                help: """
                    programmatic: the app calls popToViewController(_:animated:); \
                    back-menu: the user picks the entry's row in the long-press back menu.
                    """, default: PopSource.programmatic.rawValue, choices: Self.sources.map(\.rawValue))
        ] + WriteOptions.specs)

    var key: String
    var id: String
    var source: PopSource
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        id = arguments.argument("id")
        source = try arguments.choice("source", accepted: Self.sources) ?? .programmatic
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        let command = NavigationCommand.popTo(entryID: id, source: source)
        return try WriteOutput.render(
            context.store().execute(command, session: key, at: write.at, expectedVersion: write.expectedVersion),
            context, unchanged: "'\(Text.escaped(id))' is already the top entry; nothing popped")
    }
}
