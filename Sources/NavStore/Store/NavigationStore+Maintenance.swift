#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What ``NavigationStore/rebuild(verify:progress:)`` did.
public struct RebuildReport: Sendable, Hashable, Codable {
    /// Sessions rebuilt.
    public var sessions: Int
    /// Events folded.
    public var events: Int
    /// Snapshots written.
    public var snapshots: Int
    /// With `verify`: every difference found between the old projections or snapshots and the
    /// fold of the log, one line each (empty when they agreed).
    public var differences: [String]
}

/// What ``NavigationStore/check(progress:)`` found.
public struct CheckReport: Sendable, Hashable, Codable {
    /// Sessions checked.
    public var sessions: Int
    /// Events checked.
    public var events: Int
    /// Snapshots checked.
    public var snapshots: Int
    /// Every problem found, one line each; empty when the database is sound.
    public var problems: [String]
    /// Whether nothing was found.
    public var isClean: Bool { problems.isEmpty }
}

/// Progress of long work: events done so far and the total, for a progress line.
public typealias ProgressHandler = (_ done: Int, _ total: Int) -> Void

extension NavigationStore {
    /// Re-derives every session's projection and snapshots from the log alone, in one transaction.
    /// - Parameters:
    ///   - verify: compare the old projections and snapshots with the fold first and report
    ///     every difference, and every `seq` gap that no deletion or truncation recorded.
    ///   - progress: called now and then with events folded and the total.
    /// - Throws: database errors; a log event that does not decode (the log is damaged).
    public func rebuild(verify: Bool = false, progress: ProgressHandler? = nil) throws(StoreError) -> RebuildReport {
        try withCore { core in
            try core.db.inTransaction(.write) {
                var report = RebuildReport(sessions: 0, events: 0, snapshots: 0, differences: [])
                let total = try core.count("SELECT count(*) FROM events")
                // The log's own gaps: only those deletions and truncations recorded are accepted
                // (NavStore.docc/Retention.md); a rebuild cannot bring missing events back, so it only reports them.
                if verify {
                    report.differences += try core.seqGapProblems().map {
                        $0 + " (a rebuild cannot restore missing events)"
                    }
                }
                for row in try core.allSessions() {
                    let (old, unreadableRows) = verify ? try core.readProjection(row) : (SessionState(), [])
                    let (oldSnapshots, unreadableSnapshots) = verify ? try core.snapshots(of: row) : ([:], [:])
                    for unreadable in (row.unreadablePlatform.map { [$0] } ?? []) + unreadableRows
                        + unreadableSnapshots.sorted(by: { $0.key < $1.key }).map(\.value)
                    {
                        report.differences.append("session '\(row.key)': \(unreadable.summary)")
                    }
                    try core.execute("DELETE FROM snapshots WHERE session_id = ?", row.id)
                    // A truncated session folds from its base (NavStore.docc/Retention.md).
                    let start = try core.foldStart(row)
                    var state = start.state
                    var last = (version: start.version, at: start.at)
                    // The versions the fold snapshots; an old snapshot anywhere else was off the interval.
                    var written = Set<Int>()
                    try core.foldLog(sessionID: row.id) { version, at, body in
                        state.apply(body)
                        last = (version, at)
                        report.events += 1
                        if options.isSnapshotVersion(version, of: state) {
                            if verify, let snapshot = oldSnapshots[version], !snapshot.isExactly(state) {
                                report.differences.append(
                                    "session '\(row.key)': snapshot at version \(version) differed from the fold of the log: "
                                        + (snapshot.firstDifference(
                                            from: state, name: "the snapshot", expectedName: "the fold")
                                            ?? "unequal, in no field this check names"))
                            }
                            try core.writeSnapshot(sessionID: row.id, version: version, state: state)
                            written.insert(version)
                            report.snapshots += 1
                        }
                        if report.events % 50_000 == 0 { progress?(report.events, total) }
                    }
                    if verify {
                        // An unreadable row is left out of `old`, and already reported.
                        if unreadableRows.isEmpty, row.unreadablePlatform == nil, !old.isExactly(state) {
                            report.differences.append(
                                "session '\(row.key)': projection differed from the fold of the log: "
                                    + (old.firstDifference(
                                        from: state, name: "the projection", expectedName: "the fold")
                                        ?? "unequal, in no field this check names"))
                        }
                        if row.version != last.version {
                            report.differences.append(
                                "session '\(row.key)': version \(row.version) differed from the log's \(last.version)")
                        }
                        let stale = (Array(oldSnapshots.keys) + unreadableSnapshots.keys)
                            .filter { !written.contains($0) }
                        if !stale.isEmpty {
                            report.differences.append(
                                "session '\(row.key)': \(stale.count) snapshot(s) off the interval or past the log were dropped"
                            )
                        }
                    }
                    try core.execute("DELETE FROM entries WHERE session_id = ?", row.id)
                    try core.execute("DELETE FROM layers WHERE session_id = ?", row.id)
                    try core.writeProjection(
                        sessionID: row.id, from: SessionState(layers: []).droppingBase(), to: state)
                    try core.updateSession(id: row.id, version: last.version, at: last.at)
                    try core.updatePlatform(id: row.id, state.platform)
                    core.cache.store(state, version: last.version, session: row.id)
                    report.sessions += 1
                }
                progress?(report.events, total)
                return report
            }
        }
    }

