import NavStore
import NavStoreTools

/// Typed reads of what a command declared. Each throws a ``UsageError`` naming the bad value, the
/// option or argument and what would be accepted (exit code 64).
extension ParsedArguments {
    /// The value of `option`: its type's reading of the texts given (`nil`, the default or an
    /// empty list when it was not given).
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        assertDeclared(option.spec)
        reads.note("--" + option.spec.name)
        do {
            return try option.read(values[option.spec.name] ?? [])
        } catch {
            throw invalid(error, for: option.spec.synopsis)
        }
    }

    /// The value of the positional `argument`.
    func value<Value>(_ argument: Argument<Value>) throws(UsageError) -> Value {
        assert(
            spec.arguments.contains { $0.name == argument.spec.name },
            "navdb \(spec.path.joined(separator: " ")) reads <\(argument.spec.name)>, which its spec does not declare")
        reads.note("<" + argument.spec.name + ">")
        do {
            return try argument.read(positionals[argument.spec.name] ?? [])
        } catch {
            throw invalid(error, for: "<\(argument.spec.name)>")
        }
    }

    /// Whether `flag` was given.
    func flag(_ flag: Flag) -> Bool {
        assertDeclared(flag.spec)
        reads.note("--" + flag.spec.name)
        return flags.contains(flag.spec.name)
    }

    /// Whether the command's spec (or the global options) lists `option`.
    func declares(_ option: OptionSpec) -> Bool {
        (spec.options + GlobalOptions.specs).contains { $0.name == option.name && $0.kind == option.kind }
    }

    /// Stops a debug build (every test run) when a command reads an option its spec does not
    /// list (nor the global options the parser adds to every command): the parser would never
    /// fill it, the help would not show it, and completion would not offer it. Each option is
    /// declared once, in the spec, and read back from that declaration.
    private func assertDeclared(_ option: OptionSpec) {
        assert(
            declares(option),
            "navdb \(spec.path.joined(separator: " ")) reads \(option.flagName), which its spec does not declare")
    }

    /// Stops a debug build (every test run) when a command was made from these arguments without
    /// reading one of the options or arguments its spec declares: the help would offer an option
    /// that does nothing. Called once the command's `init` returned.
    func assertEveryOptionRead() {
        #if DEBUG
            let declared = spec.options.map { "--" + $0.name } + spec.arguments.map { "<" + $0.name + ">" }
            let unread = declared.filter { !reads.contains($0) }
            assert(
                unread.isEmpty,
                "navdb \(spec.path.joined(separator: " ")) declares \(unread.joined(separator: ", ")) and never reads it")
        #endif
    }

    /// The text given for `option` (the last one), as typed: for messages that quote it.
    func text<Value>(_ option: Option<Value>) -> String? { values[option.spec.name]?.last }

    /// `The value 'x' is invalid for '--opt <v>': [problem; ]expected ...`.
    func invalid(_ refused: InvalidValue, for what: String) -> UsageError {
        let reason = refused.problem.map { "\($0); " } ?? ""
        return error("The value '\(refused.value)' is invalid for '\(what)': \(reason)expected \(refused.expected)")
    }

    /// `The value 'x' is invalid for '--opt <v>': expected ...`.
    func invalid(_ value: String, for what: String, expected: String) -> UsageError {
        invalid(InvalidValue(value: value, expected: expected), for: what)
    }

    /// The versions `from` and `to` give (`--from`, `--to`), refused when `to` comes before
    /// `from`: an empty range is a mistake in the command, not an empty result.
    func versionRange(_ from: Option<Int?>, _ to: Option<Int?>) throws(UsageError) -> (from: Int?, to: Int?) {
        let range = (from: try value(from), to: try value(to))
        if let first = range.from, let last = range.to, last < first {
            throw invalid(String(last), for: to.spec.synopsis, expected: "a version at or after --from \(first)")
        }
        return range
    }

    /// The event time `option` gives (milliseconds since the Unix epoch), or `nil`; more than
    /// `Timestamp.futureLimit` ahead of the clock is refused unless `allowFuture`.
    func eventTime(_ option: Option<Int64?>, allowFuture: Bool) throws(UsageError) -> Int64? {
        guard let ms = try value(option) else { return nil }
        let now = Timestamp.now()
        if !allowFuture, ms > now + Timestamp.futureLimit {
            throw error(
                "\(option.spec.flagName) \(text(option) ?? "") is more than 24 hours ahead of the clock (now \(Timestamp.format(now))): every later event of the session would be stamped at least that late; give a time at most 24 hours ahead, or add --allow-future-time if it is meant"
            )
        }
        return ms
    }
}
