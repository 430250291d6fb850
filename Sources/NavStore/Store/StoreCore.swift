#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A session's row in `sessions`.
struct SessionRow {
    var id: Int64
    var key: String
    var name: String?
    var createdAt: Int64
    var updatedAt: Int64
    var version: Int
}

/// One session being written in the current transaction (a single append, a batch or an
/// import): what its projection holds, the running state, its version and newest event time.
struct SessionWrite {
    /// The session's row as read when the write began.
    let row: SessionRow
    /// The state the `layers` and `entries` projection holds (the state at `row.version`).
    let projected: SessionState
    /// The state after the events appended so far.
    var state: SessionState
    /// The version of the newest event appended (`row.version` before any).
    var version: Int
    /// The time of the newest event, in ms since the Unix epoch (`row.updatedAt` before any).
    var lastAt: Int64
}

/// The connection and what goes with it, owned by ``NavigationStore`` behind its mutex.
///
/// `@unchecked Sendable` only so that `Mutex` can hold it: it is reached solely through
/// `NavigationStore.withCore`, under the lock, and never escapes it (the connection itself is
/// not `Sendable`).
final class StoreCore: @unchecked Sendable {
    let db: Connection
    /// Whether the file could only be opened read-only (reads work, writes fail with exit 74).
    let readOnly: Bool
    let options: StoreOptions
    let encoder: JSONEncoder
    let decoder = JSONDecoder()
    /// The current state of recently written sessions, keyed by session id, valid while the
    /// session's version in the database equals the cached one.
    var cache: [Int64: (version: Int, state: SessionState)] = [:]
    /// Makes the ids of events appended without one.
    var eventIDs = EventIDGenerator()

