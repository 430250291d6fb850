import NavStore
import NavStoreTools

/// A value a ``ValueParser`` refused: the text, what would have been accepted, and an optional
/// reason (`month 13 is out of range`). ``ParsedArguments`` turns it into the usage error
/// `The value 'x' is invalid for '--opt <v>': [reason; ]expected ...`.
struct InvalidValue: Error, Sendable {
    /// The text as given.
    var value: String
    /// What would have been accepted, as a phrase (`an integer from 1 to 10000`).
    var expected: String
    /// Why the text was refused, when more can be said than what was expected.
    var problem: String? = nil
}

/// What a value names, for shell completion beside a fixed list of ``ValueParser/choices``, as
/// swift-argument-parser's `CompletionKind` does: file names for a path, the database's keys for a
/// session key, nothing for free text. Declared with the value's parser (``ValueParser/path``,
/// ``ValueParser/sessionKey``, ``ValueParser/ofKind(_:)``), so the option or argument carries it to
/// every script.
enum ValueKind: Sendable, Equatable {
    /// Free text (ids, titles, numbers, times): nothing to offer.
    case text
    /// A file or folder path (or `-` where the command reads stdin): completion offers file names.
    case path
    /// A session key of the database: completion offers the keys `navdb sessions` lists.
    case sessionKey
}

/// How the text of one option value or argument becomes a typed value, as
/// swift-argument-parser's `ExpressibleByArgument` does; `choices` lists a fixed set of
/// accepted values, which the help and shell completion show.
struct ValueParser<Value>: Sendable {
    /// The accepted values, when they are a fixed list (in the order help lists them).
    var choices: [String] = []
    /// What the text names, for shell completion.
    var kind: ValueKind = .text
    /// Converts the text.
    var parse: @Sendable (String) throws(InvalidValue) -> Value
}

/// A type that can be read from one command-line word.
protocol ExpressibleByArgument: Sendable {
    /// Reads the type from a word; `choices` lists the accepted values when they are fixed.
    static var parser: ValueParser<Self> { get }
    /// The word that reads back as this value (the default shown in help).
    var argumentText: String { get }
}

extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
    static var parser: ValueParser<Self> { .choice(among: Array(allCases)) }
    var argumentText: String { rawValue }
}

extension String: ExpressibleByArgument {
    static var parser: ValueParser<String> { ValueParser { text in text } }
    var argumentText: String { self }
}

extension BackButtonDisplayMode: ExpressibleByArgument {}
extension NavigationItemStyle: ExpressibleByArgument {}
extension PlatformGeneration: ExpressibleByArgument {}
extension DismissSource: ExpressibleByArgument {}
extension PopSource: ExpressibleByArgument {}

extension ValueParser {
    /// One of `accepted`, by raw value (the error lists them all).
    static func choice(among accepted: [Value]) -> ValueParser
    where Value: RawRepresentable & Sendable, Value.RawValue == String {
        let names = accepted.map(\.rawValue)
        return ValueParser(choices: names) { text throws(InvalidValue) in
            guard let value = accepted.first(where: { $0.rawValue == text }) else {
                throw InvalidValue(value: text, expected: "one of \(names.joined(separator: ", "))")
            }
            return value
        }
    }

    /// Any text but the empty string (`what` says what is expected, e.g. "a file path").
    static func nonEmpty(_ what: String) -> ValueParser<String> {
        ValueParser<String> { text throws(InvalidValue) in
            guard !text.isEmpty else { throw InvalidValue(value: text, expected: what) }
            return text
        }
    }

    /// The same parser, its values of `kind` (what shell completion offers for them).
    func ofKind(_ kind: ValueKind) -> ValueParser {
        var parser = self
        parser.kind = kind
        return parser
    }
}

extension ValueParser<String> {
    /// A file or folder path, any text (what the command does with `-` or `""` is its own).
    static var path: ValueParser { String.parser.ofKind(.path) }
    /// A session key, any text (an argument refuses `""` with its `nonEmpty`).
    static var sessionKey: ValueParser { String.parser.ofKind(.sessionKey) }
}

