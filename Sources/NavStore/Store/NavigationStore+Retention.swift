#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The base of a truncated session (<doc:Retention>): the state after ``version`` is kept, the events
/// up to and including that version were deleted, and the session's log goes on at
/// `version + 1`.
public struct SessionBase: Sendable, Hashable {
    /// The session key.
    public var session: String
    /// The 1-based version whose state is kept; its event and every earlier one are gone.
    public var version: Int
    /// The time of that version's event, in milliseconds since the Unix epoch.
    public var at: Int64
    /// That version's event id (kept so that continuation checks and imports can link the
    /// first remaining event to it; an id carries no text of the user's).
    public var eventID: String
    /// The state after ``version``.
    public var state: SessionState
    /// When the truncation happened, in milliseconds since the Unix epoch.
    public var truncatedAt: Int64
    /// The session's name (given at `session start`; its `session.started` event is gone).
    public var name: String?
    /// When the session started, in milliseconds since the Unix epoch.
    public var startedAt: Int64

    /// The NDJSON record type of a base, the first line of a truncated session in `export`,
    /// `history --json` and `import`.
    public static let recordType = "session.truncated"

    /// Creates a base.
    public init(
        session: String, version: Int, at: Int64, eventID: String, state: SessionState, truncatedAt: Int64,
        name: String? = nil, startedAt: Int64 = 0
    ) {
        self.session = session
        self.version = version
        self.at = at
        self.eventID = eventID
        self.state = state
        self.truncatedAt = truncatedAt
        self.name = name
        self.startedAt = startedAt
    }

    /// The base as one NDJSON record, shaped as an event's (``EventRecord``) so that a reader of
    /// `export` meets it as the session's first line: `{"at","eventID","payload","session","time",
    /// "type":"session.truncated","version"}` with no `seq` (it is not an event of the log), where
    /// `version`, `at` and `eventID` are the base version's and `payload` is
    /// `{"name","startedAt","state":{"layers":[...]},"truncatedAt"}` (`name` null when unset,
    /// times in ms since the Unix epoch, `state` as in snapshots). ``NavigationStore/importNDJSON(lines:progress:)``
    /// reads it back.
    /// - Throws: `EncodingError` only for params values JSON cannot hold.
    public func record() throws -> EventRecord {
        let stateText = try PayloadWriter.json(state) ?? String(decoding: JSONEncoder().encode(state), as: UTF8.self)
        let stateValue = try JSONDecoder().decode(JSONValue.self, from: Data(stateText.utf8))
        return EventRecord(
            seq: nil, session: session, version: version, type: Self.recordType, at: at, time: Timestamp.format(at),
            eventID: eventID,
            payload: .object([
                "name": name.map { .string($0) } ?? .null, "startedAt": .integer(startedAt),
                "state": stateValue, "truncatedAt": .integer(truncatedAt),
            ]))
    }

    /// The base a ``record()`` describes.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming what is missing or wrong.
    public init(record: EventRecord) throws(NavigationError) {
        guard record.type == Self.recordType else {
            throw .invalidEvent("a \(record.type) record is not a base (\(Self.recordType))")
        }
        guard case .object(let payload) = record.payload else {
            throw .invalidEvent("bad \(Self.recordType) payload: not an object")
        }
        guard let stateValue = payload["state"], case .integer(let truncatedAt)? = payload["truncatedAt"],
            case .integer(let startedAt)? = payload["startedAt"]
        else {
            throw .invalidEvent("bad \(Self.recordType) payload: it needs state, startedAt and truncatedAt")
        }
        let name: String?
        switch payload["name"] {
        case nil, .null?: name = nil
        case .string(let text)?: name = text
        default: throw .invalidEvent("bad \(Self.recordType) payload: name is neither a string nor null")
        }
        guard record.version >= 1 else {
            throw .invalidEvent("bad \(Self.recordType): version \(record.version) is not 1 or more")
        }
        let state: SessionState
        do {
            state = try JSONDecoder().decode(SessionState.self, from: JSONEncoder().encode(stateValue))
        } catch {
            throw .invalidEvent(
                "bad \(Self.recordType) payload: state is not a session state (\(describeDecodingError(error)))")
        }
        guard !state.layers.isEmpty, !state.layers[0].entries.isEmpty || state.layers.count == 1 else {
            throw .invalidEvent(
                "bad \(Self.recordType) payload: state has no base layer, or modal layers over an empty base layer")
        }
        self.init(
            session: record.session, version: record.version, at: record.at, eventID: record.eventID, state: state,
            truncatedAt: truncatedAt, name: name, startedAt: startedAt)
    }
}

