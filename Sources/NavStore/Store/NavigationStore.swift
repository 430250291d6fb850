import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Sessions as event streams in one SQLite file: the append-only log, projections of the current
/// state, snapshots for historical reads (<doc:Events>, <doc:StorageLayout>, <doc:TimeTravel>).
///
/// `Sendable`: one connection is owned behind a `Mutex`; calls from several threads are
/// serialized. Several processes may write the same file: writers take `BEGIN IMMEDIATE` and wait
/// up to ``StoreOptions/busyTimeoutMilliseconds``.
public final class NavigationStore: Sendable {
    /// The database file's path, or for PostgreSQL the connection URI without its password.
    public let path: String
    /// The options the store was opened with.
    public let options: StoreOptions
    /// The schema version (`user_version`, <doc:StorageLayout>) an older SQLite file had before
    /// this opening migrated it to the current one, else `nil` (current, new, or PostgreSQL). A
    /// migrated file cannot be opened by the NavStore that wrote it any more: an app or tool may
    /// want to say so.
    public let upgradedFrom: Int?
    /// The schema version this NavStore writes: the number of SQLite migrations it ships
    /// (`Migrations/`), recorded in `schema_migrations` and mirrored in `PRAGMA user_version`.
    public static var schemaVersion: Int { Int(Migrator.embedded.currentVersion) }
    let core: Mutex<StoreCore>

    /// Opens (or, with `create`, creates) a NavStore database.
    ///
    /// A new file is created with owner-only permissions (0600), in WAL mode, and migrated. An
    /// existing file is inspected before anything is written: a file that is not SQLite, an
    /// SQLite file of another application (`application_id`), an empty file we did not create,
    /// or a newer schema (`user_version`) is refused and left unchanged.
    ///
    /// A `postgresql://` or `postgres://` URI opens a PostgreSQL database instead, through libpq
    /// (the URI given to `PQconnectdb` as it is): the schema its `search_path` names is migrated
    /// (`Migrations/postgresql/`); one holding other tables, or migrated by a newer NavStore, is
    /// refused and left unchanged. A server that cannot be reached, a wrong password or a missing
    /// database throw ``StoreError/openFailed(path:cause:)`` with libpq's reason, password removed.
    /// - Parameters:
    ///   - path: the database file, or a PostgreSQL connection URI.
    ///   - create: create the file when missing (writes); `false` for reads, which then throw
    ///     ``StoreError/databaseNotFound(path:)``.
    ///   - options: timeouts, snapshot interval, durability.
    /// - Throws: ``StoreError/databaseNotFound(path:)``, ``StoreError/notANavdbFile(path:reason:)``,
    ///   ``StoreError/newerSchema(path:found:supported:)``, ``StoreError/cannotOpen(path:reason:)``.
    public convenience init(path: String, create: Bool = true, options: StoreOptions = StoreOptions())
        throws(StoreError)
    {
        try self.init(path: path, create: create, options: options, schemaInFirstWrite: false)
    }

