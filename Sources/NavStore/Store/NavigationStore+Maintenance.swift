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
    ///     every difference.
    ///   - progress: called now and then with events folded and the total.
    /// - Throws: database errors; a log event that does not decode (the log is damaged).
    public func rebuild(verify: Bool = false, progress: ProgressHandler? = nil) throws(StoreError) -> RebuildReport {
        try withCore { core in
            try core.db.transaction(.immediate) {
                var report = RebuildReport(sessions: 0, events: 0, snapshots: 0, differences: [])
                let total = try core.count("SELECT count(*) FROM events")
                for row in try core.allSessions() {
                    let (old, unreadableRows) = verify ? try core.readProjection(row) : (SessionState(), [])
                    let (oldSnapshots, unreadableSnapshots) = verify ? try core.snapshots(of: row) : ([:], [:])
                    for unreadable in unreadableRows + unreadableSnapshots.sorted(by: { $0.key < $1.key }).map(\.value) {
                        report.differences.append("session '\(row.key)': \(unreadable.summary)")
                    }
                    try core.execute("DELETE FROM snapshots WHERE session_id = ?", row.id)
                    var state = SessionState()
                    var last = (version: 0, at: row.createdAt)
                    try core.foldLog(sessionID: row.id) { version, at, body in
                        state.apply(body)
                        last = (version, at)
                        report.events += 1
                        if version % options.snapshotInterval == 0 {
                            if verify, let snapshot = oldSnapshots[version], !snapshot.isExactly(state) {
                                report.differences.append("session '\(row.key)': snapshot at version \(version) differed from the fold of the log: "
                                    + (snapshot.firstDifference(from: state, name: "the snapshot", expectedName: "the fold") ?? "unequal, in no field this check names"))
                            }
                            try core.writeSnapshot(sessionID: row.id, version: version, state: state)
                            report.snapshots += 1
                        }
                        if report.events % 50_000 == 0 { progress?(report.events, total) }
                    }
                    if verify {
                        // An unreadable row is left out of `old`, and already reported.
                        if unreadableRows.isEmpty, !old.isExactly(state) {
                            report.differences.append("session '\(row.key)': projection differed from the fold of the log: "
                                + (old.firstDifference(from: state, name: "the projection", expectedName: "the fold") ?? "unequal, in no field this check names"))
                        }
                        if row.version != last.version {
                            report.differences.append("session '\(row.key)': version \(row.version) differed from the log's \(last.version)")
                        }
                        let stale = (Array(oldSnapshots.keys) + unreadableSnapshots.keys).filter { $0 % options.snapshotInterval != 0 || $0 > last.version }
                        if !stale.isEmpty {
                            report.differences.append("session '\(row.key)': \(stale.count) snapshot(s) off the interval or past the log were dropped")
                        }
                    }
                    try core.execute("DELETE FROM entries WHERE session_id = ?", row.id)
                    try core.execute("DELETE FROM layers WHERE session_id = ?", row.id)
                    try core.writeProjection(sessionID: row.id, from: SessionState(layers: []).droppingBase(), to: state)
                    try core.updateSession(id: row.id, version: last.version, at: last.at)
                    core.cache.store(state, version: last.version, session: row.id)
                    report.sessions += 1
                }
                progress?(report.events, total)
                return report
            }
        }
    }

    /// Verifies the database without changing it: SQLite's `PRAGMA integrity_check`
    /// (https://sqlite.org/pragma.html#pragma_integrity_check), global `seq` and per-session
    /// versions gapless from 1, times never going backwards, session rows matching their logs,
    /// projections equal to the fold of each log, and snapshots equal to the fold at their version.
    /// - Parameter progress: called now and then with events checked and the total.
    /// - Throws: database errors that stop the check itself.
    public func check(progress: ProgressHandler? = nil) throws(StoreError) -> CheckReport {
        try withCore { core in
            try core.db.transaction(.deferred) {
                var report = CheckReport(sessions: 0, events: 0, snapshots: 0, problems: [])
                let integrity = try core.db.integrityCheck()
                if integrity != ["ok"] { report.problems += integrity.map { "integrity: \($0)" } }
                let total = try core.count("SELECT count(*) FROM events")
                let maxSeq = try core.count("SELECT coalesce(max(seq), 0) FROM events")
                let minSeq = try core.count("SELECT coalesce(min(seq), 1) FROM events")
                if total > 0 && (minSeq != 1 || maxSeq != total) {
                    report.problems.append("seq is not gapless: \(total) events with seq \(minSeq)...\(maxSeq)")
                }
                for row in try core.allSessions() {
                    report.sessions += 1
                    let (snapshots, unreadableSnapshots) = try core.snapshots(of: row)
                    report.snapshots += snapshots.count + unreadableSnapshots.count
                    for (_, unreadable) in unreadableSnapshots.sorted(by: { $0.key < $1.key }) {
                        report.problems.append(unreadable.description)
                    }
                    var state = SessionState()
                    var expected = 1
                    var lastAt = Int64.min
                    var problem: String?
                    do {
                        try core.foldLog(sessionID: row.id) { version, at, body in
                            if version != expected, problem == nil { problem = "versions jump from \(expected - 1) to \(version)" }
                            if at < lastAt, problem == nil { problem = "version \(version) is earlier than the event before it" }
                            if problem == nil {
                                do { try state.validate(body) } catch { problem = "version \(version) does not follow the state before it: \(error)" }
                            }
                            state.apply(body)
                            expected = version + 1
                            lastAt = at
                            report.events += 1
                            if let snapshot = snapshots[version], !snapshot.isExactly(state) {
                                report.problems.append("session '\(row.key)': snapshot at version \(version) differs from the fold of the log: "
                                    + (snapshot.firstDifference(from: state, name: "the snapshot", expectedName: "the fold") ?? "unequal, in no field this check names"))
                            }
                            if report.events % 50_000 == 0 { progress?(report.events, total) }
                        }
                    } catch let error as NavigationError {
                        problem = "an event does not decode: \(error)"
                    }
                    if let problem { report.problems.append("session '\(row.key)': \(problem)") }
                    if row.version != expected - 1 {
                        report.problems.append("session '\(row.key)': sessions.version is \(row.version) but the log ends at \(expected - 1)")
                    }
                    if let extra = (Array(snapshots.keys) + unreadableSnapshots.keys).filter({ $0 >= expected }).min() {
                        report.problems.append("session '\(row.key)': snapshot at version \(extra) is past the end of the log")
                    }
                    let (projected, unreadableRows) = try core.readProjection(row)
                    report.problems += unreadableRows.map(\.description)
                    // An unreadable row is left out of `projected`, and already reported.
                    if unreadableRows.isEmpty, !projected.isExactly(state) {
                        report.problems.append("session '\(row.key)': projection differs from the fold of the log: "
                            + (projected.firstDifference(from: state, name: "the projection", expectedName: "the fold") ?? "unequal, in no field this check names"))
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
    func allSessions() throws -> [SessionRow] {
        var rows: [SessionRow] = []
        let statement = try db.prepare("SELECT id, key, name, created_at, updated_at, version FROM sessions ORDER BY id")
        try statement.forEachRow { s in
            rows.append(SessionRow(id: s.int64(at: 0), key: s.string(at: 1) ?? "", name: s.string(at: 2),
                                   createdAt: s.int64(at: 3), updatedAt: s.int64(at: 4), version: s.int(at: 5)))
        }
        return rows
    }

    /// A session's snapshots under the current rules, by version: those that can be read, and
    /// those whose JSON cannot (changed behind the store's back).
    func snapshots(of session: SessionRow) throws -> (states: [Int: SessionState], unreadable: [Int: UnreadableRow]) {
        var states: [Int: SessionState] = [:]
        var unreadable: [Int: UnreadableRow] = [:]
        let statement = try db.prepare("SELECT version, state FROM snapshots WHERE session_id = ? AND rules_version = ?")
        statement.bind(session.id, at: 1)
        statement.bind(navigationRulesVersion, at: 2)
        try statement.forEachRow { s in
            let version = s.int(at: 0), text = s.string(at: 1) ?? ""
            do {
                states[version] = try decoder.decode(SessionState.self, from: Data(text.utf8))
            } catch {
                unreadable[version] = UnreadableRow(session: session.key, row: "snapshot at version \(version)",
                                                    problem: "state \(UnreadableRow.quoted(text)) is not a session state (\(describeDecodingError(error)))")
            }
        }
        return (states, unreadable)
    }

    func count(_ sql: String) throws -> Int {
        let statement = try db.cachedStatement(sql)
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int(at: 0)
    }

    func execute(_ sql: String, _ id: Int64) throws {
        let statement = try db.cachedStatement(sql)
        statement.bind(id, at: 1)
        try statement.run()
    }
}
