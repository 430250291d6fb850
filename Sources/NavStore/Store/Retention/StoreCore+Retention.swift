extension StoreCore {
    /// Runs `sql`, which takes one session id.
    package func execute(_ sql: String, _ id: Int64) throws {
        try db.execute(sql: sql, arguments: [.integer(id)])
    }

    /// Raises or lowers the maintenance flag the `events_no_delete` trigger consults
    /// (Migrations/0002_retention.sql). Only the retention commands call it, inside their
    /// deleting transaction, and lower it before the commit.
    package func setMaintenance(_ on: Bool) throws {
        try db.execute(sql: "UPDATE maintenance SET removing = ? WHERE id = 1", arguments: [SQLValue(on)])
    }

    /// The base of a truncated session, or `nil`.
    /// - Throws: ``UnreadableRow`` when the base's state cannot be read (changed behind the
    ///   store's back: unlike a snapshot, it cannot be rebuilt from the log).
    package func base(of row: SessionRow) throws -> SessionBase? {
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
    package func foldStart(_ row: SessionRow) throws -> (state: SessionState, version: Int, at: Int64) {
        guard let base = try base(of: row) else { return (SessionState(), 0, row.createdAt) }
        return (base.state, base.version, base.at)
    }

    /// The `--before` values a truncation of `row` accepts, as text for an error message.
    package func truncationRange(_ row: SessionRow, base: SessionBase?) -> String {
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
    package func oldestRestoreVersion(sessionID: Int64) throws -> Int? {
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
    /// events and bytes of row content, and the base version the session has (if truncated).
    package func measure(_ row: SessionRow, belowVersion: Int?) throws -> RemovedSession {
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
            key: row.key, events: events, bytes: total, version: row.version, updatedAt: row.updatedAt,
            baseVersion: try base(of: row)?.version)
    }

    /// Records the `seq` numbers of `row`'s events below `belowVersion` (all of them when `nil`)
    /// as runs in `removed_events`, so that `check` accepts the gap they leave.
    package func recordRemovedSeqs(_ row: SessionRow, belowVersion: Int?, reason: String, at: Int64) throws {
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
    package func deleteSession(_ row: SessionRow, at: Int64) throws {
        try recordRemovedSeqs(row, belowVersion: nil, reason: "deleted", at: at)
        for sql in [
            "DELETE FROM entries WHERE session_id = ?",
            "DELETE FROM layers WHERE session_id = ?",
            "DELETE FROM tab_bars WHERE session_id = ?",
            "DELETE FROM snapshots WHERE session_id = ?",
            "DELETE FROM restore_attempts WHERE session_id = ?",
            "DELETE FROM session_bases WHERE session_id = ?",
            "DELETE FROM trace_imports WHERE session_id = ?",
            "DELETE FROM events WHERE session_id = ?",
            "DELETE FROM sessions WHERE id = ?",
        ] {
            try execute(sql, row.id)
        }
    }

    /// Drops `row`'s events below `before` and stores the state after `before - 1` as its base,
    /// inside the caller's maintenance transaction.
    package func truncate(_ row: SessionRow, before: Int, at now: Int64) throws {
        let baseVersion = before - 1
        let (state, at) = try state(of: row, atVersion: baseVersion, repairing: true)
        let eventID = try self.eventID(sessionID: row.id, version: baseVersion) ?? base(of: row)?.eventID ?? ""
        try recordRemovedSeqs(row, belowVersion: before, reason: "truncated", at: now)
        try insertBase(
            sessionID: row.id,
            base: SessionBase(
                session: row.key, version: baseVersion, at: at ?? row.createdAt,
                eventID: eventID, state: state, truncatedAt: now))
        // `trace_imports` keeps its rows (no text of the user's): a later import of a trace
        // whose first event goes is refused as one that was imported but can no longer be
        // checked, rather than taken for a new trace.
        for sql in [
            "DELETE FROM snapshots WHERE session_id = ? AND version <= ?",
            "DELETE FROM events WHERE session_id = ? AND version < ?",
        ] {
            try db.execute(
                sql: sql, arguments: [.integer(row.id), SQLValue(sql.contains("<=") ? baseVersion : before)])
        }
    }

    /// Stores `base` as the base of session `sessionID` (replacing an earlier one).
    package func insertBase(sessionID: Int64, base: SessionBase) throws {
        let state = PayloadWriter.json(base.state)
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
    package func eventID(sessionID: Int64, version: Int) throws -> String? {
        try db.fetchOne(
            sql: "SELECT event_id FROM events WHERE session_id = ? AND version = ?",
            arguments: [.integer(sessionID), SQLValue(version)]
        ).map { try $0[0] }
    }
}

extension StoreCore {
    /// Every truncated session's base, ordered by session key.
    package func allBases() throws -> [SessionBase] {
        let rows = try sessionRows(
            sql: """
                SELECT \(SessionRow.aliasedColumns)
                FROM session_bases AS b JOIN sessions AS s ON s.id = b.session_id ORDER BY s.key
                """)
        return try rows.compactMap { try base(of: $0) }
    }
}