    /// ``init(path:create:options:)``; with `schemaInFirstWrite`, an empty PostgreSQL schema gets
    /// its tables inside the store's first write transaction instead of at once, so that a
    /// refused import leaves it empty (``PostgreSQLStoreDatabase/open(uri:displayName:create:inFirstWrite:)``).
    init(path: String, create: Bool, options: StoreOptions, schemaInFirstWrite: Bool) throws(StoreError) {
        let isPostgreSQL = PostgreSQLURI.isURI(path)
        // A URI's password never reaches a message: the store is named by the URI without it.
        let displayed = isPostgreSQL ? PostgreSQLURI.displayed(path) : path
        self.path = displayed
        self.options = options
        do {
            if isPostgreSQL {
                let connection = try PostgreSQLStoreDatabase.open(
                    uri: path, displayName: displayed, create: create, inFirstWrite: schemaInFirstWrite)
                core = Mutex(StoreCore(connection, readOnly: false, options: options))
                upgradedFrom = nil
            } else {
                let (connection, readOnly, from) = try SQLiteStoreFile.open(
                    path: path, create: create, options: options)
                core = Mutex(StoreCore(connection, readOnly: readOnly, options: options))
                upgradedFrom = from.map(Int.init)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.from(error, path: displayed, options: options)
        }
    }

    /// Runs `body` with the connection, mapping every error to ``StoreError``.
    ///
    /// When `body` fails, its transaction was rolled back, so the states it may have cached for
    /// versions that were never committed are dropped with the rest of the cache: another writer
    /// could later commit different events under those versions.
    func withCore<R>(_ body: (StoreCore) throws -> R) throws(StoreError) -> R {
        do {
            var result: R?
            try core.withLock { core in
                do { result = try body(core) } catch {
                    core.cache.removeAll()
                    throw error
                }
            }
            return result!
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.from(error, path: path, options: options)
        }
    }

    // MARK: Writing

    /// Starts a session: creates the stream and appends `session.started` (version 1).
    /// - Parameters:
    ///   - key: the session key (stream name), any non-empty text.
    ///   - name: a human label, optional.
    ///   - platform: the generation of rules the session follows (<doc:PlatformGenerations>), recorded in its
    ///     `session.started` event and fixed from then on; ``PlatformGeneration/ios14`` by default.
    ///   - at: the event time in ms since the Unix epoch; now when `nil`.
    ///   - expectedVersion: optimistic concurrency, as for every write: the version the caller
    ///     last saw. A session that does not exist yet is at version 0, so 0 is the only value
    ///     that lets the start go through (on an existing session, 0 is a conflict).
    ///   - eventID: the event's UUID (8-4-4-4-12 hexadecimal digits, either letter case; stored
    ///     in lowercase); a new one when `nil`.
    /// - Throws: ``StoreError/versionConflict(session:expected:actual:)`` (checked first; `actual`
    ///   is 0 for a new session), ``StoreError/sessionExists(_:)``, ``StoreError/emptySessionKey``,
    ///   ``StoreError/timeOutOfRange(session:given:)`` for an `at` outside the years 0000-9999,
    ///   ``StoreError/rules(_:)`` with ``NavigationError/invalidEvent(_:)`` for an `eventID` that
    ///   is not a UUID, database errors.
    @discardableResult
    public func startSession(
        _ key: String, name: String? = nil, platform: PlatformGeneration = .default, at: Int64? = nil,
        expectedVersion: Int? = nil, eventID: String? = nil
    ) throws(StoreError) -> AppendResult {
        guard !key.isEmpty else { throw .emptySessionKey }
        if let at, !Timestamp.accepted.contains(at) { throw .timeOutOfRange(session: key, given: at) }
        let eventID = try Self.normalizedEventID(eventID)
        return try withCore { core in
            try core.db.inTransaction(.write) {
                let existing = try core.sessionRow(key)
                if let expectedVersion, expectedVersion != (existing?.version ?? 0) {
                    throw StoreError.versionConflict(
                        session: key, expected: expectedVersion, actual: existing?.version ?? 0)
                }
                if existing != nil { throw StoreError.sessionExists(key) }
                let time = at ?? Timestamp.now()
                let row = try core.createSession(key: key, name: name, at: time, platform: platform)
                let event = try core.append(
                    .sessionStarted(name: name, platform: platform), to: row, state: SessionState(), at: time,
                    eventID: eventID)
                return AppendResult(session: key, version: event.version, outcome: .ok, event: event)
            }
        }
    }

    /// Validates `command` against the session's current state and appends the event it produces,
    /// updating the projection in the same `BEGIN IMMEDIATE` transaction.
    /// - Parameters:
    ///   - command: the action, checked by ``SessionState/decide(_:)`` (<doc:Rules>).
    ///   - session: the session key.
    ///   - at: the event time in ms since the Unix epoch, never earlier than the previous event;
    ///     now when `nil` (clamped to the previous event's time).
    ///   - expectedVersion: optimistic concurrency: the version the caller last saw.
    ///   - eventID: the event's UUID (8-4-4-4-12 hexadecimal digits, either letter case; stored
    ///     in lowercase); a new one when `nil`.
    /// - Returns: the new version and outcome; the version is unchanged when the command changed nothing.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/rules(_:)`` (refused: nothing
    ///   appended; ``NavigationError/invalidEvent(_:)`` for an `eventID` that is not a UUID),
    ///   ``StoreError/versionConflict(session:expected:actual:)``,
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``,
    ///   ``StoreError/timeOutOfRange(session:given:)`` for an `at` outside the years 0000-9999, database errors.
    @discardableResult
    public func execute(
        _ command: NavigationCommand, session: String, at: Int64? = nil,
        expectedVersion: Int? = nil, eventID: String? = nil
    ) throws(StoreError) -> AppendResult {
        try write(session: session, at: at, expectedVersion: expectedVersion, eventID: eventID) {
            state throws(NavigationError) in
            try state.decide(command)
        }
    }

    /// Changes the navigation item of the live entry `entryID` (rule 13): `change` edits a copy of
    /// the current item inside the write transaction, so concurrent updates are not lost.
    /// - Throws: as ``execute(_:session:at:expectedVersion:eventID:)``; ``NavigationError/entryNotLive(id:stack:)``
    ///   when the entry is not live.
    @discardableResult
    public func updateItem(
        _ entryID: String, session: String, at: Int64? = nil, expectedVersion: Int? = nil,
        eventID: String? = nil, _ change: (inout NavigationItem) -> Void
    ) throws(StoreError) -> AppendResult {
        try write(session: session, at: at, expectedVersion: expectedVersion, eventID: eventID) {
            state throws(NavigationError) in
            guard let (layer, position) = state.location(of: entryID) else {
                throw .entryNotLive(id: entryID, stack: state.stackDescription(against: entryID))
            }
            var item = state.layers[layer].entries[position].item
            change(&item)
            return try state.decide(.update(entryID: entryID, item: item))
        }
    }

    private func write(
        session key: String, at: Int64?, expectedVersion: Int?, eventID: String?,
        _ decide: (SessionState) throws(NavigationError) -> EventBody?
    ) throws(StoreError) -> AppendResult {
        let eventID = try Self.normalizedEventID(eventID)
        return try withSessionWrite(key, at: at, expectedVersion: expectedVersion) { core, row, time in
            let state = try core.currentState(row)
            let body: EventBody?
            do { body = try decide(state) } catch let error as NavigationError { throw StoreError.rules(error) }
            guard let body else { return AppendResult(session: key, version: row.version, outcome: .ok, event: nil) }
            let event = try core.append(body, to: row, state: state, at: time, eventID: eventID)
            var result = AppendResult(
                session: key, version: event.version, outcome: body.isVeto ? .vetoed : .ok, event: event)
            if at == nil {
                let clock = Timestamp.now()
                if clock < time { result.clockBehind = clock }
            }
            return result
        }
    }

    /// A client-supplied event id as stored: checked to be UUID text, as imports check it, and
    /// lowercased (UUIDs compare without regard to case, <doc:Events>).
    /// - Throws: ``StoreError/rules(_:)`` with ``NavigationError/invalidEvent(_:)`` (exit 65)
    ///   naming the value and the accepted shape.
    static func normalizedEventID(_ eventID: String?) throws(StoreError) -> String? {
        guard let eventID else { return nil }
        guard let normalized = EventIDGenerator.normalized(eventID) else {
            throw .invalidEventID(eventID)
        }
        return normalized
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction on session `key`, after the checks every
    /// write makes: the session exists, its version is the expected one, and the event time
    /// (`at`, or now) is not earlier than its previous event. `body` gets the session's row and
    /// that time.
    func withSessionWrite<R>(
        _ key: String, at: Int64?, expectedVersion: Int?, _ body: (StoreCore, SessionRow, Int64) throws -> R
    ) throws(StoreError) -> R {
        try withCore { core in
            try core.db.inTransaction(.write) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                if let expectedVersion, expectedVersion != row.version {
                    throw StoreError.versionConflict(session: key, expected: expectedVersion, actual: row.version)
                }
                return try body(core, row, try core.eventTime(at, after: row))
            }
        }
    }

    // MARK: Reading

    /// Every session, ordered by key.
    /// - Throws: database errors.
    public func sessions() throws(StoreError) -> [SessionInfo] {
        try withCore { core in
            var result: [SessionInfo] = []
            try core.db.forEachRow(
                sql: """
                    SELECT \(SessionRow.aliasedColumns),
                           (SELECT count(*) FROM layers AS l WHERE l.session_id = s.id),
                           (SELECT count(*) FROM entries AS e WHERE e.session_id = s.id)
                    FROM sessions AS s ORDER BY s.key
                    """,
                arguments: []
            ) { row in
                let session = try SessionRow(row)
                if let unreadable = session.unreadablePlatform { throw unreadable }
                result.append(
                    SessionInfo(
                        key: session.key, name: session.name, version: session.version, layers: try row[7],
                        depth: try row[8], createdAt: session.createdAt, updatedAt: session.updatedAt,
                        platform: session.platform))
            }
            return result
        }
    }

    /// One session's summary.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func sessionInfo(_ key: String) throws(StoreError) -> SessionInfo {
        guard let info = try sessions().first(where: { $0.key.hasSameScalars(as: key) }) else {
            throw .sessionNotFound(key)
        }
        return info
    }

