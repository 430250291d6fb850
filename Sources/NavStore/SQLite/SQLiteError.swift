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
    /// SQLite's extended result code (https://sqlite.org/rescode.html#extrc), for example `2067`.
    public let extendedResultCode: Int32

    /// The primary result code: the low 8 bits of ``extendedResultCode``, for example `19`.
    public var resultCode: Int32 { extendedResultCode & 0xff }

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
    package init(extendedResultCode: Int32, message: String, sql: String? = nil) {
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// `SQLite error 19: message - while executing `SQL``; the extended code is added in
    /// parentheses (`SQLite error 19 (extended 2067): ...`) when it differs from the primary one.
    public var description: String {
        var text = "SQLite error \(resultCode)"
        if extendedResultCode != resultCode {
            text += " (extended \(extendedResultCode))"
        }
        text += ": \(message)"
        if let sql {
            text += " - while executing `\(sql)`"
        }
        return text
    }

    /// Whether the database was busy or locked (`SQLITE_BUSY`, `SQLITE_LOCKED`):
    /// another connection holds a conflicting lock and `busy_timeout` expired.
    public var isBusy: Bool { resultCode == Code.busy || resultCode == Code.locked }

    /// Whether a constraint failed (`SQLITE_CONSTRAINT`: UNIQUE, CHECK, NOT NULL, FOREIGN KEY,
    /// or a trigger's `RAISE(ABORT, ...)`).
    public var isConstraint: Bool { resultCode == Code.constraint }

    /// Whether the file is not an SQLite database (`SQLITE_NOTADB`).
    public var isNotADatabase: Bool { resultCode == Code.notADatabase }

    /// Whether the database file is malformed (`SQLITE_CORRUPT`).
    public var isCorrupt: Bool { resultCode == Code.corrupt }

    /// Whether a write was attempted on a read-only database (`SQLITE_READONLY`).
    public var isReadOnly: Bool { resultCode == Code.readOnly }

    /// Whether the database file could not be opened or created (`SQLITE_CANTOPEN`).
    public var isCantOpen: Bool { resultCode == Code.cantOpen }

    /// Whether the disk (or the database's size limit) is full (`SQLITE_FULL`).
    public var isFull: Bool { resultCode == Code.full }

    /// SQLite result codes as plain integers, so callers never need the C macros.
    ///
    /// Primary codes are compared with ``SQLiteError/resultCode``, extended codes with
    /// ``SQLiteError/extendedResultCode``. See https://sqlite.org/rescode.html.
    public enum Code {
        /// `SQLITE_ERROR` (1): generic error, for example an SQL syntax error.
        public static let error: Int32 = SQLITE_ERROR
        /// `SQLITE_BUSY` (5): the database file is locked by another connection.
        public static let busy: Int32 = SQLITE_BUSY
        /// `SQLITE_LOCKED` (6): a table is locked by the same connection or a shared cache.
        public static let locked: Int32 = SQLITE_LOCKED
        /// `SQLITE_READONLY` (8): attempt to write a read-only database.
        public static let readOnly: Int32 = SQLITE_READONLY
        /// `SQLITE_IOERR` (10): an operating-system I/O error.
        public static let ioError: Int32 = SQLITE_IOERR
        /// `SQLITE_CORRUPT` (11): the database file is malformed.
        public static let corrupt: Int32 = SQLITE_CORRUPT
        /// `SQLITE_FULL` (13): the disk is full.
        public static let full: Int32 = SQLITE_FULL
        /// `SQLITE_CANTOPEN` (14): the file could not be opened.
        public static let cantOpen: Int32 = SQLITE_CANTOPEN
        /// `SQLITE_CONSTRAINT` (19): a constraint failed.
        public static let constraint: Int32 = SQLITE_CONSTRAINT
        /// `SQLITE_MISMATCH` (20): a datatype mismatch (for example in a `STRICT` table).
        public static let mismatch: Int32 = SQLITE_MISMATCH
        /// `SQLITE_MISUSE` (21): the library was used incorrectly (also used by this wrapper for
        /// programming errors such as a closed connection or an invalid pragma name).
        public static let misuse: Int32 = SQLITE_MISUSE
        /// `SQLITE_RANGE` (25): a parameter index out of range.
        public static let range: Int32 = SQLITE_RANGE
        /// `SQLITE_NOTADB` (26): the file is not a database.
        public static let notADatabase: Int32 = SQLITE_NOTADB

        // Extended codes are `primary | (n << 8)` macros that Swift cannot import; the values are
        // spelled as in sqlite3.h (https://sqlite.org/rescode.html#extrc).

        /// `SQLITE_IOERR_SHMSIZE` (4874): the `-shm` index of a WAL database could not be
        /// extended, which every connection, readers included, needs: usually a full disk.
        public static let ioErrorShmSize: Int32 = SQLITE_IOERR | (19 << 8)
        /// `SQLITE_CONSTRAINT_CHECK` (275): a `CHECK` constraint failed.
        public static let constraintCheck: Int32 = SQLITE_CONSTRAINT | (1 << 8)
        /// `SQLITE_CONSTRAINT_FOREIGNKEY` (787): a foreign key constraint failed.
        public static let constraintForeignKey: Int32 = SQLITE_CONSTRAINT | (3 << 8)
        /// `SQLITE_CONSTRAINT_NOTNULL` (1299): a `NOT NULL` constraint failed.
        public static let constraintNotNull: Int32 = SQLITE_CONSTRAINT | (5 << 8)
        /// `SQLITE_CONSTRAINT_PRIMARYKEY` (1555): a `PRIMARY KEY` constraint failed.
        public static let constraintPrimaryKey: Int32 = SQLITE_CONSTRAINT | (6 << 8)
        /// `SQLITE_CONSTRAINT_TRIGGER` (1811): a trigger's `RAISE(ABORT, ...)`.
        public static let constraintTrigger: Int32 = SQLITE_CONSTRAINT | (7 << 8)
        /// `SQLITE_CONSTRAINT_UNIQUE` (2067): a `UNIQUE` constraint failed.
        public static let constraintUnique: Int32 = SQLITE_CONSTRAINT | (8 << 8)
    }
}

extension SQLiteError {
    /// The error SQLite last reported on `db` for `code`, with `sql`.
    ///
    /// Uses `sqlite3_errmsg` when a handle exists, `sqlite3_errstr(code)` otherwise
    /// (https://sqlite.org/c3ref/errcode.html).
    init(code: Int32, db: OpaquePointer?, sql: String?) {
        let message: String
        if let db, let cMessage = sqlite3_errmsg(db) {
            message = String(cString: cMessage)
        } else if let cMessage = sqlite3_errstr(code) {
            message = String(cString: cMessage)
        } else {
            message = "unknown error"
        }
        self.init(extendedResultCode: code, message: message, sql: sql)
    }

    /// A wrapper-level misuse (closed connection, bad pragma name...), reported as `SQLITE_MISUSE`.
    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedResultCode: SQLITE_MISUSE, message: message, sql: sql)
    }
}
