import NavStore
import NavStoreTools
import NavStorePostgreSQL

/// The `navdb` root command: global options, the subcommand table, and the run loop
/// (parse, then validate, then run; every error is mapped in ``Failure``).
enum NavDB {
    /// `navdb --version` prints `navdb <version>`.
    static let versionNumber = "0.2.0"

    /// The command tree: every subcommand by the word that runs it, in the order the help lists
    /// them. `HelpTests` runs `navdb NAME --help` for every name the help lists.
    static let configuration = CommandGroup(
        spec: CommandSpec(
            abstract:
                "Record, inspect and replay iOS navigation stacks: what was on the stack, what the back button said, what the back menu listed.",
            discussion: """
                Sessions are event streams in one SQLite file or PostgreSQL database: --db PATH or a \
                postgresql:// URI, else $NAVDB_PATH (refused when set but empty), else ./navdb.sqlite \
                (created by the first 'session start' or 'import' of an event). Exit codes: 0 ok; 1 refused by the rules, session, \
                entry, version or database not found; 2 lint found a defect at --fail-on; 3 vetoed by a guard (recorded); \
                4 version conflict; 64 usage; 65 bad input data; 73 output that could not be written (stdout \
                closed or full, or an -o file; what the command did stands, and a writing command says which \
                version it stored, a vetoed one also that it was vetoed: 73, not 3); 74 database unusable.
                """,
            options: [version.spec, generateCompletionScript.spec],
            usageOverride: "navdb [--db <path>] [--json] <subcommand>"),
        subcommands: [
            ("session", .group(sessionGroup)),
            ("sessions", .command(SessionsCommand.self)),
            ("push", .command(PushCommand.self)),
            ("pop", .command(PopCommand.self)),
            ("pop-to", .command(PopToCommand.self)),
            ("pop-to-root", .command(PopToRootCommand.self)),
            ("menu-select", .command(MenuSelectCommand.self)),
            ("back", .command(BackCommand.self)),
            ("set-stack", .command(SetStackCommand.self)),
            ("update", .command(UpdateCommand.self)),
            ("present", .command(PresentCommand.self)),
            ("dismiss", .command(DismissCommand.self)),
            ("update-layer", .command(UpdateLayerCommand.self)),
            ("tabs", .command(TabsCommand.self)),
            ("select-tab", .command(SelectTabCommand.self)),
            ("stack", .command(StackCommand.self)),
            ("back-menu", .command(BackMenuCommand.self)),
            ("show", .command(ShowCommand.self)),
            ("history", .command(HistoryCommand.self)),
            ("replay", .command(ReplayCommand.self)),
            ("follow", .command(FollowCommand.self)),
            ("report", .command(ReportCommand.self)),
            ("restore", .command(RestoreCommand.self)),
            ("export", .command(ExportCommand.self)),
            ("import", .command(ImportCommand.self)),
            ("rebuild", .command(RebuildCommand.self)),
            ("check", .command(CheckCommand.self)),
            ("prune", .command(PruneCommand.self)),
            ("vacuum", .command(VacuumCommand.self)),
            ("lint", .command(LintCommand.self)),
        ])

    /// The `session` group (`session start`, `session delete`, `session truncate`).
    static let sessionGroup = CommandGroup(
        spec: CommandSpec(abstract: "Manage sessions.", usageOverride: "navdb session <subcommand>"),
        subcommands: [
            ("start", .command(SessionStartCommand.self)),
            ("delete", .command(SessionDeleteCommand.self)),
            ("truncate", .command(SessionTruncateCommand.self)),
        ],
        elsewhere: (["list", "ls", "all", "show"], ["sessions"], "'navdb sessions' lists the sessions"))

    /// `--version`, before the subcommand.
    static let version = Flag("version", help: "Show the version.")
    /// `--generate-completion-script <shell>`, before the subcommand.
    static let generateCompletionScript = Option<CompletionScript.Shell?>(
        "generate-completion-script", "shell",
        help: "Print a completion script for the shell (e.g. source <(navdb --generate-completion-script bash)).")

