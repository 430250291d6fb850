import NavStore
import NavStoreTools

/// `navdb lint [KEY...] [--input FILE|-] [--rule R]... [--disable R]... [--width N]
/// [--fail-on error|warning|info|never]`: the back-navigation defects in recorded history
/// (NavStore.docc/Lint.md), as a compiler's diagnostics or `--json`; exit 2 when a finding reaches
/// `--fail-on`.
struct LintCommand: Command {
    /// The lowest severity that fails the run, or never.
    enum FailOn: String, CaseIterable, ExpressibleByArgument {
        case error, warning, info, never

        /// The severity threshold, `nil` for never.
        var severity: LintSeverity? { LintSeverity(rawValue: rawValue) }
    }

    static let spec = CommandSpec(
        abstract: "Find back-navigation defects in recorded history (blank menu rows, bypassed guards, ...).",
        discussion: """
            Folds every session (or the named ones) once, in version order, and judges the rules after \
            every version with the model's own back-button and back-menu resolution. A finding is one rule \
            holding for one session and subject over a run of versions: \
            'KEY v3-v7: warning: <message> [rule-id]' and a 'fix:' line; '(current)' marks one that still \
            holds at the latest version. Findings print as they end (a session's current ones last), so memory \
            does not grow with them. A summary line ends the output. --json prints \
            {"findings": [{"current","entries","firstVersion","fix","lastVersion","message","rule","session","severity","source"}], \
            "summary": {"errors","events","infos","sessions","warnings"}}. \
            Rules: \(LintRule.allCases.map { "\($0.id) (\($0.severity.rawValue))" }.joined(separator: ", ")); \
            label-falls-back and custom-label-truncated only with --width; label-lost-on-ios26 and untitled-screen only when named \
            with --rule (label-lost-on-ios26 judges sessions under ios14). --platform G judges every session under generation G (what the same \
            history would show there). Exit 0, or 2 when a finding is at or above --fail-on (default \
            error), so a UI-test pipeline can gate on it; 1 for an unknown session; 65 for an --input that \
            cannot be read or is not a navdb export (the line and reason are named). Progress goes to \
            stderr on a terminal only. On a terminal the severities are coloured, never with NO_COLOR set.
            """,
        arguments: [keys.spec],
        options: [input.spec, rule.spec, disable.spec, width.spec, failOn.spec, platform.spec])

    /// `[<key> ...]`.
    static let keys = Argument(
        variadic: "key", help: "Sessions to lint (default: every session).", nonEmpty: "a session key", kind: .sessionKey)
    /// `--input <file>`.
    static let input = Option<String?>(
        "input", "file", help: "Lint an NDJSON export ('navdb export'), or - for stdin, with no database.",
        parser: .nonEmpty("a file path, or - for stdin").ofKind(.path))
    /// How a rule is named on the command line.
    static let ruleParser = ValueParser<LintRule>(choices: LintRule.ids) { id throws(InvalidValue) in
        guard let rule = LintRule(id: id) else {
            throw InvalidValue(value: id, expected: "a rule id: \(LintRule.ids.joined(separator: ", "))")
        }
        return rule
    }
    /// `--rule <id> ...`.
    static let rule = Option<[LintRule]>(
        repeating: "rule", "id", help: "Run only this rule (repeatable).", parser: ruleParser)
    /// `--disable <id> ...`.
    static let disable = Option<[LintRule]>(
        repeating: "disable", "id", help: "Do not run this rule (repeatable).", parser: ruleParser)
    /// `--width <n>`.
    static let width = WidthOption.label(
        help: "Room for the back button's label, in columns: turns on label-falls-back and custom-label-truncated.")
    /// `--fail-on <severity>`.
    static let failOn = Option<FailOn>(
        "fail-on", "severity", default: .error, help: "Exit 2 when a finding is at or above this severity.",
        parser: FailOn.parser)
    /// `--platform <generation>`.
    static let platform = Option<PlatformGeneration?>(
        "platform", "generation",
        help: "Judge every session under this platform generation instead of its own: a what-if read.")

    var keys: [String]
    var input: InputFile?
    var options: LintOptions
    var failOn: FailOn

    init(_ arguments: ParsedArguments) throws(UsageError) {
        keys = try arguments.value(Self.keys)
        input = try arguments.value(Self.input).map { InputFile(path: $0) }
        let only = try arguments.value(Self.rule)
        let disabled = try arguments.value(Self.disable)
        if let both = only.first(where: disabled.contains) {
            throw arguments.error(
                "--rule \(both.id) and --disable \(both.id) cannot be combined: a rule is either run or not")
        }
        let width = try arguments.value(Self.width)
        if width == nil, let needy = only.first(where: \.needsWidth) {
            throw arguments.error(
                "--rule \(needy.id) needs --width <n> (the room for the back button's label, in columns)")
        }
        var selected = only.isEmpty ? LintRule.defaultRules : Set(only)
        selected.subtract(disabled)
        options = LintOptions(rules: selected, width: width, platform: try arguments.value(Self.platform))
        failOn = try arguments.value(Self.failOn)
    }

    func run(_ context: Context) throws -> Outcome {
        var output = FindingOutput(json: context.json)
        let summary: LintSummary
        if let input {
            summary = try lint(input, into: &output)
        } else {
            summary = try lintDatabase(context, into: &output)
        }
        output.finish(summary)
        if let threshold = failOn.severity, summary.count(atOrAbove: threshold) > 0 { return .lintFindings }
        return .success
    }

