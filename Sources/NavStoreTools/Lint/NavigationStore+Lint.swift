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
        let keys = try keysToLint(sessions)
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

    /// The keys a lint of `sessions` goes through: the named ones in the order given, each once,
    /// all checked to exist before any is linted; for `nil`, every session's, in key order.
    /// - Throws: ``StoreError/sessionNotFound(_:)`` for a named session that does not exist,
    ///   database errors.
    private func keysToLint(_ sessions: [String]?) throws(StoreError) -> [String] {
        guard let sessions else { return try sessionKeys() }
        var seen: Set<ExactKey> = []
        let keys = sessions.filter { seen.insert(ExactKey($0)).inserted }
        try withCore { core in
            for key in keys where try core.sessionRow(key) == nil { throw StoreError.sessionNotFound(key) }
        }
        return keys
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
    /// with no database of the caller's, collecting the findings (see
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
    /// with no database of the caller's, streaming each finding to `body` as it ends.
    ///
    /// The input is read by ``importNDJSON(lines:progress:)`` itself, into a private temporary
    /// SQLite database (SQLite's temporary file, https://sqlite.org/inmemorydb.html#temp_db:
    /// seen by this call alone and deleted when it returns), which is then linted as
    /// ``lint(sessions:options:progress:_:)`` lints a store. So an input lints exactly when it
    /// imports into an empty database, refused with the same line and reason when it does not
    /// (one reader and one set of checks for both): a line repeated as it is is skipped
    /// as a second import skips it, a truncated session's base passes the checks a `set-stack`
    /// passes, an event id is a UUID used once. The findings are those of a lint of that
    /// database, in its order: sessions in key order (by bytes), each session's as they end.
    ///
    /// Memory holds what an import holds (one state per session the input names) and SQLite's
    /// page cache, never the input or the findings; the temporary file grows with the input, in
    /// the folder SQLite picks for temporary files (`SQLITE_TMPDIR`, `TMPDIR`, else `/var/tmp`
    /// or `/tmp`).
    /// - Parameters:
    ///   - lines: the NDJSON lines (without their newlines), read once, in order; blank lines are
    ///     skipped.
    ///   - sessions: the session keys to lint, or `nil` for every session of the input. Every
    ///     line is checked; only these sessions are linted, each once, in the order given.
    ///   - options: the rules to run and the width.
    ///   - progress: called every 10,000 lines while reading, with 0 sessions and the lines read;
    ///     then as ``lint(sessions:options:progress:_:)`` calls it.
    ///   - body: called once per finding, as it ends; an error it throws stops the lint.
    /// - Returns: the totals.
    /// - Throws: what ``importNDJSON(lines:progress:)`` throws for the input (above all
    ///   ``StoreError/invalidImport(line:reason:)`` with the 1-based line number and the reason),
    ///   before any finding; ``StoreError/sessionNotFound(_:)`` for a named session the input
    ///   does not hold, before any finding; a database error of the temporary file (a full
    ///   disk); what `body` throws.
    /// - Complexity: O(n) in the number of lines, plus the rules' cost per event.
    @discardableResult
    public static func lintNDJSON(
        lines: some Sequence<String>, sessions: [String]? = nil, options: LintOptions = LintOptions(),
        progress: LintProgressHandler? = nil, _ body: (LintFinding) throws -> Void
    ) throws -> LintSummary {
        var scratchOptions = StoreOptions()
        // Nothing to keep after a crash: the file is deleted when the store closes.
        scratchOptions.synchronous = .off
        let scratch = try NavigationStore(path: "", create: true, options: scratchOptions)
        try scratch.importNDJSON(lines: lines, progress: progress.map { report in { read, _ in report(0, read) } })
        return try scratch.lint(sessions: sessions, options: options, progress: progress, body)
    }
}
