internal import CSQLite

/// An error reported by SQLite: its extended result code, its message, and the SQL that failed.
///
/// The error keeps SQLite's *extended* result code (for example `2067`,
/// `SQLITE_CONSTRAINT_UNIQUE`); ``resultCode`` is the primary code in its low 8 bits (`19`,
/// `SQLITE_CONSTRAINT`). See https://sqlite.org/rescode.html for the list of codes.
///
/// Its ``description`` reads like
/// `SQLite error 19 (extended 2067): UNIQUE constraint failed: t.x - while executing `INSERT INTO t VALUES (?)``.
/// Only the SQL text is kept, never the values bound to it (they can be personal data).
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite's extended result code (https://sqlite.org/rescode.html#extrc), for example `2067`
    /// (``ResultCode/constraintUnique``).
    public let extendedResultCode: ResultCode

    /// The primary result code: the low 8 bits of ``extendedResultCode``, for example `19`
    /// (``ResultCode/constraint``).
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// SQLite's English message, as returned by `sqlite3_errmsg` (https://sqlite.org/c3ref/errcode.html).
    public let message: String

    /// The SQL text being prepared or executed when the error happened, without bound values;
    /// `nil` when the error did not come from a statement (opening a file, for example).
    public let sql: String?

    /// Creates an error from its parts.
    ///
    /// - Parameters:
    ///   - extendedResultCode: SQLite's extended (or primary) result code.
    ///   - message: a human-readable message.
    ///   - sql: the SQL text involved, if any.
    package init(extendedResultCode: ResultCode, message: String, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// `SQLite error 19: message - while executing `SQL``; the extended code is added in
    /// parentheses (`SQLite error 19 (extended 2067): ...`) when it differs from the primary one.
    public var description: String {
        var text = "SQLite error \(resultCode.rawValue)"
        if extendedResultCode != resultCode {
            text += " (extended \(extendedResultCode.rawValue))"
        }
        text += ": \(message)"
        if let sql {
            text += " - while executing `\(sql)`"
        }
        return text
    }

    /// An SQLite result code, primary (`SQLITE_BUSY`, 5) or extended (`SQLITE_BUSY_RECOVERY`, 261):
    /// https://sqlite.org/rescode.html.
    ///
    /// Match errors with it as GRDB does: a primary code matches every extended code it is the low
    /// byte of, an extended code only itself.
    ///
    /// ```swift
    /// do { ... } catch SQLiteError.ResultCode.busy { ... }            // SQLITE_BUSY and its extended codes
    /// catch SQLiteError.ResultCode.constraintUnique { ... }            // only SQLITE_CONSTRAINT_UNIQUE
    /// ```
    public struct ResultCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral,
        CustomStringConvertible
    {
        /// The code's integer value, as in sqlite3.h.
        public let rawValue: Int32

        /// Wraps a code's integer value.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// An integer literal is the code with that value.
        public init(integerLiteral value: Int32) { self.rawValue = value }

        /// The primary code: the low 8 bits (itself for a primary code).
        public var primaryResultCode: ResultCode { ResultCode(rawValue: rawValue & 0xff) }

        /// The integer value.
        public var description: String { "\(rawValue)" }

        /// Whether `code` is `pattern` or, for a primary `pattern`, one of its extended codes.
        public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
            pattern == pattern.primaryResultCode ? pattern == code.primaryResultCode : pattern == code
        }

        /// Whether `error` is an ``SQLiteError`` whose extended code `pattern` matches.
        public static func ~= (pattern: ResultCode, error: SQLiteError) -> Bool {
            pattern ~= error.extendedResultCode
        }

        /// Whether `error` is an ``SQLiteError`` whose extended code `pattern` matches.
        public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
            guard let error = error as? SQLiteError else { return false }
            return pattern ~= error.extendedResultCode
        }

        /// `SQLITE_OK` (0).
        public static let ok = ResultCode(rawValue: SQLITE_OK)
        /// `SQLITE_ERROR` (1): generic error, for example an SQL syntax error.
        public static let error = ResultCode(rawValue: SQLITE_ERROR)
        /// `SQLITE_BUSY` (5): the database file is locked by another connection.
        public static let busy = ResultCode(rawValue: SQLITE_BUSY)
        /// `SQLITE_LOCKED` (6): a table is locked by the same connection or a shared cache.
        public static let locked = ResultCode(rawValue: SQLITE_LOCKED)
        /// `SQLITE_READONLY` (8): attempt to write a read-only database.
        public static let readOnly = ResultCode(rawValue: SQLITE_READONLY)
        /// `SQLITE_IOERR` (10): an operating-system I/O error.
        public static let ioError = ResultCode(rawValue: SQLITE_IOERR)
        /// `SQLITE_CORRUPT` (11): the database file is malformed.
        public static let corrupt = ResultCode(rawValue: SQLITE_CORRUPT)
        /// `SQLITE_FULL` (13): the disk is full.
        public static let full = ResultCode(rawValue: SQLITE_FULL)
        /// `SQLITE_CANTOPEN` (14): the file could not be opened.
        public static let cantOpen = ResultCode(rawValue: SQLITE_CANTOPEN)
        /// `SQLITE_CONSTRAINT` (19): a constraint failed.
        public static let constraint = ResultCode(rawValue: SQLITE_CONSTRAINT)
        /// `SQLITE_MISMATCH` (20): a datatype mismatch (for example in a `STRICT` table).
        public static let mismatch = ResultCode(rawValue: SQLITE_MISMATCH)
        /// `SQLITE_MISUSE` (21): the library was used incorrectly (also used by this wrapper for
        /// programming errors such as a closed connection, an invalid pragma name, or a write
        /// inside a read transaction).
        public static let misuse = ResultCode(rawValue: SQLITE_MISUSE)
        /// `SQLITE_RANGE` (25): a parameter index out of range.
        public static let range = ResultCode(rawValue: SQLITE_RANGE)
        /// `SQLITE_NOTADB` (26): the file is not a database.
        public static let notADatabase = ResultCode(rawValue: SQLITE_NOTADB)

        // Extended codes are `primary | (n << 8)` macros that Swift cannot import; the values are
        // spelled as in sqlite3.h (https://sqlite.org/rescode.html#extrc).

        /// `SQLITE_IOERR_SHMSIZE` (4874): the `-shm` index of a WAL database could not be
        /// extended, which every connection, readers included, needs: usually a full disk.
        public static let ioErrorShmSize = ResultCode(rawValue: SQLITE_IOERR | (19 << 8))
        /// `SQLITE_CONSTRAINT_CHECK` (275): a `CHECK` constraint failed.
        public static let constraintCheck = ResultCode(rawValue: SQLITE_CONSTRAINT | (1 << 8))
        /// `SQLITE_CONSTRAINT_FOREIGNKEY` (787): a foreign key constraint failed.
        public static let constraintForeignKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (3 << 8))
        /// `SQLITE_CONSTRAINT_NOTNULL` (1299): a `NOT NULL` constraint failed.
        public static let constraintNotNull = ResultCode(rawValue: SQLITE_CONSTRAINT | (5 << 8))
        /// `SQLITE_CONSTRAINT_PRIMARYKEY` (1555): a `PRIMARY KEY` constraint failed.
        public static let constraintPrimaryKey = ResultCode(rawValue: SQLITE_CONSTRAINT | (6 << 8))
        /// `SQLITE_CONSTRAINT_TRIGGER` (1811): a trigger's `RAISE(ABORT, ...)`.
        public static let constraintTrigger = ResultCode(rawValue: SQLITE_CONSTRAINT | (7 << 8))
        /// `SQLITE_CONSTRAINT_UNIQUE` (2067): a `UNIQUE` constraint failed.
        public static let constraintUnique = ResultCode(rawValue: SQLITE_CONSTRAINT | (8 << 8))
    }
}

