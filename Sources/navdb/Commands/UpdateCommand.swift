import NavStore
import NavStoreTools

/// `navdb update KEY ID [item options] [--unset FIELD]...`: changes a live entry's navigation
/// item; label and menu follow from then on. The change is applied to the current item inside
/// the store's write transaction: `--unset` first, then the given options.
struct UpdateCommand: WritingCommand {
    var key: String
    var action: UpdateAction
    var write: WriteOptions
}

/// What `update` adds to a writing command: the entry, the fields to set and those to unset.
struct UpdateAction: WriteAction {
    static let takesTab = true
    /// `<id>`: the live entry to change.
    static let id = Argument.entry(help: "The live entry to change.")
    /// `--unset <field> ...`: names from the library's list of item fields.
    static let unset = Option<[String]>(
        repeating: "unset", "field", help: "Reset a field to unset (applied before the options that set).",
        parser: .choice(NavigationItemField.unsetNames))

    static let spec = CommandSpec(
        abstract: "Change a live entry's navigation item; label and menu follow from then on.",
        discussion: """
            Options not given leave their fields unchanged. --unset FIELD (repeatable) resets a field \
            first; FIELD is an item option's name without dashes, or back-bar-button-item for the whole \
            custom item. A field cannot be both set and unset in one update.
            """,
        arguments: [id.spec],
        options: ItemOptions.options + [unset.spec],
        collapsedSections: ItemOptions.collapsed)

    var id: String
    var options: ItemOptions
    /// `--unset` names (``NavigationItemField/unsetNames``), in the order given.
    var unset: [String]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        id = try arguments.value(Self.id)
        options = try ItemOptions(arguments)
        unset = try arguments.value(Self.unset)
        if options.isEmpty && unset.isEmpty {
            throw arguments.error("Nothing to update: give at least one item option or --unset <field>")
        }
        if let both = options.names.first(where: unset.contains) {
            throw arguments.error(
                "--\(both) and --unset \(both) cannot be combined: a field is either set or unset in one update"
            )
        }
    }

    func append(_ context: Context, session: String, write: WriteOptions) throws -> AppendResult {
        try context.store().updateItem(
            id, session: session, tab: write.tab, at: write.at, expectedVersion: write.expectedVersion
        ) { item in
            for name in unset { _ = NavigationItemField.unset(name, in: &item) }
            options.apply(to: &item)
        }
    }
}
