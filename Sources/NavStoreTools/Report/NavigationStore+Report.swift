import NavStore

extension NavigationStore {
    /// The report of a session's history (<doc:Reports>): every version from `from` through `to`
    /// with the state, back button, back menu and changes after it, built by streaming the log
    /// through a `ReportBuilder`, and the lint findings (<doc:Lint>) of the whole session that
    /// hold within that range (a finding keeps its own first and last version).
    /// - Parameters:
    ///   - key: the session key.
    ///   - from: the first version (1-based; default 1).
    ///   - to: the last version (default the latest).
    ///   - options: the lint options (rules, width) of the findings shown.
    ///   - platform: resolve the labels under this generation instead of the recorded one (a
    ///     what-if report, <doc:PlatformGenerations>); `nil` for the recorded one. Lint findings are always
    ///     those of the recorded history.
    ///   - summary: the one-line summary of an event for the timeline.
    /// - Throws: ``StoreError/sessionNotFound(_:)``; ``StoreError/pointOutOfRange(session:point:accepted:)``
    ///   when `from` or `to` is not a version of the session or `from` is after `to`; database errors.
    /// - Complexity: O(K + events + what they changed + depth × events / max(64, 2 × depth)) for
    ///   K = the snapshot interval: a keyframe every max(64, 2 × depth) versions.
    package func report(
        session key: String, from: Int? = nil, to: Int? = nil, lint options: LintOptions = LintOptions(),
        platform: PlatformGeneration? = nil, summary: (Event) -> String
    ) throws -> SessionReport {
        let info = try sessionInfo(key)
        // A truncated session (NavStore.docc/Retention.md) starts after its base: earlier events are gone.
        let base = try self.base(session: info.key)
        let earliest = (base?.version ?? 0) + 1
        let first = from ?? earliest
        let last = to ?? info.version
        let accepted =
            "versions \(earliest) through \(info.version)"
            + (base.map { "; the session was truncated, versions up to \($0.version) are gone" } ?? "")
        guard (earliest...info.version).contains(first) else {
            throw StoreError.pointOutOfRange(session: info.key, point: "first version \(first)", accepted: accepted)
        }
        guard (earliest...info.version).contains(last) else {
            throw StoreError.pointOutOfRange(session: info.key, point: "last version \(last)", accepted: accepted)
        }
        guard first <= last else {
            throw StoreError.pointOutOfRange(
                session: info.key, point: "first version \(first), after the last version \(last),",
                accepted: "a first version at or before the last")
        }
        let start: SessionState
        if let base, first == earliest {
            start = base.state
        } else {
            start = first > 1 ? try state(session: info.key, at: .version(first - 1)).state : SessionState()
        }
        var builder = ReportBuilder(startingAt: start, platform: platform)
        try events(session: info.key, filter: EventFilter(fromVersion: first, toVersion: last)) { event in
            builder.add(event, summary: summary(event))
        }
        var report = builder.report(session: info.key, name: info.name ?? base?.name, latestVersion: info.version)
        report.baseVersion = base?.version
        report.recordedPlatform = info.platform
        report.platform = platform ?? info.platform
        report.labelRoom = options.width
        report.attach(try lint(sessions: [info.key], options: options).findings)
        return report
    }

    /// The index of every session's report (<doc:Reports>): each session with its event count,
    /// time span (after its base, for a truncated session) and lint findings per severity.
    /// - Parameter options: the lint options (rules, width) of the counts.
    /// - Throws: database errors.
    package func reportIndex(lint options: LintOptions = LintOptions()) throws -> ReportIndex {
        var counts: [ExactKey: LintSummary] = [:]
        try lint(options: options) { counts[ExactKey($0.session), default: LintSummary()].add($0) }
        var rows: [ReportIndex.Row] = []
        for info in try sessions() {
            var row = ReportIndex.Row(info)
            if let base = try base(session: info.key) {
                row.events = info.version - base.version
                row.baseVersion = base.version
            }
            let summary = counts[ExactKey(info.key)] ?? LintSummary()
            (row.errors, row.warnings, row.infos) = (summary.errors, summary.warnings, summary.infos)
            rows.append(row)
        }
        return ReportIndex(rows: rows)
    }
}
