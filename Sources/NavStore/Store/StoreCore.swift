/// A session's row in `sessions`.
package struct SessionRow {
    package var id: Int64
    package var key: String
    package var name: String?
    package var createdAt: Int64
    package var updatedAt: Int64
    package var version: Int
    /// The session's platform generation (`sessions.platform`, from its `session.started`).
    package var platform: PlatformGeneration
    /// Set when `sessions.platform` holds no generation's name (read by `check` and `rebuild`);
    /// ``platform`` is then ``PlatformGeneration/default``.
    package var unreadablePlatform: UnreadableRow? = nil
}

extension SessionRow {
    /// The `sessions` columns ``init(_:)`` reads, in order: `SELECT \(SessionRow.columns) FROM
    /// sessions ...`. A literal, not built from a list: building it showed in a one-shot append.
    package static let columns = "id, key, name, created_at, updated_at, version, platform"

    /// ``columns`` of the `sessions` table aliased `s`: `SELECT \(SessionRow.aliasedColumns) FROM
    /// sessions AS s ...`.
    package static let aliasedColumns = "s.id, s.key, s.name, s.created_at, s.updated_at, s.version, s.platform"

    /// The session in a row that selected ``columns`` first: the one place a session row is
    /// decoded. A `platform` holding no generation's name does not stop the read: the row gets
    /// the default generation and ``unreadablePlatform`` (reads refuse it, `check` reports it,
    /// `rebuild` rewrites it).
    /// - Throws: ``RowDecodingError`` for a `NULL` or mistyped column.
    package init(_ row: Row) throws {
        let key: String = try row[1]
        self.init(
            id: try row[0], key: key, name: try row[2], createdAt: try row[3], updatedAt: try row[4],
            version: try row[5], platform: .default)
        do { platform = try StoreCore.platform(try row[6], session: key) } catch let error as UnreadableRow {
            unreadablePlatform = error
        }
    }
}

/// One session being written in the current transaction (a single append, a batch or an
/// import): what its projection holds, the running state, its version and newest event time.
package struct SessionWrite {
    /// The session's row as read when the write began.
    package let row: SessionRow
    /// The state the `layers` and `entries` projection holds (the state at `row.version`).
    package let projected: SessionState
    /// The state after the events appended so far.
    package var state: SessionState
    /// The version of the newest event appended (`row.version` before any).
    package var version: Int
    /// The time of the newest event, in ms since the Unix epoch (`row.updatedAt` before any).
    package var lastAt: Int64
    /// The event id of the newest event, once known: set by each append of a given id (`nil`
    /// until then, after a generated one, or until a reader looks it up).
    package var lastEventID: String? = nil
}