    /// The session's state now, or at a point in its history.
    ///
    /// The current state is one indexed read of the projection. A past version reads the nearest
    /// snapshot at or below it (written under the current rules) and applies at most
    /// ``StoreOptions/snapshotInterval`` events.
    ///
    /// With `platform`, the state is resolved under that generation instead of the session's own
    /// (``VersionedState/isWhatIf``): the same history, the label another generation would show.
    /// The log is not changed; ``VersionedState/recordedPlatform`` keeps the session's own.
    /// - Parameters:
    ///   - key: the session key.
    ///   - point: `nil` for now; a version in 1...current; or a time at or after the session's
    ///     first event (a time after the last event gives the end state).
    ///   - platform: resolve under this generation (a what-if read); `nil` for the session's own.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/pointOutOfRange(session:point:accepted:)``.
    /// - Complexity: O(K + depth) for K = the snapshot interval, whatever the log's length.
    public func state(session key: String, at point: HistoryPoint? = nil, platform: PlatformGeneration? = nil)
        throws(StoreError) -> VersionedState
    {
        try withCore { core in
            let (result, repair) = try core.db.inTransaction(.read) { () throws -> (VersionedState, Int64?) in
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                let version = try core.resolve(point, in: row)
                let state: SessionState
                let at: Int64?
                var repair: Int64?
                if version == row.version {
                    (state, at) = (try core.currentState(row), row.updatedAt)
                } else {
                    let read = try core.historicalState(of: row, atVersion: version, repairing: false)
                    (state, at) = (read.state, read.at)
                    if read.needsRepair { repair = row.id }
                }
                let result = VersionedState(
                    session: key, version: version, at: at, state: state, recordedPlatform: row.platform)
                return (result.resolved(under: platform), repair)
            }
            // Snapshots of other rules are rewritten after the read, in a write transaction of their own.
            if let repair { try core.db.inTransaction(.write) { try core.rebuildSnapshots(sessionID: repair) } }
            return result
        }
    }