    init(_ db: Connection, readOnly: Bool, options: StoreOptions) {
        self.db = db
        self.readOnly = readOnly
        self.options = options
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    // MARK: Opening

    /// Opens the file and brings it to the current schema, refusing foreign or newer files before
    /// anything is written (https://sqlite.org/pragma.html#pragma_application_id).
    static func open(path: String, create: Bool, options: StoreOptions) throws -> (Connection, readOnly: Bool) {
        let existed = FileManager.default.fileExists(atPath: path)
        if !existed && !create { throw StoreError.databaseNotFound(path: path) }
        let attributes = existed ? try? FileManager.default.attributesOfItem(atPath: path) : nil
        if attributes?[.type] as? FileAttributeType == .typeDirectory {
            throw StoreError.cannotOpen(path: path, reason: "it is a directory")
        }
        if let size = attributes?[.size] as? Int, size == 0 {
            throw StoreError.notANavdbFile(path: path, reason: "the file is empty (0 bytes)")
        }
        let db: Connection
        var readOnly = false
        do {
            db = try Connection(path: path, mode: existed ? .readWrite : .readWriteCreate)
        } catch {
            if existed, error.isReadOnly || error.isCantOpen {
                db = try Connection(path: path, mode: .readOnly)
                readOnly = true
            } else {
                throw error
            }
        }
        try db.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
        switch try Migrator.inspect(db) {
        case .notADatabase:
            throw StoreError.notANavdbFile(path: path, reason: "not an SQLite database")
        case .foreign(let applicationID):
            throw StoreError.notANavdbFile(path: path, reason: applicationID == 0
                ? "an SQLite database of another application (it has tables but no navdb application_id)"
                : "an SQLite database of another application (application_id \(applicationID))")
        case .newer(let version):
            throw StoreError.newerSchema(path: path, found: Int(version), supported: Int(Migrator.currentVersion))
        case .empty:
            if existed { throw StoreError.notANavdbFile(path: path, reason: "an empty SQLite database without the navdb schema") }
            try configure(db, options: options)
            try Migrator.migrate(db)
        case .needsMigration:
            try configure(db, options: options)
            try Migrator.migrate(db)
        case .current:
            if !readOnly { try configure(db, options: options) }
        }
        return (db, readOnly)
    }

    /// The connection's settings, each a named step (DESIGN §5).
    private static func configure(_ db: Connection, options: StoreOptions) throws {
        try db.enableForeignKeys()
        if try db.pragmaText("journal_mode")?.lowercased() != "wal" {
            try db.setJournalModeWAL()
        }
        try db.setSynchronous(Connection.Synchronous(rawValue: options.synchronous.rawValue) ?? .full)
    }

    // MARK: Sessions

    func sessionRow(_ key: String) throws -> SessionRow? {
        let statement = try db.cachedStatement("SELECT id, name, created_at, updated_at, version FROM sessions WHERE key = ?")
        statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        let row = SessionRow(id: statement.int64(at: 0), key: key, name: statement.string(at: 1),
                             createdAt: statement.int64(at: 2), updatedAt: statement.int64(at: 3), version: statement.int(at: 4))
        statement.reset()
        return row
    }

    func createSession(key: String, name: String?, at: Int64) throws -> SessionRow {
        let insert = try db.cachedStatement("INSERT INTO sessions (key, name, created_at, updated_at, version) VALUES (?, ?, ?, ?, 0)")
        insert.bind(key, at: 1)
        insert.bind(name, at: 2)
        insert.bind(at, at: 3)
        insert.bind(at, at: 4)
        try insert.run()
        let id = db.lastInsertRowID
        let layer = try db.cachedStatement("INSERT INTO layers (session_id, layer, modal_in_presentation) VALUES (?, 0, 0)")
        layer.bind(id, at: 1)
        try layer.run()
        return SessionRow(id: id, key: key, name: name, createdAt: at, updatedAt: at, version: 0)
    }

    /// The time for a new event: the given one (refused when earlier than the previous event), or
    /// now, never earlier than the previous event.
    func eventTime(_ given: Int64?, after row: SessionRow) throws -> Int64 {
        guard let given else { return max(Timestamp.now(), row.updatedAt) }
        if row.version > 0 && given < row.updatedAt {
            throw StoreError.timeBeforePrevious(session: row.key, given: given, previous: row.updatedAt)
        }
        return given
    }

    // MARK: Appending

    /// Starts writing `row` in the current transaction: the running state begins at `state`
    /// (the current state, read from the cache or the projection when `nil`).
    func beginWrite(_ row: SessionRow, state: SessionState? = nil) throws -> SessionWrite {
        let current = try state ?? currentState(row)
        return SessionWrite(row: row, projected: current, state: current, version: row.version, lastAt: row.updatedAt)
    }

    /// Appends `body` as the next event of `write` (one insert with a cached statement), folds it
    /// into the running state and writes a snapshot every K versions. The projection and the
    /// session row are left to ``finishWrite(_:)``, once per transaction. Runs inside the caller's
    /// transaction.
    /// - Parameter ignoreKnownID: insert nothing and return `nil` when `eventID` is already stored
    ///   (`ON CONFLICT (event_id) DO NOTHING`), instead of failing with a constraint error.
    @discardableResult
    func appendEvent(_ body: EventBody, to write: inout SessionWrite, at: Int64, eventID: String?, ignoreKnownID: Bool = false) throws -> Event? {
        let id = eventID ?? newEventID()
        let version = write.version + 1
        guard let seq = try insertEvent(body, sessionID: write.row.id, version: version, at: at, eventID: id, ignoreKnownID: ignoreKnownID) else {
            return nil
        }
        write.state.apply(body)
        write.version = version
        write.lastAt = at
        if version % options.snapshotInterval == 0 {
            try writeSnapshot(sessionID: write.row.id, version: version, state: write.state)
        }
        return Event(seq: seq, session: write.row.key, version: version, at: at, eventID: id, body: body)
    }

    /// Ends a write: the projection diff from the state it started at to the running state, the
    /// session row's version and time, once, and the cache. Does nothing when nothing was appended.
    func finishWrite(_ write: SessionWrite) throws {
        guard write.version != write.row.version else { return }
        try writeProjection(sessionID: write.row.id, from: write.projected, to: write.state)
        try updateSession(id: write.row.id, version: write.version, at: write.lastAt)
        cache[write.row.id] = (write.version, write.state)
    }

    /// Appends one event after `state`: ``beginWrite(_:state:)``, ``appendEvent(_:to:at:eventID:ignoreKnownID:)``
    /// and ``finishWrite(_:)``, the path every single write shares with batches and imports.
    @discardableResult
    func append(_ body: EventBody, to row: SessionRow, state: SessionState, at: Int64, eventID: String?) throws -> Event {
        var write = try beginWrite(row, state: state)
        let event = try appendEvent(body, to: &write, at: at, eventID: eventID)!
        try finishWrite(write)
        return event
    }

    /// Inserts one row into `events` with a cached statement.
    /// - Returns: the new `seq`, or `nil` when `ignoreKnownID` and the event id is already stored.
    func insertEvent(_ body: EventBody, sessionID: Int64, version: Int, at: Int64, eventID: String, ignoreKnownID: Bool = false) throws -> Int64? {
        let insert = try db.cachedStatement(ignoreKnownID
            ? "INSERT INTO events (session_id, version, type, at, event_id, payload) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING"
            : "INSERT INTO events (session_id, version, type, at, event_id, payload) VALUES (?, ?, ?, ?, ?, ?)")
        insert.bind(sessionID, at: 1)
        insert.bind(version, at: 2)
        insert.bind(body.type, at: 3)
        insert.bind(at, at: 4)
        insert.bind(eventID, at: 5)
        insert.bind(try payloadText(body), at: 6)
        try insert.run()
        if ignoreKnownID && db.changes == 0 { return nil }
        return db.lastInsertRowID
    }

    /// The payload text stored in `events.payload`: ``PayloadWriter``'s, the same JSON as
    /// ``EventBody/payloadJSON()`` at a fraction of the cost, or `JSONEncoder`'s when the writer
    /// leaves it (a non-integer number in params).
    func payloadText(_ body: EventBody) throws -> String {
        if let text = PayloadWriter.json(body) { return text }
        return String(decoding: try body.payloadData(encoder), as: UTF8.self)
    }

    /// A new event id: a version 7 UUID in lowercase text (see ``EventIDGenerator``).
    func newEventID() -> String {
        eventIDs.next()
    }

    func updateSession(id: Int64, version: Int, at: Int64) throws {
        let update = try db.cachedStatement("UPDATE sessions SET version = ?, updated_at = ? WHERE id = ?")
        update.bind(version, at: 1)
        update.bind(at, at: 2)
        update.bind(id, at: 3)
        try update.run()
    }

    func writeSnapshot(sessionID: Int64, version: Int, state: SessionState) throws {
        let insert = try db.cachedStatement("INSERT OR REPLACE INTO snapshots (session_id, version, rules_version, state) VALUES (?, ?, ?, ?)")
        insert.bind(sessionID, at: 1)
        insert.bind(version, at: 2)
        insert.bind(navigationRulesVersion, at: 3)
        insert.bind(String(decoding: try encoder.encode(state), as: UTF8.self), at: 4)
        try insert.run()
    }

    // MARK: Projection

    /// Writes only what differs between `old` and `new` to `layers` and `entries`, so a push is
    /// one insert and a pop one delete.
    func writeProjection(sessionID: Int64, from old: SessionState, to new: SessionState) throws {
        if old.layers.count > new.layers.count {
            let deleteEntries = try db.cachedStatement("DELETE FROM entries WHERE session_id = ? AND layer >= ?")
            deleteEntries.bind(sessionID, at: 1)
            deleteEntries.bind(new.layers.count, at: 2)
            try deleteEntries.run()
            let deleteLayers = try db.cachedStatement("DELETE FROM layers WHERE session_id = ? AND layer >= ?")
            deleteLayers.bind(sessionID, at: 1)
            deleteLayers.bind(new.layers.count, at: 2)
            try deleteLayers.run()
        }
        for (index, layer) in new.layers.enumerated() {
            let oldLayer: Layer? = index < old.layers.count ? old.layers[index] : nil
            if oldLayer?.modalInPresentation != layer.modalInPresentation || oldLayer == nil {
                let upsert = try db.cachedStatement("INSERT OR REPLACE INTO layers (session_id, layer, modal_in_presentation) VALUES (?, ?, ?)")
                upsert.bind(sessionID, at: 1)
                upsert.bind(index, at: 2)
                upsert.bind(layer.modalInPresentation, at: 3)
                try upsert.run()
            }
            let oldEntries = oldLayer?.entries ?? []
            if oldEntries.count > layer.entries.count {
                let delete = try db.cachedStatement("DELETE FROM entries WHERE session_id = ? AND layer = ? AND position >= ?")
                delete.bind(sessionID, at: 1)
                delete.bind(index, at: 2)
                delete.bind(layer.entries.count, at: 3)
                try delete.run()
            }
            for (position, entry) in layer.entries.enumerated() where position >= oldEntries.count || oldEntries[position] != entry {
                let upsert = try db.cachedStatement("""
                    INSERT OR REPLACE INTO entries (session_id, layer, position, entry_id, route, params, item)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
                upsert.bind(sessionID, at: 1)
                upsert.bind(index, at: 2)
                upsert.bind(position, at: 3)
                upsert.bind(entry.id, at: 4)
                upsert.bind(entry.route, at: 5)
                upsert.bind(try entry.params.map { String(decoding: try encoder.encode($0), as: UTF8.self) }, at: 6)
                upsert.bind(String(decoding: try encoder.encode(entry.item), as: UTF8.self), at: 7)
                try upsert.run()
            }
        }
    }

    /// The session's current state: from the cache when its version matches, else one read of the
    /// projection.
    func currentState(_ row: SessionRow) throws -> SessionState {
        if let cached = cache[row.id], cached.version == row.version { return cached.state }
        let state = try projectedState(sessionID: row.id)
        cache[row.id] = (row.version, state)
        return state
    }

    /// Reads the projection of a session as a state.
    func projectedState(sessionID: Int64) throws -> SessionState {
        var layers: [Layer] = []
        let layerRows = try db.cachedStatement("SELECT layer, modal_in_presentation FROM layers WHERE session_id = ? ORDER BY layer")
        layerRows.bind(sessionID, at: 1)
        try layerRows.forEachRow { row in
            layers.append(Layer(entries: [], modalInPresentation: row.int(at: 1) != 0))
        }
        let entryRows = try db.cachedStatement("SELECT layer, entry_id, route, params, item FROM entries WHERE session_id = ? ORDER BY layer, position")
        entryRows.bind(sessionID, at: 1)
        try entryRows.forEachRow { row in
            let layer = row.int(at: 0)
            while layers.count <= layer { layers.append(Layer()) }
            let params = try row.string(at: 3).map { try decoder.decode([String: JSONValue].self, from: Data($0.utf8)) }
            let item = try decoder.decode(NavigationItem.self, from: Data((row.string(at: 4) ?? "{}").utf8))
            layers[layer].entries.append(Entry(id: row.string(at: 1) ?? "", route: row.string(at: 2), params: params, item: item))
        }
        return SessionState(layers: layers)
    }

    // MARK: History

    /// The version a point names: 1...current, or the newest at or before a time.
    func resolve(_ point: HistoryPoint?, in row: SessionRow) throws -> Int {
        switch point {
        case nil:
            return row.version
        case .version(let version):
            guard version >= 1, version <= row.version else {
                throw StoreError.pointOutOfRange(session: row.key, point: "version \(version)", accepted: "versions 1...\(row.version)")
            }
            return version
        case .time(let time):
            let statement = try db.cachedStatement("SELECT max(version) FROM events WHERE session_id = ? AND at <= ?")
            statement.bind(row.id, at: 1)
            statement.bind(time, at: 2)
            _ = try statement.step()
            let found = statement.isNull(at: 0) ? nil : statement.int(at: 0)
            statement.reset()
            guard let found else {
                throw StoreError.pointOutOfRange(session: row.key, point: "time \(Timestamp.format(time))",
                                                 accepted: "times from \(Timestamp.format(row.createdAt)), when the session began; later times give the newest state")
            }
            return found
        }
    }

    /// The state after `version` and that event's time: the nearest snapshot at or below it under
    /// the current rules, then at most K events. Snapshots of other rules versions are ignored,
    /// and rebuilt when the connection can write.
    func state(of row: SessionRow, atVersion version: Int) throws -> (SessionState, Int64?) {
        var (base, baseVersion) = try nearestSnapshot(sessionID: row.id, atOrBelow: version)
        if baseVersion == nil, try hasStaleSnapshots(sessionID: row.id, atOrBelow: version), !readOnly {
            try rebuildSnapshots(sessionID: row.id)
            (base, baseVersion) = try nearestSnapshot(sessionID: row.id, atOrBelow: version)
        }
        var state = base ?? SessionState()
        var at: Int64?
        let statement = try db.cachedStatement("SELECT type, payload, at FROM events WHERE session_id = ? AND version > ? AND version <= ? ORDER BY version")
        statement.bind(row.id, at: 1)
        statement.bind(baseVersion ?? 0, at: 2)
        statement.bind(version, at: 3)
        try statement.forEachRow { row in
            let body = try EventBody(type: row.string(at: 0) ?? "", payload: Array((row.string(at: 1) ?? "").utf8))
            state.apply(body)
            at = row.int64(at: 2)
        }
        if at == nil { at = try eventTime(sessionID: row.id, version: version) }
        return (state, at)
    }

    func eventTime(sessionID: Int64, version: Int) throws -> Int64? {
        let statement = try db.cachedStatement("SELECT at FROM events WHERE session_id = ? AND version = ?")
        statement.bind(sessionID, at: 1)
        statement.bind(version, at: 2)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    func nearestSnapshot(sessionID: Int64, atOrBelow version: Int) throws -> (SessionState?, Int?) {
        let statement = try db.cachedStatement("""
            SELECT version, state FROM snapshots
            WHERE session_id = ? AND version <= ? AND rules_version = ?
            ORDER BY version DESC LIMIT 1
            """)
        statement.bind(sessionID, at: 1)
        statement.bind(version, at: 2)
        statement.bind(navigationRulesVersion, at: 3)
        defer { statement.reset() }
        guard try statement.step() else { return (nil, nil) }
        let state = try decoder.decode(SessionState.self, from: Data((statement.string(at: 1) ?? "").utf8))
        return (state, statement.int(at: 0))
    }

    func hasStaleSnapshots(sessionID: Int64, atOrBelow version: Int) throws -> Bool {
        let statement = try db.cachedStatement("SELECT EXISTS (SELECT 1 FROM snapshots WHERE session_id = ? AND version <= ? AND rules_version <> ?)")
        statement.bind(sessionID, at: 1)
        statement.bind(version, at: 2)
        statement.bind(navigationRulesVersion, at: 3)
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int(at: 0) != 0
    }

    /// Drops a session's snapshots and writes them again from a fold of its log.
    func rebuildSnapshots(sessionID: Int64) throws {
        let delete = try db.cachedStatement("DELETE FROM snapshots WHERE session_id = ?")
        delete.bind(sessionID, at: 1)
        try delete.run()
        var state = SessionState()
        try foldLog(sessionID: sessionID) { version, _, body in
            state.apply(body)
            if version % options.snapshotInterval == 0 { try writeSnapshot(sessionID: sessionID, version: version, state: state) }
        }
    }

    /// Streams a session's log in version order as (version, time, decoded body).
    func foldLog(sessionID: Int64, _ body: (Int, Int64, EventBody) throws -> Void) throws {
        let statement = try db.prepare("SELECT version, at, type, payload FROM events WHERE session_id = ? ORDER BY version")
        statement.bind(sessionID, at: 1)
        try statement.forEachRow { row in
            try body(row.int(at: 0), row.int64(at: 1), try EventBody(type: row.string(at: 2) ?? "", payload: Array((row.string(at: 3) ?? "").utf8)))
        }
    }

    /// Streams events matching `filter` (all sessions in `seq` order when `sessionID` is `nil`).
    func streamEvents(sessionID: Int64?, filter: EventFilter, _ body: (Event) throws -> Void) throws {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let sessionID { conditions.append("e.session_id = ?"); values.append(.integer(sessionID)) }
        if let since = filter.since { conditions.append("e.at >= ?"); values.append(.integer(since)) }
        if let until = filter.until { conditions.append("e.at <= ?"); values.append(.integer(until)) }
        if let from = filter.fromVersion { conditions.append("e.version >= ?"); values.append(.integer(Int64(from))) }
        if let to = filter.toVersion { conditions.append("e.version <= ?"); values.append(.integer(Int64(to))) }
        if let types = filter.types, !types.isEmpty {
            conditions.append("e.type IN (" + Array(repeating: "?", count: types.count).joined(separator: ", ") + ")")
            values.append(contentsOf: types.sorted().map { .text($0) })
        }
        let order = sessionID == nil ? "e.seq" : "e.version"
        let sql = """
            SELECT e.seq, s.key, e.version, e.type, e.at, e.event_id, e.payload
            FROM events AS e JOIN sessions AS s ON s.id = e.session_id
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            ORDER BY \(order) \(filter.reverse ? "DESC" : "ASC")
            """
        let statement = try db.prepare(sql)
        statement.bind(values)
        var emitted = 0
        if let limit = filter.limit, limit <= 0 { return }
        while try statement.step() {
            let type = statement.string(at: 3) ?? ""
            let payload = statement.string(at: 6) ?? ""
            let eventBody = try EventBody(type: type, payload: Array(payload.utf8))
            if let entry = filter.entry, !eventBody.entryIDs.contains(entry) { continue }
            try body(Event(seq: statement.int64(at: 0), session: statement.string(at: 1) ?? "", version: statement.int(at: 2),
                           at: statement.int64(at: 4), eventID: statement.string(at: 5) ?? "", body: eventBody))
            emitted += 1
            if let limit = filter.limit, emitted >= limit { break }
        }
    }
}
