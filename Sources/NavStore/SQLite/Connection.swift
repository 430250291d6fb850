internal import CSQLite

/// One connection to an SQLite database file (https://sqlite.org/c3ref/sqlite3.html).
///
/// Opened with `SQLITE_OPEN_NOMUTEX` (no locking of its own), so it is not `Sendable`: share it
/// only behind a lock, as ``NavigationStore`` does (its connection lives in a `Lock`). Opening does not change the file; configuration is done by
/// small named steps the caller runs in its chosen order (``enableForeignKeys()``,
/// ``setBusyTimeout(milliseconds:)``, ``setJournalModeWAL()``, ``setDurability(_:fileSync:)``), so that a
/// foreign file can be inspected before anything touches it.
package final class Connection {
    /// How a file is opened (https://sqlite.org/c3ref/open.html).
    package enum OpenMode: Sendable {
        /// Read and write an existing file (`SQLITE_OPEN_READWRITE`); fails if it does not exist.
        case readWrite
        /// Read and write, creating the file (owner-only, mode 0600) if it does not exist.
        case readWriteCreate
        /// Read only (`SQLITE_OPEN_READONLY`); fails if the file does not exist.
        case readOnly
        /// Read only, declaring the file unchangeable (the `immutable=1` URI parameter,
        /// https://sqlite.org/uri.html#uriimmutable): SQLite takes no locks and never looks for or
        /// creates `-wal` and `-shm` files. Only for a file on storage nobody can write (a
        /// read-only directory or mount) that has no `-wal` file beside it, so that the file alone
        /// holds every committed transaction.
        case readOnlyImmutable
    }

    /// The kind of transaction `BEGIN` starts (https://sqlite.org/lang_transaction.html).
    package enum TransactionKind: Sendable {
        /// Takes locks on first read or write.
        case deferred
        /// Takes the write lock at `BEGIN` (waits for it up to the busy timeout): writers use this.
        case immediate
    }

    /// The `synchronous` setting (https://sqlite.org/pragma.html#pragma_synchronous).
    package enum Synchronous: String, Sendable {
        /// No syncs: a power loss can corrupt the database.
        case off
        /// In WAL mode, a power loss can lose the last commits but not corrupt the database.
        case normal
        /// In WAL mode, syncs the WAL at every commit: commits are durable.
        case full
        /// Like full, and also syncs the directory after deleting a rollback journal.
        case extra
    }

    /// The checkpoint modes offered by ``checkpoint(mode:)`` (https://sqlite.org/c3ref/wal_checkpoint_v2.html).
    package enum CheckpointMode: Sendable {
        /// Copies as many frames as possible without waiting for readers or writers.
        case passive
        /// Waits for readers and writers, copies everything and truncates the WAL file to 0 bytes.
        case truncate
    }

    /// The path given at opening.
    package let path: String

    /// The `sqlite3*` handle; `nil` once closed.
    private var handle: OpaquePointer?

    /// Statements prepared with `SQLITE_PREPARE_PERSISTENT`, each with the address of its text's
    /// bytes when it has one (``Statement/cacheAddress``): the same text passed again (a literal, a
    /// `let`) is found by its address without comparing texts, and any other text equal to one of
    /// them by comparing, in order. A short list, not a `[String: Statement]` or
    /// `[UInt: Statement]`: making a dictionary type at run time looks up its key's `Hashable`
    /// conformance, a scan of every conformance record of the static binary, a large share of a
    /// one-shot append process. An array of the class itself, not of `(address, statement)`
    /// tuples, whose type metadata is built from its mangled name at the first append.
    private var statementList: [Statement] = []
    /// Statements beyond the first ``listedStatements``, keyed by their SQL text.
    private var statementCache: [String: Statement] = [:]
    /// How many statements ``statementList`` holds at most; the others are found by text.
    private static let listedStatements = 64

    /// Whether the open transaction was begun by ``inTransaction(_:_:)`` as a read: statements
    /// that would write are then refused.
    package var isReadTransaction = false

    /// Opens (and for ``OpenMode/readWriteCreate`` possibly creates) the database at `path`.
    ///
    /// Uses `sqlite3_open_v2` with `SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE` and turns on
    /// extended result codes (https://sqlite.org/c3ref/open.html). A file created here is created
    /// first with `open(2)` (`O_CREAT | O_EXCL`, then `fchmod` to 0600 whatever the umask), so it is
    /// readable by its owner only; SQLite gives the `-wal` and `-shm` files the same permissions.
    /// Nothing is read or written beyond what opening needs: a file that is not a database opens
    /// fine and fails on first use with `SQLITE_NOTADB`.
    ///
    /// - Parameters:
    ///   - path: a file path; `":memory:"` opens a private in-memory database.
    ///   - mode: see ``OpenMode``.
    /// - Throws: ``SQLiteError``: `SQLITE_CANTOPEN` when the file is missing (except with
    ///   ``OpenMode/readWriteCreate``), its directory does not exist, or permissions forbid it.
    package init(path: String, mode: OpenMode) throws(SQLiteError) {
        self.path = path
        var createdFile: String?
        if mode == .readWriteCreate, path != ":memory:", !path.isEmpty {
            createdFile = try Self.createOwnerOnlyFile(atPath: path)
        }
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readOnlyImmutable: flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(
            mode == .readOnlyImmutable ? Self.immutableURI(path) : Self.plainFilename(path), &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError(code: code, db: db, sql: nil)
            sqlite3_close_v2(db)
            if let createdFile { unlink(createdFile) }
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
    }

    /// `path` as SQLite takes it for a plain file name, never a URI: a builds with
    /// `SQLITE_USE_URI` (Debian's) read a name starting with `file:` as a URI
    /// (https://sqlite.org/uri.html), so `file:x.db?mode=memory` would open an in-memory
    /// database and `file:y.db` the file `y.db`. A relative path is given a `./` prefix, which
    /// names the same file and is never a URI.
    package static func plainFilename(_ path: String) -> String {
        path.hasPrefix("file:") ? "./" + path : path
    }

    /// `file:PATH?immutable=1` with `%`, `?` and `#` percent-encoded (https://sqlite.org/uri.html);
    /// an absolute path gets an empty authority (`file:///...`).
    private static func immutableURI(_ path: String) -> String {
        var encoded = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%": encoded += "%25"
            case "?": encoded += "%3F"
            case "#": encoded += "%23"
            default: encoded.unicodeScalars.append(scalar)
            }
        }
        return (path.hasPrefix("/") ? "file://" : "file:") + encoded + "?immutable=1"
    }

    /// Creates an empty file with mode 0600 unless something already exists at `path`.
    ///
    /// - Returns: the file this call created (the target of a dangling link at `path`), or
    ///   `nil` when something already existed.
    private static func createOwnerOnlyFile(atPath path: String) throws(SQLiteError) -> String? {
        // A symbolic link to a missing file: `O_EXCL` does not follow it, and SQLite would then
        // create its target with the default mode (0644 under umask 022); create the target here.
        let path = danglingLinkTarget(path) ?? path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        if fd < 0 {
            let number = errno
            if number == EEXIST { return nil }
            let reason = strerror(number).map { String(cString: $0) } ?? "errno \(number)"
            throw SQLiteError(extendedResultCode: .cantOpen, message: "cannot create \(path): \(reason)")
        }
        defer { closeFileDescriptor(fd) }
        // The umask only removes bits, but say exactly what we want.
        if fchmod(fd, mode_t(0o600)) != 0 {
            let number = errno
            let reason = strerror(number).map { String(cString: $0) } ?? "errno \(number)"
            unlink(path)
            throw SQLiteError(
                extendedResultCode: .cantOpen, message: "cannot set permissions of \(path): \(reason)")
        }
        return path
    }

    deinit {
        close()
    }

    /// Finalizes every cached statement and closes the connection (`sqlite3_close_v2`,
    /// https://sqlite.org/c3ref/close.html). Calling it again does nothing.
    ///
    /// Statements still held by callers keep the underlying handle alive until they are released;
    /// any other use of the connection afterwards throws `SQLITE_MISUSE`.
    package func close() {
        statementCache.removeAll()
        statementList.removeAll()
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
    }

    /// The open handle, or a misuse error once closed.
    package func db(sql: String? = nil) throws(SQLiteError) -> OpaquePointer {
        guard let handle else { throw .misuse("the connection is closed", sql: sql) }
        return handle
    }

    // MARK: Executing SQL

    /// Runs one or more `;`-separated SQL statements that take no parameters: migrations, pragmas,
    /// DDL (`sqlite3_exec`, https://sqlite.org/c3ref/exec.html). Rows they return are ignored.
    ///
    /// - Throws: ``SQLiteError`` from the first failing statement, with the whole `sql` text;
    ///   statements before it stay executed (wrap the call in ``transaction(_:_:)`` to undo them).
    package func execute(_ sql: String) throws(SQLiteError) {
        let db = try db(sql: sql)
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(db, sql, nil, nil, &errorMessage)
        guard code == SQLITE_OK else {
            var error = SQLiteError(code: code, db: db, sql: sql)
            if let errorMessage {
                error = SQLiteError(
                    extendedResultCode: SQLiteError.ResultCode(rawValue: code), message: String(cString: errorMessage),
                    sql: sql)
            }
            sqlite3_free(errorMessage)
            throw error
        }
    }

    /// Compiles a single SQL statement (`sqlite3_prepare_v3`, https://sqlite.org/c3ref/prepare.html).
    ///
    /// - Parameter sql: one statement; a trailing `;`, whitespace or comments are allowed.
    /// - Returns: a new statement, owned by the caller and finalized when released.
    /// - Throws: ``SQLiteError``: a syntax error or unknown table (`SQLITE_ERROR`), `SQLITE_NOTADB`
    ///   when the file is not a database, `SQLITE_MISUSE` when `sql` holds no statement or more
    ///   than one (use ``execute(_:)`` for several).
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try prepare(sql, flags: 0)
    }

    /// Returns the statement cached for `sql`, compiling and caching it on first use with
    /// `SQLITE_PREPARE_PERSISTENT` (https://sqlite.org/c3ref/c_prepare_normalize.html).
    ///
    /// The returned statement is reset with its bindings cleared. It is shared: every call with the
    /// same `sql` returns the same object, so finish with it before asking for it again.
    ///
    /// - Complexity: a dictionary lookup when cached.
    /// - Throws: ``SQLiteError`` as ``prepare(_:)``.
    package func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        // Small texts live in the `String` value itself, at no lasting address.
        let address =
            sql.utf8.count > 15 ? sql.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } : nil
        let listed =
            address.flatMap { address in statementList.first { $0.cacheAddress == address } }.flatMap {
                $0.sql == sql ? $0 : nil
            } ?? statementList.first { $0.sql == sql }
        if let statement = listed ?? statementCache[sql], !statement.inUse {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        // A statement stepped by an enclosing read is left alone; the new one is used once.
        if listed == nil, statementCache[sql] == nil {
            if statementList.count < Self.listedStatements {
                statement.cacheAddress = address
                statementList.append(statement)
            } else {
                statementCache[sql] = statement
            }
        }
        return statement
    }

    package func prepare(_ sql: String, flags: UInt32) throws(SQLiteError) -> Statement {
        let db = try db(sql: sql)
        var statement: OpaquePointer?
        var extraStatement = false
        let code: Int32 = sql.withCString { cSQL in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(db, cSQL, -1, flags, &statement, &tail)
            guard code == SQLITE_OK, let tail, tail.pointee != 0 else { return code }
            // Something follows the first statement: fine if it is only whitespace or comments.
            var next: OpaquePointer?
            if sqlite3_prepare_v3(db, tail, -1, 0, &next, nil) != SQLITE_OK || next != nil {
                extraStatement = true
            }
            sqlite3_finalize(next)
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: code, db: db, sql: sql)
        }
        guard let statement else {
            throw .misuse("no SQL statement to prepare", sql: sql)
        }
        guard !extraStatement else {
            sqlite3_finalize(statement)
            throw .misuse("prepare compiles a single statement; use execute for several", sql: sql)
        }
        return Statement(handle: statement, sql: sql)
    }

    // MARK: Transactions (https://sqlite.org/lang_transaction.html)

    /// Runs `body` in a transaction: `BEGIN <kind>`, then `COMMIT` if `body` returns, `ROLLBACK` if
    /// it throws.
    ///
    /// Writers use ``TransactionKind/immediate`` (the default) so that lock waits happen at `BEGIN`,
    /// under the busy timeout, rather than failing mid-transaction. Transactions do not nest.
    ///
    /// - Returns: what `body` returns, once the transaction is committed.
    /// - Throws: the error `body` threw (after rolling back), or an ``SQLiteError`` from `BEGIN`
    ///   (`SQLITE_BUSY` when the write lock stays taken past the busy timeout; `SQLITE_ERROR`
    ///   inside another transaction) or from `COMMIT` (after which the transaction is rolled back).
    package func transaction<R>(_ kind: TransactionKind = .immediate, _ body: () throws -> R) throws -> R {
        let begin =
            switch kind {
            case .deferred: "BEGIN DEFERRED TRANSACTION"
            case .immediate: "BEGIN IMMEDIATE TRANSACTION"
            }
        try cachedStatement(begin).run()
        let result: R
        do {
            result = try body()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        do {
            try cachedStatement("COMMIT TRANSACTION").run()
        } catch {
            rollbackIfNeeded()
            throw error
        }
        return result
    }

    /// Rolls back the open transaction, if SQLite has not already done so (some errors, such as
    /// `SQLITE_FULL`, roll back on their own). A failure to roll back is not reported: the error
    /// that caused it is the one that matters.
    private func rollbackIfNeeded() {
        guard isInTransaction else { return }
        try? cachedStatement("ROLLBACK TRANSACTION").run()
    }

    // MARK: State

    /// The rowid of the most recent successful `INSERT` on this connection
    /// (https://sqlite.org/c3ref/last_insert_rowid.html); 0 if none.
    package var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`
    /// (https://sqlite.org/c3ref/changes.html).
    package var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// Whether a transaction is open: `sqlite3_get_autocommit` is 0
    /// (https://sqlite.org/c3ref/get_autocommit.html).
    package var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }
}

/// `close(2)`, out of reach of `Connection.close()` inside the type.
private func closeFileDescriptor(_ fd: Int32) {
    _ = close(fd)
}

@available(
    *, unavailable, message: "A Connection is not thread-safe (SQLITE_OPEN_NOMUTEX); share a NavigationStore instead"
)
extension Connection: Sendable {}
