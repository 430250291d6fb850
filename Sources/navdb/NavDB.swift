import NavStore

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `navdb` root command: global options, the subcommand table, and the run loop
/// (parse, then validate, then run; every error is mapped in ``Failure``).
enum NavDB {
    /// `navdb --version` prints `navdb <version>`.
    static let version = "0.1.0"

    /// Every subcommand, in the order the help lists them (DESIGN §6).
    static let commands: [any Command.Type] = commandsByName.map(\.type)

    /// Every subcommand by the name that runs it, in the order the help lists them: looking a
    /// command up by name then builds no spec but its own (the specs, help text and all, cost a
    /// measurable part of a one-shot `navdb push`). `HelpTests` runs `navdb NAME --help` for every
    /// name the help lists, so a name here that differs from its spec's fails there.
    static let commandsByName: [(name: String, type: any Command.Type)] = [
        ("session start", SessionStartCommand.self),
        ("session delete", SessionDeleteCommand.self),
        ("session truncate", SessionTruncateCommand.self),
        ("sessions", SessionsCommand.self),
        ("push", PushCommand.self),
        ("pop", PopCommand.self),
        ("pop-to", PopToCommand.self),
        ("pop-to-root", PopToRootCommand.self),
        ("menu-select", MenuSelectCommand.self),
        ("back", BackCommand.self),
        ("set-stack", SetStackCommand.self),
        ("update", UpdateCommand.self),
        ("present", PresentCommand.self),
        ("dismiss", DismissCommand.self),
        ("stack", StackCommand.self),
        ("back-menu", BackMenuCommand.self),
        ("show", ShowCommand.self),
        ("history", HistoryCommand.self),
        ("replay", ReplayCommand.self),
        ("report", ReportCommand.self),
        ("restore", RestoreCommand.self),
        ("export", ExportCommand.self),
        ("import", ImportCommand.self),
        ("rebuild", RebuildCommand.self),
        ("check", CheckCommand.self),
        ("prune", PruneCommand.self),
        ("vacuum", VacuumCommand.self),
        ("lint", LintCommand.self),
    ]

    /// The root's spec (its usage line is shown for errors before a subcommand is known).
    static let rootSpec = CommandSpec(
        path: [],
        abstract:
            "Record, inspect and replay iOS navigation stacks: what was on the stack, what the back button said, what the back menu listed.",
        discussion: """
            Sessions are event streams in one SQLite file: --db PATH, else $NAVDB_PATH, else ./navdb.sqlite \
            (created by the first 'session start'). Exit codes: 0 ok; 1 refused by the rules, session or \
            entry not found; 2 lint found a defect at --fail-on; 3 vetoed by a guard (recorded); 4 version conflict; 64 usage; 65 bad input \
            data; 74 database unusable.
            """,
        usageOverride: "navdb [--db <path>] [--json] <subcommand>")

    /// The `session` group's subcommands, by their second word.
    static let sessionCommands: [(word: String, type: any Command.Type)] = [
        ("start", SessionStartCommand.self), ("delete", SessionDeleteCommand.self),
        ("truncate", SessionTruncateCommand.self),
    ]

    /// The `session` group (`session start`, `session delete`, `session truncate`).
    static let sessionGroup = CommandSpec(
        path: ["session"], abstract: "Manage sessions.", usageOverride: "navdb session <subcommand>")

