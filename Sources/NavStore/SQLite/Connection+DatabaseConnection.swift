/// The SQLite connection as the store's ``DatabaseConnection``: cached statements, bound
/// arguments, typed rows, and read transactions that refuse to write.
extension Connection: DatabaseConnection {
    /// ``SQLDialect/sqlite``.
    package var dialect: SQLDialect { .sqlite }

    /// The connection itself: SQLite has an integrity check, secure deletion, `VACUUM` and WAL
    /// checkpoints.
    package var maintenance: (any DatabaseMaintenance)? { self }

    /// Runs `body` with the cached statement for `sql`, `arguments` bound in order, then resets it
    /// (whatever `body` did). Inside a read transaction, a statement that would write is refused.
    /// - Throws: ``SQLiteError``: `SQLITE_MISUSE` for a write inside a read transaction, or what
    ///   preparing or `body` throws.
    private func withStatement<R>(
        sql: String, arguments: [SQLValue], _ body: (Statement) throws -> R
    ) throws -> R {
        let statement = try cachedStatement(sql)
        if isReadTransaction, !statement.isReadOnly {
            throw SQLiteError.misuse("a read transaction cannot write", sql: sql)
        }
        statement.bind(arguments)
        statement.inUse = true
        defer {
            statement.reset()
            statement.inUse = false
        }
        return try body(statement)
    }

    /// Runs one statement to its end (https://sqlite.org/c3ref/step.html), its rows ignored.
    /// - Returns: the rows it changed (`sqlite3_changes64`, https://sqlite.org/c3ref/changes.html).
    /// - Throws: ``SQLiteError``.
    @discardableResult
    package func execute(sql: String, arguments: [SQLValue]) throws -> Int {
        try withStatement(sql: sql, arguments: arguments) { statement in
            while try statement.step() {}
            return changes
        }
    }

    /// Runs the `INSERT`; the key is the rowid it inserted (`sqlite3_last_insert_rowid`,
    /// https://sqlite.org/c3ref/last_insert_rowid.html; `key` must be the table's `INTEGER PRIMARY
    /// KEY`), or `nil` when it changed no row. No `RETURNING`: SQLite builds its rows in a
    /// temporary table, which made every append measurably slower.
    package func insert(sql: String, arguments: [SQLValue], returning key: String) throws -> Int64? {
        try execute(sql: sql, arguments: arguments) == 0 ? nil : lastInsertRowID
    }

    /// The first row, copied out of the statement, or `nil`.
    /// - Throws: ``SQLiteError``.
    package func fetchOne(sql: String, arguments: [SQLValue]) throws -> Row? {
        try withStatement(sql: sql, arguments: arguments) { statement in
            try statement.step() ? Row(statement: statement).copied() : nil
        }
    }

    /// Every row, copied out of the statement.
    /// - Throws: ``SQLiteError``.
    package func fetchAll(sql: String, arguments: [SQLValue]) throws -> [Row] {
        try withStatement(sql: sql, arguments: arguments) { statement in
            var rows: [Row] = []
            while try statement.step() { rows.append(Row(statement: statement).copied()) }
            return rows
        }
    }

    /// Each row as a view on the running statement (no copy), valid only during `body`.
    /// - Throws: ``SQLiteError``, or what `body` throws.
    package func forEachRow(sql: String, arguments: [SQLValue], _ body: (Row) throws -> Void) throws {
        try withStatement(sql: sql, arguments: arguments) { statement in
            while try statement.step() { try body(Row(statement: statement)) }
        }
    }

    /// A ``DatabaseTransactionKind/read`` is `BEGIN DEFERRED` with writes refused statement by
    /// statement; a ``DatabaseTransactionKind/write`` is `BEGIN IMMEDIATE`, which takes the
    /// database's write lock at once, waiting up to the busy timeout
    /// (https://sqlite.org/lang_transaction.html).
    /// - Throws: ``SQLiteError`` (`SQLITE_BUSY` when the lock stays taken), or what `body` throws.
    package func inTransaction<R>(_ kind: DatabaseTransactionKind, _ body: () throws -> R) throws -> R {
        switch kind {
        case .write:
            return try transaction(.immediate, body)
        case .read:
            isReadTransaction = true
            defer { isReadTransaction = false }
            return try transaction(.deferred, body)
        }
    }
}

/// SQLite's maintenance steps, for ``StoreCore``'s checks and retention commands.
extension Connection: DatabaseMaintenance {
    /// `VACUUM` (https://sqlite.org/lang_vacuum.html).
    package func vacuum() throws {
        try execute("VACUUM")
    }

    /// The sizes of the file and its -wal (`stat`; a missing -wal counts 0), ``StorageChange/Measured/sqliteFile``;
    /// `nil` when the file itself cannot be `stat`ed.
    package func storageSize() throws -> (bytes: Int64, measured: StorageChange.Measured)? {
        var file = stat()
        guard stat(path, &file) == 0 else { return nil }
        var wal = stat()
        let walBytes = stat(path + "-wal", &wal) == 0 ? Int64(wal.st_size) : 0
        return (Int64(file.st_size) + walBytes, .sqliteFile)
    }

    /// Syncs the write-ahead log (``syncWriteAheadLog(fileSync:)``).
    package func makeCommitsDurable() throws {
        try syncWriteAheadLog()
    }

    /// ``scrubFreeSpace(busyTimeoutMilliseconds:)-(Int)`` on a connection of its own, then a
    /// `TRUNCATE` checkpoint of the one page it changed through SQLite; `false` when the log was
    /// not empty or could not be emptied again, or when the pass failed (the file cannot be
    /// opened again, for one: it was removed or moved while open). It never throws: it runs after
    /// the deletion committed, and a deletion that committed does not report an error.
    package func scrubFreeSpace(busyTimeoutMilliseconds: Int) throws -> Bool {
        do {
            guard try scrubFreeSpace(busyTimeoutMilliseconds: busyTimeoutMilliseconds) as ScrubCount? != nil else {
                return false
            }
            return try truncateWriteAheadLog()
        } catch {
            return false
        }
    }

    /// A `TRUNCATE` checkpoint; `SQLITE_BUSY` (a reader holds the log) is `false`, not an error.
    package func truncateWriteAheadLog() throws -> Bool {
        let frames: (walFrames: Int, checkpointedFrames: Int)
        do {
            frames = try checkpoint(mode: .truncate)
        } catch {
            guard error.category == .busy else { throw error }
            return false
        }
        return frames.walFrames == 0 || frames.walFrames == frames.checkpointedFrames
    }
}
