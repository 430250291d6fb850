/// Lints one session's events as they stream by (<doc:Lint>): folds each event into the state
/// with the model's own ``SessionState/apply(_:)``, judges the rules after every version, and
/// joins the versions at which a rule holds for a subject into runs (``LintFinding``).
///
/// It holds the session's state, the runs still open and the findings closed so far: memory
/// does not grow with the number of events, only with the number of findings.
///
/// ```swift
/// var linter = SessionLinter(session: "window-1")
/// for event in events { linter.consume(event) }   // versions 1, 2, 3, ... in order
/// let findings = linter.finish()
/// ```
public struct SessionLinter: Sendable {
    /// The session key the findings name.
    public let session: String
    /// What is checked.
    public let options: LintOptions
    /// The state after the last event consumed.
    public private(set) var state: SessionState
    /// The version of the last event consumed (0 before the first).
    public private(set) var version = 0

    /// A rule and its subject; entry ids compare by their Unicode scalars, as the model's ids do.
    private struct RunKey: Hashable {
        package var rule: LintRule
        package var entries: [String]

        package static func == (a: RunKey, b: RunKey) -> Bool { a.rule == b.rule && sameIDs(a.entries, b.entries) }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(rule)
            for id in entries { ExactKey(id).hash(into: &hasher) }
        }
    }

    private struct Run {
        package var first: Int
        package var last: Int
        package var message: String
    }

    private let rules: LintRuleMask
    private var open: [RunKey: Run] = [:]
    private var closed: [LintFinding] = []
    /// The hits of the version being judged; kept to reuse its storage.
    private var holding: [LintHit] = []

    /// A linter for session `session`, starting from `initial` (a new session's empty state by
    /// default) at version `version` (0: the next event consumed is version 1). A start above 0
    /// is a truncated session's base (<doc:Retention>): the rules about the state are judged at that
    /// version too, so a finding holds from the base on as it did before the truncation
    /// (`guard-bypassed` judges an event, and the base's event is gone).
    public init(
        session: String, options: LintOptions = LintOptions(), initial: SessionState = SessionState(), version: Int = 0
    ) {
        self.session = session
        self.options = options
        self.rules = LintRuleMask(options)
        self.state = initial
        self.version = version
        if version > 0 {
            initial.lintHits(options, rules: rules, into: &holding)
            judge()
        }
    }

    /// Folds the session's next event (version ``version`` + 1) and judges the rules after it.
    ///
    /// The event must be one the log could hold after the current state
    /// (``SessionState/validate(_:)``); like `apply`, this never fails.
    /// - Complexity: O(n) in the number of live entries, plus O(r) in the runs open.
    public mutating func consume(_ event: EventBody) {
        let bypass = rules.contains(.guardBypassed) ? state.guardBypassHit(by: event) : nil
        let divergence = rules.contains(.modelDivergence) ? state.modelDivergenceHit(by: event) : nil
        state.apply(event)
        version += 1
        holding.removeAll(keepingCapacity: true)
        state.lintHits(options, rules: rules, into: &holding)
        if let bypass { holding.append(bypass) }
        if let divergence { holding.append(divergence) }
        judge()
    }

    /// Extends or opens the run of each hit in ``holding`` at ``version`` (a run's message is
    /// written when it opens), and closes the runs that no longer hold.
    private mutating func judge() {
        for hit in holding {
            let key = RunKey(rule: hit.rule, entries: hit.entries)
            if let index = open.index(forKey: key) {
                // An event's rules hold for one version: the next event is another finding.
                if hit.rule != .guardBypassed, hit.rule != .modelDivergence, open.values[index].last == version - 1 {
                    open.values[index].last = version
                    continue
                }
                close(key, open.remove(at: index).value)
            }
            open[key] = Run(first: version, last: version, message: hit.message)
        }
        guard !open.isEmpty else { return }
        var ended: [RunKey] = []
        for (key, run) in open where run.last < version { ended.append(key) }
        for key in ended { close(key, open.removeValue(forKey: key)!) }
    }

    private mutating func close(_ key: RunKey, _ run: Run) {
        closed.append(
            LintFinding(
                rule: key.rule, session: session, entries: key.entries, firstVersion: run.first,
                lastVersion: run.last, current: false, message: run.message))
    }

    /// Ends the session: the runs still open hold at its latest version (``version``) and are
    /// ``LintFinding/current``. Returns every finding, ordered by first version, then rule
    /// (<doc:Lint> order), then subject; the linter is left empty.
    public mutating func finish() -> [LintFinding] {
        for (key, run) in open { close(key, run) }
        open.removeAll()
        var findings = closed
        closed.removeAll()
        for index in findings.indices where findings[index].lastVersion == version {
            findings[index].current = true
        }
        findings.sort(by: Self.precedes)
        return findings
    }

    /// The order of findings within a session: first version, then rule (<doc:Lint> order),
    /// then subject (entry ids compared by their UTF-8 bytes).
    package static func precedes(_ a: LintFinding, _ b: LintFinding) -> Bool {
        if a.firstVersion != b.firstVersion { return a.firstVersion < b.firstVersion }
        if a.rule != b.rule { return LintRule.order[a.rule]! < LintRule.order[b.rule]! }
        return a.entries.lexicographicallyPrecedes(b.entries) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

extension LintRule {
    /// Each rule's position in <doc:Lint>'s table.
    package static let order: [LintRule: Int] = Dictionary(uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })
}