    /// Verifies the database without changing it: SQLite's `PRAGMA integrity_check`
    /// (https://sqlite.org/pragma.html#pragma_integrity_check), global `seq` gapless from 1
    /// except where a deletion or truncation recorded removing events (<doc:Retention>), the
    /// maintenance flag lowered, per-session versions gapless from 1 (or from a truncated
    /// session's base), times never going backwards, session rows matching their logs,
    /// projections equal to the fold of each log, and snapshots equal to the fold at their version.
    /// - Parameter progress: called now and then with events checked and the total.
    /// - Throws: database errors that stop the check itself.
    public func check(progress: ProgressHandler? = nil) throws(StoreError) -> CheckReport {
        try withCore { core in
            try core.db.inTransaction(.read) {
                var report = CheckReport(sessions: 0, events: 0, snapshots: 0, problems: [])
                let integrity = try core.maintenance?.integrityCheck() ?? ["ok"]
                if integrity != ["ok"] { report.problems += integrity.map { "integrity: \($0)" } }
                let total = try core.count("SELECT count(*) FROM events")
                report.problems += try core.seqGapProblems()
                if try core.count("SELECT coalesce((SELECT removing FROM maintenance WHERE id = 1), -1)") != 0 {
                    report.problems.append(
                        "the maintenance flag is raised or missing outside a deleting transaction (table maintenance must hold one row with removing = 0)"
                    )
                }
                for row in try core.allSessions() {
                    report.sessions += 1
                    let (snapshots, unreadableSnapshots) = try core.snapshots(of: row)
                    report.snapshots += snapshots.count + unreadableSnapshots.count
                    for (_, unreadable) in unreadableSnapshots.sorted(by: { $0.key < $1.key }) {
                        report.problems.append(unreadable.description)
                    }
                    // A truncated session folds from its base (NavStore.docc/Retention.md).
                    let start: (state: SessionState, version: Int, at: Int64)
                    do { start = try core.foldStart(row) } catch let error as UnreadableRow {
                        report.problems.append(
                            "session '\(error.session)': \(error.summary); the events before it were deleted, so it cannot be rebuilt"
                        )
                        continue
                    }
                    var state = start.state
                    var expected = start.version + 1
                    var lastAt = start.version > 0 ? start.at : Int64.min
                    var problem: String?
                    if let below = (Array(snapshots.keys) + unreadableSnapshots.keys).filter({ $0 <= start.version })
                        .min()
                    {
                        report.problems.append(
                            "session '\(row.key)': snapshot at version \(below) is at or below the base version \(start.version)"
                        )
                    }
                    do {
                        try core.foldLog(sessionID: row.id) { version, at, body in
                            if version != expected, problem == nil {
                                problem =
                                    expected == start.version + 1 && start.version > 0
                                    ? "the log starts at version \(version), not right after its base version \(start.version)"
                                    : "versions jump from \(expected - 1) to \(version)"
                            }
                            if at < lastAt, problem == nil {
                                problem = "version \(version) is earlier than the event before it"
                            }
                            if problem == nil {
                                do { try state.validate(body) } catch {
                                    problem = "version \(version) does not follow the state before it: \(error)"
                                }
                            }
                            state.apply(body)
                            expected = version + 1
                            lastAt = at
                            report.events += 1
                            if let snapshot = snapshots[version], !snapshot.isExactly(state) {
                                report.problems.append(
                                    "session '\(row.key)': snapshot at version \(version) differs from the fold of the log: "
                                        + (snapshot.firstDifference(
                                            from: state, name: "the snapshot", expectedName: "the fold")
                                            ?? "unequal, in no field this check names"))
                            }
                            if report.events % 50_000 == 0 { progress?(report.events, total) }
                        }
                    } catch let error as NavigationError {
                        problem = "an event does not decode: \(error)"
                    }
                    if let problem { report.problems.append("session '\(row.key)': \(problem)") }
                    if row.version != expected - 1 {
                        report.problems.append(
                            "session '\(row.key)': sessions.version is \(row.version) but the log ends at \(expected - 1)"
                        )
                    }
                    if let extra = (Array(snapshots.keys) + unreadableSnapshots.keys).filter({ $0 >= expected }).min() {
                        report.problems.append(
                            "session '\(row.key)': snapshot at version \(extra) is past the end of the log")
                    }
                    let (projected, unreadableRows) = try core.readProjection(row)
                    report.problems +=
                        (row.unreadablePlatform.map { [$0] } ?? []).map(\.description)
                        + unreadableRows.map(\.description)
                    // An unreadable row is left out of `projected`, and already reported.
                    if unreadableRows.isEmpty, row.unreadablePlatform == nil, !projected.isExactly(state) {
                        report.problems.append(
                            "session '\(row.key)': projection differs from the fold of the log: "
                                + (projected.firstDifference(
                                    from: state, name: "the projection", expectedName: "the fold")
                                    ?? "unequal, in no field this check names"))
                    }
                }
                progress?(report.events, total)
                return report
            }
        }
    }
}

