import NavStore
import NavStoreTools

/// `navdb menu-select KEY ROW`: picks a row of the current back menu.
struct MenuSelectCommand: WritingCommand {
    var key: String
    var action: MenuSelectAction
    var write: WriteOptions
}

/// What `menu-select` adds to a writing command: the row.
struct MenuSelectAction: NavigationAction {
    /// `<row>`: 1 is the nearest entry.
    static let row = Argument(
        "row", help: "The row number, 1 = nearest (see 'navdb back-menu').", parser: .integer(atLeast: 1))

    static let spec = CommandSpec(
        abstract: "Pick a row of the current back menu (1 = nearest).",
        discussion:
            "Pops to that row's entry in one step; pop guards are not consulted, as UIKit does not ask navigationBar(_:shouldPop:) for a back-menu selection.",
        arguments: [row.spec])

    var row: Int

    init(_ arguments: ParsedArguments) throws(UsageError) {
        row = try arguments.value(Self.row)
    }

    var command: NavigationCommand { .menuSelect(row: row) }
}
