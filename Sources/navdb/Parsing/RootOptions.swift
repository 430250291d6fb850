/// The options before the subcommand: the global ones (`--db`, `--json`, `--help`), `--version`
/// and `--generate-completion-script`, parsed by the same parser as a command's, for the root's
/// spec.
enum RootOptions {
    /// Parses the options at the start of `words`, and runs `--version` and
    /// `--generate-completion-script` (which print and end the run).
    /// - Returns: the global options, whether help was asked for, and the index of the first word
    ///   after the options (`nil` when the run is over: a version, a script or the root help was
    ///   printed).
    /// - Throws: ``UsageError`` for an unknown option or a bad value.
    static func parse(_ words: [String]) throws(UsageError) -> (GlobalOptions, help: Bool, next: Int?) {
        let (parsed, _, next) = try CommandLineParser.scan(
            words[...], for: NavDB.rootSpec, globals: GlobalOptions(), untilPositional: true)
        if parsed.flag(NavDB.version) {
            Console.line("navdb \(NavDB.versionNumber)")
            return (parsed.globals, false, nil)
        }
        if let shell = try parsed.value(NavDB.generateCompletionScript) {
            Console.out(CompletionScript.script(for: shell))
            return (parsed.globals, false, nil)
        }
        let help = parsed.flag(GlobalOptions.help)
        guard next < words.count else {
            Console.out(NavDB.rootHelp())
            return (parsed.globals, help, nil)
        }
        return (try GlobalOptions.read(parsed, over: GlobalOptions()), help, next)
    }
}