/// One session a retention command removed, or truncated, or (with a dry run) would.
public struct RemovedSession: Sendable, Hashable, Codable {
    /// The session key.
    public var key: String
    /// The events removed (the whole log, or the events below the new base).
    public var events: Int
    /// The bytes of row content removed: the text of events, snapshots, projection rows and
    /// base, plus 8 per number; SQLite's page overhead is not counted, so the file shrinks by
    /// about this much after a vacuum.
    public var bytes: Int
    /// The session's version (its newest event), in 1-based versions.
    public var version: Int
    /// The time of the session's newest event, in milliseconds since the Unix epoch.
    public var updatedAt: Int64
    /// For a truncation, the session's new base version; `nil` when the whole session was deleted.
    public var baseVersion: Int?
}

/// What ``NavigationStore/deleteSession(_:expectedVersion:vacuum:)``,
/// ``NavigationStore/prune(before:dryRun:vacuum:)`` and
/// ``NavigationStore/truncateSession(_:before:expectedVersion:vacuum:)`` did.
public struct RetentionReport: Sendable, Hashable, Codable {
    /// The sessions removed or truncated (or that would be, with `dryRun`), ordered by key.
    public var sessions: [RemovedSession]
    /// The events removed, over all sessions.
    public var events: Int
    /// The bytes of row content removed, over all sessions (see ``RemovedSession/bytes``).
    public var bytes: Int
    /// Nothing was changed: the report says what would go.
    public var dryRun: Bool
    /// The write-ahead log was checkpointed and truncated to 0 bytes after the deleting
    /// transaction, so no deleted byte remains in it. `false` when another connection was
    /// reading an older snapshot and the checkpoint could not finish within the busy timeout
    /// (the deletion itself is committed; any later retention call, ``NavigationStore/vacuum()`` for one,
    /// finishes it later), and for a dry run.
    public var walTruncated: Bool
    /// The file was vacuumed (`VACUUM`, https://sqlite.org/lang_vacuum.html) and shrank.
    public var vacuumed: Bool
}

extension NavigationStore {
    /// Deletes a session (<doc:Retention>): its events, projection, snapshots, base and restore
    /// counters, in one `BEGIN IMMEDIATE` transaction through the maintenance path that the
    /// append-only triggers allow, with `PRAGMA secure_delete = ON`
    /// (https://sqlite.org/pragma.html#pragma_secure_delete) so that the deleted rows' bytes are
    /// overwritten with zeros, also in index and freelist pages. The write-ahead log is then
    /// checkpointed and truncated (https://sqlite.org/c3ref/wal_checkpoint_v2.html), so no byte
    /// of the session's key, name, titles, routes, params, prompts or entry ids remains in the
    /// database, `-wal` or `-shm` files. The key may be started again as a new session. The
    /// removed `seq` numbers are recorded, so `check` accepts that gap.
    /// - Parameters:
    ///   - key: the session key.
    ///   - expectedVersion: optimistic concurrency: delete only when the session is at this
    ///     version (a racing append makes it a conflict, and nothing is deleted).
    ///   - vacuum: also `VACUUM` the file, so it shrinks.
    /// - Returns: the session removed, with its events and bytes.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/versionConflict(session:expected:actual:)``,
    ///   database errors. Nothing is deleted when it throws.
    @discardableResult
    public func deleteSession(_ key: String, expectedVersion: Int? = nil, vacuum: Bool = false) throws(StoreError)
        -> RetentionReport
    {
        try removing(vacuum: vacuum) { core, now in
            guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
            if let expectedVersion, expectedVersion != row.version {
                throw StoreError.versionConflict(session: key, expected: expectedVersion, actual: row.version)
            }
            let removed = try core.measure(row, belowVersion: nil)
            try core.deleteSession(row, at: now)
            return [removed]
        }
    }

