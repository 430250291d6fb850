#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import NavStore

/// Called during a lint with the sessions finished and the events folded so far (every 10,000
/// events and after each session).
public typealias LintProgressHandler = (_ sessions: Int, _ events: Int) -> Void

extension NavigationStore {
    /// Lints sessions of the log (<doc:Lint>), streaming: each session's events are read once, in
    /// version order, and folded by a ``SessionLinter``; only one session's state and findings
    /// are held at a time, so memory does not grow with the log.
    ///
    /// A truncated session (<doc:Retention>) is linted from its base on: the rules about the state
    /// are judged at the base version and after each remaining event, so every finding from the
    /// base on is what it was before the truncation.
    ///
    /// Each session is read in its own read transaction; `body` gets its findings after that
    /// transaction ended (it may call the store), ordered by first version, then rule, then
    /// subject. Sessions go in key order (by bytes, as SQLite orders keys) when `sessions` is
    /// `nil`, else in the order given (a key named twice is linted once).
    ///
    /// - Parameters:
    ///   - sessions: the session keys to lint, or `nil` for every session. Named sessions are
    ///     all checked to exist before any is linted.
    ///   - options: the rules to run and the width for the width rules.
    ///   - progress: see ``LintProgressHandler``; called while the store is locked (it must not
    ///     call the store).
    ///   - body: called once per finding; an error it throws stops the lint and is rethrown.
    /// - Returns: the totals: sessions linted, events folded, findings per severity.
    /// - Throws: ``StoreError/sessionNotFound(_:)`` for a named session that does not exist
    ///   (nothing is linted), database errors (``StoreError``), or what `body` throws.
    /// - Complexity: O(n) in the events of the sessions linted, times the rules' O(depth).
    @discardableResult
    public func lint(
        sessions: [String]? = nil, options: LintOptions = LintOptions(),
        progress: LintProgressHandler? = nil, _ body: (LintFinding) throws -> Void
    ) throws -> LintSummary {
        let keys: [String]
        if let sessions {
            var seen: Set<ExactKey> = []
            keys = sessions.filter { seen.insert(ExactKey($0)).inserted }
            try withCore { core in
                for key in keys where try core.sessionRow(key) == nil { throw StoreError.sessionNotFound(key) }
            }
        } else {
            keys = try sessionKeys()
        }
        var summary = LintSummary()
        for key in keys {
            var linter = SessionLinter(session: key, options: options)
            let found: Bool = try withCore { core in
                try core.db.inTransaction(.read) {
                    guard let row = try core.sessionRow(key) else {
                        // Gone since it was listed (deleted by another process): nothing to lint.
                        if sessions == nil { return false }
                        throw StoreError.sessionNotFound(key)
                    }
                    if let base = try core.base(of: row) {
                        linter = SessionLinter(
                            session: key, options: options, initial: base.state, version: base.version)
                    }
                    let before = summary.events
                    try core.streamEvents(session: row, filter: EventFilter()) { event in
                        linter.consume(event.body)
                        summary.events += 1
                        if let progress, (summary.events - before) % 10_000 == 0 {
                            progress(summary.sessions, summary.events)
                        }
                    }
                    return true
                }
            }
            guard found else { continue }
            summary.sessions += 1
            progress?(summary.sessions, summary.events)
            for finding in linter.finish() {
                summary.add(finding)
                try body(finding)
            }
        }
        return summary
    }

    /// Lints sessions of the log and collects the findings (see
    /// ``lint(sessions:options:progress:_:)``, which streams them instead).
    /// - Returns: the findings, sessions in the order linted, and the totals.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func lint(sessions: [String]? = nil, options: LintOptions = LintOptions()) throws(StoreError) -> LintReport {
        var findings: [LintFinding] = []
        do {
            let summary = try lint(sessions: sessions, options: options) { findings.append($0) }
            return LintReport(findings: findings, summary: summary)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.from(error, path: path, options: self.options)
        }
    }

    /// Every session key, in key order (by bytes).
    /// - Throws: database errors.
    public func sessionKeys() throws(StoreError) -> [String] {
        try withCore { core in
            var keys: [String] = []
            try core.db.forEachRow(sql: "SELECT key FROM sessions ORDER BY key", arguments: []) { row in
                keys.append(try row[0])
            }
            return keys
        }
    }

    /// Lints NDJSON event records (the output of ``exportNDJSON(session:redact:keepIDs:_:)``)
    /// with no database at all: each line is decoded as ``importNDJSON(lines:progress:)`` decodes
    /// it and checked by an ``EventStreamLinter`` (versions in order from a `session.started`,
    /// events the rules accept), then folded.
    ///
    /// The input is read once; memory holds one state per session it names (an export of every
    /// session interleaves them), never the input. The report equals ``lint(sessions:options:)``
    /// of a database holding the same events.
    /// - Parameters:
    ///   - lines: the NDJSON lines (without their newlines), read once, in order; blank lines are
    ///     skipped.
    ///   - sessions: the session keys to lint, or `nil` for every session of the input. Events
    ///     of other sessions are decoded (a bad line is still an error) but not folded. Findings
    ///     then go in the order the keys are given (a key named twice counts once).
    ///   - options: the rules to run and the width.
    ///   - progress: called every 10,000 lines with 0 sessions and the lines read.
    /// - Returns: every finding and the totals.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` with the 1-based line number and the
    ///   reason (not JSON, a missing key, an unknown type, a bad payload, a version gap, an event
    ///   the rules refuse); ``StoreError/sessionNotFound(_:)`` for a named session the input does
    ///   not hold.
    /// - Complexity: O(n) in the number of lines, times the rules' O(depth).
    public static func lintNDJSON(
        lines: some Sequence<String>, sessions: [String]? = nil, options: LintOptions = LintOptions(),
        progress: LintProgressHandler? = nil
    ) throws(StoreError) -> LintReport {
        var seen: Set<ExactKey> = []
        let named = sessions?.filter { seen.insert(ExactKey($0)).inserted }
        var linter = EventStreamLinter(options: options)
        var lineNumber = 0
        let decoder = JSONDecoder()
        for line in lines {
            lineNumber += 1
            if lineNumber % 10_000 == 0 { progress?(0, lineNumber) }
            guard let decoded = try decodeEventLine(line, lineNumber: lineNumber, decoder: decoder) else { continue }
            let event = decoded.event
            if named != nil, !seen.contains(ExactKey(event.session)) { continue }
            do throws(NavigationError) {
                if let base = decoded.base {
                    try linter.start(session: base.session, atBase: base.state, version: base.version)
                } else {
                    try linter.consume(event)
                }
            } catch {
                if case .invalidEvent(let reason) = error { throw .invalidImport(line: lineNumber, reason: reason) }
                throw .invalidImport(line: lineNumber, reason: error.description)
            }
        }
        var report = linter.finish()
        guard let named else { return report }
        let bySession = Dictionary(grouping: report.findings) { ExactKey($0.session) }
        let linted = Set(linter.sessionKeys.map(ExactKey.init))
        if let missing = named.first(where: { !linted.contains(ExactKey($0)) }) { throw .sessionNotFound(missing) }
        report.findings = named.flatMap { bySession[ExactKey($0)] ?? [] }
        return report
    }
}
