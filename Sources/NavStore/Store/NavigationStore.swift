import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How a store opens and writes its database.
public struct StoreOptions: Sendable {
    /// How long a writer waits for another writer's lock, in milliseconds (`PRAGMA busy_timeout`,
    /// https://sqlite.org/pragma.html#pragma_busy_timeout). Default 10,000.
    public var busyTimeoutMilliseconds: Int = 10_000
    /// A snapshot of a session's state is stored every this many events (<doc:StorageLayout>), so a
    /// historical state costs at most this many applies plus one indexed read. Default 64
    /// (see BENCHMARKS.md for the measurement behind it).
    ///
    /// A state deeper than this many entries stretches the interval for its own version to the
    /// smallest power-of-two multiple of it that is at least the state's entry count (see
    /// ``isSnapshotVersion(_:of:)``), so the bytes snapshots take per event stay bounded however
    /// deep the stack grows: storage is linear in the number of events.
    public var snapshotInterval: Int = 64

    /// Whether the state after `version` is stored as a snapshot: when `version` is a multiple of
    /// the interval for that state, ``snapshotInterval`` × 2^k for the smallest k ≥ 0 that makes it
    /// at least the state's entry count (all layers). Multiples of a longer interval are multiples
    /// of every shorter one, so a read never replays more than about twice the deepest state's
    /// entry count (or ``snapshotInterval``) events, each of which it has to copy anyway.
    /// - Parameters:
    ///   - version: the 1-based version the state follows.
    ///   - state: the state after that version.
    /// - Complexity: O(layers).
    public func isSnapshotVersion(_ version: Int, of state: SessionState) -> Bool {
        let base = max(1, snapshotInterval)
        let entries = state.layers.reduce(0) { $0 + $1.entries.count }
        var interval = base
        while interval < entries && interval <= Int.max / 2 { interval *= 2 }
        return version % interval == 0
    }
    /// Unacknowledged restore attempts after which `restore` falls back to an earlier,
    /// acknowledged state (crash-loop protection). Default 2.
    public var restoreAttemptLimit: Int = 2
    /// `PRAGMA synchronous` (https://sqlite.org/pragma.html#pragma_synchronous). Default `.full`:
    /// in WAL mode every commit is fsynced, so an acknowledged event survives a power loss.
    public var synchronous: Synchronous = .full

    /// `PRAGMA synchronous` levels.
    public enum Synchronous: String, Sendable { case off, normal, full, extra }

    /// The defaults above.
    public init() {}
}

/// The result of a writing command.
public struct AppendResult: Sendable, Hashable {
    /// The session key.
    public var session: String
    /// The session's version after the command (unchanged when nothing was appended).
    public var version: Int
    /// `ok`, or `vetoed` when a guard refused and the veto was recorded.
    public var outcome: CommandOutcome
    /// The appended event, or `nil` when the command changed nothing.
    public var event: Event?
    /// When the event was stamped without an explicit time while the wall clock was behind the
    /// session's previous event: the clock's reading (ms since the Unix epoch). The event got the
    /// previous event's time instead, since times never go backwards (<doc:Events>). `nil` otherwise.
    public var clockBehind: Int64? = nil
}

/// A session as ``NavigationStore/sessions()`` lists it.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// The session key (stream name).
    public var key: String
    /// The human name given at `session start`, if any.
    public var name: String?
    /// The version of the newest event.
    public var version: Int
    /// The number of layers (1 + presented modal stacks).
    public var layers: Int
    /// The number of live entries over all layers.
    public var depth: Int
    /// When the session started, in milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// The time of the newest event, in milliseconds since the Unix epoch.
    public var updatedAt: Int64
    /// The generation of rules the session follows, fixed when it started (<doc:PlatformGenerations>).
    public var platform: PlatformGeneration
}

/// A point in a session's history: the state after `version`, or after the last event at or
/// before `time` (milliseconds since the Unix epoch).
public enum HistoryPoint: Sendable, Hashable {
    /// The state after the event with this 1-based version.
    case version(Int)
    /// The state after the last event at or before this time (ms since the Unix epoch).
    case time(Int64)
}

/// A session's state at a version, with the back button and menu it implies.
public struct VersionedState: Sendable, Hashable {
    /// The session key.
    public var session: String
    /// The version the state is after.
    public var version: Int
    /// The time of that version's event (ms since the Unix epoch), `nil` for version 0.
    public var at: Int64?
    /// The navigation state. Its ``SessionState/platform`` is the generation the label is
    /// resolved under: the session's own, or the one a what-if read asked for.
    public var state: SessionState
    /// The generation the session's log records (fixed at its start), whatever ``state`` is
    /// resolved under.
    public var recordedPlatform: PlatformGeneration
    /// The back button at this point (rules 1–5, under `state.platform`), or `nil`.
    public var backButton: BackButton? { state.backButton }
    /// The back menu at this point (rules 6–8), or `nil`.
    public var backMenu: [BackMenuRow]? { state.backMenu }
    /// Whether this is a what-if read: resolved under another generation than the recorded one.
    public var isWhatIf: Bool { state.platform != recordedPlatform }

    /// Creates a versioned state; `recordedPlatform` defaults to the state's own generation.
    public init(
        session: String, version: Int, at: Int64?, state: SessionState, recordedPlatform: PlatformGeneration? = nil
    ) {
        self.session = session
        self.version = version
        self.at = at
        self.state = state
        self.recordedPlatform = recordedPlatform ?? state.platform
    }