    /// Deletes every session whose newest event is older than `time` (<doc:Retention>), as
    /// ``deleteSession(_:expectedVersion:vacuum:)`` does, all in one transaction: a session
    /// written while the prune waits for the lock is judged by its new time.
    /// - Parameters:
    ///   - time: milliseconds since the Unix epoch; sessions whose last event is at or after it stay.
    ///   - dryRun: only report what would go, reading without writing a byte.
    ///   - vacuum: also `VACUUM` the file (ignored with `dryRun`).
    /// - Returns: the sessions removed (or that would be), ordered by key, with events and bytes.
    /// - Throws: database errors. Nothing is deleted when it throws.
    @discardableResult
    public func prune(before time: Int64, dryRun: Bool = false, vacuum: Bool = false) throws(StoreError)
        -> RetentionReport
    {
        let select = { (core: StoreCore) throws -> [(SessionRow, RemovedSession)] in
            let rows = try core.sessionRows(
                sql: "SELECT \(SessionRow.columns()) FROM sessions WHERE updated_at < ? ORDER BY key",
                arguments: [.integer(time)])
            return try rows.map { ($0, try core.measure($0, belowVersion: nil)) }
        }
        if dryRun {
            return try withCore { core in
                try core.db.inTransaction(.read) {
                    RetentionReport(removed: try select(core).map(\.1), dryRun: true)
                }
            }
        }
        return try removing(vacuum: vacuum) { core, now in
            let chosen = try select(core)
            for (row, _) in chosen { try core.deleteSession(row, at: now) }
            return chosen.map(\.1)
        }
    }

    /// Truncates a session's history (<doc:Retention>, EventStoreDB's truncate-before): drops its
    /// events below version `before` and keeps the state after `before - 1` as the session's
    /// base. Versions keep their numbers; ``state(session:at:platform:)`` at the base or later returns
    /// what it returned before; an earlier point is refused naming the base and when it was
    /// truncated. The dropped events' bytes are erased as ``deleteSession(_:expectedVersion:vacuum:)``
    /// erases a session's (text still live at the base stays, in the base).
    /// - Parameters:
    ///   - key: the session key.
    ///   - before: the first version to keep, in `base + 1 ... version` (`base` is 0 for a
    ///     session never truncated); `base + 1` drops nothing and changes nothing.
    ///   - expectedVersion: optimistic concurrency, as for ``deleteSession(_:expectedVersion:vacuum:)``.
    ///   - vacuum: also `VACUUM` the file.
    /// - Returns: the session with its new base version, and the events and bytes removed.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/versionConflict(session:expected:actual:)``,
    ///   ``StoreError/truncationOutOfRange(session:before:accepted:)`` for a `before` outside the
    ///   range above, ``StoreError/truncationBelowRestore(session:before:restoreVersion:)`` when restore may still fall
    ///   back to a version below `before - 1`, database errors. Nothing changes when it throws.
    @discardableResult
    public func truncateSession(_ key: String, before: Int, expectedVersion: Int? = nil, vacuum: Bool = false)
        throws(StoreError) -> RetentionReport
    {
        try removing(vacuum: vacuum) { core, now in
            guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
            if let expectedVersion, expectedVersion != row.version {
                throw StoreError.versionConflict(session: key, expected: expectedVersion, actual: row.version)
            }
            let base = try core.base(of: row)
            let baseVersion = base?.version ?? 0
            guard before > baseVersion, before <= row.version else {
                throw StoreError.truncationOutOfRange(
                    session: key, before: before,
                    accepted: core.truncationRange(row, base: base))
            }
            if before == baseVersion + 1 { return [] }
            if let needed = try core.oldestRestoreVersion(sessionID: row.id), needed < before - 1 {
                throw StoreError.truncationBelowRestore(session: key, before: before, restoreVersion: needed)
            }
            var removed = try core.measure(row, belowVersion: before)
            removed.baseVersion = before - 1
            try core.truncate(row, before: before, at: now)
            return [removed]
        }
    }

