import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// An entry with `id` and `item` (no route, no params).
func entry(_ id: String, _ item: NavigationItem = NavigationItem()) -> Entry {
    Entry(id: id, item: item)
}

/// An entry with `id` and a title.
func entry(_ id: String, title: String?) -> Entry {
    Entry(id: id, item: NavigationItem(title: title))
}

extension SessionState {
    /// Decides and applies `command`, returning the event it appended (if any).
    /// - Throws: the refusal, leaving the state as it was.
    @discardableResult
    mutating func run(_ command: NavigationCommand) throws(NavigationError) -> EventBody? {
        let event = try decide(command)
        if let event { apply(event) }
        return event
    }

    /// The state after running `commands` from a new session.
    /// - Throws: the first refusal.
    static func after(_ commands: [NavigationCommand]) throws(NavigationError) -> SessionState {
        var state = SessionState()
        for command in commands { try state.run(command) }
        return state
    }

    /// A base layer of entries "A", "B", "C"... with `items`, bottom first.
    static func base(_ items: NavigationItem...) throws(NavigationError) -> SessionState {
        try after(items.enumerated().map { .push(entry(String(UnicodeScalar(UInt8(65 + $0.offset))), $0.element)) })
    }

    /// Layers of plain entries with the given ids, base first (the first id of each later layer is presented).
    static func stacks(_ layers: [[String]], modal: Bool = false) throws(NavigationError) -> SessionState {
        var commands: [NavigationCommand] = []
        for (index, ids) in layers.enumerated() {
            for (position, id) in ids.enumerated() {
                commands.append(
                    index > 0 && position == 0
                        ? .present(entry(id, title: id), modalInPresentation: modal) : .push(entry(id, title: id)))
            }
        }
        return try after(commands)
    }
}

/// The parent suite of the model's tests (`swift test --filter Model` selects them all).
@Suite("Model")
enum ModelTests {}
