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
/// given as bytes bound without a copy (`SQLITE_STATIC`).
///
/// Borrowed bytes are not unbound after each run (three `sqlite3_bind_null` calls per event on
/// the append path): SQLite reads a bound value only when the statement is stepped, so a run
/// binds `NULL` first to each placeholder that still holds bytes borrowed for an earlier run and
/// was not bound again since. Finalizing or resetting a statement never reads its bound text.
package final class SQLiteInsert: DatabaseInsert {
    private unowned let connection: Connection
    private let statement: Statement
    /// Placeholders bound since the last run (any value): bit `i` for placeholder `i` (1...63).
    private var bound: UInt64 = 0
    /// Placeholders bound to borrowed bytes since the last run.
    private var borrowed: UInt64 = 0
    /// Placeholders that held borrowed bytes when the last run returned: their bytes may be gone.
    private var dangling: UInt64 = 0
    /// Placeholders beyond 63 bound to borrowed bytes, bound to `NULL` right after the run.
    private var borrowedBeyond63: [Int32] = []

    package init(connection: Connection, statement: Statement) {
        self.connection = connection
        self.statement = statement
    }

    package func bind(integer: Int64, at index: Int32) {
        statement.bind(.integer(integer), at: index)
        mark(index)
    }

    package func bind(text: String, at index: Int32) {
        statement.bind(.text(text), at: index)
        mark(index)
    }

    package func bind(utf8: UnsafeBufferPointer<UInt8>, at index: Int32) {
        statement.bind(borrowedUTF8: utf8, at: index)
        if index < 64 {
            borrowed |= 1 << UInt64(index)
            bound |= 1 << UInt64(index)
        } else {
            borrowedBeyond63.append(index)
        }
    }

    @inline(__always)
    private func mark(_ index: Int32) {
        if index < 64 { bound |= 1 << UInt64(index) }
    }

    /// Steps the statement to its end and resets it; inside a read transaction it is refused, as
    /// every write is (``Connection/inTransaction(_:_:)``).
    /// - Throws: ``SQLiteError``.
    package func run() throws -> Int64? {
        // Bytes borrowed for an earlier run and not bound again: never read, `NULL` instead.
        var stale = dangling & ~bound
        while stale != 0 {
            statement.bind(.null, at: Int32(stale.trailingZeroBitCount))
            stale &= stale - 1
        }
        defer {
            statement.reset()
            dangling = borrowed
            borrowed = 0
            bound = 0
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
