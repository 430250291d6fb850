/// One lint rule holding at one version for one subject, before versions are joined into runs
/// (``LintFinding``).
public struct LintViolation: Sendable, Hashable {
    /// The rule that holds.
    public var rule: LintRule
    /// The subject: the entry ids named (see ``LintFinding/entries``).
    public var entries: [String]
    /// What is wrong, naming the offending value (see ``LintFinding/message``).
    public var message: String

    /// Creates a violation.
    public init(rule: LintRule, entries: [String], message: String) {
        self.rule = rule
        self.entries = entries
        self.message = message
    }
}