extension ValueParser<Int> {
    /// A decimal integer in `range`. The error names the range: `an integer from 16 to 10000`,
    /// or `an integer 1 or greater` when it is open above, naming the largest integer
    /// (9223372036854775807) when the text was a number past it.
    static func integer(_ range: ClosedRange<Int>) -> ValueParser {
        ValueParser { text throws(InvalidValue) in
            if let value = Int(text), range.contains(value) { return value }
            throw InvalidValue(value: text, expected: expectedInteger(range, overflowed: isOverflow(text)))
        }
    }

    /// An integer of at least `minimum`, up to the largest 64-bit integer.
    static func integer(atLeast minimum: Int) -> ValueParser { integer(minimum...Int.max) }

    /// The phrase naming `range` in an error.
    static func expectedInteger(_ range: ClosedRange<Int>, overflowed: Bool = false) -> String {
        if range.upperBound != Int.max { return "an integer from \(range.lowerBound) to \(range.upperBound)" }
        if overflowed { return "an integer from \(range.lowerBound) to \(Int.max) (the largest 64-bit integer)" }
        return "an integer \(range.lowerBound) or greater"
    }

    /// Whether `text` is a decimal number that `Int` cannot hold.
    private static func isOverflow(_ text: String) -> Bool {
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber } && Int(text) == nil
    }
}

extension ValueParser<Int64> {
    /// What error messages say a time may be (parsing is the library's ``Timestamp/parse(_:)``).
    static let acceptedTime =
        "an ISO-8601 time with its zone, such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00.250+02:00, or a date such as 2024-05-01 (midnight UTC)"

    /// An ISO-8601 time, as milliseconds since the Unix epoch; digits below a millisecond round as
    /// `rounding` says.
    static func time(rounding: Timestamp.Rounding = .down) -> ValueParser {
        ValueParser { text throws(InvalidValue) in
            if let ms = Timestamp.parse(text, rounding: rounding) { return ms }
            throw InvalidValue(
                value: text, expected: acceptedTime, problem: Timestamp.problem(in: text, rounding: rounding))
        }
    }
}

extension ValueParser<HistoryPoint> {
    /// A point in a session's history: a version number (digits) or an ISO-8601 time.
    static let point = ValueParser { text throws(InvalidValue) in
        let acceptedTime = ValueParser<Int64>.acceptedTime
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            guard let version = Int(text) else {
                throw InvalidValue(value: text, expected: "a version number from 1 to \(Int.max), or \(acceptedTime)")
            }
            guard version >= 1 else {
                throw InvalidValue(value: text, expected: "a version number 1 or greater, or \(acceptedTime)")
            }
            return .version(version)
        }
        // A signed number (`-1`, `+3`) is a version number with a sign, never a time (a year
        // alone is no time either): say what a version may be, not what a signed year may be.
        if let sign = text.first, sign == "-" || sign == "+", text.count > 1,
            text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })
        {
            throw InvalidValue(
                value: text, expected: "a version number 1 or greater, without a sign, or \(acceptedTime)")
        }
        if let ms = Timestamp.parse(text, rounding: .down) { return .time(ms) }
        if let problem = Timestamp.problem(in: text) {
            throw InvalidValue(value: text, expected: "a version number or \(acceptedTime)", problem: problem)
        }
        throw InvalidValue(value: text, expected: "a version number (1, 2, ...) or \(acceptedTime)")
    }
}

extension Int: ExpressibleByArgument {
    static var parser: ValueParser<Int> { .integer(Int.min...Int.max) }
    var argumentText: String { String(self) }
}

extension ValueParser<String> {
    /// One of `names` (the error lists them all).
    static func choice(_ names: [String]) -> ValueParser {
        ValueParser(choices: names) { text throws(InvalidValue) in
            guard names.contains(text) else {
                throw InvalidValue(value: text, expected: "one of \(names.joined(separator: ", "))")
            }
            return text
        }
    }
}
