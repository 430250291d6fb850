import NavStore

/// An error reported by PostgreSQL or libpq: what kind of failure, the SQLSTATE code when the
/// server sent one, the message with every password removed, and the SQL that failed.
///
/// Its ``description`` reads like `PostgreSQL error 23505: duplicate key value violates unique
/// constraint "events_session_id_version_key" - while executing `INSERT INTO events ...``. Only
/// the SQL text is kept, never the values bound to it. SQLSTATE codes:
/// https://www.postgresql.org/docs/current/errcodes-appendix.html.
public struct PostgreSQLError: BackendError {
    /// What failed.
    public enum Kind: Sendable, Equatable {
        /// No usable connection: libpq is missing, the server is down or unreachable, the password
        /// is wrong, the database does not exist, or the connection was lost mid-statement.
        case connection
        /// The server refused a statement (see ``PostgreSQLError/sqlState``).
        case statement
        /// A value cannot be sent to PostgreSQL as it is (text with a NUL character).
        case unsupportedValue
    }

    /// What failed.
    public let kind: Kind

    /// The five-character SQLSTATE (`23505` for a unique violation), when the server sent one.
    public let sqlState: String?

    /// The constraint a constraint violation names (`PG_DIAG_CONSTRAINT_NAME`), if any.
    public let constraint: String?

    /// libpq's or the server's message on one line (its lines joined by "; ", spaces trimmed),
    /// with any password removed.
    public let message: String

    /// The SQL text being executed, without bound values; `nil` for connection failures.
    public let sql: String?

    /// Creates an error from its parts; `message` must already be free of passwords.
    package init(
        kind: Kind, sqlState: String? = nil, constraint: String? = nil, message: String, sql: String? = nil
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.constraint = constraint
        self.message = message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
            .joined(separator: "; ")
        self.sql = sql
    }

    /// `PostgreSQL error 23505: message - while executing `SQL``, or `PostgreSQL: message` when
    /// there is no SQLSTATE.
    public var description: String {
        var text = sqlState.map { "PostgreSQL error \($0): " } ?? "PostgreSQL: "
        text += message
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }

    /// Whether a `UNIQUE` or primary-key constraint failed (SQLSTATE `23505`).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// Whether the transaction lost a race and may succeed when run again: a serialization failure
    /// (`40001`) or a deadlock (`40P01`).
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// Whether the connection cannot be used any more: a connection failure, a connection
    /// exception (class `08`) or the server shutting down (`57P01`-`57P03`).
    public var isConnectionFailure: Bool {
        if kind == .connection { return true }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