    /// The version `point` names in session `key`, checked as every command that takes a point
    /// or a version checks it (`stack --at`, `replay --from/--to`, ...): a version in
    /// 1...current, or the newest version at or before a time.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/pointOutOfRange(session:point:accepted:)``
    ///   (exit 1) naming the point and the versions the session has.
    /// - Complexity: O(1) for a version, O(log n) point reads for a time.
    public func version(session key: String, at point: HistoryPoint) throws(StoreError) -> Int {
        try withCore { core in
            try core.db.inTransaction(.read) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                return try core.resolve(point, in: row)
            }
        }
    }

    /// Streams a session's events (or every session's, in `seq` order, when `session` is `nil`)
    /// through `body`, without holding the log in memory.
    /// - Parameters:
    ///   - key: the session key, or `nil` for all sessions.
    ///   - filter: types, entry, time range, version range, limit and order.
    ///   - body: called once per event in order; an error it throws stops the stream and is rethrown.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors, or what `body` throws.
    public func events(session key: String?, filter: EventFilter = EventFilter(), _ body: (Event) throws -> Void) throws
    {
        try events(session: key, filter: filter, readingBases: false, bases: { _ in }, body)
    }

    /// ``events(session:filter:_:)``, first handing `bases` the truncated sessions' bases (of
    /// `key`, or of every session) when `readingBases`, read in the same transaction as the events.
    func events(
        session key: String?, filter: EventFilter = EventFilter(), readingBases: Bool,
        bases: ([SessionBase]) throws -> Void,
        _ body: (Event) throws -> Void
    ) throws {
        var bodyError: (any Error)?
        do {
            try withCore { core in
                try core.db.inTransaction(.read) {
                    var row: SessionRow?
                    if let key {
                        row = try core.sessionRow(key)
                        if row == nil { throw StoreError.sessionNotFound(key) }
                    }
                    if readingBases {
                        let found = try row.map { try core.base(of: $0).map { [$0] } ?? [] } ?? core.allBases()
                        do { try bases(found) } catch {
                            bodyError = error
                            throw StreamStopped()
                        }
                    }
                    try core.streamEvents(session: row, filter: filter) { event in
                        do { try body(event) } catch {
                            bodyError = error
                            throw StreamStopped()
                        }
                    }
                }
            }
        } catch {
            // The store maps what stopped the stream to its own error; the caller's comes first.
            if let bodyError { throw bodyError }
            throw error
        }
        if let bodyError { throw bodyError }
    }
}