    /// Lints an NDJSON export, with no database; findings are written as they end.
    private func lint(_ input: InputFile, into output: inout FindingOutput) throws -> LintSummary {
        let lines = try input.lines(consequence: "nothing was linted")
        var progress = LintProgress()
        defer { progress.finish() }
        do {
            return try NavigationStore.lintNDJSON(
                lines: lines, sessions: keys.isEmpty ? nil : keys, options: options,
                progress: { _, lines in progress.show(lines: lines) }
            ) { finding in
                progress.finish()
                try output.write(finding)
            }
        } catch let error as StoreError {
            if let readError = lines.error { throw InputError(description: readError.description) }
            switch error {
            case .invalidImport(let line, let reason):
                throw InputError(description: "line \(line) of \(input.name): \(reason); lint stopped there")
            case .sessionNotFound(let key):
                throw NotFound(description: "session \(Text.quoted(key)) is not in \(input.name)")
            default:
                throw error
            }
        }
    }

    /// Lints the database's sessions; findings are written as they end.
    private func lintDatabase(_ context: Context, into output: inout FindingOutput) throws -> LintSummary {
        var progress = LintProgress()
        defer { progress.finish() }
        return try context.store().lint(
            sessions: keys.isEmpty ? nil : keys, options: options,
            progress: { sessions, events in progress.show(sessions: sessions, events: events) }
        ) { finding in
            progress.finish()
            try output.write(finding)
        }
    }

    /// `KEY v3-v7: warning: <message> [rule-id]`, `v3` alone for a one-version run, and
    /// ` (current)` when the finding still holds at the latest version. With `color` (a terminal
    /// without `NO_COLOR`, as `show` colours), the severity is coloured as compilers colour
    /// theirs (error red, warning yellow, info cyan, bold) and the rule id dimmed.
    static func line(_ finding: LintFinding, color: Bool = false) -> String {
        let versions =
            finding.firstVersion == finding.lastVersion
            ? "v\(finding.firstVersion)" : "v\(finding.firstVersion)-v\(finding.lastVersion)"
        var severity = finding.severity.rawValue
        var rule = "[\(finding.rule.id)]"
        if color {
            let code =
                switch finding.severity {
                case .error: "31"
                case .warning: "33"
                case .info: "36"
                }
            severity = "\u{1B}[1;\(code)m\(severity)\u{1B}[0m"
            rule = "\u{1B}[2m\(rule)\u{1B}[0m"
        }
        return
            "\(Text.display(finding.session)) \(versions): \(severity): \(finding.message) \(rule)"
            + (finding.current ? " (current)" : "")
    }

    /// `linted 2 session(s), 9 event(s): 1 error(s), 2 warning(s), 0 info(s)`.
    static func summaryLine(_ summary: LintSummary) -> String {
        "linted \(summary.sessions) session(s), \(summary.events) event(s): \(summary.errors) error(s), \(summary.warnings) warning(s), \(summary.infos) info(s)"
    }
}

/// Where lint's findings go as they end: two lines each (``LintCommand/line(_:)`` and its fix),
/// or, with `--json`, the elements of the `findings` array of
/// `{"findings": [...], "summary": {...}}`, written one by one so that memory does not hold
/// them (the document is whole once ``finish(_:)`` wrote the summary).
private struct FindingOutput {
    let json: Bool
    /// Whether the text is coloured (``Console/useColor``).
    private let color = Console.useColor
    private var count = 0
    private let encoder = JSONOutput.makeEncoder()

    init(json: Bool) { self.json = json }

    mutating func write(_ finding: LintFinding) throws {
        guard json else {
            Console.line(LintCommand.line(finding, color: color))
            Console.line("  fix: \(finding.fix)")
            return
        }
        Console.out((count == 0 ? "{\"findings\":[" : ",") + (try JSONOutput.text(finding, encoder: encoder)))
        count += 1
    }

    /// Ends the output: the summary line, or the rest of the JSON document.
    func finish(_ summary: LintSummary) {
        guard json else {
            Console.line(LintCommand.summaryLine(summary))
            return
        }
        let tail = (try? JSONOutput.text(summary, encoder: encoder)) ?? "{}"
        Console.line((count == 0 ? "{\"findings\":[" : "") + "],\"summary\":" + tail + "}")
    }
}

/// `lint… 12 sessions, 340000 events` on stderr, on a terminal only, at most every 10,000
/// events or 100 sessions; erased before output is written.
private struct LintProgress {
    private let enabled = Console.stderrIsTerminal
    private var shownEvents = 0
    private var shownSessions = 0
    private var visible = false

    mutating func show(sessions: Int, events: Int) {
        guard enabled, events - shownEvents >= 10_000 || sessions - shownSessions >= 100 else { return }
        shownEvents = events
        shownSessions = sessions
        visible = true
        Console.flush()
        // `sessions` counts the sessions finished: inside the first one it is 0, which read as
        // "no session" while one was being linted.
        Console.err("\r\u{1B}[2Klint… \(events) event(s), \(sessions) session(s) done")
    }

    mutating func show(lines: Int) {
        guard enabled else { return }
        visible = true
        Console.flush()
        Console.err("\r\u{1B}[2Klint… \(lines) line(s)")
    }

    mutating func finish() {
        guard visible else { return }
        visible = false
        Console.err("\r\u{1B}[2K")
    }
}
