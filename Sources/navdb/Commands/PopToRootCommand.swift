import NavStore
import NavStoreTools

/// `navdb pop-to-root KEY`: pops everything above the top layer's root.
struct PopToRootCommand: WritingCommand {
    var key: String
    var action: PopToRootAction
    var write: WriteOptions
}

/// `pop-to-root` adds nothing to a writing command.
struct PopToRootAction: NavigationAction {
    static let spec = CommandSpec(
        abstract: "Pop everything above the top layer's root.",
        discussion: """
            As UIKit's popToRootViewController(animated:), which returns no view controllers at the root: \
            at the root already it succeeds (exit 0), appends nothing and says so, where 'pop' on a root \
            is refused (exit 1) because there is nothing below to go back to.
            """)

    init(_ arguments: ParsedArguments) throws(UsageError) {}

    var command: NavigationCommand { .popToRoot }
    var unchanged: String? { "already at the root; nothing popped" }
}
