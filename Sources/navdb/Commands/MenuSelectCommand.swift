import NavStore

/// `navdb menu-select KEY ROW`: picks a row of the current back menu (rule 9).
struct MenuSelectCommand: Command {
    static let spec = CommandSpec(
        path: ["menu-select"],
        abstract: "Pick a row of the current back menu (1 = nearest).",
        discussion: "Pops to that row's entry in one step; pop guards are not consulted (rule 9).",
        arguments: [.key, ArgumentSpec(name: "row", help: "The row number, 1 = nearest (see 'navdb back-menu').")],
        options: WriteOptions.specs)

    var key: String
    var row: Int
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        row = try arguments.intArgument("row", minimum: 1)
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        try WriteOutput.render(
            context.store().execute(
                .menuSelect(row: row), session: key, at: write.at, expectedVersion: write.expectedVersion), context)
    }
}