    /// The root's spec (its usage line is shown for errors before a subcommand is known).
    static var rootSpec: CommandSpec { configuration.spec }

    /// Runs the command line in `CommandLine.arguments` and exits with its status.
    static func main() -> Never {
        // This process is navdb's own: SQLite's memory statistics are never read.
        NavigationStore.disableSQLiteMemoryStatistics()
        // `--db postgresql://...` (or NAVDB_PATH): NavStore opens such URIs through this backend.
        PostgreSQLBackend.register()
        var status: Int32
        if let invalid = invalidUTF8Argument() {
            status = Failure.report(
                UsageError(
                    "\(invalid.what) is not valid UTF-8 (bytes \(invalid.hex)): navdb takes text, and would otherwise use a replacement character in its place"
                ))
        } else {
            status = run(Array(CommandLine.arguments.dropFirst()))
        }
        // Output that could not be written (a full disk, a closed pipe) must not pass for success:
        // an export cut short would import as a silent prefix of the log.
        if let failure = Console.finish() { status = Failure.reportLostOutput(failure, status: status) }
        exit(status)
    }

    /// The first argument (1-based, after the program name) whose bytes are not valid UTF-8, with
    /// those bytes in hex. `CommandLine.arguments` would silently replace them with U+FFFD, so two
    /// different ids could become one.
    private static func invalidUTF8Argument() -> (what: String, hex: String)? {
        func hex(_ pointer: UnsafePointer<CChar>) -> String {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            return bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        }
        for position in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[position] else { continue }
            if String(validatingCString: pointer) == nil { return ("Argument \(position)", hex(pointer)) }
        }
        if let path = getenv("NAVDB_PATH"), String(validatingCString: path) == nil { return ("NAVDB_PATH", hex(path)) }
        return nil
    }

    /// Runs one command line (without the program name) and returns the exit status.
    static func run(_ words: [String]) -> Int32 {
        do {
            return try dispatch(words)
        } catch {
            Console.flush()
            return Failure.report(error)
        }
    }

    private static func dispatch(_ words: [String]) throws -> Int32 {
        let (globals, help, index) = try RootOptions.parse(words)
        if index == nil { return 0 }
        let rest = words[index!...]
        if rest.first == "help" { return try printHelp(for: rest.dropFirst()) }
        let (node, path, used) = configuration.resolve(rest)
        let arguments = Array(rest.dropFirst(used))
        switch node {
        case .group(let group):
            if let word = arguments.first, !help, !CommandLineParser.asksForHelp([word]) {
                throw group.unknown(word, at: path, root: configuration)
            }
            Console.out(path.isEmpty ? rootHelp() : group.help(at: path))
            return 0
        case .command(let command):
            let spec = CommandGroup.spec(of: command, at: path)
            if help || CommandLineParser.asksForHelp(arguments) {
                Console.out(HelpText.render(spec))
                return 0
            }
            let parsed = try CommandLineParser.parse(arguments, for: spec, globals: globals)
            if command.changesDatabase { signal(SIGPIPE, SIG_IGN) }
            let made = try command.init(parsed)
            parsed.assertEveryOptionRead()
            switch try made.run(Context(globals: parsed.globals)) {
            case .success: return 0
            case .vetoed: return Failure.vetoed
            case .lintFindings: return Failure.lintFindings
            }
        }
    }

    /// `navdb help [<subcommand>]`.
    private static func printHelp(for words: ArraySlice<String>) throws -> Int32 {
        let (node, path, used) = configuration.resolve(words)
        if used < words.count {
            guard case .group(let group) = node else {
                throw configuration.unknown(words.joined(separator: " "), at: [], root: configuration)
            }
            throw group.unknown(words[words.startIndex + used], at: path, root: configuration)
        }
        switch node {
        case .group(let group): Console.out(path.isEmpty ? rootHelp() : group.help(at: path))
        case .command(let command): Console.out(HelpText.render(CommandGroup.spec(of: command, at: path)))
        }
        return 0
    }

    /// The root help: overview, usage, the options before the subcommand and every subcommand.
    static func rootHelp() -> String {
        configuration.help(at: [])
    }
}