extension SQLiteError: DatabaseBackendError {
    /// What the error means to the store: `SQLITE_BUSY`/`SQLITE_LOCKED` are
    /// ``DatabaseErrorCategory/busy``, `SQLITE_FULL` and `SQLITE_IOERR_SHMSIZE`
    /// ``DatabaseErrorCategory/diskFull``, `SQLITE_CONSTRAINT_UNIQUE` and
    /// `SQLITE_CONSTRAINT_PRIMARYKEY` ``DatabaseErrorCategory/uniqueViolation(detail:)`` with
    /// SQLite's message (`UNIQUE constraint failed: events.event_id`), and so on.
    package var category: DatabaseErrorCategory {
        switch extendedResultCode {
        case ResultCode.busy, ResultCode.locked: .busy
        case ResultCode.readOnly: .readOnly
        case ResultCode.full, ResultCode.ioErrorShmSize: .diskFull
        case ResultCode.corrupt: .corrupt
        case ResultCode.notADatabase: .notADatabase
        case ResultCode.cantOpen: .cannotOpen
        case ResultCode.constraintUnique, ResultCode.constraintPrimaryKey: .uniqueViolation(detail: message)
        default: .other
        }
    }

    /// ``DatabaseCause/sqlite(_:)`` with this error.
    package var databaseCause: DatabaseCause { .sqlite(self) }
}

extension SQLiteError {
    /// The error SQLite last reported on `db` for `code`, with `sql`.
    ///
    /// Uses `sqlite3_errmsg` when a handle exists, `sqlite3_errstr(code)` otherwise
    /// (https://sqlite.org/c3ref/errcode.html).
    package init(code: Int32, db: OpaquePointer?, sql: String?) {
        let message: String
        if let db, let cMessage = sqlite3_errmsg(db) {
            message = String(cString: cMessage)
        } else if let cMessage = sqlite3_errstr(code) {
            message = String(cString: cMessage)
        } else {
            message = "unknown error"
        }
        self.init(extendedResultCode: ResultCode(rawValue: code), message: message, sql: sql)
    }

    /// A wrapper-level misuse (closed connection, bad pragma name...), reported as `SQLITE_MISUSE`.
    package static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedResultCode: .misuse, message: message, sql: sql)
    }
}
