import NavStore

/// `navdb update KEY ID [item options] [--unset FIELD]...`: changes a live entry's navigation
/// item (rule 13). The change is applied to the current item inside the store's write
/// transaction: `--unset` first, then the given options.
struct UpdateCommand: Command {
    static let spec = CommandSpec(
        path: ["update"],
        abstract: "Change a live entry's navigation item; label and menu follow from then on.",
        discussion: """
            Options not given leave their fields unchanged. --unset FIELD (repeatable) resets a field \
            first; FIELD is an item option's name without dashes, or back-bar-button-item for the whole \
            custom item: \(NavigationItemField.allCases.map(\.rawValue).joined(separator: ", ")).
            """,
        arguments: [.key, ArgumentSpec(name: "id", help: "The live entry to change.")],
        options: ItemOptions.specs + [
            .repeating(
                "unset", "field", help: "Reset a field to unset (applied before the options that set).",
                choices: NavigationItemField.allCases.map(\.rawValue))
        ] + WriteOptions.specs,
        collapsedSections: ItemOptions.collapsed)

    var key: String
    var id: String
    var options: ItemOptions
    var unset: [NavigationItemField]
    var write: WriteOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        key = arguments.argument("key")
        id = arguments.argument("id")
        options = try ItemOptions(arguments)
        var fields: [NavigationItemField] = []
        for name in arguments.allValues("unset") {
            guard let field = NavigationItemField(rawValue: name) else {
                throw arguments.invalid(
                    name, for: "--unset <field>",
                    expected: "one of \(NavigationItemField.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            fields.append(field)
        }
        unset = fields
        if options.isEmpty && unset.isEmpty {
            throw arguments.error("Nothing to update: give at least one item option or --unset <field>")
        }
        write = try WriteOptions(arguments)
    }

    func run(_ context: Context) throws -> Outcome {
        let result = try context.store().updateItem(
            id, session: key, at: write.at, expectedVersion: write.expectedVersion
        ) { item in
            for field in unset { item.unset(field) }
            options.apply(to: &item)
        }
        return try WriteOutput.render(result, context)
    }
}
