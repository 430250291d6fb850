/// A projection row, snapshot, base or session row whose content the store cannot read. The store
/// only writes what it reads back, so the row was changed behind its back (plain SQL); the log is
/// untouched and a rebuild (`NavigationStore.rebuild(verify:progress:)` (NavStoreTools)) rewrites the row from it.
public struct UnreadableRow: Error, Sendable, Equatable, CustomStringConvertible {
    /// The session key.
    public var session: String
    /// Which row, e.g. `projection row at layer 0, position 1, entry 'B'` or `snapshot at version 64`.
    public var row: String
    /// What is wrong with it, naming the column, its text and the decoding error.
    public var problem: String

    /// Creates the description of an unreadable row.
    public init(session: String, row: String, problem: String) {
        self.session = session
        self.row = row
        self.problem = problem
    }

    /// `<row> cannot be read: <problem>`, without the session.
    public var summary: String { "\(row) cannot be read: \(problem)" }

    /// The whole message: the session, the row, the problem and the repair.
    public var description: String { "session '\(session)': \(summary); a rebuild rewrites it from the log" }

    /// `text` in single quotes, shortened to its first 60 characters (a stored title may be long).
    package static func quoted(_ text: String) -> String {
        text.count <= 60 ? "'\(text)'" : "'\(text.prefix(60))...'"
    }
}
