/// The words of a command line sorted by a ``CommandSpec``: positional arguments by name,
/// option values and flags. Values are still text; commands read them back typed through the
/// ``Option``, ``Flag`` and ``Argument`` they declared (`ParsedArguments+Values.swift`).
struct ParsedArguments: Sendable {
    /// The command the words were parsed for.
    let spec: CommandSpec
    /// The words of each positional argument by its spec name (one word, or every word of a
    /// variadic one); an optional argument not given is absent.
    var positionals = WordsByName()
    /// Values of options by long name, in the order given.
    var values = WordsByName()
    /// Flags that were given, by long name (each once, with no words).
    var flags = WordsByName()
    /// `--db` and `--json`, from before or after the subcommand.
    var globals: GlobalOptions
    /// What the command read back, for ``assertEveryOptionRead()`` (debug builds).
    let reads = ReadLog()

    /// A usage error for this command (its usage line is printed with the message).
    func error(_ message: String) -> UsageError { UsageError(message, command: spec) }

    /// A usage error for this command whose message escaped the words it quotes
    /// (``UsageError/init(escaped:command:)``).
    func error(escaped message: String) -> UsageError { UsageError(escaped: message, command: spec) }
}

/// Splits a command line into arguments, options and flags according to a ``CommandSpec``, as
/// swift-argument-parser does: `--opt value`, `--opt=value`, repeatable options, flags, `-h`,
/// and `--` to end options. Global options are accepted anywhere before `--`.
enum CommandLineParser {
    /// Whether `word` is an option rather than a value: it starts with `-`, is not `-` (stdin)
    /// and does not go on with an ASCII digit, as a negative number or a signed year does (so
    /// `--left-items -1` and `--time -0001-01-01T00:00:00Z` reach validation with their values;
    /// no option's name starts with a digit).
    static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word != "-" else { return false }
        return !(word.utf8.dropFirst().first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false)
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
        var (parsed, positionals, _) = try scan(words[...], for: spec, globals: globals, untilPositional: false)
        try assign(positionals, to: &parsed)
        for option in spec.options where option.isRequired && parsed.values[option.name] == nil {
            throw UsageError("Missing expected argument '\(option.synopsis)'", command: spec)
        }
        parsed.globals = try GlobalOptions.read(parsed, over: globals)
        return parsed
    }

    /// Sorts the options and flags of `words` for `spec`: the parsed options, the positional
    /// words, and the index where the scan stopped (the first positional word when
    /// `untilPositional`, as the options before a subcommand end there).
    static func scan(
        _ words: ArraySlice<String>, for spec: CommandSpec, globals: GlobalOptions, untilPositional: Bool
    ) throws(UsageError) -> (ParsedArguments, [String], Int) {
        var parsed = ParsedArguments(spec: spec, globals: globals)
        var positionals: [String] = []
        var index = words.startIndex
        var optionsEnded = false
        while index < words.endIndex {
            let word = words[index]
            if optionsEnded || !looksLikeOption(word) {
                if untilPositional { break }
                positionals.append(word)
            } else if word == "--" {
                optionsEnded = true
            } else {
                let (option, inlineValue) = try resolve(word, in: spec)
                let next = index + 1 < words.endIndex && !looksLikeOption(words[index + 1]) ? words[index + 1] : nil
                if option.kind == .flag {
                    if inlineValue != nil {
                        throw UsageError(
                            "The option '\(option.flagName)' does not take a value (got '\(word)')", command: spec)
                    }
                    if !parsed.flags.contains(option.name) { parsed.flags[option.name] = [] }
                } else if let value = inlineValue ?? next {
                    if inlineValue == nil { index += 1 }
                    try refuseSecondValue(value, of: option, after: parsed.values[option.name], spec: spec)
                    parsed.values.append(value, to: option.name)
                } else {
                    throw UsageError("Missing value for '\(option.synopsis)'", command: spec)
                }
            }
            index += 1
        }
        return (parsed, positionals, index)
    }

    /// Refuses a second, different value of an option that takes one (`--title A --title B`):
    /// which one was meant cannot be known, and keeping the last would drop the other silently.
    /// The same value repeated is accepted (scripts that add an option twice); values are
    /// compared by their bytes, as ids and titles are stored, so two spellings that `==` calls
    /// equal (U+00E9 and "e" + U+0301) are two values.
    static func refuseSecondValue(
        _ value: String, of option: OptionSpec, after given: [String]?, spec: CommandSpec
    ) throws(UsageError) {
        guard option.kind == .value, let first = given?.first, !first.utf8.elementsEqual(value.utf8) else { return }
        throw UsageError(
            "The option '\(option.flagName)' was given twice, as '\(first)' and as '\(value)': it takes one value",
            command: spec)
    }

    /// Gives each positional argument of the spec its words, in order.
    private static func assign(_ positionals: [String], to parsed: inout ParsedArguments) throws(UsageError) {
        let spec = parsed.spec
        for (position, argument) in spec.arguments.enumerated() {
            let words =
                argument.isVariadic
                ? Array(positionals.dropFirst(position)) : position < positionals.count ? [positionals[position]] : []
            if words.isEmpty && !argument.isOptional {
                throw UsageError("Missing expected argument '<\(argument.name)>'", command: spec)
            }
            if let what = argument.nonEmpty, words.contains("") {
                throw UsageError(
                    "The value '' is invalid for '<\(argument.name)>': expected \(what) of at least one character",
                    command: spec)
            }
            if !words.isEmpty { parsed.positionals[argument.name] = words }
        }
        if positionals.count > spec.arguments.count, spec.arguments.last?.isVariadic != true {
            let extra = positionals[spec.arguments.count]
            var message = "Unexpected argument '\(extra)'"
            if spec.arguments.isEmpty { message += " ('\(spec.name)' takes no arguments)" }
            throw UsageError(message, command: spec)
        }
    }

    /// The option a word names, with its inline `=value` if any.
    private static func resolve(_ word: String, in spec: CommandSpec) throws(UsageError) -> (OptionSpec, String?) {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let equals = body.firstIndex(of: "=")
            let name = String(body[..<(equals ?? body.endIndex)])
            let inlineValue = equals.map { String(body[body.index(after: $0)...]) }
            if let option = spec.option(named: name) { return (option, inlineValue) }
            throw unknownOption("--" + name, in: spec)
        }
        let body = word.dropFirst()
        if body.count == 1, let option = spec.option(short: body.first!) { return (option, nil) }
        throw unknownOption(word, in: spec)
    }

    /// `Unknown option '--titel'. Did you mean '--title'?`, or the list of accepted options.
    static func unknownOption(_ word: String, in spec: CommandSpec) -> UsageError {
        // A writing command (one that takes --expect-version) cannot change a session's
        // generation: it is chosen at `session start` and never changes
        // (NavStore.docc/PlatformGenerations.md).
        if word == "--platform", spec.option(named: WriteOptions.expectVersion.spec.name) != nil {
            return UsageError(
                "The option '--platform' is not accepted by '\(spec.name)': the generation of a session is fixed when it starts ('navdb session start <key> --platform <generation>'); reads take --platform to show another generation",
                command: spec)
        }
        if word.hasPrefix("--"), let reason = spec.refusedOptions[String(word.dropFirst(2))] {
            return UsageError("The option '\(word)' is not accepted by '\(spec.name)': \(reason)", command: spec)
        }
        let names = spec.allOptions.map(\.flagName)
        if let suggestion = Suggestions.closest(to: word, in: names) {
            return UsageError("Unknown option '\(word)'. Did you mean '\(suggestion)'?", command: spec)
        }
        return UsageError("Unknown option '\(word)' (accepted: \(names.joined(separator: ", ")))", command: spec)
    }
}

/// The options and arguments a command read back from its ``ParsedArguments`` (`--name`,
/// `<name>`), kept in debug builds only: a command is made and read on one thread.
final class ReadLog: @unchecked Sendable {
    #if DEBUG
        private var names: Set<String> = []
    #endif

    /// Notes that `name` was read.
    func note(_ name: String) {
        #if DEBUG
            names.insert(name)
        #endif
    }

    /// Whether `name` was read (always `true` in a release build, which keeps no log).
    func contains(_ name: String) -> Bool {
        #if DEBUG
            return names.contains(name)
        #else
            return true
        #endif
    }
}
