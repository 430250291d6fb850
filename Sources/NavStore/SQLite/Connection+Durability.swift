internal import CSQLite

extension Connection {
    /// What a platform's `fsync(2)` does, which decides the pragmas that make `synchronous` keep
    /// its promise (``durabilityPragmas(_:fileSync:)``).
    package enum FileSync: Sendable, Equatable, CaseIterable {
        /// `fsync(2)` returns once the data is on the storage medium (Linux, on a drive that
        /// honours cache flushes): SQLite's ordinary syncs keep every promise of `synchronous`.
        case fsyncReachesStorage
        /// `fsync(2)` hands the data to the drive, which may keep it in its cache and write it
        /// later and in another order; only `fcntl(F_FULLFSYNC)` makes it write its cache
        /// (Apple platforms: fsync(2) and fcntl(2) manual pages; SQLite says so for
        /// `PRAGMA fullfsync`, https://sqlite.org/pragma.html#pragma_fullfsync).
        case needsFullFsync

        /// This platform's: ``needsFullFsync`` on Apple platforms, else ``fsyncReachesStorage``.
        /// The one decision made by the compiler; what it implies is
        /// ``durabilityPragmas(_:fileSync:)``'s, tested everywhere.
        package static var current: FileSync {
            #if canImport(Darwin)
                .needsFullFsync
            #else
                .fsyncReachesStorage
            #endif
        }
    }

    /// The statements, in order, that give `synchronous` its promise on a platform whose syncs
    /// are `fileSync` (WAL mode, https://sqlite.org/pragma.html#pragma_synchronous):
    ///
    /// | `synchronous` | promise | Linux | Apple platforms, also |
    /// |---|---|---|---|
    /// | `off` | none: a power loss can corrupt the file | `synchronous = off` | nothing (nothing is synced) |
    /// | `normal` | a power loss loses the last commits, never corrupts | `synchronous = normal` | `checkpoint_fullfsync = ON`: the checkpoint's syncs (the only ones) reach the medium |
    /// | `full`, `extra` | a commit survives a power loss once acknowledged | `synchronous = full` | `fullfsync = ON` (each commit's sync is `F_FULLFSYNC`) and `checkpoint_fullfsync = ON` |
    ///
    /// `checkpoint_fullfsync` is irrelevant once `fullfsync` is on
    /// (https://sqlite.org/pragma.html#pragma_checkpoint_fullfsync); it is set too so that both
    /// read as what they promise. SQLite ignores both where `F_FULLFSYNC` does not exist.
    /// - Parameters:
    ///   - synchronous: the level asked for.
    ///   - fileSync: the platform's kind of sync, ``FileSync/current`` for this one.
    /// - Returns: the `PRAGMA` statements to run on a new connection, outside a transaction.
    package static func durabilityPragmas(_ synchronous: Synchronous, fileSync: FileSync) -> [String] {
        let level = "PRAGMA synchronous = \(synchronous.rawValue)"
        guard fileSync == .needsFullFsync else { return [level] }
        switch synchronous {
        case .off: return [level]
        case .normal: return [level, "PRAGMA checkpoint_fullfsync = ON"]
        case .full, .extra: return [level, "PRAGMA fullfsync = ON", "PRAGMA checkpoint_fullfsync = ON"]
        }
    }

    /// Runs ``durabilityPragmas(_:fileSync:)`` on this connection.
    /// - Parameters:
    ///   - synchronous: the level asked for.
    ///   - fileSync: the platform's kind of sync; ``FileSync/current`` but in tests.
    /// - Throws: ``SQLiteError``.
    package func setDurability(_ synchronous: Synchronous, fileSync: FileSync = .current) throws(SQLiteError) {
        for sql in Self.durabilityPragmas(synchronous, fileSync: fileSync) { try execute(sql) }
    }

    /// Syncs the write-ahead log to storage as a commit at `synchronous = full` would
    /// (https://sqlite.org/pragma.html#pragma_synchronous): every transaction committed before it,
    /// by any connection, then survives a power loss. It is how a connection at
    /// `synchronous = normal`, whose commits are not synced, makes them durable at a moment of its
    /// choosing (the recorder's `flush()`, <doc:Recording>).
    ///
    /// SQLite's own file: `SQLITE_FCNTL_JOURNAL_POINTER` hands the log's `sqlite3_file`
    /// (https://sqlite.org/c3ref/c_fcntl_begin_atomic_write.html), whose `xSync` is the VFS's,
    /// with `SQLITE_SYNC_FULL` where ``FileSync/needsFullFsync`` (`F_FULLFSYNC` on Apple
    /// platforms) and `SQLITE_SYNC_NORMAL` (`fsync`) elsewhere. Does nothing when no log is open
    /// (not WAL mode, or nothing read yet).
    /// - Parameter fileSync: the platform's kind of sync; ``FileSync/current`` but in tests.
    /// - Returns: whether a log was synced.
    /// - Throws: ``SQLiteError`` when SQLite cannot hand the file or the sync fails (`SQLITE_IOERR_FSYNC`).
    @discardableResult
    package func syncWriteAheadLog(fileSync: FileSync = .current) throws(SQLiteError) -> Bool {
        let db = try db()
        var file: UnsafeMutablePointer<sqlite3_file>? = nil
        let code = sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file)
        guard code == SQLITE_OK else { throw SQLiteError(code: code, db: db, sql: nil) }
        guard let file, let methods = file.pointee.pMethods, let sync = methods.pointee.xSync else { return false }
        let result = sync(file, fileSync == .needsFullFsync ? SQLITE_SYNC_FULL : SQLITE_SYNC_NORMAL)
        guard result == SQLITE_OK else { throw SQLiteError(code: result, db: db, sql: nil) }
        return true
    }
}
