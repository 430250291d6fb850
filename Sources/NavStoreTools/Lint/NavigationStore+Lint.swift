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
    /// version order, and folded by a ``SessionLinter``; only one session's state and its runs
    /// still open are held at a time, and each finding goes to `body` as it ends, so memory
    /// grows with neither the log nor the findings.
    ///
    /// A truncated session (<doc:Retention>) is linted from its base on: the rules about the state
    /// are judged at the base version and after each remaining event, so every finding from the
    /// base on is what it was before the truncation.
    ///
    /// Each session is read in its own read transaction, and `body` gets the session's findings
    /// as they end, during that read (it must not call the store): first those that ended
    /// before the latest version, in the order they ended (those ending at the same version by
    /// first version, then rule, then subject), then the ones that still hold
    /// (``LintFinding/current``) in that order. Sessions go in key order (by bytes, as SQLite
    /// orders keys) when `sessions` is `nil`, else in the order given (a key named twice is
    /// linted once). ``lint(sessions:options:)`` collects them in <doc:Lint> order instead.
    ///
    /// - Parameters:
    ///   - sessions: the session keys to lint, or `nil` for every session. Named sessions are
    ///     all checked to exist before any is linted.
    ///   - options: the rules to run and the width for the width rules.
    ///   - progress: see ``LintProgressHandler``; called while the store is locked (it must not
    ///     call the store).
    ///   - body: called once per finding, as it ends (it must not call the store); an error it
    ///     throws stops the lint and is rethrown.
    /// - Returns: the totals: sessions linted, events folded, findings per severity.
    /// - Throws: ``StoreError/sessionNotFound(_:)`` for a named session that does not exist
    ///   (nothing is linted), database errors (``StoreError``), or what `body` throws.
    /// - Complexity: O(n) in the events of the sessions linted, plus what each event changed
    ///   (``SessionLinter``): not the depth of the stacks.
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
        // An error `body` throws during the read is handed back as it is, not as a store error.
        var bodyError: (any Error)?
        for key in keys {
            var linter = SessionLinter(session: key, options: options)
            let found: Bool
            do {
                found = try withCore { core in
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
                        for finding in linter.drainEnded() {
                            summary.add(finding)
                            do { try body(finding) } catch {
                                bodyError = error
                                throw error
                            }
                        }
                        summary.events += 1
                        if let progress, (summary.events - before) % 10_000 == 0 {
                            progress(summary.sessions, summary.events)
                        }
                    }
                    return true
                }
            }
            } catch {
                if let bodyError { throw bodyError }
                throw error
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
    /// - Returns: the findings, sessions in the order linted, each session's in <doc:Lint> order
    ///   (first version, then rule, then subject), and the totals.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func lint(sessions: [String]? = nil, options: LintOptions = LintOptions()) throws(StoreError) -> LintReport {
        var findings: [LintFinding] = []
        var sessionStart = 0
        do {
            let summary = try lint(sessions: sessions, options: options) { finding in
                if let last = findings.last, !last.session.hasSameScalars(as: finding.session) {
                    findings[sessionStart...].sort(by: SessionLinter.precedes)
                    sessionStart = findings.count
                }
                findings.append(finding)
            }
            findings[sessionStart...].sort(by: SessionLinter.precedes)
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
    /// with no database at all, collecting the findings (see
    /// ``lintNDJSON(lines:sessions:options:progress:_:)``, which streams them).
    /// - Returns: every finding, sessions in key order (by bytes) or, when `sessions` is given,
    ///   in the order given; each session's in <doc:Lint> order; and the totals.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` with the 1-based line number and the
    ///   reason; ``StoreError/sessionNotFound(_:)`` for a named session the input does not hold.
    public static func lintNDJSON(
        lines: some Sequence<String>, sessions: [String]? = nil, options: LintOptions = LintOptions(),
        progress: LintProgressHandler? = nil
    ) throws(StoreError) -> LintReport {
        var findings: [LintFinding] = []
        let summary: LintSummary
        do {
            summary = try lintNDJSON(lines: lines, sessions: sessions, options: options, progress: progress) {
                findings.append($0)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .invalidImport(line: 0, reason: "\(error)")
        }
        var bySession = Dictionary(grouping: findings) { ExactKey($0.session) }
        var seen: Set<ExactKey> = []
        let order =
            sessions?.map(ExactKey.init).filter { seen.insert($0).inserted }
            ?? bySession.keys.sorted { $0.text.utf8.lexicographicallyPrecedes($1.text.utf8) }
        var report = LintReport(summary: summary)
        for key in order {
            report.findings += (bySession.removeValue(forKey: key) ?? []).sorted(by: SessionLinter.precedes)
        }
        return report
    }

    /// Lints NDJSON event records (the output of ``exportNDJSON(session:redact:keepIDs:_:)``)
    /// with no database at all, streaming: each line is decoded as
    /// ``importNDJSON(lines:progress:)`` decodes it and checked by an ``EventStreamLinter``
    /// (versions in order from a `session.started`, events the rules accept), then folded; each
    /// finding goes to `body` as it ends.
    ///
    /// The input is read once; memory holds one state per session it names (an export of every
    /// session interleaves them) and its runs still open, never the input or the findings. The
    /// findings are those of ``lint(sessions:options:)`` on a database holding the same events:
    /// those that ended before the end of the input in the order they ended (of any session),
    /// then the rest, sessions in key order (by bytes), each session's in <doc:Lint> order.
    /// - Parameters:
    ///   - lines: the NDJSON lines (without their newlines), read once, in order; blank lines are
    ///     skipped.
    ///   - sessions: the session keys to lint, or `nil` for every session of the input. Events
    ///     of other sessions are decoded (a bad line is still an error) but not folded. A named
    ///     session the input lacks is known only at its end: the error then follows the findings
    ///     of the others.
    ///   - options: the rules to run and the width.
    ///   - progress: called every 10,000 lines with 0 sessions and the lines read.
    ///   - body: called once per finding, as it ends; an error it throws stops the lint.
    /// - Returns: the totals.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` with the 1-based line number and the
    ///   reason (not JSON, a missing key, an unknown type, a bad payload, a version gap, an event
    ///   the rules refuse); ``StoreError/sessionNotFound(_:)`` for a named session the input does
    ///   not hold; what `body` throws.
    /// - Complexity: O(n) in the number of lines, plus what each event changed.
    @discardableResult
    public static func lintNDJSON(
        lines: some Sequence<String>, sessions: [String]? = nil, options: LintOptions = LintOptions(),
        progress: LintProgressHandler? = nil, _ body: (LintFinding) throws -> Void
    ) throws -> LintSummary {
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
                if case .invalidEvent(let reason) = error {
                    throw StoreError.invalidImport(line: lineNumber, reason: reason)
                }
                throw StoreError.invalidImport(line: lineNumber, reason: error.description)
            }
            for finding in linter.drainEnded() { try body(finding) }
        }
        let report = linter.finish()
        if let named {
            let linted = Set(linter.sessionKeys.map(ExactKey.init))
            if let missing = named.first(where: { !linted.contains(ExactKey($0)) }) {
                throw StoreError.sessionNotFound(missing)
            }
        }
        for finding in report.findings { try body(finding) }
        return report.summary
    }
}
