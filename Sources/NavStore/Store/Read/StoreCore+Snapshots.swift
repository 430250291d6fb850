/// Snapshots: a session's state every K versions under the current rules, read back to bound a
/// historical read, rebuilt from the log when the rules changed.
extension StoreCore {
    /// Stores the state after `version` as a snapshot under the current rules (replacing one).
    /// `state` then holds the params objects the snapshot sorted as their canonical text
    /// (``PayloadWriter/snapshot(_:keepingParams:)``): the same values, copied by the next snapshot.
    package func writeSnapshot(sessionID: Int64, version: Int, state: inout SessionState) throws {
        let written = PayloadWriter.snapshot(state, keepingParams: true)
        let json = written.json
        for params in written.params {
            state.layers[params.layer].entries[params.position].storedParams = .text(params.text, isCanonical: true)
        }
        try db.execute(
            sql: """
                INSERT INTO snapshots (session_id, version, rules_version, state) VALUES (?, ?, ?, ?)
                ON CONFLICT (session_id, version) DO UPDATE SET rules_version = excluded.rules_version, state = excluded.state
                """,
            arguments: [.integer(sessionID), SQLValue(version), SQLValue(navigationRulesVersion), .text(json)])
    }

    /// The newest snapshot at or below `version` under the current rules that can be read, and its
    /// version; `nil`s when there is none. A snapshot whose JSON cannot be read (changed behind
    /// the store's back) is passed over for an earlier one: the log is the truth, and folding it
    /// from further back only costs time.
    ///
    /// `newestIsStale`: the newest snapshot at or below `version` is of other rules, so snapshots
    /// of other rules stand where no current one does (see ``rebuildSnapshots(sessionID:)``).
    /// One read answers both: every historical read asks them.
    package func nearestSnapshot(sessionID: Int64, atOrBelow version: Int) throws -> (
        state: SessionState?, version: Int?, newestIsStale: Bool
    ) {
        var newestIsStale = false
        var isNewest = true
        let found = try db.firstValue(
            sql: Self.nearestSnapshotSQL, arguments: [.integer(sessionID), SQLValue(version)]
        ) { row -> (SessionState, Int)? in
            defer { isNewest = false }
            guard try row[2] as Int == navigationRulesVersion else {
                if isNewest { newestIsStale = true }
                return nil
            }
            let fast = try row.withUTF8(at: 1, PayloadReader.state) ?? nil
            guard
                let state = fast
                    ?? (try? decoder.decode(SessionState.self, from: Data((try row[1] as String).utf8)))
            else { return nil }
            return (state, try row[0])
        }
        return (found?.0, found?.1, newestIsStale)
    }

    /// The snapshots of a session at or below a version, newest first, with their rules version:
    /// a search of the table's key, `(session_id, version)`.
    package static let nearestSnapshotSQL = """
        SELECT version, state, rules_version FROM snapshots
        WHERE session_id = ? AND version <= ?
        ORDER BY version DESC
        """

    /// Drops a session's snapshots and writes them again from a fold of its log. Inside a write
    /// transaction.
    package func rebuildSnapshots(sessionID: Int64) throws {
        try db.execute(sql: "DELETE FROM snapshots WHERE session_id = ?", arguments: [.integer(sessionID)])
        var state = try foldStart(sessionID: sessionID)
        try foldLog(sessionID: sessionID) { version, _, body in
            state.apply(body)
            if options.isSnapshotVersion(version, of: state) {
                try writeSnapshot(sessionID: sessionID, version: version, state: &state)
            }
        }
    }

    /// The state a fold of a session's log starts from: its base's state, or the empty state.
    package func foldStart(sessionID: Int64) throws -> SessionState {
        let rows = try sessionRows(
            sql: "SELECT \(SessionRow.columns) FROM sessions WHERE id = ?", arguments: [.integer(sessionID)])
        guard let row = rows.first else { return SessionState() }
        return try foldStart(row).state
    }
}
