/// An option with a value, declared once with its type, as swift-argument-parser's `@Option`:
/// its spec (name, value name, help, default, the accepted values of its type) and how the texts
/// given become a `Value`. A command lists `spec` among its options and reads the value back
/// with ``ParsedArguments/value(_:)-(Option<Value>)``: a misspelt key does not compile.
struct Option<Value>: Sendable {
    /// How the parser, the help and completion see the option.
    var spec: OptionSpec
    /// Reads the texts given for the option, in order (empty when it was not given).
    let read: @Sendable ([String]) throws(InvalidValue) -> Value
}

extension Option {
    /// `--name <value>` (the last one wins when given several times); `nil` when not given.
    init<Wrapped>(
        _ name: String, _ valueName: String, short: Character? = nil, help: String, section: String? = nil,
        parser: ValueParser<Wrapped>
    ) where Value == Wrapped? {
        spec = OptionSpec(
            name: name, shortName: short, kind: .value, valueName: valueName, help: help, section: section,
            choices: parser.choices, valueKind: parser.kind)
        read = { texts throws(InvalidValue) in try texts.last.map(parser.parse) }
    }

    /// `--name <value>` read by its type's own parser; `nil` when not given.
    init<Wrapped: ExpressibleByArgument>(
        _ name: String, _ valueName: String, short: Character? = nil, help: String, section: String? = nil
    ) where Value == Wrapped? {
        self.init(name, valueName, short: short, help: help, section: section, parser: Wrapped.parser)
    }

    /// `--name <value>` with a default, which the help and the usage line show.
    init(_ name: String, _ valueName: String, default defaultValue: Value, help: String, parser: ValueParser<Value>)
    where Value: ExpressibleByArgument & Sendable {
        spec = OptionSpec(
            name: name, kind: .value, valueName: valueName, help: help, defaultValue: defaultValue.argumentText,
            choices: parser.choices, valueKind: parser.kind)
        read = { texts throws(InvalidValue) in try texts.last.map(parser.parse) ?? defaultValue }
    }

    /// `--name <value>` that the command cannot run without (the parser refuses a command line
    /// without it, so it is always there to read).
    init(required name: String, _ valueName: String, help: String, parser: ValueParser<Value>) {
        spec = OptionSpec(
            name: name, kind: .value, valueName: valueName, help: help, isRequired: true, choices: parser.choices,
            valueKind: parser.kind)
        read = { texts throws(InvalidValue) in
            guard let text = texts.last else { throw InvalidValue(value: "", expected: "a value") }
            return try parser.parse(text)
        }
    }

    /// `--name <value> ...`: every value, in the order given (empty when none).
    init<Element>(repeating name: String, _ valueName: String, help: String, parser: ValueParser<Element>)
    where Value == [Element] {
        spec = OptionSpec(
            name: name, kind: .repeating, valueName: valueName, help: help, choices: parser.choices,
            valueKind: parser.kind)
        read = { texts throws(InvalidValue) in
            var values: [Element] = []
            for text in texts { values.append(try parser.parse(text)) }
            return values
        }
    }
}

/// A flag declared once, as swift-argument-parser's `@Flag`: present or not. Read back with
/// ``ParsedArguments/flag(_:)``.
struct Flag: Sendable {
    /// How the parser, the help and completion see the flag.
    var spec: OptionSpec

    init(_ name: String, short: Character? = nil, help: String, section: String? = nil) {
        spec = OptionSpec(name: name, shortName: short, kind: .flag, help: help, section: section)
    }
}

/// A positional argument declared once with its type, as swift-argument-parser's `@Argument`.
/// Read back with ``ParsedArguments/value(_:)-(Argument<Value>)``.
struct Argument<Value>: Sendable {
    /// How the parser and the help see the argument.
    var spec: ArgumentSpec
    /// Reads the words given for it (one, none for an optional one left out, any number for a
    /// variadic one).
    let read: @Sendable ([String]) throws(InvalidValue) -> Value
}

extension Argument {
    /// `<name>`, required.
    init(_ name: String, help: String, nonEmpty what: String? = nil, parser: ValueParser<Value>) {
        spec = ArgumentSpec(name: name, help: help, nonEmpty: what, valueKind: parser.kind)
        read = { words throws(InvalidValue) in try parser.parse(words.last ?? "") }
    }

    /// `[<name>]`, `nil` when left out.
    init<Wrapped>(optional name: String, help: String, parser: ValueParser<Wrapped>) where Value == Wrapped? {
        spec = ArgumentSpec(name: name, help: help, isOptional: true, valueKind: parser.kind)
        read = { words throws(InvalidValue) in try words.last.map(parser.parse) }
    }

    /// `[<name> ...]`: every remaining word (only the last argument of a command); `kind` is what
    /// the words name, for shell completion.
    init(variadic name: String, help: String, nonEmpty what: String? = nil, kind: ValueKind = .text)
    where Value == [String] {
        spec = ArgumentSpec(
            name: name, help: help, isOptional: true, isVariadic: true, nonEmpty: what, valueKind: kind)
        read = { words in words }
    }
}

extension Argument<String> {
    /// `<key>`: the session key.
    static let key = Argument("key", help: "The session key.", nonEmpty: "a session key", parser: .sessionKey)
    /// `<id>`: an entry id.
    static let id = entry(help: "The entry id (unique among the session's live entries).")

    /// `<id>`: an entry id, with its own help line.
    static func entry(help: String) -> Argument {
        Argument("id", help: help, nonEmpty: "an entry id", parser: String.parser)
    }
}

/// Options that belong together and are shared by several commands, as swift-argument-parser's
/// `@OptionGroup`: declared once, listed in each command's spec, read back as one value.
protocol OptionGroup {
    /// The group's options, in the order help lists them.
    static var options: [OptionSpec] { get }
    /// Reads and validates the group's options.
    /// - Throws: ``UsageError`` naming the bad value and what would be accepted.
    init(_ arguments: ParsedArguments) throws(UsageError)
}
