import NavStore

/// `navdb lint [KEY...] [--input FILE|-] [--rule R]... [--disable R]... [--width N]
/// [--fail-on error|warning|info|never]`: the back-navigation defects in recorded history
/// (NavStore.docc/Lint.md), as a compiler's diagnostics or `--json`; exit 2 when a finding reaches
/// `--fail-on`.
struct LintCommand: Command {
    /// The lowest severity that fails the run, or never.
    enum FailOn: String, CaseIterable {
        case error, warning, info, never

        /// The severity threshold, `nil` for never.
        var severity: LintSeverity? { LintSeverity(rawValue: rawValue) }
    }

    static let spec = CommandSpec(
        path: ["lint"],
        abstract: "Find back-navigation defects in recorded history (blank menu rows, bypassed guards, ...).",
        discussion: """
            Folds every session (or the named ones) once, in version order, and judges the rules after \
            every version with the model's own back-button and back-menu resolution. A finding is one rule \
            holding for one session and subject over a run of versions: \
            'KEY v3-v7: warning: <message> [rule-id]' and a 'fix:' line; '(current)' marks one that still \
            holds at the latest version. A summary line ends the output. --json prints \
            {"findings": [{"current","entries","firstVersion","fix","lastVersion","message","rule","session","severity","source"}], \
            "summary": {"errors","events","infos","sessions","warnings"}}. \
            Rules: \(LintRule.allCases.map { "\($0.id) (\($0.severity.rawValue))" }.joined(separator: ", ")); \
            label-falls-back and custom-label-truncated only with --width; label-lost-on-ios26 only when named \
            with --rule, and it judges sessions under ios14. --platform G judges every session under generation G (what the same \
            history would show there). Exit 0, or 2 when a finding is at or above --fail-on (default \
            error), so a UI-test pipeline can gate on it; 1 for an unknown session; 65 for an --input that \
            cannot be read or is not a navdb export (the line and reason are named). Progress goes to \
            stderr on a terminal only.
            """,
        arguments: [
            ArgumentSpec(
                name: "key", help: "Sessions to lint (default: every session).", isOptional: true, isVariadic: true)
        ],
        options: [
            .value("input", "file", help: "Lint an NDJSON export ('navdb export'), or - for stdin, with no database."),
            .repeating("rule", "id", help: "Run only this rule (repeatable): \(LintRule.ids.joined(separator: ", "))."),
            .repeating("disable", "id", help: "Do not run this rule (repeatable)."),
            .value(
                "width", "n",
                help:
                    "Room for the back button's label, in columns: turns on label-falls-back and custom-label-truncated."
            ),
            .value(
                "fail-on", "severity",
                help: "Exit 2 when a finding is at or above: error (default), warning, info, never."),
            .value(
                "platform", "generation",
                help:
                    "Judge every session under this platform generation (\(PlatformGeneration.names)) instead of its own: a what-if read."
            ),
        ])

    var keys: [String]
    var input: InputFile?
    var options: LintOptions
    var failOn: FailOn

    init(_ arguments: ParsedArguments) throws(UsageError) {
        keys = arguments.variadicArgument("key")
        input = arguments.value("input").map { InputFile(path: $0) }
        if input?.path == "" {
            throw arguments.invalid("", for: "--input <file>", expected: "a file path, or - for stdin")
        }
        func rules(_ option: String) throws(UsageError) -> [LintRule] {
            var result: [LintRule] = []
            for id in arguments.allValues(option) {
                guard let rule = LintRule(id: id) else {
                    throw arguments.invalid(
                        id, for: "--\(option) <id>", expected: "a rule id: \(LintRule.ids.joined(separator: ", "))")
                }
                result.append(rule)
            }
            return result
        }
        let only = try rules("rule")
        let disabled = try rules("disable")
        let width = try arguments.int("width", minimum: 1)
        if width == nil, let needy = only.first(where: \.needsWidth) {
            throw arguments.error(
                "--rule \(needy.id) needs --width <n> (the room for the back button's label, in columns)")
        }
        var selected = only.isEmpty ? LintRule.defaultRules : Set(only)
        selected.subtract(disabled)
        let platform: PlatformGeneration? = try arguments.choice("platform")
        options = LintOptions(rules: selected, width: width, platform: platform)
        failOn = try arguments.choice("fail-on") ?? .error
    }

    func run(_ context: Context) throws -> Outcome {
        var progress = LintProgress()
        let text = !context.json
        var printed = 0
        func render(_ finding: LintFinding) {
            Console.line(Self.line(finding))
            Console.line("  fix: \(finding.fix)")
            printed += 1
        }
        let report: LintReport
        if let input {
            let lines = try input.lines(consequence: "nothing was linted")
            do {
                report = try NavigationStore.lintNDJSON(
                    lines: lines, sessions: keys.isEmpty ? nil : keys, options: options
                ) { _, lines in
                    progress.show(lines: lines)
                }
            } catch {
                progress.finish()
                if let readError = lines.error { throw readError }
                switch error {
                case .invalidImport(let line, let reason):
                    throw InputError(description: "line \(line) of \(input.name): \(reason); nothing was linted")
                case .sessionNotFound(let key):
                    throw NotFound(description: "session \(Text.quoted(key)) is not in \(input.name)")
                default:
                    throw error
                }
            }
            progress.finish()
            if text { report.findings.forEach(render) }
        } else {
            var findings: [LintFinding] = []
            let summary: LintSummary
            do {
                summary = try context.store().lint(
                    sessions: keys.isEmpty ? nil : keys, options: options,
                    progress: { sessions, events in
                        progress.show(sessions: sessions, events: events)
                    }
                ) { finding in
                    if text {
                        progress.finish()
                        render(finding)
                    } else {
                        findings.append(finding)
                    }
                }
            } catch {
                progress.finish()
                throw error
            }
            progress.finish()
            report = LintReport(findings: findings, summary: summary)
        }
        if context.json {
            try JSONOutput.print(report)
        } else {
            Console.line(Self.summaryLine(report.summary))
        }
        if let threshold = failOn.severity, report.summary.count(atOrAbove: threshold) > 0 { return .lintFindings }
        return .success
    }

    /// `KEY v3-v7: warning: <message> [rule-id]`, `v3` alone for a one-version run, and
    /// ` (current)` when the finding still holds at the latest version.
    static func line(_ finding: LintFinding) -> String {
        let versions =
            finding.firstVersion == finding.lastVersion
            ? "v\(finding.firstVersion)" : "v\(finding.firstVersion)-v\(finding.lastVersion)"
        return
            "\(Text.display(finding.session)) \(versions): \(finding.severity.rawValue): \(finding.message) [\(finding.rule.id)]"
            + (finding.current ? " (current)" : "")
    }

    /// `linted 2 session(s), 9 event(s): 1 error(s), 2 warning(s), 0 info(s)`.
    static func summaryLine(_ summary: LintSummary) -> String {
        "linted \(summary.sessions) session(s), \(summary.events) event(s): \(summary.errors) error(s), \(summary.warnings) warning(s), \(summary.infos) info(s)"
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
        Console.err("\r\u{1B}[2Klint… \(sessions) session(s), \(events) event(s)")
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