    /// Shrinks the file (`VACUUM`, https://sqlite.org/lang_vacuum.html) and truncates the
    /// write-ahead log; nothing in the log changes.
    /// - Returns: an empty report with ``RetentionReport/vacuumed`` set.
    /// - Throws: database errors.
    @discardableResult
    public func vacuum() throws(StoreError) -> RetentionReport {
        try removing(vacuum: true) { _, _ in [] }
    }

    /// The base of a truncated session, or `nil` when the session was never truncated.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func base(session key: String) throws(StoreError) -> SessionBase? {
        try withCore { core in
            try core.db.inTransaction(.read) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                return try core.base(of: row)
            }
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction with `secure_delete` on and the
    /// maintenance flag raised, lowers the flag before the commit, then checkpoints and truncates
    /// the WAL (and vacuums when asked).
    private func removing(vacuum: Bool, _ body: (StoreCore, Int64) throws -> [RemovedSession]) throws(StoreError)
        -> RetentionReport
    {
        try withCore { core in
            try core.maintenance?.enableSecureDelete()
            let removed = try core.db.inTransaction(.write) {
                try core.setMaintenance(true)
                let removed = try body(core, Timestamp.now())
                try core.setMaintenance(false)
                return removed
            }
            core.cache.removeAll()
            var report = RetentionReport(removed: removed, dryRun: false)
            if vacuum, let maintenance = core.maintenance {
                try maintenance.vacuum()
                report.vacuumed = true
            }
            // Always, also when nothing was removed: running a command again finishes a
            // checkpoint that a reader blocked the first time.
            report.walTruncated = try core.maintenance?.truncateWriteAheadLog() ?? true
            return report
        }
    }
}

extension RetentionReport {
    init(removed: [RemovedSession], dryRun: Bool) {
        sessions = removed.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        events = removed.reduce(0) { $0 + $1.events }
        bytes = removed.reduce(0) { $0 + $1.bytes }
        self.dryRun = dryRun
        walTruncated = false
        vacuumed = false
    }
}

extension StoreCore {
    /// Raises or lowers the maintenance flag the `events_no_delete` trigger consults
    /// (Migrations/0002_retention.sql). Only the retention commands call it, inside their
    /// deleting transaction, and lower it before the commit.
    func setMaintenance(_ on: Bool) throws {
        try db.execute(sql: "UPDATE maintenance SET removing = ? WHERE id = 1", arguments: [SQLValue(on)])
    }

    /// The base of a truncated session, or `nil`.
    /// - Throws: ``UnreadableRow`` when the base's state cannot be read (changed behind the
    ///   store's back: unlike a snapshot, it cannot be rebuilt from the log).
    func base(of row: SessionRow) throws -> SessionBase? {
        guard
            let found = try db.fetchOne(
                sql: "SELECT version, at, event_id, state, truncated_at FROM session_bases WHERE session_id = ?",
                arguments: [.integer(row.id)])
        else { return nil }
        let version: Int = try found[0]
        let text: String = try found[3]
        let state: SessionState
        do { state = try decoder.decode(SessionState.self, from: Data(text.utf8)) } catch {
            throw UnreadableRow(
                session: row.key, row: "base at version \(version)",
                problem: "state \(UnreadableRow.quoted(text)) is not a session state (\(describeDecodingError(error)))")
        }
        return SessionBase(
            session: row.key, version: version, at: try found[1], eventID: try found[2], state: state,
            truncatedAt: try found[4], name: row.name, startedAt: row.createdAt)
    }

    /// Where a fold of a session's log starts: its base's state and version, or the empty state
    /// at version 0 (with the session's creation time) for a session never truncated.
    func foldStart(_ row: SessionRow) throws -> (state: SessionState, version: Int, at: Int64) {
        guard let base = try base(of: row) else { return (SessionState(), 0, row.createdAt) }
        return (base.state, base.version, base.at)
    }

