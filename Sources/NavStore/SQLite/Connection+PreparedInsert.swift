internal import CSQLite

extension Connection {
    /// A statement of its own, prepared once with `SQLITE_PREPARE_PERSISTENT`
    /// (https://sqlite.org/c3ref/c_prepare_normalize.html) and kept by the caller; the key is the
    /// rowid it inserted (`sqlite3_last_insert_rowid`), as in ``insert(sql:arguments:returning:)``.
    /// - Throws: ``SQLiteError`` when `sql` does not compile.
    package func preparedInsert(sql: String, returning key: String) throws -> any DatabaseInsert {
        SQLiteInsert(connection: self, statement: try prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT)))
    }
}

/// ``DatabaseInsert`` on one prepared SQLite statement: arguments bound straight into it, text
/// given as bytes bound without a copy (`SQLITE_STATIC`) and let go of after each run.
final class SQLiteInsert: DatabaseInsert {
    private unowned let connection: Connection
    private let statement: Statement
    /// The placeholders bound to borrowed bytes since the last run, bound to `NULL` after it:
    /// bit `i` for placeholder `i` (1...63), a short list for any beyond. A bit mask, not an
    /// array: the array's append and emptying cost a few hundred instructions per event.
    private var borrowed: UInt64 = 0
    private var borrowedBeyond63: [Int32] = []

    init(connection: Connection, statement: Statement) {
        self.connection = connection
        self.statement = statement
    }

    func bind(integer: Int64, at index: Int32) {
        statement.bind(.integer(integer), at: index)
    }

    func bind(text: String, at index: Int32) {
        statement.bind(.text(text), at: index)
    }

    func bind(utf8: UnsafeBufferPointer<UInt8>, at index: Int32) {
        statement.bind(borrowedUTF8: utf8, at: index)
        if index < 64 {
            borrowed |= 1 << UInt64(index)
        } else {
            borrowedBeyond63.append(index)
        }
    }

    /// Steps the statement to its end and resets it; inside a read transaction it is refused, as
    /// every write is (``Connection/inTransaction(_:_:)``).
    /// - Throws: ``SQLiteError``.
    func run() throws -> Int64? {
        defer {
            statement.reset()
            var mask = borrowed
            while mask != 0 {
                statement.bind(.null, at: Int32(mask.trailingZeroBitCount))
                mask &= mask - 1
            }
            borrowed = 0
            if !borrowedBeyond63.isEmpty {
                for index in borrowedBeyond63 { statement.bind(.null, at: index) }
                borrowedBeyond63.removeAll(keepingCapacity: true)
            }
        }
        // One strong reference for the run: each use of an `unowned` property takes its own.
        let connection = self.connection
        if connection.isReadTransaction {
            throw SQLiteError.misuse("a read transaction cannot write", sql: statement.sql)
        }
        while try statement.step() {}
        return connection.changes == 0 ? nil : connection.lastInsertRowID
    }
}