extension SessionState {
    /// A state with no layers at all, as the projection is before a session's rows are written.
    func droppingBase() -> SessionState {
        var copy = self
        copy.layers = []
        return copy
    }
}

extension StoreCore {
    /// Every session row, by id. A `platform` column holding no generation's name does not stop
    /// the read: the row gets the default generation and ``SessionRow/unreadablePlatform``, which
    /// `check` reports and `rebuild` rewrites.
    func allSessions() throws -> [SessionRow] {
        try sessionRows(sql: "SELECT \(SessionRow.columns()) FROM sessions ORDER BY id")
    }

    /// A session's snapshots under the current rules, by version: those that can be read, and
    /// those whose JSON cannot (changed behind the store's back).
    func snapshots(of session: SessionRow) throws -> (states: [Int: SessionState], unreadable: [Int: UnreadableRow]) {
        var states: [Int: SessionState] = [:]
        var unreadable: [Int: UnreadableRow] = [:]
        try db.forEachRow(
            sql: "SELECT version, state FROM snapshots WHERE session_id = ? AND rules_version = ?",
            arguments: [.integer(session.id), SQLValue(navigationRulesVersion)]
        ) { row in
            let version: Int = try row[0]
            let text: String = try row[1]
            do {
                states[version] = try decoder.decode(SessionState.self, from: Data(text.utf8))
            } catch {
                unreadable[version] = UnreadableRow(
                    session: session.key, row: "snapshot at version \(version)",
                    problem:
                        "state \(UnreadableRow.quoted(text)) is not a session state (\(describeDecodingError(error)))")
            }
        }
        return (states, unreadable)
    }

    /// The `seq` gaps that no deletion or truncation recorded in `removed_events`: `seq` runs
    /// from 1 without gaps except where a deletion or truncation removed events (<doc:Retention>).
    /// - Complexity: O(n + r log r) for n events and r recorded runs; reads `seq` only.
    func seqGapProblems() throws -> [String] {
        // A PostgreSQL identity skips the values of rolled-back inserts: gaps there mean nothing.
        guard db.dialect.sequenceIsGapless else { return [] }
        var removed: [(first: Int64, last: Int64)] = []
        try db.forEachRow(sql: "SELECT first_seq, last_seq FROM removed_events ORDER BY first_seq", arguments: []) {
            removed.append((try $0[0], try $0[1]))
        }
        var index = 0
        /// Whether every seq in first...last is in a recorded run.
        func covered(_ first: Int64, _ last: Int64) -> Bool {
            var next = first
            while index < removed.count, removed[index].last < next { index += 1 }
            var probe = index
            while next <= last {
                guard probe < removed.count, removed[probe].first <= next else { return false }
                next = max(next, removed[probe].last + 1)
                probe += 1
            }
            return true
        }
        var problems: [String] = []
        var previous: Int64 = 0
        try db.forEachRow(sql: "SELECT seq FROM events ORDER BY seq", arguments: []) { row in
            let seq: Int64 = try row[0]
            if seq > previous + 1, !covered(previous + 1, seq - 1), problems.count < 10 {
                problems.append(
                    "seq is not gapless: \(previous + 1 == seq - 1 ? "seq \(seq - 1) is" : "seqs \(previous + 1)...\(seq - 1) are") missing, and no deletion or truncation removed \(previous + 1 == seq - 1 ? "it" : "them")"
                )
            }
            previous = seq
        }
        return problems
    }

    /// Sets `sessions.platform`, the projection of the session's `session.started` platform.
    func updatePlatform(id: Int64, _ platform: PlatformGeneration) throws {
        try db.execute(
            sql: "UPDATE sessions SET platform = ? WHERE id = ?", arguments: [.text(platform.rawValue), .integer(id)])
    }

    /// Runs `sql`, which takes one session id.
    func execute(_ sql: String, _ id: Int64) throws {
        try db.execute(sql: sql, arguments: [.integer(id)])
    }
}