/// Lints a stream of events of any number of sessions, in the order a log or an export holds
/// them (each session's versions 1, 2, 3... in order, sessions possibly interleaved), checking
/// that the stream is one a log could hold before folding each event.
///
/// Holds one ``SessionLinter`` per session the stream names (an export of every session
/// interleaves them), so memory grows with the number of sessions, not of events.
public struct EventStreamLinter: Sendable {
    /// What is checked.
    public let options: LintOptions
    private var linters: [ExactKey: SessionLinter] = [:]
    private var events = 0
    /// The keys of the sessions finished by the last ``finish()``, in key order.
    public private(set) var sessionKeys: [String] = []

    /// A linter for a new stream.
    public init(options: LintOptions = LintOptions()) { self.options = options }

    /// Checks and folds the next event of the stream.
    ///
    /// A session's first event must be its version 1, a `session.started` (or follow the base
    /// given to ``start(session:atBase:version:)``); each later event must
    /// be the next version, not a `session.started`, and one the rules accept after the state
    /// before it (``SessionState/validate(_:)``).
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming the session, version and what does
    ///   not fit; the event is then not folded.
    public mutating func consume(_ event: Event) throws(NavigationError) {
        let key = ExactKey(event.session)
        let isNew = linters[key] == nil
        var linter = linters.removeValue(forKey: key) ?? SessionLinter(session: event.session, options: options)
        defer { linters[key] = linter }
        let name = LintText.id(event.session)
        if isNew {
            guard !event.session.isEmpty else { throw .invalidEvent("the session key is empty") }
            guard event.version == 1 else {
                throw .invalidEvent(
                    "session \(name) starts at version \(event.version); a session's log starts at version 1")
            }
            guard case .sessionStarted = event.body else {
                throw .invalidEvent(
                    "session \(name) starts with \(event.type); a session's log starts with session.started")
            }
        } else {
            guard event.version == linter.version + 1 else {
                throw .invalidEvent(
                    "session \(name) expected version \(linter.version + 1), found \(event.version); versions go 1, 2, 3... without gaps"
                )
            }
            if case .sessionStarted = event.body {
                throw .invalidEvent(
                    "session.started can only be version 1 of a session, found at version \(event.version) of session \(name)"
                )
            }
        }
        do throws(NavigationError) { try linter.state.validate(event.body) } catch {
            throw .invalidEvent("version \(event.version) of session \(name): \(error.description)")
        }
        linter.consume(event.body)
        events += 1
    }

    /// Starts a truncated session at its base (<doc:Retention>: the state after `version`, whose
    /// event and every earlier one were deleted): its next event must be `version + 1`, and the
    /// rules about the state are judged at the base version and from there on.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` when the stream already named the session
    ///   (a base comes first), or `version` is below 1.
    public mutating func start(session: String, atBase state: SessionState, version: Int) throws(NavigationError) {
        let name = LintText.id(session)
        guard linters[ExactKey(session)] == nil else {
            throw .invalidEvent(
                "the base of session \(name) at version \(version) comes after its events; a base is a truncated session's first line"
            )
        }
        guard !session.isEmpty else { throw .invalidEvent("the session key is empty") }
        guard version >= 1 else {
            throw .invalidEvent("the base of session \(name) is at version \(version); versions start at 1")
        }
        linters[ExactKey(session)] = SessionLinter(session: session, options: options, initial: state, version: version)
    }

    /// Ends the stream: every session's findings, sessions in key order (by UTF-8 bytes, as
    /// SQLite orders keys, so the report equals a lint of the same events in a database), and
    /// the totals.
    public mutating func finish() -> LintReport {
        var report = LintReport()
        let keys = linters.keys.sorted { $0.text.utf8.lexicographicallyPrecedes($1.text.utf8) }
        for key in keys {
            var linter = linters.removeValue(forKey: key)!
            for finding in linter.finish() {
                report.findings.append(finding)
                report.summary.add(finding)
            }
        }
        report.summary.sessions = keys.count
        report.summary.events = events
        sessionKeys = keys.map(\.text)
        events = 0
        return report
    }
}
