/// The words of a command line sorted by a ``CommandSpec``: positional arguments by name,
/// option values and flags. Values are still text; the typed accessors in
/// `ParsedArguments+Values.swift` validate them.
struct ParsedArguments: Sendable {
    /// The command the words were parsed for.
    let spec: CommandSpec
    /// Positional arguments by their spec name; an optional argument not given is absent.
    var positionals: [String: String] = [:]
    /// The words of a variadic argument (``ArgumentSpec/isVariadic``) by its spec name, in order.
    var variadics: [String: [String]] = [:]
    /// Values of options by long name, in the order given.
    var values: [String: [String]] = [:]
    /// Flags that were given, by long name.
    var flags: Set<String> = []
    /// `--db` and `--json`, from before or after the subcommand.
    var globals: GlobalOptions

    /// A required positional argument (the parser guarantees its presence).
    func argument(_ name: String) -> String { positionals[name] ?? "" }

    /// An optional positional argument.
    func optionalArgument(_ name: String) -> String? { positionals[name] }

    /// Every word of a variadic positional argument, in order (empty when none was given).
    func variadicArgument(_ name: String) -> [String] { variadics[name] ?? [] }

    /// The value of an option given once (the last one when given several times), or `nil`.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A usage error for this command (its usage line is printed with the message).
    func error(_ message: String) -> UsageError { UsageError(message, command: spec) }
}

/// Splits a command line into arguments, options and flags according to a ``CommandSpec``, as
/// swift-argument-parser does: `--opt value`, `--opt=value`, repeatable options, flags, `-h`,
/// and `--` to end options. Global options are accepted anywhere before `--`.
enum ArgumentParser {
    /// Whether `word` is an option rather than a value: it starts with `-`, is not `-` (stdin)
    /// and is not a negative number (so `--left-items -1` reaches validation with its value).
    static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word != "-" else { return false }
        let rest = word.dropFirst()
        return !(rest.first?.isNumber == true && rest.allSatisfy { $0.isNumber || $0 == "." })
    }

    /// Whether the words ask for help (`-h` or `--help` before any `--`).
    static func asksForHelp(_ words: some Sequence<String>) -> Bool {
        for word in words {
            if word == "--" { return false }
            if word == "-h" || word == "--help" { return true }
        }
        return false
    }

    /// Parses `words` (what follows the command's own words) for `spec`.
    /// - Parameter globals: global options already seen before the subcommand.
    /// - Throws: ``UsageError`` for an unknown option, a missing or unexpected value, a missing
    ///   or extra argument, or a missing required option.
    static func parse(_ words: [String], for spec: CommandSpec, globals: GlobalOptions) throws(UsageError)
        -> ParsedArguments
    {
        var parsed = ParsedArguments(spec: spec, globals: globals)
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !looksLikeOption(word) {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            let (option, inlineValue) = try resolve(word, in: spec)
            switch option.kind {
            case .flag:
                if inlineValue != nil {
                    throw UsageError(
                        "The option '\(option.flagName)' does not take a value (got '\(word)')", command: spec)
                }
                parsed.flags.insert(option.name)
            case .value, .repeating:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < words.count, !looksLikeOption(words[index]) {
                    value = words[index]
                    index += 1
                } else {
                    throw UsageError("Missing value for '\(option.synopsis)'", command: spec)
                }
                parsed.values[option.name, default: []].append(value)
            }
        }

        for (position, argument) in spec.arguments.enumerated() {
            if argument.isVariadic {
                let words = Array(positionals.dropFirst(position))
                if words.contains(""), argument.name == "key" {
                    throw UsageError(
                        "The value '' is invalid for '<key>': expected a session key of at least one character",
                        command: spec)
                }
                parsed.variadics[argument.name] = words
                positionals = Array(positionals.prefix(position))
                break
            }
            if position < positionals.count {
                if positionals[position].isEmpty, argument.name == "key" || argument.name == "id" {
                    let what = argument.name == "key" ? "a session key" : "an entry id"
                    throw UsageError(
                        "The value '' is invalid for '<\(argument.name)>': expected \(what) of at least one character",
                        command: spec)
                }
                parsed.positionals[argument.name] = positionals[position]
            } else if !argument.isOptional {
                throw UsageError("Missing expected argument '<\(argument.name)>'", command: spec)
            }
        }
        if positionals.count > spec.arguments.count, spec.arguments.last?.isVariadic != true {
            let extra = positionals[spec.arguments.count]
            var message = "Unexpected argument '\(extra)'"
            if spec.arguments.isEmpty { message += " ('\(spec.name)' takes no arguments)" }
            throw UsageError(message, command: spec)
        }
        for option in spec.options where option.isRequired && parsed.values[option.name] == nil {
            throw UsageError("Missing expected argument '\(option.synopsis)'", command: spec)
        }

        if let db = parsed.values["db"]?.last {
            guard !db.isEmpty else {
                throw UsageError("The value '' is invalid for '--db <path>': expected a file path", command: spec)
            }
            parsed.globals.db = db
        }
        if parsed.flags.contains("json") { parsed.globals.json = true }
        return parsed
    }

    /// The option a word names, with its inline `=value` if any.
    private static func resolve(_ word: String, in spec: CommandSpec) throws(UsageError) -> (OptionSpec, String?) {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let name: Substring
            let inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = body
                inlineValue = nil
            }
            if let option = spec.option(named: String(name)) { return (option, inlineValue) }
            throw unknownOption("--" + name, in: spec)
        }
        let body = word.dropFirst()
        if body.count == 1, let option = spec.option(short: body.first!) { return (option, nil) }
        throw unknownOption(word, in: spec)
    }

    /// `Unknown option '--titel'. Did you mean '--title'?`, or the list of accepted options.
    static func unknownOption(_ word: String, in spec: CommandSpec) -> UsageError {
        // Every writing command takes --expect-version (DESIGN §6); a session's generation is
        // chosen at `session start` and never changes (NavStore.docc/PlatformGenerations.md).
        if word == "--platform", spec.option(named: "expect-version") != nil {
            return UsageError(
                "The option '--platform' is not accepted by '\(spec.name)': the generation of a session is fixed when it starts ('navdb session start <key> --platform <generation>'); reads take --platform to show another generation",
                command: spec)
        }
        let names = spec.allOptions.map(\.flagName)
        if let suggestion = Suggestions.closest(to: word, in: names) {
            return UsageError("Unknown option '\(word)'. Did you mean '\(suggestion)'?", command: spec)
        }
        return UsageError("Unknown option '\(word)' (accepted: \(names.joined(separator: ", ")))", command: spec)
    }
}