/// The store's logic over one database connection, owned by ``NavigationStore`` behind its mutex.
///
/// It talks to storage only through ``DatabaseConnection`` (``db``); what only some backends
/// have (integrity check, checkpoints, `VACUUM`) goes through ``maintenance``. Its parts live in
/// extensions by responsibility: appending (`StoreCore+Appending`), reading state
/// (`StoreCore+Reading`), history points (`StoreCore+History`), snapshots (`StoreCore+Snapshots`).
///
/// `@unchecked Sendable` only so that a lock (`Lock`) can hold it: it is reached solely through
/// `NavigationStore.withCore`, under the lock, and never escapes it (the connection itself is
/// not `Sendable`).
package final class StoreCore: @unchecked Sendable {
    /// The database, as the store's logic sees it.
    package let db: any DatabaseConnection
    /// The backend's maintenance steps (integrity check, secure deletion, vacuum, log
    /// checkpoint), when it has them.
    package let maintenance: (any DatabaseMaintenance)?
    /// Whether the file could only be opened read-only (reads work, writes fail).
    package let readOnly: Bool
    package let options: StoreOptions
    /// Made on first use: most commands never need it now that `PayloadReader` reads the store's own JSON.
    package lazy var decoder = JSONDecoder()
    /// The current state of recently used sessions (see ``StateCache``).
    package var cache = StateCache()
    /// Makes the ids of events appended without one. Not checked for exclusive access at run
    /// time, a check every append would pay: only the core's own methods touch it, each once
    /// per id, on the connection's one thread.
    @exclusivity(unchecked) package var eventIDs = EventIDGenerator()
    /// The `events` inserts, prepared on first use: plain, and ignoring a known event id.
    package var eventInserts: (plain: (any DatabaseInsert)?, ignoringKnownID: (any DatabaseInsert)?)
    /// The bytes of the payload being appended: one buffer for every append of the connection.
    package let payloadBuffer = PayloadBytes()

    /// A store over `db`; `readOnly` when writes are known to fail.
    package init(_ db: any DatabaseConnection, readOnly: Bool, options: StoreOptions) {
        self.db = db
        self.maintenance = db.maintenance
        self.readOnly = readOnly
        self.options = options
        // A write that lost a race runs again from the start (on a backend whose writes may): the
        // states it cached (keyed by session and version, which the winner's events now hold)
        // must go with it.
        db.setRetryHandler { [unowned self] in self.cache.removeAll() }
    }

    // MARK: Sessions

    /// The session named `key`, or `nil`. Inside a write transaction the row is locked until the
    /// transaction ends (``SQLDialect/lockSessionRow``).
    /// - Throws: ``UnreadableRow`` when its `platform` names no generation.
    package func sessionRow(_ key: String) throws -> SessionRow? {
        // The lock clause depends on the transaction (none in a read); the bare text is made
        // once, so the statement cache finds it without hashing it.
        let lock = db.dialect.lockSessionRow
        let sql = lock.isEmpty ? Self.sessionByKeySQL : Self.sessionByKeySQL + lock
        // Read in place (the key is unique: one row at most), not copied out as `fetchOne` would.
        var found: SessionRow?
        try db.forEachRow(sql: sql, arguments: [.text(key)]) { found = try SessionRow($0) }
        if let unreadable = found?.unreadablePlatform { throw unreadable }
        return found
    }

    /// The `SELECT` of ``sessionRow(_:)``, before its lock clause.
    private static let sessionByKeySQL = "SELECT \(SessionRow.columns) FROM sessions WHERE key = ?"

    /// The sessions that `sql` selects (it selects ``SessionRow/columns`` first), in its order,
    /// with unreadable platforms marked rather than thrown.
    package func sessionRows(sql: String, arguments: [SQLValue] = []) throws -> [SessionRow] {
        var rows: [SessionRow] = []
        try db.forEachRow(sql: sql, arguments: arguments) { rows.append(try SessionRow($0)) }
        return rows
    }

    /// A `sessions.platform` value as a generation.
    /// - Throws: ``UnreadableRow`` for a value no generation has (changed behind the store's
    ///   back; a rebuild rewrites it from the session's `session.started`).
    package static func platform(_ text: String?, session: String) throws(UnreadableRow) -> PlatformGeneration {
        guard let text else { return .default }
        guard let platform = PlatformGeneration(rawValue: text) else {
            throw UnreadableRow(
                session: session, row: "session row",
                problem:
                    "platform \(UnreadableRow.quoted(text)) is not a platform generation (known: \(PlatformGeneration.names))"
            )
        }
        return platform
    }

    /// Inserts a new session at version 0 with its empty base layer.
    /// - Throws: ``StoreError/sessionKeyTooLong(prefix:bytes:)`` past the one limit of every backend.
    package func createSession(key: String, name: String?, at: Int64, platform: PlatformGeneration) throws -> SessionRow {
        if let tooLong = StoreError.checkKeyLength(key) { throw tooLong }
        let id =
            try db.insert(
                sql:
                    "INSERT INTO sessions (key, name, created_at, updated_at, version, platform) VALUES (?, ?, ?, ?, 0, ?)",
                arguments: [
                    .text(key), name.map(SQLValue.text) ?? .null, .integer(at), .integer(at), .text(platform.rawValue),
                ], returning: "id") ?? 0
        try db.execute(
            sql: "INSERT INTO layers (session_id, layer, modal_in_presentation) VALUES (?, 0, 0)",
            arguments: [.integer(id)])
        return SessionRow(id: id, key: key, name: name, createdAt: at, updatedAt: at, version: 0, platform: platform)
    }

    /// The time for a new event: the given one (refused when earlier than the previous event), or
    /// now, never earlier than the previous event.
    package func eventTime(_ given: Int64?, after row: SessionRow) throws -> Int64 {
        guard let given else { return max(Timestamp.now(), row.updatedAt) }
        if !Timestamp.accepted.contains(given) { throw StoreError.timeOutOfRange(session: row.key, given: given) }
        if row.version > 0 && given < row.updatedAt {
            throw StoreError.timeBeforePrevious(session: row.key, given: given, previous: row.updatedAt)
        }
        return given
    }

    /// The integer in the first column of the first row of `sql` (a `count(*)`).
    /// - Throws: ``RowDecodingError`` when there is no row or it is not an integer.
    package func count(_ sql: String, arguments: [SQLValue] = []) throws -> Int {
        guard let row = try db.fetchOne(sql: sql, arguments: arguments) else {
            throw RowDecodingError(column: "0", problem: .unexpectedNull)
        }
        return try row[0]
    }
}