    /// The `--before` values a truncation of `row` accepts, as text for an error message.
    func truncationRange(_ row: SessionRow, base: SessionBase?) -> String {
        let low = (base?.version ?? 0) + 1
        var text = low <= row.version ? "versions \(low)...\(row.version)" : "none"
        if let base {
            text +=
                "; the session was truncated at \(Timestamp.format(base.truncatedAt)) and its base is version \(base.version)"
        } else {
            text += "; the session is at version \(row.version)"
        }
        return text
    }

    /// The oldest version restore may still hand out or fall back to (the version last handed
    /// out, the newest acknowledged one and the acknowledged one before it), or `nil`.
    func oldestRestoreVersion(sessionID: Int64) throws -> Int? {
        guard
            let row = try db.fetchOne(
                sql: """
                    SELECT attempted_version, acknowledged_version, previous_acknowledged_version FROM restore_attempts WHERE session_id = ?
                    """,
                arguments: [.integer(sessionID)])
        else { return nil }
        return try (0..<3).compactMap { try row[$0] as Int? }.filter { $0 >= 1 }.min()
    }

    /// What removing `row` (or, with `belowVersion`, its events below that version) removes:
    /// events and bytes of row content.
    func measure(_ row: SessionRow, belowVersion: Int?) throws -> RemovedSession {
        func sum(_ sql: String, _ arguments: [SQLValue]) throws -> (Int, Int) {
            guard let row = try db.fetchOne(sql: sql, arguments: arguments) else { return (0, 0) }
            return (try row[0], try row[1])
        }
        /// The size in bytes of a text column, in the backend's SQL.
        func bytes(_ column: String) -> String { db.dialect.byteLength(of: column) }
        let limit = SQLValue(belowVersion ?? Int.max)
        let session = SQLValue.integer(row.id)
        let (events, eventBytes) = try sum(
            """
            SELECT count(*), coalesce(sum(\(bytes("type")) + \(bytes("event_id")) + \(bytes("payload")) + 32), 0)
            FROM events WHERE session_id = ? AND version < ?
            """, [session, limit])
        let (_, snapshotBytes) = try sum(
            """
            SELECT 0, coalesce(sum(\(bytes("state")) + 24), 0) FROM snapshots WHERE session_id = ? AND version < ?
            """, [session, limit])
        var total = eventBytes + snapshotBytes
        if belowVersion == nil {
            let (_, projectionBytes) = try sum(
                """
                SELECT 0, coalesce(sum(\(bytes("entry_id")) + coalesce(\(bytes("route")), 0)
                       + coalesce(\(bytes("params")), 0) + \(bytes("item")) + 24), 0)
                FROM entries WHERE session_id = ?
                """, [session])
            let (_, baseBytes) = try sum(
                """
                SELECT 0, coalesce(sum(\(bytes("state")) + \(bytes("event_id")) + 32), 0) FROM session_bases WHERE session_id = ?
                """, [session])
            total += projectionBytes + baseBytes + row.key.utf8.count + (row.name?.utf8.count ?? 0) + 32
        }
        return RemovedSession(
            key: row.key, events: events, bytes: total, version: row.version, updatedAt: row.updatedAt, baseVersion: nil
        )
    }

    /// Records the `seq` numbers of `row`'s events below `belowVersion` (all of them when `nil`)
    /// as runs in `removed_events`, so that `check` accepts the gap they leave.
    func recordRemovedSeqs(_ row: SessionRow, belowVersion: Int?, reason: String, at: Int64) throws {
        var run: (first: Int64, last: Int64)?
        func flush() throws {
            guard let run else { return }
            try db.execute(
                sql: "INSERT INTO removed_events (first_seq, last_seq, reason, removed_at) VALUES (?, ?, ?, ?)",
                arguments: [.integer(run.first), .integer(run.last), .text(reason), .integer(at)])
        }
        try db.forEachRow(
            sql: "SELECT seq FROM events WHERE session_id = ? AND version < ? ORDER BY seq",
            arguments: [.integer(row.id), SQLValue(belowVersion ?? Int.max)]
        ) { s in
            let seq: Int64 = try s[0]
            if let current = run, current.last + 1 == seq {
                run = (current.first, seq)
            } else {
                try flush()
                run = (seq, seq)
            }
        }
        try flush()
    }

