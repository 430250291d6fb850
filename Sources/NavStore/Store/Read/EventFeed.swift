import Foundation

/// A live read of a store's log: the events committed after a point, each once, in `seq` order,
/// for readers that follow what writers append (``NavigationRecorder/events(session:from:)``,
/// `navdb follow`). It sees every writer's commits: this process's, another process's, an import.
///
/// A reader calls ``read(limit:)`` until it returns nothing, then waits for
/// ``hasNewCommits()`` before reading again. On SQLite that check is `PRAGMA data_version`
/// (https://sqlite.org/pragma.html#pragma_data_version), which changes when another connection
/// commits: it reads the WAL index in shared memory and never the log, so a follower that waits
/// costs one such statement per check. On PostgreSQL it compares the newest `seq` and the
/// deletions recorded (one indexed read).
///
/// Deleting or truncating a followed session (<doc:Retention>) is said once, as an item of its own;
/// a key started again after a deletion is followed as a new session.
public struct EventFeed: Sendable {
    /// What ``read(limit:)`` returns.
    public enum Item: Sendable, Hashable {
        /// A committed event.
        case event(Event)
        /// The session `key` was deleted (`session delete`, `prune`) after the feed started.
        case sessionDeleted(key: String)
        /// The session `key` was truncated: its events up to `baseVersion` were deleted.
        case sessionTruncated(key: String, baseVersion: Int)
    }

    /// The store read (a connection of its own, so that its `data_version` sees the commits of
    /// every other connection, this process's writer's included).
    public let store: NavigationStore
    /// The session keys followed, or `nil` for every session.
    public let sessions: [String]?
    /// The first version given of each session (its history from there first), or `nil` for only
    /// the events committed after the feed's first read.
    public let fromVersion: Int?

    /// A session the feed has seen: its key and base version (0 when never truncated).
    fileprivate struct Known: Sendable {
        package var key: String
        /// When the session was started (ms): a key started again after a deletion may get the
        /// same row id, and this tells the two apart.
        package var createdAt: Int64
        package var base: Int
        /// The newest version delivered (0 before any).
        package var delivered: Int
    }

    private var started = false
    /// The `seq` after which the next read looks.
    private var lastSeq: Int64 = 0
    /// The sessions seen, by row id.
    private var known: [Int64: Known] = [:]
    /// How many `removed_events` rows there were at the last read: a deletion or truncation adds
    /// at least one.
    private var removedMark: Int64 = 0
    /// The change counter read with the last read (``hasNewCommits()``).
    private var token: Int64?
    /// Whether the connection receives append notices (PostgreSQL's `LISTEN`, set before the
    /// first read so that no commit after it goes unnoticed).
    private var listening = false
    /// Whether this feed's connection was asked to listen (once; a feed made again on another
    /// connection asks again).
    private var askedToListen = false

    /// A feed of `store`'s log.
    /// - Parameters:
    ///   - store: the store to read (its own connection).
    ///   - sessions: the keys to follow (compared exactly), or `nil` for every session.
    ///   - version: the first version to give of each session (the history from it first, then
    ///     what is committed after; a session started later, or again after a deletion, is given
    ///     from that version too), or `nil` for only what is committed after the first read.
    public init(store: NavigationStore, sessions: [String]? = nil, from version: Int? = nil) {
        self.store = store
        self.sessions = sessions
        self.fromVersion = version
    }

    /// Where a feed is in the log, without its connection: a feed made again with it
    /// (``init(store:sessions:from:continuing:)``) on another connection to the same database
    /// goes on from there. The recorder's live sequences keep it while a suspension has closed
    /// their connections (``NavigationRecorder/suspend()``).
    package struct Position: Sendable {
        fileprivate var started: Bool
        fileprivate var lastSeq: Int64
        fileprivate var known: [Int64: Known]
        fileprivate var removedMark: Int64
    }

    /// Where this feed is (``Position``).
    package var position: Position {
        Position(started: started, lastSeq: lastSeq, known: known, removedMark: removedMark)
    }

    /// A feed of `store`'s log that goes on from `position`, a place of a feed of the same
    /// database with the same `sessions` and `version`: the first ``hasNewCommits()`` is `true`
    /// (the change counter is the connection's own).
    package init(store: NavigationStore, sessions: [String]?, from version: Int?, continuing position: Position) {
        self.init(store: store, sessions: sessions, from: version)
        started = position.started
        lastSeq = position.lastSeq
        known = position.known
        removedMark = position.removedMark
    }

