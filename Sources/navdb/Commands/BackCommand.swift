import NavStore
import NavStoreTools

/// `navdb back KEY`: goes back the `CanGoBack` way: pop, or dismiss at the root of a modal layer.
struct BackCommand: WritingCommand {
    var key: String
    var action: BackAction
    var write: WriteOptions
}

/// `back` adds nothing to a writing command.
struct BackAction: NavigationAction {
    static let spec = CommandSpec(
        abstract: "Go back: pop, or dismiss at the root of a modal layer.",
        discussion:
            "The app's own action: programmatic, so guards are not consulted. Refused at the root of the base layer.")

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    var command: NavigationCommand { .back }
}
