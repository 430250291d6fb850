import NavStore

extension StoreCore {
    /// Every session row, by id. A `platform` column holding no generation's name does not stop
    /// the read: the row gets the default generation and ``SessionRow/unreadablePlatform``, which
    /// `check` reports and `rebuild` rewrites.
    func allSessions() throws -> [SessionRow] {
        try sessionRows(sql: "SELECT \(SessionRow.columns) FROM sessions ORDER BY id")
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
}

/// Rebuilding and checking one session, for ``NavigationStore/rebuild(verify:progress:)`` and
/// ``NavigationStore/check(progress:)``.
extension StoreCore {
    /// "session 'k': <what> differs from the fold of the log: <first difference>".
    private static func difference(
        _ session: String, _ what: String, verb: String, _ found: SessionState, _ folded: SessionState, name: String
    ) -> String {
        "session '\(session)': \(what) \(verb) from the fold of the log: "
            + (found.firstDifference(from: folded, name: name, expectedName: "the fold")
                ?? "unequal, in no field this check names")
    }

    /// Re-derives `row`'s snapshots, projection and session row from its log, inside the caller's
    /// write transaction; with `verify`, first reports what differed from the fold.
    func rebuild(
        _ row: SessionRow, verify: Bool, into report: inout RebuildReport, progress: (Int) -> Void
    ) throws {
        let (old, unreadableRows) = verify ? try readProjection(row) : (SessionState(), [])
        let (oldSnapshots, unreadableSnapshots) = verify ? try snapshots(of: row) : ([:], [:])
        for unreadable in (row.unreadablePlatform.map { [$0] } ?? []) + unreadableRows
            + unreadableSnapshots.sorted(by: { $0.key < $1.key }).map(\.value)
        {
            report.differences.append("session '\(row.key)': \(unreadable.summary)")
        }
        try execute("DELETE FROM snapshots WHERE session_id = ?", row.id)
        // A truncated session folds from its base (<doc:Retention>).
        let start = try foldStart(row)
        var state = start.state
        var last = (version: start.version, at: start.at)
        // The versions the fold snapshots; an old snapshot anywhere else was off the interval.
        var written = Set<Int>()
        try foldLog(sessionID: row.id) { version, at, body in
            state.apply(body)
            last = (version, at)
            report.events += 1
            if options.isSnapshotVersion(version, of: state) {
                if verify, let snapshot = oldSnapshots[version], !snapshot.isExactly(state) {
                    report.differences.append(
                        Self.difference(
                            row.key, "snapshot at version \(version)", verb: "differed", snapshot, state,
                            name: "the snapshot"))
                }
                try writeSnapshot(sessionID: row.id, version: version, state: &state)
                written.insert(version)
                report.snapshots += 1
            }
            if report.events % 50_000 == 0 { progress(report.events) }
        }
        if verify {
            // An unreadable row is left out of `old`, and already reported.
            if unreadableRows.isEmpty, row.unreadablePlatform == nil, !old.isExactly(state) {
                report.differences.append(
                    Self.difference(row.key, "projection", verb: "differed", old, state, name: "the projection"))
            }
            if row.version != last.version {
                report.differences.append(
                    "session '\(row.key)': version \(row.version) differed from the log's \(last.version)")
            }
            let stale = (Array(oldSnapshots.keys) + unreadableSnapshots.keys).filter { !written.contains($0) }
            if !stale.isEmpty {
                report.differences.append(
                    "session '\(row.key)': \(stale.count) snapshot(s) off the interval or past the log were dropped")
            }
        }
        try rewriteProjection(row, state: state, version: last.version, at: last.at)
        report.sessions += 1
    }

