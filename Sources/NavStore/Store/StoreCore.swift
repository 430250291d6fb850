#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A session's row in `sessions`.
struct SessionRow {
    var id: Int64
    var key: String
    var name: String?
    var createdAt: Int64
    var updatedAt: Int64
    var version: Int
    /// The session's platform generation (`sessions.platform`, from its `session.started`).
    var platform: PlatformGeneration
    /// Set by ``StoreCore/allSessions()`` (for `check` and `rebuild`) when `sessions.platform`
    /// holds no generation's name; ``platform`` is then ``PlatformGeneration/default``.
    var unreadablePlatform: UnreadableRow? = nil
}

extension SessionRow {
    /// The `sessions` columns ``init(reading:)`` reads, in order, each prefixed by `table` (e.g.
    /// `s.`): `SELECT \(SessionRow.columns()) FROM sessions ...`.
    static func columns(_ table: String = "") -> String {
        ["id", "key", "name", "created_at", "updated_at", "version", "platform"].map { table + $0 }.joined(
            separator: ", ")
    }

    /// The row a statement selecting ``columns(_:)`` is on. A `platform` holding no generation's
    /// name does not stop the read: the row gets the default generation and
    /// ``unreadablePlatform`` (reads refuse it, `check` reports it, `rebuild` rewrites it).
    init(reading s: Statement) {
        let key = s.string(at: 1) ?? ""
        self.init(
            id: s.int64(at: 0), key: key, name: s.string(at: 2), createdAt: s.int64(at: 3),
            updatedAt: s.int64(at: 4), version: s.int(at: 5), platform: .default)
        do { platform = try StoreCore.platform(s.string(at: 6), session: key) } catch let error as UnreadableRow {
            unreadablePlatform = error
        } catch {}
    }
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
    /// The event id of the newest event, once known: set by each append (`nil` until then, or
    /// until a reader looks it up).
    var lastEventID: String? = nil
}

/// The current state of the sessions written or read most recently, each valid while the session's
/// version in the database equals the cached one. A few entries searched in order: a plain array
/// of a struct, where a dictionary keyed by session cost a measurable part of a one-shot
/// `navdb push` (its generic metadata is built at run time).
struct StateCache {
    private struct Item {
        var session: Int64
        var version: Int
        var state: SessionState
    }
    private var items: [Item] = []
    /// How many sessions are kept.
    static let capacity = 8

    /// The cached state of `session` at `version`, if any.
    func state(session: Int64, version: Int) -> SessionState? {
        items.first { $0.session == session && $0.version == version }?.state
    }

    /// Keeps `state` as `session`'s state at `version`, most recent first.
    mutating func store(_ state: SessionState, version: Int, session: Int64) {
        items.removeAll { $0.session == session }
        items.insert(Item(session: session, version: version, state: state), at: 0)
        if items.count > Self.capacity { items.removeLast() }
    }