    /// The same point resolved under `platform` (a what-if read when it is not the recorded
    /// generation; `nil` keeps the state as it is). Nothing is written.
    public func resolved(under platform: PlatformGeneration?) -> VersionedState {
        guard let platform else { return self }
        var copy = self
        copy.state.platform = platform
        return copy
    }
}

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
    public init(path: String, create: Bool = true, options: StoreOptions = StoreOptions()) throws(StoreError) {
        let isPostgreSQL = PostgreSQLURI.isURI(path)
        // A URI's password never reaches a message: the store is named by the URI without it.
        let displayed = isPostgreSQL ? PostgreSQLURI.displayed(path) : path
        self.path = displayed
        self.options = options
        do {
            if isPostgreSQL {
                let connection = try PostgreSQLStoreDatabase.open(uri: path, displayName: displayed, create: create)
                core = Mutex(StoreCore(connection, readOnly: false, options: options))
            } else {
                let (connection, readOnly) = try SQLiteStoreFile.open(path: path, create: create, options: options)
                core = Mutex(StoreCore(connection, readOnly: readOnly, options: options))
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
    ///   ``StoreError/rules(_:)`` with ``NavigationError/invalidEvent(_:)`` for an `eventID` that
    ///   is not a UUID, database errors.
    @discardableResult
    public func startSession(
        _ key: String, name: String? = nil, platform: PlatformGeneration = .default, at: Int64? = nil,
        expectedVersion: Int? = nil, eventID: String? = nil
    ) throws(StoreError) -> AppendResult {
        guard !key.isEmpty else { throw .emptySessionKey }
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
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``, database errors.
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
                throw .entryNotLive(id: entryID, stack: state.stackDescription)
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
                    SELECT \(SessionRow.columns("s.")),
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
                    (state, at) = try core.state(of: row, atVersion: version, repairing: false)
                    if try core.snapshotsNeedRepair(row, atOrBelow: version) { repair = row.id }
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

/// Which events ``NavigationStore/events(session:filter:_:)`` streams.
public struct EventFilter: Sendable, Hashable {
    /// Only these event types (e.g. `entry.pushed`); `nil` for all.
    public var types: Set<String>?
    /// Only events that name this entry id (pushed, popped, updated, ...).
    public var entry: String?
    /// Only events at or after this time (ms since the Unix epoch).
    public var since: Int64?
    /// Only events at or before this time (ms since the Unix epoch).
    public var until: Int64?
    /// Only versions at or above this one.
    public var fromVersion: Int?
    /// Only versions at or below this one.
    public var toVersion: Int?
    /// At most this many events (after the other filters).
    public var limit: Int?
    /// Newest first.
    public var reverse: Bool

    /// A filter; every argument defaults to "no restriction".
    public init(
        types: Set<String>? = nil, entry: String? = nil, since: Int64? = nil, until: Int64? = nil,
        fromVersion: Int? = nil, toVersion: Int? = nil, limit: Int? = nil, reverse: Bool = false
    ) {
        self.types = types
        self.entry = entry
        self.since = since
        self.until = until
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.limit = limit
        self.reverse = reverse
    }
}

/// Thrown inside a stream to stop it when the caller's closure failed.
struct StreamStopped: Error {}

extension StoreError {
    /// Maps an error raised inside the store to a ``StoreError``, keeping its cause: a database
    /// error by its ``DatabaseBackendError/category``, an unreadable row or column as such, a
    /// migration refused as the file's verdict. An error from outside the store (a caller's
    /// closure or line reader) becomes ``interrupted(path:reason:)``.
    static func from(_ error: any Error, path: String, options: StoreOptions) -> StoreError {
        switch error {
        case let error as StoreError: return error
        case let error as NavigationError: return .rules(error)
        case let error as UnreadableRow: return .unreadableRow(path: path, error)
        case let error as RowDecodingError: return .unreadableValue(path: path, reason: error.description)
        case let error as MigrationRefused: return from(error, path: path)
        case let error as any DatabaseBackendError:
            let cause = error.databaseError
            switch error.category {
            case .busy: return .busy(path: path, milliseconds: options.busyTimeoutMilliseconds, cause: cause)
            case .notADatabase: return .notANavdbFile(path: path, reason: "not an SQLite database")
            case .readOnly: return .readOnly(path: path, cause: cause)
            case .diskFull: return .diskFull(path: path, cause: cause)
            case .cannotOpen: return .openFailed(path: path, cause: cause)
            case .corrupt: return .corrupt(path: path, cause: cause)
            case .uniqueViolation, .other: return .database(cause)
            }
        default:
            return .interrupted(path: path, reason: String(describing: error))
        }
    }

    /// A migration refused, as the verdict on the file.
    private static func from(_ error: MigrationRefused, path: String) -> StoreError {
        switch error.check {
        case .newer(let version):
            .newerSchema(path: path, found: Int(version), supported: Int(error.supported))
        case .foreign(let applicationID):
            .notANavdbFile(
                path: path, reason: "an SQLite database of another application (application_id \(applicationID))")
        case .notADatabase, .empty, .current, .needsMigration:
            .notANavdbFile(path: path, reason: "not an SQLite database")
        }
    }
}
