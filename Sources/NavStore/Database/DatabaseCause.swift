/// The database's own error, as a ``StoreError`` carries it (its `cause`): the backend's error
/// with its codes, message and SQL, never flattened to a string. Named for NavStore, so that it
/// does not clash with another database library's `DatabaseError` (GRDB's) in an app that
/// imports both.
///
/// Match the backend's error with its own patterns, for example
/// `case .busy(_, _, .sqlite(SQLiteError.ResultCode.busy))`; another backend's error is
/// ``backend(_:)``, whose value is that backend's type (`NavStorePostgreSQL`'s `PostgreSQLError`:
/// `case .openFailed(_, .backend(let cause as PostgreSQLError))`).
public enum DatabaseCause: Error, Sendable, Equatable, CustomStringConvertible {
    /// An error SQLite reported, with its extended result code, message and SQL.
    case sqlite(SQLiteError)
    /// An error another backend reported (one a program registered, such as PostgreSQL), as that
    /// backend's own error value.
    case backend(any BackendError)

    /// The backend's message alone, without codes or SQL (SQLite's `sqlite3_errmsg`).
    public var message: String {
        switch self {
        case .sqlite(let error): error.message
        case .backend(let error): error.message
        }
    }

    /// The backend's full description, codes and SQL included.
    public var description: String {
        switch self {
        case .sqlite(let error): error.description
        case .backend(let error): error.description
        }
    }

    /// Equal when both are SQLite's and equal, or both another backend's of the same type and equal.
    public static func == (lhs: DatabaseCause, rhs: DatabaseCause) -> Bool {
        switch (lhs, rhs) {
        case (.sqlite(let left), .sqlite(let right)): left == right
        case (.backend(let left), .backend(let right)): left.isEqual(to: right)
        case (.sqlite, .backend), (.backend, .sqlite): false
        }
    }
}

/// The error of a storage backend other than SQLite, as ``DatabaseCause/backend(_:)`` carries it:
/// its codes, its message and the SQL that failed, in the backend's own type.
public protocol BackendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The backend's message alone, on one line, without codes or SQL, and without passwords.
    var message: String { get }
}

extension BackendError {
    /// Whether `other` is an error of the same type, equal to this one.
    fileprivate func isEqual(to other: any BackendError) -> Bool {
        (other as? Self) == self
    }
}