    /// Forgets everything (after a failed transaction, whose versions may be reused).
    mutating func removeAll() { items.removeAll() }
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
    /// Made on first use: most commands never need it now that `PayloadReader` reads the store's own JSON.
    lazy var decoder = JSONDecoder()
    /// The current state of recently used sessions (see ``StateCache``).
    var cache = StateCache()
    /// Makes the ids of events appended without one.
    var eventIDs = EventIDGenerator()
    /// The two forms of the hot `INSERT INTO events`, prepared on first use.
    private var insertEvent: Statement?
    private var insertEventIgnoringKnownID: Statement?

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
        var kind = fileKind(path)
        if kind == .missing && !create { throw StoreError.databaseNotFound(path: path) }
        // A symbolic link to a missing file: the new database is made at the link's target.
        if kind == .missing, path != ":memory:", !path.isEmpty,
            try createAtomically(path: Connection.danglingLinkTarget(path) ?? path, options: options)
        {
            kind = fileKind(path)
        }
        let existed = kind != .missing
        if kind == .directory { throw StoreError.cannotOpen(path: path, reason: "it is a directory") }
        if case .special(let what) = kind {
            throw StoreError.notANavdbFile(path: path, reason: "it is \(what), not a database file")
        }
        if kind == .emptyFile { throw StoreError.notANavdbFile(path: path, reason: "the file is empty (0 bytes)") }
        if kind == .file { try identify(path: path) }
        var db: Connection
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
        var check: SchemaCheck?
        do {
            check = try Migrator.inspect(db)
        } catch {
            guard existed, error.isCantOpen || error.isReadOnly, fileKind(path + "-wal") == .missing else {
                throw error
            }
            // A WAL database in a directory we cannot write: SQLite cannot create the -wal and
            // -shm files that even a reader needs. With no -wal file, the file alone holds every
            // committed transaction, and nobody can be writing it (a writer needs that -wal), so
            // it is read as immutable: reads work, writes fail as read-only (exit 74).
            db = try Connection(path: path, mode: .readOnlyImmutable)
            readOnly = true
        }
        if check == nil { check = try Migrator.inspect(db) }
        switch check! {
        case .notADatabase:
            throw StoreError.notANavdbFile(path: path, reason: "not an SQLite database")
        case .foreign(let applicationID):
            throw StoreError.notANavdbFile(
                path: path,
                reason: applicationID == 0
                    ? "an SQLite database of another application (it has tables but no navdb application_id)"
                    : "an SQLite database of another application (application_id \(applicationID))")
        case .newer(let version):
            throw StoreError.newerSchema(path: path, found: Int(version), supported: Int(Migrator.currentVersion))
        case .empty:
            if existed {
                throw StoreError.notANavdbFile(path: path, reason: "an empty SQLite database without the navdb schema")
            }
            // Migrate before switching to WAL, so that a process killed in between leaves either
            // a file we created and never wrote (0 bytes) or a complete schema.
            try Migrator.migrate(db)
            try configure(db, options: options)
        case .needsMigration:
            try configure(db, options: options)
            try Migrator.migrate(db)
        case .current:
            if !readOnly { try configure(db, options: options) }
        }
        return (db, readOnly)
    }

    /// What is at a path, from one `stat(2)` (FileManager's attributes also read the user and
    /// group databases, a measurable part of a `navdb push`).
    private enum FileKind: Equatable {
        case missing, directory, emptyFile, file
        /// Not a regular file: a FIFO, a device (`/dev/null`), a socket; the text says which.
        case special(String)
    }

    private static func fileKind(_ path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFIFO: return .special("a FIFO (named pipe)")
        case S_IFCHR: return .special("a character device")
        case S_IFBLK: return .special("a block device")
        case S_IFSOCK: return .special("a socket")
        default: return info.st_size == 0 ? .emptyFile : .file
        }
    }

    /// Reads the 100-byte header of an existing file and refuses it unless it is a navdb
    /// database of a schema this navdb knows, before SQLite opens it: opening a WAL database
    /// recovers its `-wal`, and closing it checkpoints and deletes the `-wal` and `-shm`, which
    /// must never happen to another application's file. The header's fields are at fixed
    /// offsets (https://sqlite.org/fileformat2.html#the_database_header): the magic string at 0,
    /// the schema cookie at 40, `user_version` at 60 and `application_id` at 68, big-endian.
    /// A navdb file has its `application_id` in the file itself from its creation on (the
    /// schema is written before WAL mode is turned on, or checkpointed before the file appears).
    /// - Throws: ``StoreError/notANavdbFile(path:reason:)`` or ``StoreError/newerSchema(path:found:supported:)``.
    private static func identify(path: String) throws {
        let fd = openForReading(path)
        // Unreadable: left to SQLite, which says why (permissions...).
        guard fd >= 0 else { return }
        var header = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < header.count {
            let got = header.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, 100 - count) }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            count += got
        }
        close(fd)
        guard count == 100, header.prefix(16).elementsEqual(Array("SQLite format 3".utf8) + [0]) else {
            throw StoreError.notANavdbFile(path: path, reason: "not an SQLite database")
        }
        func field(_ offset: Int) -> Int32 {
            Int32(bitPattern: header[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        let applicationID = field(68)
        if applicationID == Migrator.applicationID {
            let version = field(60)
            if version > Migrator.currentVersion {
                throw StoreError.newerSchema(path: path, found: Int(version), supported: Int(Migrator.currentVersion))
            }
            return
        }
        if applicationID != 0 {
            throw StoreError.notANavdbFile(
                path: path, reason: "an SQLite database of another application (application_id \(applicationID))")
        }
        var wal = stat()
        let pendingWAL = stat(path + "-wal", &wal) == 0 && wal.st_size > 0
        throw StoreError.notANavdbFile(
            path: path,
            reason: field(40) != 0
                ? "an SQLite database of another application (it has tables but no navdb application_id)"
                : pendingWAL
                    ? "an SQLite database of another application (no navdb application_id; its -wal holds changes not yet in the file)"
                    : "an empty SQLite database without the navdb schema")
    }

    /// Creates a new database at `path` without ever showing an unfinished file there: it is
    /// built under a temporary name in the same directory (WAL mode, migrated, checkpointed),
    /// then hard-linked to `path` (`link(2)` fails when `path` exists). A process racing to
    /// create the same file, and the next run after a crash during creation, thus find either no
    /// file or a complete navdb database, never an empty file that ``open(path:create:options:)``
    /// must refuse as someone else's.
    /// - Returns: `true` when `path` now holds a file (ours, or one a racing process created
    ///   first); `false` when this way is not available (the temporary file cannot be created, or
    ///   the file system has no hard links): the caller then creates `path` in place.
    /// - Throws: what configuring or migrating the new file throws (a full disk...); the
    ///   temporary files are removed.
    private static func createAtomically(path: String, options: StoreOptions) throws -> Bool {
        let temporary = path + ".creating-" + String(UInt64.random(in: 0 ... .max), radix: 36)
        let db: Connection
        do { db = try Connection(path: temporary, mode: .readWriteCreate) } catch { return false }
        defer { for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) } }
        do {
            // Migrated in the rollback-journal mode a new file starts in, then switched to WAL:
            // each migration's journal is deleted when it commits, where a WAL would hold every
            // migration's pages until the checkpoint (the peak size matters on a nearly full disk).
            try Migrator.migrate(db)
            try configure(db, options: options)
            // Everything into the file itself: the -wal is named after the temporary path.
            try db.checkpoint(mode: .truncate)
        } catch {
            db.close()
            throw error
        }
        db.close()
        return link(temporary, path) == 0 || errno == EEXIST
    }

    /// The connection's settings, each a named step (DESIGN §5).
    private static func configure(_ db: Connection, options: StoreOptions) throws {
        try db.enableForeignKeys()
        // Every write zeroes what it deletes (a popped entry's projection row too), so a
        // deletion of DESIGN §12 finds no older copy of a text in free space.
        try db.enableSecureDelete()
        if try db.pragmaText("journal_mode")?.lowercased() != "wal" {
            try db.setJournalModeWAL()
        }
        try db.setSynchronous(Connection.Synchronous(rawValue: options.synchronous.rawValue) ?? .full)
    }

    // MARK: Sessions

    func sessionRow(_ key: String) throws -> SessionRow? {
        let statement = try db.cachedStatement("SELECT \(SessionRow.columns()) FROM sessions WHERE key = ?")
        statement.bind(key, at: 1)
        guard try statement.step() else { return nil }
        let row = SessionRow(reading: statement)
        statement.reset()
        if let unreadable = row.unreadablePlatform { throw unreadable }
        return row
    }

    /// A `sessions.platform` value as a generation.
    /// - Throws: ``UnreadableRow`` for a value no generation has (changed behind the store's
    ///   back; `navdb rebuild` rewrites it from the session's `session.started`).
    static func platform(_ text: String?, session: String) throws -> PlatformGeneration {
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

    func createSession(key: String, name: String?, at: Int64, platform: PlatformGeneration) throws -> SessionRow {
        let insert = try db.cachedStatement(
            "INSERT INTO sessions (key, name, created_at, updated_at, version, platform) VALUES (?, ?, ?, ?, 0, ?)")
        insert.bind(key, at: 1)
        insert.bind(name, at: 2)
        insert.bind(at, at: 3)
        insert.bind(at, at: 4)
        insert.bind(platform.rawValue, at: 5)
        try insert.run()
        let id = db.lastInsertRowID
        let layer = try db.cachedStatement(
            "INSERT INTO layers (session_id, layer, modal_in_presentation) VALUES (?, 0, 0)")
        layer.bind(id, at: 1)
        try layer.run()
        return SessionRow(id: id, key: key, name: name, createdAt: at, updatedAt: at, version: 0, platform: platform)
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
    func appendEvent(
        _ body: EventBody, to write: inout SessionWrite, at: Int64, eventID: String?, ignoreKnownID: Bool = false
    ) throws -> Event? {
        let id = eventID ?? newEventID()
        let version = write.version + 1
        guard
            let seq = try insertEvent(
                body, sessionID: write.row.id, version: version, at: at, eventID: id, ignoreKnownID: ignoreKnownID)
        else {
            return nil
        }
        write.state.apply(body)
        write.version = version
        write.lastAt = at
        write.lastEventID = id
        if options.isSnapshotVersion(version, of: write.state) {
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
        cache.store(write.state, version: write.version, session: write.row.id)
    }

    /// Appends one event after `state`: ``beginWrite(_:state:)``, ``appendEvent(_:to:at:eventID:ignoreKnownID:)``
    /// and ``finishWrite(_:)``, the path every single write shares with batches and imports.
    @discardableResult
    func append(_ body: EventBody, to row: SessionRow, state: SessionState, at: Int64, eventID: String?) throws -> Event
    {
        var write = try beginWrite(row, state: state)
        let event = try appendEvent(body, to: &write, at: at, eventID: eventID)!
        try finishWrite(write)
        return event
    }

    /// Inserts one row into `events` with a cached statement.
    /// - Returns: the new `seq`, or `nil` when `ignoreKnownID` and the event id is already stored.
    func insertEvent(
        _ body: EventBody, sessionID: Int64, version: Int, at: Int64, eventID: String, ignoreKnownID: Bool = false
    ) throws -> Int64? {
        let insert = try insertEventStatement(ignoreKnownID: ignoreKnownID)
        insert.bind(sessionID, at: 1)
        insert.bind(version, at: 2)
        insert.bind(body.type, at: 3)
        insert.bind(at, at: 4)
        insert.bind(eventID, at: 5)
        insert.bind(try payloadText(body), at: 6)
        do {
            try insert.run()
        } catch {
            // A client-supplied id that is already stored: say so instead of SQLite's words.
            guard error.extendedResultCode == SQLiteError.Code.constraintUnique, error.message.contains("event_id")
            else { throw error }
            throw NavigationError.invalidEvent(
                "event id \(eventID) is already stored (event ids are unique across the database)")
        }
        if ignoreKnownID && db.changes == 0 { return nil }
        return db.lastInsertRowID
    }

    /// The prepared `INSERT INTO events`, kept as a property: it runs once per event, where even
    /// the statement cache's lookup by SQL text showed in profiles. Every parameter is bound on
    /// each use, and `run()` resets it.
    private func insertEventStatement(ignoreKnownID: Bool) throws -> Statement {
        if let statement = ignoreKnownID ? insertEventIgnoringKnownID : insertEvent { return statement }
        let statement = try db.prepare(
            ignoreKnownID
                ? "INSERT INTO events (session_id, version, type, at, event_id, payload) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING"
                : "INSERT INTO events (session_id, version, type, at, event_id, payload) VALUES (?, ?, ?, ?, ?, ?)")
        if ignoreKnownID { insertEventIgnoringKnownID = statement } else { insertEvent = statement }
        return statement
    }

    /// The payload text stored in `events.payload`: ``PayloadWriter``'s, the same JSON as
    /// ``EventBody/payloadJSON()`` at a fraction of the cost, or `JSONEncoder`'s when the writer
    /// leaves it (a non-integer number in params).
    func payloadText(_ body: EventBody) throws -> String {
        try PayloadWriter.storedText(body)
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
        let insert = try db.cachedStatement(
            "INSERT OR REPLACE INTO snapshots (session_id, version, rules_version, state) VALUES (?, ?, ?, ?)")
        insert.bind(sessionID, at: 1)
        insert.bind(version, at: 2)
        insert.bind(navigationRulesVersion, at: 3)
        insert.bind(try PayloadWriter.json(state) ?? String(decoding: encoder.encode(state), as: UTF8.self), at: 4)
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
                let upsert = try db.cachedStatement(
                    "INSERT OR REPLACE INTO layers (session_id, layer, modal_in_presentation) VALUES (?, ?, ?)")
                upsert.bind(sessionID, at: 1)
                upsert.bind(index, at: 2)
                upsert.bind(layer.modalInPresentation, at: 3)
                try upsert.run()
            }
            let oldEntries = oldLayer?.entries ?? []
            if oldEntries.count > layer.entries.count {
                let delete = try db.cachedStatement(
                    "DELETE FROM entries WHERE session_id = ? AND layer = ? AND position >= ?")
                delete.bind(sessionID, at: 1)
                delete.bind(index, at: 2)
                delete.bind(layer.entries.count, at: 3)
                try delete.run()
            }
            // Exactly, not `!=`: an entry whose title changed to a canonically equivalent
            // spelling is rewritten.
            for (position, entry) in layer.entries.enumerated()
            where position >= oldEntries.count || !oldEntries[position].isExactly(entry) {
                let upsert = try db.cachedStatement(
                    """
                    INSERT OR REPLACE INTO entries (session_id, layer, position, entry_id, route, params, item)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
                upsert.bind(sessionID, at: 1)
                upsert.bind(index, at: 2)
                upsert.bind(position, at: 3)
                upsert.bind(entry.id, at: 4)
                upsert.bind(entry.route, at: 5)
                upsert.bind(
                    try entry.params.map {
                        try PayloadWriter.json($0) ?? String(decoding: encoder.encode($0), as: UTF8.self)
                    }, at: 6)
                upsert.bind(PayloadWriter.json(entry.item), at: 7)
                try upsert.run()
            }
        }
    }

    /// The session's current state: from the cache when its version matches, else one read of the
    /// projection.
    /// - Throws: ``UnreadableRow`` when a projection row cannot be read (changed behind the
    ///   store's back); `navdb rebuild` repairs it.
    func currentState(_ row: SessionRow) throws -> SessionState {
        if let cached = cache.state(session: row.id, version: row.version) { return cached }
        let state = try projectedState(row)
        cache.store(state, version: row.version, session: row.id)
        return state
    }

    /// Reads the projection of a session as a state.
    /// - Throws: ``UnreadableRow`` for the first row whose `params` or `item` cannot be read.
    func projectedState(_ row: SessionRow) throws -> SessionState {
        let (state, unreadable) = try readProjection(row)
        if let first = unreadable.first { throw first }
        return state
    }

    /// Reads the projection of a session as a state, leaving out the rows whose `params` or `item`
    /// cannot be read (JSON changed behind the store's back), which are returned in order.
    func readProjection(_ session: SessionRow) throws -> (state: SessionState, unreadable: [UnreadableRow]) {
        var layers: [Layer] = []
        var unreadable: [UnreadableRow] = []
        let layerRows = try db.cachedStatement(
            "SELECT layer, modal_in_presentation FROM layers WHERE session_id = ? ORDER BY layer")
        layerRows.bind(session.id, at: 1)
        try layerRows.forEachRow { row in
            layers.append(Layer(entries: [], modalInPresentation: row.int(at: 1) != 0))
        }
        let entryRows = try db.cachedStatement(
            "SELECT layer, entry_id, route, params, item, position FROM entries WHERE session_id = ? ORDER BY layer, position"
        )
        entryRows.bind(session.id, at: 1)
        try entryRows.forEachRow { row in
            let layer = row.int(at: 0)
            while layers.count <= layer { layers.append(Layer()) }
            let id = row.string(at: 1) ?? ""
            let paramsText = row.string(at: 3)
            let itemText = row.string(at: 4) ?? "{}"
            var problems: [String] = []
            var params: [String: JSONValue]?
            if let paramsText {
                if let fast = row.withText(at: 3, PayloadReader.params) ?? nil {
                    params = fast
                } else {
                    do { params = try decoder.decode([String: JSONValue].self, from: Data(paramsText.utf8)) } catch {
                        problems.append(
                            "params \(UnreadableRow.quoted(paramsText)) are not a JSON object (\(describeDecodingError(error)))"
                        )
                    }
                }
            }
            var item = NavigationItem()
            if let fast = row.withText(at: 4, PayloadReader.item) ?? nil {
                item = fast
            } else {
                do { item = try decoder.decode(NavigationItem.self, from: Data(itemText.utf8)) } catch {
                    problems.append(
                        "item \(UnreadableRow.quoted(itemText)) is not a navigation item (\(describeDecodingError(error)))"
                    )
                }
            }
            guard problems.isEmpty else {
                unreadable.append(
                    UnreadableRow(
                        session: session.key,
                        row: "projection row at layer \(layer), position \(row.int(at: 5)), entry '\(id)'",
                        problem: problems.joined(separator: "; ")))
                return
            }
            layers[layer].entries.append(Entry(id: id, route: row.string(at: 2), params: params, item: item))
        }
        return (SessionState(layers: layers, platform: session.platform), unreadable)
    }

    // MARK: History

    /// The version a point names: 1...current (base...current for a truncated session), or the
    /// newest at or before a time.
    func resolve(_ point: HistoryPoint?, in row: SessionRow) throws -> Int {
        switch point {
        case nil:
            return row.version
        case .version(let version):
            let base = try base(of: row)
            let low = base?.version ?? 1
            guard version >= low, version <= row.version else {
                throw StoreError.pointOutOfRange(
                    session: row.key, point: "version \(version)",
                    accepted: "versions \(low)...\(row.version)" + Self.truncationNote(base))
            }
            return version
        case .time(let time):
            guard let found = try lastVersion(of: row, atOrBefore: time) else {
                let base = try base(of: row)
                let from =
                    base.map { "times from \(Timestamp.format($0.at)), the time of the base version \($0.version)" }
                    ?? "times from \(Timestamp.format(row.createdAt)), when the session began"
                throw StoreError.pointOutOfRange(
                    session: row.key, point: "time \(Timestamp.format(time))",
                    accepted: from + "; later times give the newest state" + Self.truncationNote(base))
            }
            return found
        }
    }

    /// `; the session was truncated at T: version B is its base and earlier events were deleted`,
    /// or `""` for a session never truncated.
    static func truncationNote(_ base: SessionBase?) -> String {
        guard let base else { return "" }
        return
            "; the session was truncated at \(Timestamp.format(base.truncatedAt)): version \(base.version) is its base and the events before it were deleted"
    }

    /// The newest version whose event is at or before `time` (the base version when `time` is at
    /// or after the base's time but before the first remaining event), or `nil` when the session
    /// began (or its base is) later. Times never go backwards within a session, so this is a
    /// binary search over versions on the `UNIQUE(session_id, version)` index: O(log n) point
    /// reads and no index on `at`.
    func lastVersion(of row: SessionRow, atOrBefore time: Int64) throws -> Int? {
        let base = try base(of: row)
        let firstVersion = (base?.version ?? 0) + 1
        if row.version >= firstVersion, let first = try eventTime(sessionID: row.id, version: firstVersion),
            first <= time
        {
            var low = firstVersion
            var high = row.version
            while low < high {
                let middle = low + (high - low + 1) / 2
                if let at = try eventTime(sessionID: row.id, version: middle), at <= time {
                    low = middle
                } else {
                    high = middle - 1
                }
            }
            return low
        }
        if let base, time >= base.at { return base.version }
        return nil
    }

    /// The oldest version whose event is at or after `time` (`row.version + 1` when none is).
    func firstVersion(of row: SessionRow, atOrAfter time: Int64) throws -> Int {
        guard let last = try lastVersion(of: row, atOrBefore: time - 1) else { return 1 }
        return last + 1
    }

    /// The state after `version` and that event's time: the nearest snapshot at or below it under
    /// the current rules, then at most K events. Snapshots of other rules versions are ignored,
    /// and rebuilt when the connection can write and `repairing` is true (a read that must change
    /// no byte, such as `restore --dry-run`, passes false).
    func state(of row: SessionRow, atVersion version: Int, repairing: Bool = true) throws -> (SessionState, Int64?) {
        var (base, baseVersion) = try nearestSnapshot(sessionID: row.id, atOrBelow: version)
        if repairing, baseVersion == nil, try hasStaleSnapshots(sessionID: row.id, atOrBelow: version), !readOnly {
            try rebuildSnapshots(sessionID: row.id)
            (base, baseVersion) = try nearestSnapshot(sessionID: row.id, atOrBelow: version)
        }
        var at: Int64?
        if baseVersion == nil, let truncated = try self.base(of: row) {
            base = truncated.state
            baseVersion = truncated.version
            if version == truncated.version { at = truncated.at }
        }
        var state = base ?? SessionState()
        let statement = try db.cachedStatement(
            "SELECT type, payload, at FROM events WHERE session_id = ? AND version > ? AND version <= ? ORDER BY version"
        )
        statement.bind(row.id, at: 1)
        statement.bind(baseVersion ?? 0, at: 2)
        statement.bind(version, at: 3)
        try statement.forEachRow { row in
            state.apply(try decodeBody(row, type: 0, payload: 1))
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

    /// The newest snapshot at or below `version` under the current rules that can be read, and its
    /// version; `(nil, nil)` when there is none. A snapshot whose JSON cannot be read (changed
    /// behind the store's back) is passed over for an earlier one: the log is the truth, and
    /// folding it from further back only costs time.
    func nearestSnapshot(sessionID: Int64, atOrBelow version: Int) throws -> (SessionState?, Int?) {
        let statement = try db.cachedStatement(
            """
            SELECT version, state FROM snapshots
            WHERE session_id = ? AND version <= ? AND rules_version = ?
            ORDER BY version DESC
            """)
        statement.bind(sessionID, at: 1)
        statement.bind(version, at: 2)
        statement.bind(navigationRulesVersion, at: 3)
        defer { statement.reset() }
        while try statement.step() {
            if let state = statement.withText(at: 1, PayloadReader.state) ?? nil
                ?? (try? decoder.decode(SessionState.self, from: Data((statement.string(at: 1) ?? "").utf8)))
            {
                return (state, statement.int(at: 0))
            }
        }
        return (nil, nil)
    }

    func hasStaleSnapshots(sessionID: Int64, atOrBelow version: Int) throws -> Bool {
        let statement = try db.cachedStatement(
            "SELECT EXISTS (SELECT 1 FROM snapshots WHERE session_id = ? AND version <= ? AND rules_version <> ?)")
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
        var state = try foldStart(sessionID: sessionID)
        try foldLog(sessionID: sessionID) { version, _, body in
            state.apply(body)
            if options.isSnapshotVersion(version, of: state) {
                try writeSnapshot(sessionID: sessionID, version: version, state: state)
            }
        }
    }

    /// The state a fold of a session's log starts from: its base's state, or the empty state.
    func foldStart(sessionID: Int64) throws -> SessionState {
        let statement = try db.cachedStatement("SELECT \(SessionRow.columns()) FROM sessions WHERE id = ?")
        statement.bind(sessionID, at: 1)
        guard try statement.step() else {
            statement.reset()
            return SessionState()
        }
        let row = SessionRow(reading: statement)
        statement.reset()
        return try foldStart(row).state
    }

    /// The event body in columns `type` and `payload` of the current row: read by
    /// ``PayloadReader`` straight from SQLite's bytes, or, when it hands the payload on, by
    /// `JSONDecoder` from the column's text as ``Statement/string(at:)`` reads it.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` as ``EventBody/init(type:payload:)``.
    func decodeBody(_ row: Statement, type: Int32, payload: Int32) throws -> EventBody {
        let typeName = row.string(at: type) ?? ""
        if let body = row.withText(at: payload, { PayloadReader.body(type: typeName, payload: $0) }) ?? nil {
            return body
        }
        return try EventBody(type: typeName, payload: Array((row.string(at: payload) ?? "").utf8))
    }

    /// Streams a session's log in version order as (version, time, decoded body).
    func foldLog(sessionID: Int64, _ body: (Int, Int64, EventBody) throws -> Void) throws {
        let statement = try db.prepare(
            "SELECT version, at, type, payload FROM events WHERE session_id = ? ORDER BY version")
        statement.bind(sessionID, at: 1)
        try statement.forEachRow { row in
            try body(row.int(at: 0), row.int64(at: 1), try decodeBody(row, type: 2, payload: 3))
        }
    }

    /// Streams events matching `filter` (all sessions in `seq` order when `sessionID` is `nil`).
    func streamEvents(session row: SessionRow?, filter: EventFilter, _ body: (Event) throws -> Void) throws {
        var conditions: [String] = []
        var values: [SQLValue] = []
        var fromVersion = filter.fromVersion
        var toVersion = filter.toVersion
        if let row {
            conditions.append("e.session_id = ?")
            values.append(.integer(row.id))
            // Within a session, times never go backwards: a time range is a version range.
            if let since = filter.since {
                fromVersion = max(fromVersion ?? 1, try firstVersion(of: row, atOrAfter: since))
            }
            if let until = filter.until {
                toVersion = min(toVersion ?? row.version, try lastVersion(of: row, atOrBefore: until) ?? 0)
            }
        } else {
            if let since = filter.since {
                conditions.append("e.at >= ?")
                values.append(.integer(since))
            }
            if let until = filter.until {
                conditions.append("e.at <= ?")
                values.append(.integer(until))
            }
        }
        if let from = fromVersion {
            conditions.append("e.version >= ?")
            values.append(.integer(Int64(from)))
        }
        if let to = toVersion {
            conditions.append("e.version <= ?")
            values.append(.integer(Int64(to)))
        }
        if let types = filter.types, !types.isEmpty {
            conditions.append("e.type IN (" + Array(repeating: "?", count: types.count).joined(separator: ", ") + ")")
            values.append(contentsOf: types.sorted().map { .text($0) })
        }
        let order = row == nil ? "e.seq" : "e.version"
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
            if let entry = filter.entry, !eventBody.entryIDs.contains(where: { $0.hasSameScalars(as: entry) }) {
                continue
            }
            try body(
                Event(
                    seq: statement.int64(at: 0), session: statement.string(at: 1) ?? "", version: statement.int(at: 2),
                    at: statement.int64(at: 4), eventID: statement.string(at: 5) ?? "", body: eventBody))
            emitted += 1
            if let limit = filter.limit, emitted >= limit { break }
        }
    }
}

/// A projection row or a snapshot whose JSON the store cannot read. The store only writes JSON
/// it reads back, so the row was changed behind its back (plain SQL); the log is untouched and
/// `navdb rebuild` rewrites the row from it.
struct UnreadableRow: Error, CustomStringConvertible {
    /// The session key.
    var session: String
    /// Which row, e.g. `projection row at layer 0, position 1, entry 'B'` or `snapshot at version 64`.
    var row: String
    /// What is wrong with it, naming the column, its text and the decoding error.
    var problem: String

    /// `<row> cannot be read: <problem>`, without the session.
    var summary: String { "\(row) cannot be read: \(problem)" }

    /// The whole message: the session, the row, the problem and the repair.
    var description: String { "session '\(session)': \(summary); 'navdb rebuild' rewrites it from the log" }

    /// `text` in single quotes, shortened to its first 60 characters (a stored title may be long).
    static func quoted(_ text: String) -> String {
        text.count <= 60 ? "'\(text)'" : "'\(text.prefix(60))...'"
    }
}

/// `open(2)` for reading without blocking (a FIFO is refused before, this is belt and braces),
/// outside ``StoreCore`` whose own `open(path:create:options:)` would shadow the C function.
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
}
