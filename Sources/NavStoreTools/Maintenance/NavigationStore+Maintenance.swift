import NavStore

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
                // (<doc:Retention>); a rebuild cannot bring missing events back, so it only reports them.
                if verify {
                    report.differences += try core.seqGapProblems().map {
                        $0 + " (a rebuild cannot restore missing events)"
                    }
                }
                for row in try core.allSessions() {
                    try core.rebuild(row, verify: verify, into: &report) { progress?($0, total) }
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
                    try core.check(row, into: &report) { progress?($0, total) }
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
