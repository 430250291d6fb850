/// One lint rule holding for one session and one subject over a run of consecutive versions
/// (<doc:Lint>).
///
/// JSON (encoded with sorted keys): `{"current", "entries", "firstVersion", "fix",
/// "lastVersion", "message", "rule", "session", "severity", "source"}`. Versions are 1-based and
/// inclusive. The same rule and subject holding again after a gap is another finding. A
/// `duplicate-menu-rows` group's subject is its title and its farthest row: rows joining or
/// leaving nearer keep the one finding, which names its rows once, at their most.
public struct LintFinding: Sendable, Hashable, Codable {
    /// The rule that holds.
    public var rule: LintRule
    /// The rule's severity (``LintRule/severity``), repeated so a reader of the JSON needs no table.
    public var severity: LintSeverity
    /// The session key.
    public var session: String
    /// The subject: the entry ids the finding names. A menu-row rule names the row's entry;
    /// `duplicate-menu-rows` the rows sharing the title at the first version of the run at which
    /// they were most (nearest row first; the last is the farthest row, the same all run long);
    /// `guard-bypassed` the guarded entries the event removed (bottom first); `no-way-back` the
    /// top entry; `ignored-back-setting` the entry with both settings; the width rules the back item.
    public var entries: [String]
    /// The first version at which the rule holds for this subject (1-based).
    public var firstVersion: Int
    /// The last version of the run (inclusive); equal to ``firstVersion`` for `guard-bypassed`.
    public var lastVersion: Int
    /// Whether the rule still holds at the session's latest version (``lastVersion`` is it).
    public var current: Bool
    /// What is wrong, naming the offending value, e.g. `blank back-menu row: backButtonTitle ""
    /// on entry 'inbox'`. Text from the log is quoted with control characters escaped (so the
    /// message is one line) and shortened to 80 characters with `…`; a list of entries names the
    /// first five and counts the rest (``entries`` names them all). Said at ``firstVersion``, or
    /// for `duplicate-menu-rows` of the rows ``entries`` names.
    public var message: String
    /// The fix the rule suggests (``LintRule/fix``).
    public var fix: String
    /// The public source of the behaviour (``LintRule/source``).
    public var source: String

    /// Creates a finding; severity, fix and source come from `rule`.
    public init(
        rule: LintRule, session: String, entries: [String], firstVersion: Int, lastVersion: Int,
        current: Bool, message: String
    ) {
        self.rule = rule
        self.severity = rule.severity
        self.session = session
        self.entries = entries
        self.firstVersion = firstVersion
        self.lastVersion = lastVersion
        self.current = current
        self.message = message
        self.fix = rule.fix
        self.source = rule.source
    }
}

/// The totals of a lint run (the `"summary"` of a ``LintReport``).
public struct LintSummary: Sendable, Hashable, Codable {
    /// Sessions linted.
    public var sessions: Int
    /// Events folded (over all sessions linted).
    public var events: Int
    /// Findings of severity `error`.
    public var errors: Int
    /// Findings of severity `warning`.
    public var warnings: Int
    /// Findings of severity `info`.
    public var infos: Int

    /// Creates a summary.
    public init(sessions: Int = 0, events: Int = 0, errors: Int = 0, warnings: Int = 0, infos: Int = 0) {
        self.sessions = sessions
        self.events = events
        self.errors = errors
        self.warnings = warnings
        self.infos = infos
    }

    /// The number of findings of `severity` or above (`.info` counts them all).
    public func count(atOrAbove severity: LintSeverity) -> Int {
        switch severity {
        case .error: errors
        case .warning: errors + warnings
        case .info: errors + warnings + infos
        }
    }

    /// All findings.
    public var findings: Int { errors + warnings + infos }

    /// Counts `finding` under its severity.
    public mutating func add(_ finding: LintFinding) {
        switch finding.severity {
        case .error: errors += 1
        case .warning: warnings += 1
        case .info: infos += 1
        }
    }
}

/// Every finding of a lint run and its totals: `{"findings": [...], "summary": {...}}`, as JSON.
public struct LintReport: Sendable, Hashable, Codable {
    /// The findings: sessions in key order (by bytes, as SQLite orders keys), and within a
    /// session by first version, then rule (<doc:Lint> order), then subject.
    public var findings: [LintFinding]
    /// The totals.
    public var summary: LintSummary

    /// Creates a report.
    public init(findings: [LintFinding] = [], summary: LintSummary = LintSummary()) {
        self.findings = findings
        self.summary = summary
    }
}

/// What a lint run checks.
public struct LintOptions: Sendable, Hashable {
    /// The rules that may run; default ``LintRule/defaultRules`` (all but the opt-in
    /// `label-lost-on-ios26`). A rule that ``LintRule/needsWidth`` runs only when ``width`` is set.
    public var rules: Set<LintRule>
    /// The room for the back button's label, in the unit of `BackButton/label(fitting:columns:)`
    /// (terminal columns, rule 5 of <doc:Rules>); `nil` turns the two width rules off. At least 1.
    public var width: Int?

    /// The platform generation the rules are judged under, or `nil` for each session's own
    /// (``SessionState/platform``). Another generation is a what-if read ("what would this
    /// history show on iOS 26?"); it affects the button rules (the width rules and
    /// `label-lost-on-ios26`, which judges only sessions under ``PlatformGeneration/ios14``).
    public var platform: PlatformGeneration?

    /// Options running `rules` (default all but the opt-in ones) with `width` (default none), under `platform`
    /// (default each session's own).
    public init(rules: Set<LintRule> = LintRule.defaultRules, width: Int? = nil, platform: PlatformGeneration? = nil) {
        self.rules = rules
        self.width = width
        self.platform = platform
    }

    /// Whether `rule` runs under these options.
    public func runs(_ rule: LintRule) -> Bool {
        rules.contains(rule) && (!rule.needsWidth || width != nil)
    }
}