    /// Writes `row`'s projection and session row afresh for `state` at `version`.
    private func rewriteProjection(_ row: SessionRow, state: SessionState, version: Int, at: Int64) throws {
        try execute("DELETE FROM entries WHERE session_id = ?", row.id)
        try execute("DELETE FROM layers WHERE session_id = ?", row.id)
        try execute("DELETE FROM tab_bars WHERE session_id = ?", row.id)
        try writeProjection(sessionID: row.id, from: SessionState(layers: []).droppingBase(), to: state)
        try updateSession(id: row.id, version: version, at: at)
        try updatePlatform(id: row.id, state.platform)
        cache.store(state, version: version, session: row.id)
    }

    /// Checks `row` without changing anything: its snapshots, its log (versions gapless from its
    /// base, times never going backwards, each event valid after the state before it), its
    /// session row and its projection; problems go into `report`.
    func check(_ row: SessionRow, into report: inout CheckReport, progress: (Int) -> Void) throws {
        report.sessions += 1
        let (snapshots, unreadableSnapshots) = try snapshots(of: row)
        report.snapshots += snapshots.count + unreadableSnapshots.count
        for (_, unreadable) in unreadableSnapshots.sorted(by: { $0.key < $1.key }) {
            report.problems.append(unreadable.description)
        }
        // A truncated session folds from its base (<doc:Retention>).
        let start: (state: SessionState, version: Int, at: Int64)
        do { start = try foldStart(row) } catch let error as UnreadableRow {
            report.problems.append(
                "session '\(error.session)': \(error.summary); the events before it were deleted, so it cannot be rebuilt"
            )
            return
        }
        let snapshotVersions = Array(snapshots.keys) + unreadableSnapshots.keys
        if let below = snapshotVersions.filter({ $0 <= start.version }).min() {
            report.problems.append(
                "session '\(row.key)': snapshot at version \(below) is at or below the base version \(start.version)")
        }
        let (state, end) = try checkLog(row, from: start, snapshots: snapshots, into: &report, progress: progress)
        if row.version != end {
            report.problems.append(
                "session '\(row.key)': sessions.version is \(row.version) but the log ends at \(end)")
        }
        if let extra = snapshotVersions.filter({ $0 > end }).min() {
            report.problems.append("session '\(row.key)': snapshot at version \(extra) is past the end of the log")
        }
        let (projected, unreadableRows) = try readProjection(row)
        report.problems +=
            (row.unreadablePlatform.map { [$0] } ?? []).map(\.description) + unreadableRows.map(\.description)
        // An unreadable row is left out of `projected`, and already reported.
        if unreadableRows.isEmpty, row.unreadablePlatform == nil, !projected.isExactly(state) {
            report.problems.append(
                Self.difference(row.key, "projection", verb: "differs", projected, state, name: "the projection"))
        }
    }

    /// Folds `row`'s log from `start`, reporting the first problem of the log itself and every
    /// snapshot that differs from the fold.
    /// - Returns: the folded state and the last version folded.
    private func checkLog(
        _ row: SessionRow, from start: (state: SessionState, version: Int, at: Int64),
        snapshots: [Int: SessionState], into report: inout CheckReport, progress: (Int) -> Void
    ) throws -> (SessionState, Int) {
        var state = start.state
        var expected = start.version + 1
        var lastAt = start.version > 0 ? start.at : Int64.min
        var problem: String?
        do {
            try foldLog(sessionID: row.id) { version, at, body in
                if version != expected, problem == nil {
                    problem =
                        expected == start.version + 1 && start.version > 0
                        ? "the log starts at version \(version), not right after its base version \(start.version)"
                        : "versions jump from \(expected - 1) to \(version)"
                }
                if at < lastAt, problem == nil { problem = "version \(version) is earlier than the event before it" }
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
                        Self.difference(
                            row.key, "snapshot at version \(version)", verb: "differs", snapshot, state,
                            name: "the snapshot"))
                }
                if report.events % 50_000 == 0 { progress(report.events) }
            }
        } catch let error as NavigationError {
            problem = "an event does not decode: \(error)"
        }
        if let problem { report.problems.append("session '\(row.key)': \(problem)") }
        return (state, expected - 1)
    }
}
