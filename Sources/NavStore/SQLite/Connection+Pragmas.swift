internal import CSQLite

/// The connection's configuration steps and pragmas, each a small named call
/// (https://sqlite.org/pragma.html).
extension Connection {
    // MARK: Configuration steps

    /// Turns on foreign key enforcement (https://sqlite.org/foreignkeys.html#fk_enable), as
    /// `PRAGMA foreign_keys = ON` does, through `sqlite3_db_config(SQLITE_DBCONFIG_ENABLE_FKEY)`,
    /// which reports the setting it leaves without a statement to compile and step
    /// (https://sqlite.org/c3ref/c_dbconfig_defensive.html#sqlitedbconfigenablefkey).
    ///
    /// - Throws: ``SQLiteError``; `SQLITE_MISUSE` inside a transaction (where the pragma does not
    ///   change the setting) or if the setting did not take.
    package func enableForeignKeys() throws(SQLiteError) {
        let sql = "PRAGMA foreign_keys = ON"
        let db = try db(sql: sql)
        guard sqlite3_get_autocommit(db) != 0 else {
            throw .misuse("foreign_keys could not be enabled (inside a transaction?)", sql: sql)
        }
        var enabled: Int32 = 0
        let code = navstore_sqlite3_db_config_enable_fkey(db, 1, &enabled)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, db: db, sql: sql) }
        guard enabled == 1 else {
            throw .misuse("foreign_keys could not be enabled (inside a transaction?)", sql: sql)
        }
    }

    /// Makes SQLite overwrite deleted content with zeros (`PRAGMA secure_delete = ON`,
    /// https://sqlite.org/pragma.html#pragma_secure_delete): deleted rows, and pages moved to the
    /// freelist, keep no old bytes. Debian's SQLite has it on by default, Apple's does not. The
    /// pragma answers with the setting it leaves, read from the same statement.
    ///
    /// - Throws: ``SQLiteError``; `SQLITE_MISUSE` if the setting did not take.
    package func enableSecureDelete() throws(SQLiteError) {
        let sql = "PRAGMA secure_delete = ON"
        let statement = try prepare(sql)
        defer { statement.reset() }
        guard try statement.step(), statement.int64(at: 0) == 1 else {
            throw .misuse("secure_delete could not be enabled", sql: sql)
        }
    }

    /// Sets how long a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY`, trying again every millisecond meanwhile (a busy handler,
    /// https://sqlite.org/c3ref/busy_handler.html, in place of `sqlite3_busy_timeout`'s).
    ///
    /// SQLite's own handler waits 1, 2, 5, 10, ... then 100 ms between tries
    /// (https://sqlite.org/c3ref/busy_timeout.html), and its lock is not fair: a writer that
    /// commits often and leaves the lock free for a few milliseconds between its transactions
    /// (a ``NavigationRecorder``'s writer) kept such a waiter out past its whole timeout. Trying
    /// every millisecond, a waiter finds every gap of 2 ms or more. Like SQLite's handler, the wait
    /// is counted in the sleeps made (one per try), so a loaded machine waits somewhat longer.
    ///
    /// - Parameter milliseconds: the timeout in milliseconds (clamped to `0...Int32.max`);
    ///   0 turns waiting off.
    /// - Throws: ``SQLiteError`` if the connection is closed.
    package func setBusyTimeout(milliseconds: Int) throws(SQLiteError) {
        let clamped = Int32(clamping: max(0, milliseconds))
        let db = try db()
        // The timeout travels as the context pointer's value: no memory to outlive the handle.
        let code =
            clamped == 0
            ? sqlite3_busy_handler(db, nil, nil)
            : sqlite3_busy_handler(db, retryEveryMillisecond, UnsafeMutableRawPointer(bitPattern: Int(clamped)))
        guard code == SQLITE_OK else { throw SQLiteError(code: code, db: db, sql: nil) }
    }

    /// Switches the database to write-ahead logging (`PRAGMA journal_mode = WAL`,
    /// https://sqlite.org/wal.html). The setting is persistent: it is stored in the file.
    ///
    /// - Throws: ``SQLiteError``; `SQLITE_ERROR` when SQLite answers with another mode (for
    ///   example `memory` for an in-memory database), `SQLITE_BUSY` if another connection is using
    ///   the file in rollback mode.
    package func setJournalModeWAL() throws(SQLiteError) {
        let sql = "PRAGMA journal_mode = WAL"
        let statement = try prepare(sql)
        defer { statement.reset() }
        let mode = try statement.step() ? statement.string(at: 0) : nil
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(
                extendedResultCode: .error,
                message: "journal_mode is \(mode ?? "unknown"), not wal",
                sql: sql)
        }
    }

    /// Turns off SQLite's memory statistics for the whole process (`SQLITE_CONFIG_MEMSTATUS`,
    /// https://sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus).
    /// - Returns: whether the setting took: `false` once SQLite is initialized (the first
    ///   connection opened in the process initializes it), when it stays as it was.
    package static func disableMemoryStatistics() -> Bool {
        navstore_sqlite3_config_memstatus(0) == SQLITE_OK
    }

    // MARK: Pragmas (https://sqlite.org/pragma.html)

    /// `PRAGMA user_version`: the schema version, an integer stored in the file header (0 in a new file).
    ///
    /// - Throws: ``SQLiteError``, `SQLITE_NOTADB` when the file is not a database.
    package var userVersion: Int32 {
        get throws(SQLiteError) { try pragmaInt32("user_version") }
    }

    /// Sets `PRAGMA user_version` (written in the file header, transactional).
    ///
    /// - Throws: ``SQLiteError``.
    package func setUserVersion(_ version: Int32) throws(SQLiteError) {
        try execute("PRAGMA user_version = \(version)")
    }

    /// `PRAGMA application_id`: the integer in the file header that identifies the application
    /// owning the file (0 in a new file; https://sqlite.org/pragma.html#pragma_application_id).
    ///
    /// - Throws: ``SQLiteError``, `SQLITE_NOTADB` when the file is not a database.
    package var applicationID: Int32 {
        get throws(SQLiteError) { try pragmaInt32("application_id") }
    }

    /// Sets `PRAGMA application_id` (written in the file header, transactional).
    ///
    /// - Throws: ``SQLiteError``.
    package func setApplicationID(_ id: Int32) throws(SQLiteError) {
        try execute("PRAGMA application_id = \(id)")
    }

    /// Reads a pragma's first value as text: `PRAGMA <name>`, for example `journal_mode` (`"wal"`)
    /// or `synchronous` (`"1"` for normal).
    ///
    /// - Parameter name: the pragma's name, letters and underscores only (it cannot be bound).
    /// - Returns: the first column of the first row, or `nil` when there is no row or it is `NULL`.
    /// - Throws: ``SQLiteError``; `SQLITE_MISUSE` for an invalid name.
    package func pragmaText(_ name: String) throws(SQLiteError) -> String? {
        let isIdentifier =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || byte == UInt8(ascii: "_")
            }
        guard isIdentifier else {
            throw .misuse("invalid pragma name (letters and underscores only)", sql: nil)
        }
        let statement = try prepare("PRAGMA \(name)")
        defer { statement.reset() }
        return try statement.step() ? statement.string(at: 0) : nil
    }

    private func pragmaInt32(_ name: String) throws(SQLiteError) -> Int32 {
        let statement = try prepare("PRAGMA \(name)")
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return Int32(truncatingIfNeeded: statement.int64(at: 0))
    }

    /// Copies the WAL's frames back into the database file (`sqlite3_wal_checkpoint_v2`,
    /// https://sqlite.org/c3ref/wal_checkpoint_v2.html). Does nothing outside WAL mode.
    ///
    /// - Parameter mode: ``CheckpointMode/passive`` or ``CheckpointMode/truncate``.
    /// - Returns: the WAL's size in frames and how many of them are now checkpointed (both -1
    ///   when the database is not in WAL mode).
    /// - Throws: ``SQLiteError``; `SQLITE_BUSY` when a truncate checkpoint could not finish.
    @discardableResult
    package func checkpoint(mode: CheckpointMode = .passive) throws(SQLiteError) -> (
        walFrames: Int, checkpointedFrames: Int
    ) {
        let db = try db()
        var walFrames: Int32 = 0
        var checkpointed: Int32 = 0
        let cMode =
            switch mode {
            case .passive: SQLITE_CHECKPOINT_PASSIVE
            case .truncate: SQLITE_CHECKPOINT_TRUNCATE
            }
        let code = sqlite3_wal_checkpoint_v2(db, nil, cMode, &walFrames, &checkpointed)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, db: db, sql: nil) }
        return (Int(walFrames), Int(checkpointed))
    }

    /// Runs `PRAGMA integrity_check` (https://sqlite.org/pragma.html#pragma_integrity_check).
    ///
    /// - Returns: `["ok"]` when the database is sound, otherwise one line per problem found
    ///   (at most 100).
    /// - Complexity: reads the whole database.
    /// - Throws: ``SQLiteError``, for example `SQLITE_NOTADB` or `SQLITE_CORRUPT`.
    package func integrityCheck() throws(SQLiteError) -> [String] {
        let statement = try prepare("PRAGMA integrity_check")
        defer { statement.reset() }
        var lines: [String] = []
        while try statement.step() {
            lines.append(statement.string(at: 0) ?? "")
        }
        return lines
    }
}

/// The busy handler of ``Connection/setBusyTimeout(milliseconds:)``: sleeps a millisecond and asks
/// SQLite to try again, until it has slept the timeout (the context pointer's value, in ms).
/// `count` is how many times it was called for this lock (https://sqlite.org/c3ref/busy_handler.html).
private let retryEveryMillisecond: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, count in
    guard Int(bitPattern: context) > Int(count) else { return 0 }
    usleep(1_000)
    return 1
}
