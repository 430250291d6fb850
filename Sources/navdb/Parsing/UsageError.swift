/// A command line the parser or a command's validation refused (exit code 64, as
/// swift-argument-parser's `ValidationError`).
///
/// Printed as swift-argument-parser does: `Error: <message>`, then `Usage: <usage line>` and
/// `  See 'navdb <command> --help' for more information.`
struct UsageError: Error, Sendable {
    /// What is wrong, naming the bad value and what would be accepted.
    var message: String
    /// The command whose usage line to show (`nil`: the root's).
    var command: CommandSpec?
    /// Whether ``message`` was escaped where it quotes the command line, so that navdb's own
    /// text in it (a `\@` it advises) is printed as written, not escaped a second time.
    private var isEscaped = false

    init(_ message: String, command: CommandSpec? = nil) {
        self.message = message
        self.command = command
    }

    /// A usage error whose message escaped each word of the command line it quotes
    /// (``Text/escaped(_:)``) and is printed as it is.
    init(escaped message: String, command: CommandSpec? = nil) {
        self.init(message, command: command)
        isEscaped = true
    }

    /// The three lines written to stderr. The message quotes words from the command line, so it
    /// is escaped as every other error line is (``Text/escaped(_:)``): a control character typed
    /// or pasted into an argument cannot reach the terminal or split the `Error:` line. A message
    /// made ``init(escaped:command:)`` escaped its quoted words itself.
    var text: String {
        let spec = command ?? NavDB.rootSpec
        let helpCommand = spec.path.isEmpty ? "navdb --help" : "navdb \(spec.name) --help"
        return """
            Error: \(isEscaped ? message : Text.escaped(message))
            Usage: \(spec.usage)
              See '\(helpCommand)' for more information.

            """
    }
}