    /// Whether a commit may have happened since the last ``read(limit:)``: the connection's
    /// change counter moved. `true` before the first read.
    /// - Throws: ``StoreError`` when the database cannot be read.
    public mutating func hasNewCommits() throws(StoreError) -> Bool {
        guard let token else { return true }
        return try store.withCore { core in try Self.changeToken(core) } != token
    }

    /// Waits until a commit may have happened (``hasNewCommits()``) or `timeout` has passed,
    /// checking every `interval`: what a follower does between reads (`navdb follow`). On SQLite
    /// each check is one `PRAGMA data_version` (the WAL index in shared memory, never the log), so
    /// a follower waiting with the default 10 ms makes 100 such checks a second and reads nothing
    /// else. On PostgreSQL the feed listens (`LISTEN navstore_appends`, from its first read) and
    /// sleeps on the connection's socket until an append's commit sends its notice, then makes
    /// one indexed read of the newest `seq`; a `timeout` bounds the sleep, so a notice lost with a
    /// dropped connection costs at most that long.
    /// - Returns: `true` when the change counter moved, `false` when `timeout` passed first.
    /// - Throws: ``StoreError`` when the database cannot be read.
    public mutating func waitForCommits(upTo timeout: Duration, checkingEvery interval: Duration = .milliseconds(10))
        throws(StoreError) -> Bool
    {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if try hasNewCommits() { return true }
            let left = deadline - clock.now
            if left <= .zero { return false }
            if listening {
                // PostgreSQL: asleep on the socket until an append's notice (or the timeout),
                // then the change counter says whether it was this schema's log.
                _ = try store.withCore { core in try core.db.waitForAppendNotice(timeout: left) }
            } else {
                Self.sleep(min(left, interval))
            }
        }
    }

    /// Blocks the calling thread for `duration` (a follower's thread, which has nothing else to do).
    private static func sleep(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The next items after what was read before, at most `limit` events (deletion and
    /// truncation notes come first): empty when the feed is up to date.
    /// - Throws: ``StoreError`` when the database cannot be read.
    /// - Complexity: one indexed range read of the log; a deletion or truncation also reads the
    ///   rows of the sessions seen.
    public mutating func read(limit: Int = 256) throws(StoreError) -> [Item] {
        if !askedToListen {
            // Before the first read's transaction: a commit after this statement sends a notice
            // this connection receives, and the read below sees every commit before it.
            listening = try store.withCore { core in try core.db.listenForAppends() }
            askedToListen = true
        }
        var copy = self
        let items = try store.withCore { core in
            try core.db.inTransaction(.read) { try copy.read(core, limit: max(1, limit)) }
        }
        self = copy
        return items
    }

    private mutating func read(_ core: StoreCore, limit: Int) throws -> [Item] {
        token = try Self.changeToken(core)
        let removed = try core.count("SELECT count(*) FROM removed_events")
        if !started {
            started = true
            lastSeq = fromVersion == nil ? Int64(try core.count("SELECT coalesce(max(seq), 0) FROM events")) : 0
            removedMark = Int64(removed)
            try loadKnown(core)
        }
        var items: [Item] = []
        if Int64(removed) != removedMark {
            removedMark = Int64(removed)
            items += try removals(core)
            // A deletion of the newest events lets SQLite give their seq numbers to later rows
            // (`INTEGER PRIMARY KEY` takes the largest one left, plus one), even numbers at or
            // below the last one read. A row appended since the last read is above every row
            // that was there then and still is, so the next read starts above the newest row
            // still there among those delivered; what was delivered is not given again (each
            // session's delivered version is compared).
            lastSeq = min(lastSeq, try newestDeliveredSeq(core))
        }
        try readEvents(core, limit: limit, into: &items)
        return items
    }

    /// The sessions followed that exist now, with their bases.
    /// A session's events before the feed's start count as delivered: all of them without a
    /// first version (only what is committed after the start is given), those below it with one.
    private mutating func loadKnown(_ core: StoreCore) throws {
        for row in try rows(core) {
            let delivered = fromVersion.map { min(row.version, max($0 - 1, 0)) } ?? row.version
            known[row.id] = Known(key: row.key, createdAt: row.createdAt, base: row.base, delivered: delivered)
        }
    }

    /// The largest `seq` of a row still in the log that the feed delivered (or counted as
    /// delivered), 0 when there is none: one indexed read per session seen.
    private func newestDeliveredSeq(_ core: StoreCore) throws -> Int64 {
        var newest: Int64 = 0
        for (id, seen) in known where seen.delivered > 0 {
            let seq = try core.count(
                "SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ? AND version <= ?",
                arguments: [.integer(id), SQLValue(seen.delivered)])
            newest = max(newest, Int64(seq))
        }
        return newest
    }

    /// The id, key, base version, version and start time of the sessions followed (all of them,
    /// or the keys named).
    private func rows(_ core: StoreCore) throws -> [SessionRowFields] {
        var sql = """
            SELECT s.id, s.key, coalesce((SELECT b.version FROM session_bases AS b WHERE b.session_id = s.id), 0),
                   s.version, s.created_at
            FROM sessions AS s
            """
        var arguments: [SQLValue] = []
        if let sessions {
            guard !sessions.isEmpty else { return [] }
            sql += " WHERE s.key IN (" + Array(repeating: "?", count: sessions.count).joined(separator: ", ") + ")"
            arguments = sessions.map { .text($0) }
        }
        var found: [SessionRowFields] = []
        try core.db.forEachRow(sql: sql, arguments: arguments) {
            found.append(
                SessionRowFields(id: try $0[0], key: try $0[1], base: try $0[2], version: try $0[3], createdAt: try $0[4]))
        }
        return found
    }

    /// What ``rows(_:)`` reads of a session.
    private struct SessionRowFields {
        var id: Int64
        var key: String
        var base: Int
        var version: Int
        var createdAt: Int64
    }

    /// The notes for the sessions seen that were deleted or truncated since the last look.
    private mutating func removals(_ core: StoreCore) throws -> [Item] {
        var now: [Int64: SessionRowFields] = [:]
        for row in try rows(core) { now[row.id] = row }
        var items: [Item] = []
        for id in known.keys.sorted() {
            // Gone, or a session started again under a row id the deleted one had.
            guard let row = now[id], row.key.hasSameScalars(as: known[id]!.key), row.createdAt == known[id]!.createdAt,
                row.version >= known[id]!.delivered
            else {
                items.append(.sessionDeleted(key: known[id]!.key))
                known[id] = nil
                continue
            }
            if row.base > known[id]!.base {
                known[id]!.base = row.base
                items.append(.sessionTruncated(key: known[id]!.key, baseVersion: row.base))
            }
        }
        return items
    }

    private mutating func readEvents(_ core: StoreCore, limit: Int, into items: inout [Item]) throws {
        var conditions = ["e.seq > ?"]
        var arguments: [SQLValue] = [.integer(lastSeq)]
        if let sessions {
            guard !sessions.isEmpty else { return }
            conditions.append("s.key IN (" + Array(repeating: "?", count: sessions.count).joined(separator: ", ") + ")")
            arguments += sessions.map { .text($0) }
        }
        if let fromVersion, fromVersion > 1 {
            conditions.append("e.version >= ?")
            arguments.append(SQLValue(fromVersion))
        }
        arguments.append(SQLValue(limit))
        let sql = """
            SELECT e.seq, s.key, e.version, e.type, e.at, e.event_id, e.payload, e.session_id
            FROM events AS e JOIN sessions AS s ON s.id = e.session_id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY e.seq LIMIT ?
            """
        var newSessions: [Int64] = []
        try core.db.forEachRow(sql: sql, arguments: arguments) { row in
            let seq: Int64 = try row[0]
            let sessionID: Int64 = try row[7]
            let version: Int = try row[2]
            lastSeq = max(lastSeq, seq)
            if let seen = known[sessionID], seen.delivered >= version { return }
            if known[sessionID] == nil {
                known[sessionID] = Known(key: try row[1], createdAt: 0, base: 0, delivered: 0)
                newSessions.append(sessionID)
            }
            known[sessionID]!.delivered = version
            items.append(
                .event(
                    Event(
                        seq: seq, session: try row[1], version: version, at: try row[4], eventID: try row[5],
                        body: try core.decodeBody(row, type: 3, payload: 6))))
        }
        for id in newSessions {
            // One read for both: the base (0 when never truncated) and the start time.
            let sql = "SELECT coalesce((SELECT version FROM session_bases WHERE session_id = s.id), 0), s.created_at"
                + " FROM sessions AS s WHERE s.id = ?"
            guard let row = try core.db.fetchOne(sql: sql, arguments: [.integer(id)]) else { continue }
            known[id]?.base = try row[0]
            known[id]?.createdAt = try row[1]
        }
    }

    /// The backend's change counter: SQLite's `PRAGMA data_version` (it moves when another
    /// connection commits); elsewhere the newest `seq` and the deletions recorded.
    package static func changeToken(_ core: StoreCore) throws -> Int64 {
        if core.db is Connection { return Int64(try core.count("PRAGMA data_version")) }
        let newest = try core.count("SELECT coalesce(max(seq), 0) FROM events")
        let removed = try core.count("SELECT count(*) FROM removed_events")
        return Int64(newest) &* 1_000_003 &+ Int64(removed)
    }
}