    /// Deletes every row of `row`'s session, inside the caller's maintenance transaction.
    func deleteSession(_ row: SessionRow, at: Int64) throws {
        try recordRemovedSeqs(row, belowVersion: nil, reason: "deleted", at: at)
        for sql in [
            "DELETE FROM entries WHERE session_id = ?",
            "DELETE FROM layers WHERE session_id = ?",
            "DELETE FROM snapshots WHERE session_id = ?",
            "DELETE FROM restore_attempts WHERE session_id = ?",
            "DELETE FROM session_bases WHERE session_id = ?",
            "DELETE FROM events WHERE session_id = ?",
            "DELETE FROM sessions WHERE id = ?",
        ] {
            try execute(sql, row.id)
        }
    }

    /// Drops `row`'s events below `before` and stores the state after `before - 1` as its base,
    /// inside the caller's maintenance transaction.
    func truncate(_ row: SessionRow, before: Int, at now: Int64) throws {
        let baseVersion = before - 1
        let (state, at) = try state(of: row, atVersion: baseVersion, repairing: true)
        let eventID = try self.eventID(sessionID: row.id, version: baseVersion) ?? base(of: row)?.eventID ?? ""
        try recordRemovedSeqs(row, belowVersion: before, reason: "truncated", at: now)
        try insertBase(
            sessionID: row.id,
            base: SessionBase(
                session: row.key, version: baseVersion, at: at ?? row.createdAt,
                eventID: eventID, state: state, truncatedAt: now))
        for sql in [
            "DELETE FROM snapshots WHERE session_id = ? AND version <= ?",
            "DELETE FROM events WHERE session_id = ? AND version < ?",
        ] {
            try db.execute(
                sql: sql, arguments: [.integer(row.id), SQLValue(sql.contains("<=") ? baseVersion : before)])
        }
    }

    /// Stores `base` as the base of session `sessionID` (replacing an earlier one).
    func insertBase(sessionID: Int64, base: SessionBase) throws {
        let state = try PayloadWriter.json(base.state) ?? String(decoding: encoder.encode(base.state), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO session_bases (session_id, version, at, event_id, state, truncated_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, at = excluded.at,
                    event_id = excluded.event_id, state = excluded.state, truncated_at = excluded.truncated_at
                """,
            arguments: [
                .integer(sessionID), SQLValue(base.version), .integer(base.at), .text(base.eventID), .text(state),
                .integer(base.truncatedAt),
            ])
    }

    /// The event id of a session's version, or `nil` when that event is not stored.
    func eventID(sessionID: Int64, version: Int) throws -> String? {
        try db.fetchOne(
            sql: "SELECT event_id FROM events WHERE session_id = ? AND version = ?",
            arguments: [.integer(sessionID), SQLValue(version)]
        ).map { try $0[0] }
    }
}

extension NavigationStore {
    /// The bases of the truncated sessions: of `session` only (none when it was never
    /// truncated), or of every session ordered by key when `nil`.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func bases(session key: String?) throws(StoreError) -> [SessionBase] {
        if let key { return try base(session: key).map { [$0] } ?? [] }
        return try withCore { core in
            try core.db.inTransaction(.read) { try core.allBases() }
        }
    }
}

extension StoreCore {
    /// Every truncated session's base, ordered by session key.
    func allBases() throws -> [SessionBase] {
        let rows = try sessionRows(
            sql: """
                SELECT \(SessionRow.columns("s."))
                FROM session_bases AS b JOIN sessions AS s ON s.id = b.session_id ORDER BY s.key
                """)
        return try rows.compactMap { try base(of: $0) }
    }
}
