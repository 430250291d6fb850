/// The one seam between the store's logic and a storage backend: SQL in, typed rows out, inside
/// transactions. ``StoreCore`` and the `NavigationStore` extensions talk to storage only through
/// this protocol (plus a backend's own maintenance methods), so a second backend plugs in here
/// without touching the model or the commands. The SQLite ``Connection`` conforms; so does the
/// PostgreSQL connection of `NavStorePostgreSQL`, which a ``StoreBackend`` opens.
///
/// The store writes portable SQL: `?` placeholders (a backend that numbers them, such as
/// PostgreSQL's `$1`, translates), `INSERT ... ON CONFLICT (...) DO UPDATE SET ... = excluded...`
/// instead of `INSERT OR REPLACE`, `RETURNING` instead of `last_insert_rowid()`. The few spots
/// that differ are asked of ``dialect``.
///
/// ## What a conforming backend guarantees
///
/// - **Atomicity.** ``inTransaction(_:_:)`` commits everything `body` did when it returns, and
///   nothing when it throws (or when the process dies before the commit): an append, a batch or
///   an import is all or nothing.
/// - **Isolation of writers per session.** Inside a ``DatabaseTransactionKind/write`` transaction,
///   the session rows the store reads with ``SQLDialect/lockSessionRow`` appended are not changed
///   by another writer until this transaction ends (SQLite: `BEGIN IMMEDIATE` takes the database's
///   write lock; PostgreSQL: `SELECT ... FOR UPDATE` locks the session row). Appends to different
///   sessions may run concurrently where the backend allows it.
/// - **Reads cannot write.** A ``DatabaseTransactionKind/read`` transaction sees one consistent
///   snapshot and refuses any statement that would change the database (SQLite: the statement is
///   checked with `sqlite3_stmt_readonly` before it runs; PostgreSQL: `READ ONLY` transactions).
/// - **Statements are reset by the layer**: no call leaves a statement open or a read pending;
///   ``forEachRow(sql:arguments:_:)`` finishes its statement whether `body` returns or throws.
/// - **Typed rows.** A ``Row`` holds each column in one ``SQLValue`` storage class: integers as
///   ``SQLValue/integer(_:)`` (a boolean as 0 or 1), text as ``SQLValue/text(_:)``, `NULL` as
///   ``SQLValue/null``; `""` and `NULL` stay different values.
/// - **Errors carry their cause and a category.** Every error a method throws because of the
///   database conforms to ``DatabaseBackendError``: its ``DatabaseBackendError/category`` lets the
///   store map it to a ``StoreError`` case, and its ``DatabaseBackendError/databaseCause`` is the
///   value that case carries. In particular a unique-constraint violation is
///   ``DatabaseErrorCategory/uniqueViolation(detail:)`` with a detail naming the columns or the
///   constraint (`events.event_id`; `events.session_id, events.version`), which the store turns
///   into ``StoreError/eventIDExists(_:)`` or ``StoreError/versionConflict(session:expected:actual:)``.
///   Errors `body` throws pass through unchanged.
/// - A connection is used by one thread at a time (it need not be `Sendable`); the store owns it
///   behind a mutex.
package protocol DatabaseConnection: AnyObject {
    /// The spellings of the few statements that differ between backends.
    var dialect: SQLDialect { get }

    /// The backend's maintenance steps, or `nil` when it has none (read once, when the store
    /// opens; a property rather than a dynamic cast, which costs a scan of the conformances).
    var maintenance: (any DatabaseMaintenance)? { get }

    /// Runs one statement that returns no rows (`INSERT`, `UPDATE`, `DELETE`, DDL), binding
    /// `arguments` to its `?` placeholders in order.
    /// - Returns: how many rows the statement inserted, updated or deleted.
    /// - Throws: a ``DatabaseBackendError``.
    @discardableResult
    func execute(sql: String, arguments: [SQLValue]) throws -> Int

    /// Runs one `INSERT` and returns the integer key column `key` of the row it inserted, or `nil`
    /// when it inserted none (`ON CONFLICT ... DO NOTHING`). The default appends `RETURNING key`;
    /// SQLite reads `sqlite3_last_insert_rowid` instead, which costs the insert nothing more.
    /// - Throws: a ``DatabaseBackendError``.
    func insert(sql: String, arguments: [SQLValue], returning key: String) throws -> Int64?

    /// The `INSERT` `sql` prepared for many runs with arguments bound in place (a hot path's
    /// statement, kept by the caller); ``DatabaseInsert/run()`` returns the key column `key` as
    /// ``insert(sql:arguments:returning:)`` does. The default gathers the arguments and calls
    /// that method; SQLite keeps one prepared statement and binds text without copying it.
    /// - Throws: a ``DatabaseBackendError`` when the statement cannot be prepared.
    func preparedInsert(sql: String, returning key: String) throws -> any DatabaseInsert

    /// The first row of a query's result, or `nil` when it has none; the statement is finished
    /// either way.
    /// - Throws: a ``DatabaseBackendError``.
    func fetchOne(sql: String, arguments: [SQLValue]) throws -> Row?

    /// Every row of a query's result.
    /// - Complexity: O(rows) memory; stream long results with ``forEachRow(sql:arguments:_:)``.
    /// - Throws: a ``DatabaseBackendError``.
    func fetchAll(sql: String, arguments: [SQLValue]) throws -> [Row]

    /// Calls `body` once per row of a query's result, in order, without holding the result in
    /// memory (the row may be a view valid only during the call). An error `body` throws stops
    /// the loop and is rethrown; the statement is finished either way.
    /// - Throws: a ``DatabaseBackendError``, or what `body` throws.
    func forEachRow(sql: String, arguments: [SQLValue], _ body: (Row) throws -> Void) throws

    /// Runs `body` in one transaction of `kind`: committed when `body` returns, rolled back when
    /// it throws. Transactions do not nest.
    /// - Returns: what `body` returns, once committed.
    /// - Throws: what `body` threw (after the rollback), or a ``DatabaseBackendError`` from
    ///   beginning or committing (a lock not obtained in time is ``DatabaseErrorCategory/busy``).
    func inTransaction<R>(_ kind: DatabaseTransactionKind, _ body: () throws -> R) throws -> R

    /// Sets what to call when a write transaction that lost a race was rolled back, before its
    /// `body` runs again (a backend whose ``SQLDialect/writesMayRunAgain``): whatever the caller
    /// cached from inside it is no longer true. The default ignores it: SQLite never runs a
    /// transaction again (its writers wait for the write lock instead).
    func setRetryHandler(_ handler: @escaping () -> Void)

    /// Starts listening for the notice every append's transaction sends at its commit (PostgreSQL:
    /// `LISTEN navstore_appends`, the schema's trigger sends it; README, "Reading the past"), so that
    /// ``waitForAppendNotice(timeout:)`` wakes at a commit. Outside any transaction, before the
    /// first read whose commits it must not miss.
    /// - Returns: `false` when the backend sends no such notice (SQLite: a follower checks
    ///   `PRAGMA data_version` instead), which the default says.
    /// - Throws: a ``DatabaseBackendError``.
    func listenForAppends() throws -> Bool

    /// Waits at most `timeout` for an append notice (``listenForAppends()``), taking every notice
    /// already received. The default waits nothing and says none came.
    /// - Returns: whether one or more came.
    /// - Throws: a ``DatabaseBackendError`` when the connection was lost.
    func waitForAppendNotice(timeout: Duration) throws -> Bool
}