    /// Runs the command line in `CommandLine.arguments` and exits with its status.
    static func main() -> Never {
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
        if let failure = Console.finish() {
            Console.err(
                "Error: cannot write the output: \(failure); the output is incomplete (what the command did to the database stands)\n"
            )
            if status == 0 || status == Failure.vetoed || status == Failure.lintFindings { status = 74 }
        }
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
        // Global options before the subcommand.
        var globals = GlobalOptions()
        var index = 0
        var help = false
        while index < words.count, ArgumentParser.looksLikeOption(words[index]) || words[index] == "--" {
            let word = words[index]
            index += 1
            switch word {
            case "--": break
            case "-h", "--help": help = true
            case "--version":
                Console.line("navdb \(version)")
                return 0
            case "--json": globals.json = true
            case "--generate-completion-script":
                guard index < words.count else {
                    throw UsageError(
                        "Missing value for '--generate-completion-script <shell>' (accepted: bash, zsh, fish)")
                }
                let name = words[index]
                guard let shell = CompletionScript.Shell(rawValue: name) else {
                    throw UsageError(
                        "The value '\(name)' is invalid for '--generate-completion-script <shell>': expected one of bash, zsh, fish"
                    )
                }
                Console.out(CompletionScript.script(for: shell))
                return 0
            case "--db":
                guard index < words.count, !ArgumentParser.looksLikeOption(words[index]) else {
                    throw UsageError("Missing value for '--db <path>'")
                }
                globals.db = words[index]
                index += 1
                if globals.db == "" {
                    throw UsageError("The value '' is invalid for '--db <path>': expected a file path")
                }
            default:
                if word.hasPrefix("--generate-completion-script=") {
                    let name = String(word.dropFirst("--generate-completion-script=".count))
                    guard let shell = CompletionScript.Shell(rawValue: name) else {
                        throw UsageError(
                            "The value '\(name)' is invalid for '--generate-completion-script <shell>': expected one of bash, zsh, fish"
                        )
                    }
                    Console.out(CompletionScript.script(for: shell))
                    return 0
                } else if word.hasPrefix("--db=") {
                    globals.db = String(word.dropFirst(5))
                    if globals.db == "" {
                        throw UsageError("The value '' is invalid for '--db <path>': expected a file path")
                    }
                } else {
                    throw rootUnknownOption(word)
                }
            }
        }
        guard index < words.count else {
            Console.out(rootHelp())
            return 0
        }

        var name = words[index]
        index += 1
        if name == "help" {
            return try printHelp(for: Array(words[index...]))
        }
        if name == "session" {
            let next = index < words.count ? words[index] : nil
            if let next, sessionCommands.contains(where: { $0.word == next }) {
                name = "session " + next
                index += 1
            } else if next == nil || next == "-h" || next == "--help" || help {
                Console.out(HelpText.render(sessionGroup, subcommands: sessionCommands.map { $0.type.spec }))
                return 0
            } else {
                throw unknownSessionCommand(next!)
            }
        }
        guard let command = commandsByName.first(where: { $0.name == name })?.type else {
            throw unknownCommand(name)
        }
        let rest = Array(words[index...])
        if help || ArgumentParser.asksForHelp(rest) {
            Console.out(HelpText.render(command.spec))
            return 0
        }
        let parsed = try ArgumentParser.parse(rest, for: command.spec, globals: globals)
        let instance = try command.init(parsed)
        switch try instance.run(Context(globals: parsed.globals)) {
        case .success: return 0
        case .vetoed: return Failure.vetoed
        case .lintFindings: return Failure.lintFindings
        }
    }

    /// `navdb help [<subcommand>]`.
    private static func printHelp(for words: [String]) throws -> Int32 {
        let name = words.joined(separator: " ")
        if name.isEmpty {
            Console.out(rootHelp())
        } else if name == "session" {
            Console.out(HelpText.render(sessionGroup, subcommands: sessionCommands.map { $0.type.spec }))
        } else if let command = commandsByName.first(where: { $0.name == name })?.type {
            Console.out(HelpText.render(command.spec))
        } else {
            throw unknownCommand(name)
        }
        return 0
    }

    /// The root help: overview, usage, global options and every subcommand.
    static func rootHelp() -> String {
        var spec = rootSpec
        spec.options = [
            .flag("version", help: "Show the version."),
            .value(
                "generate-completion-script", "shell",
                help:
                    "Print a completion script for bash, zsh or fish (e.g. source <(navdb --generate-completion-script bash)).",
                choices: CompletionScript.Shell.allCases.map(\.rawValue)),
        ]
        return HelpText.render(spec, subcommands: commands.map { $0.spec })
    }

    private static func unknownCommand(_ name: String) -> UsageError {
        let names = commands.map { $0.spec.name }
        if let suggestion = Suggestions.closest(to: name, in: names) {
            return UsageError("Unknown command '\(name)'. Did you mean '\(suggestion)'?")
        }
        return UsageError("Unknown command '\(name)' (accepted: \(names.joined(separator: ", ")))")
    }

    /// `session WORD` that is not a `session` subcommand: listing is `navdb sessions`, not
    /// `session list`; otherwise the closest subcommand, or the accepted ones.
    private static func unknownSessionCommand(_ word: String) -> UsageError {
        let names = sessionCommands.map { $0.type.spec.name }
        let listing = "'navdb sessions' lists the sessions"
        if ["list", "ls", "all", "show"].contains(word) {
            return UsageError(
                "Unknown command 'session \(word)'. Did you mean 'sessions'? (\(listing))",
                command: SessionsCommand.spec)
        }
        if let suggestion = Suggestions.closest(to: word, in: sessionCommands.map(\.word)),
            let type = sessionCommands.first(where: { $0.word == suggestion })?.type
        {
            return UsageError(
                "Unknown command 'session \(word)'. Did you mean 'session \(suggestion)'?", command: type.spec)
        }
        return UsageError(
            "Unknown command 'session \(word)' (accepted: \(names.joined(separator: ", ")); \(listing))",
            command: sessionGroup)
    }

    private static func rootUnknownOption(_ word: String) -> UsageError {
        let names = ["--db", "--json", "--version", "--help", "--generate-completion-script"]
        let base = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        if let suggestion = Suggestions.closest(to: base, in: names) {
            return UsageError("Unknown option '\(base)'. Did you mean '\(suggestion)'?")
        }
        return UsageError("Unknown option '\(base)' (accepted before the subcommand: \(names.joined(separator: ", ")))")
    }
}
