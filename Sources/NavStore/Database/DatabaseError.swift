/// The database's own error, as a ``StoreError`` carries it: the backend's error with its codes,
/// message and SQL, never flattened to a string.
///
/// Match the backend's error with its own patterns, for example
/// `case .busy(_, _, .sqlite(SQLiteError.ResultCode.busy))`.
public enum DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An error SQLite reported, with its extended result code, message and SQL.
    case sqlite(SQLiteError)
    /// An error PostgreSQL or libpq reported, with its SQLSTATE, message (passwords removed) and SQL.
    case postgresql(PostgreSQLError)

    /// The backend's message alone, without codes or SQL (SQLite's `sqlite3_errmsg`).
    public var message: String {
        switch self {
        case .sqlite(let error): error.message
        case .postgresql(let error): error.message
        }
    }

    /// The backend's full description, codes and SQL included.
    public var description: String {
        switch self {
        case .sqlite(let error): error.description
        case .postgresql(let error): error.description
        }
    }
}