extension DatabaseConnection {
    /// Ignores `handler`: a backend that runs no transaction again never calls it.
    package func setRetryHandler(_ handler: @escaping () -> Void) {}

    /// No notices: `false`.
    package func listenForAppends() throws -> Bool { false }

    /// No notices: returns `false` at once.
    package func waitForAppendNotice(timeout: Duration) throws -> Bool { false }

    /// `sql` with `RETURNING key`, its one row's first column read in place.
    package func insert(sql: String, arguments: [SQLValue], returning key: String) throws -> Int64? {
        var value: Int64?
        try forEachRow(sql: sql + " RETURNING " + key, arguments: arguments) { value = try $0[0] }
        return value
    }

    /// ``execute(sql:arguments:)`` without arguments.
    @discardableResult
    package func execute(sql: String) throws -> Int {
        try execute(sql: sql, arguments: [])
    }

    /// ``fetchOne(sql:arguments:)`` without arguments.
    package func fetchOne(sql: String) throws -> Row? {
        try fetchOne(sql: sql, arguments: [])
    }

    /// The first non-`nil` value `transform` makes of the rows of a query, in order, reading no
    /// further row once one is found; `nil` when none is.
    /// - Throws: what ``forEachRow(sql:arguments:_:)`` or `transform` throws.
    package func firstValue<T>(sql: String, arguments: [SQLValue], _ transform: (Row) throws -> T?) throws -> T? {
        var value: T?
        do {
            try forEachRow(sql: sql, arguments: arguments) { row in
                value = try transform(row)
                if value != nil { throw FirstValueFound() }
            }
        } catch is FirstValueFound {}
        return value
    }

    /// ``fetchAll(sql:arguments:)`` without arguments.
    package func fetchAll(sql: String) throws -> [Row] {
        try fetchAll(sql: sql, arguments: [])
    }
}

/// The maintenance a backend offers beyond SQL, each outside any transaction unless said
/// otherwise. The SQLite ``Connection`` conforms; a backend without such steps need not (the store
/// then skips them: nothing to check beyond the log, nothing to shrink).
package protocol DatabaseMaintenance: AnyObject {
    /// The backend's own consistency check: `["ok"]` when sound, else one line per problem
    /// (SQLite: `PRAGMA integrity_check`, https://sqlite.org/pragma.html#pragma_integrity_check).
    /// Runs inside a read transaction.
    func integrityCheck() throws -> [String]
    /// Makes deletions overwrite what they delete (SQLite: `PRAGMA secure_delete = ON`,
    /// https://sqlite.org/pragma.html#pragma_secure_delete), before a deleting transaction.
    func enableSecureDelete() throws
    /// Gives the space of deleted rows back to the file system (SQLite: `VACUUM`,
    /// https://sqlite.org/lang_vacuum.html).
    func vacuum() throws
    /// The bytes the store takes where a vacuum can shrink it, and what they count: SQLite the
    /// file and its -wal; PostgreSQL NavStore's tables with their indexes and TOAST
    /// (`pg_total_relation_size`). `nil` when they cannot be measured (a file that cannot be
    /// `stat`ed).
    func storageSize() throws -> (bytes: Int64, measured: StorageChange.Measured)?
    /// Moves every committed change into the database file and empties the write-ahead log
    /// (SQLite: `sqlite3_wal_checkpoint_v2` in `TRUNCATE` mode).
    /// - Returns: whether the log is now empty (`false` when a reader kept it from finishing).
    func truncateWriteAheadLog() throws -> Bool
    /// After a deleting transaction and ``truncateWriteAheadLog()``: zeros what the deleted rows
    /// may have left outside any row (SQLite: ``Connection/scrubFreeSpace(busyTimeoutMilliseconds:)``,
    /// then the log truncated again).
    /// - Returns: whether it finished (`false` when a writer or reader kept the log from being
    ///   empty: running the deletion command again finishes it).
    func scrubFreeSpace(busyTimeoutMilliseconds: Int) throws -> Bool
    /// Makes every committed transaction survive a power loss, where the connection's commits
    /// are not synced themselves (SQLite at `synchronous = normal`: syncs the write-ahead log,
    /// ``Connection/syncWriteAheadLog(fileSync:)``); nothing where each commit already is
    /// (PostgreSQL's server syncs its own log at commit).
    func makeCommitsDurable() throws
}

/// Stops ``DatabaseConnection/firstValue(sql:arguments:_:)``'s loop once a value is found.
private struct FirstValueFound: Error {}

/// What a transaction may do.
package enum DatabaseTransactionKind: Sendable {
    /// Reads only: one consistent view of the database; any statement that would write is refused.
    case read
    /// Reads and writes, holding the write lock (or the session rows' locks) from the start, so a
    /// writer waits at the beginning under the busy timeout rather than failing midway.
    case write
}

/// The spellings that differ between the SQL dialects the store runs on.
package struct SQLDialect: Sendable, Equatable {
    /// The backend's name, for messages: `SQLite`, `PostgreSQL`.
    package var name: String
    /// Appended to the `SELECT` that reads a session's row inside a write transaction, to lock
    /// that row until the transaction ends: `""` for SQLite (whose `BEGIN IMMEDIATE` already holds
    /// the database's write lock), `" FOR UPDATE"` for PostgreSQL.
    package var lockSessionRow: String
    /// Whether `events.seq` has no gaps but those deletions and truncations recorded: SQLite's
    /// rowid does; a PostgreSQL identity skips the values of rolled-back inserts, so `check`
    /// does not look for seq gaps there.
    package var sequenceIsGapless: Bool
    /// The SQL around a text column for the size of its value in bytes, before and after the
    /// column: `length(CAST(` and ` AS BLOB))` in SQLite, `octet_length(` and `)` in PostgreSQL.
    package var byteLength: (before: String, after: String)
    /// How many events an import sends in one multi-row `INSERT` (``EventBatch``): 1 for SQLite,
    /// where a statement costs no round trip (each event is inserted as it comes), 500 for
    /// PostgreSQL, where each statement is a round trip to the server.
    package var importBatchSize: Int
    /// Whether a text column can hold U+0000: SQLite's can; PostgreSQL's `text` cannot
    /// (https://www.postgresql.org/docs/current/datatype-character.html), so an import checks the
    /// texts it would store in columns first (``StoredTextCheck``) and names the line that holds one.
    package var textHoldsNUL: Bool
    /// Whether a write transaction may run its `body` again after losing a race (PostgreSQL's
    /// `SERIALIZABLE` retries; ``DatabaseConnection/setRetryHandler(_:)``), so that what `body`
    /// reads once (an import's input lines) must be kept for another run. SQLite's writers wait
    /// for the write lock instead: `false`.
    package var writesMayRunAgain: Bool

    /// Creates a dialect from its spellings.
    package init(
        name: String, lockSessionRow: String, sequenceIsGapless: Bool, byteLength: (before: String, after: String),
        importBatchSize: Int = 1, textHoldsNUL: Bool = true, writesMayRunAgain: Bool = false
    ) {
        self.name = name
        self.lockSessionRow = lockSessionRow
        self.sequenceIsGapless = sequenceIsGapless
        self.byteLength = byteLength
        self.importBatchSize = importBatchSize
        self.textHoldsNUL = textHoldsNUL
        self.writesMayRunAgain = writesMayRunAgain
    }

    /// The size in bytes of `column`'s text, in this dialect's SQL.
    package func byteLength(of column: String) -> String {
        byteLength.before + column + byteLength.after
    }

    /// Dialects are equal when every spelling is.
    package static func == (lhs: SQLDialect, rhs: SQLDialect) -> Bool {
        lhs.name == rhs.name && lhs.lockSessionRow == rhs.lockSessionRow
            && lhs.sequenceIsGapless == rhs.sequenceIsGapless && lhs.byteLength == rhs.byteLength
            && lhs.importBatchSize == rhs.importBatchSize && lhs.textHoldsNUL == rhs.textHoldsNUL
            && lhs.writesMayRunAgain == rhs.writesMayRunAgain
    }

    /// SQLite (https://sqlite.org/lang.html).
    package static let sqlite = SQLDialect(
        name: "SQLite", lockSessionRow: "", sequenceIsGapless: true, byteLength: ("length(CAST(", " AS BLOB))"))
}

/// What a backend's error means to the store, independent of the backend's own codes.
package enum DatabaseErrorCategory: Sendable, Equatable {
    /// Another connection held a lock past the busy timeout (SQLite `SQLITE_BUSY`/`SQLITE_LOCKED`).
    case busy
    /// The database, its file or its directory cannot be written (SQLite `SQLITE_READONLY`).
    case readOnly
    /// The disk, or the database's size limit, is full (SQLite `SQLITE_FULL`, or the `-shm` index
    /// that cannot grow, `SQLITE_IOERR_SHMSIZE`).
    case diskFull
    /// The database is damaged (SQLite `SQLITE_CORRUPT`).
    case corrupt
    /// The file is not a database of this backend (SQLite `SQLITE_NOTADB`).
    case notADatabase
    /// The database cannot be opened or reached (SQLite `SQLITE_CANTOPEN`; a server that does not
    /// answer or refuses the credentials).
    case cannotOpen
    /// A `UNIQUE` (or primary key) constraint failed; `detail` names the columns or the constraint.
    case uniqueViolation(detail: String)
    /// A value the backend cannot store, refused before it reached the database (PostgreSQL text
    /// with U+0000); `detail` names the value, why, and what the backend accepts.
    case unsupportedValue(detail: String)
    /// Anything else: a bug, a constraint of another kind, an I/O error.
    case other
}

/// An error a ``DatabaseConnection`` throws: its meaning to the store and the value a
/// ``StoreError`` carries as its cause.
package protocol DatabaseBackendError: Error {
    /// What the error means to the store.
    var category: DatabaseErrorCategory { get }
    /// The error as a ``StoreError`` case carries it.
    var databaseCause: DatabaseCause { get }
}
