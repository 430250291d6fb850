import NavStore

/// Typed, validated reads of option values and arguments. Each throws a ``UsageError`` naming the
/// bad value, the option and what would be accepted (exit code 64).
extension ParsedArguments {
    /// What error messages say a time may be (parsing is the library's ``Timestamp/parse(_:)``).
    static let acceptedTime =
        "an ISO-8601 time with its zone, such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00.250+02:00, or a date such as 2024-05-01 (midnight UTC)"

    /// `The value 'x' is invalid for '--opt <v>': expected ...`.
    func invalid(_ value: String, for what: String, expected: String) -> UsageError {
        error("The value '\(value)' is invalid for '\(what)': expected \(expected)")
    }

    /// How messages name an option (`--width <n>`) or an argument (`<row>`).
    private func label(option name: String) -> String {
        spec.option(named: name)?.synopsis ?? "--\(name)"
    }

    /// Reads a decimal integer of at least `minimum`.
    private func integer(_ text: String, minimum: Int, for what: String) throws(UsageError) -> Int {
        guard let value = Int(text), value >= minimum else {
            throw invalid(text, for: what, expected: "an integer \(minimum) or greater")
        }
        return value
    }

    /// The integer value of option `name` (at least `minimum`), or `nil` when not given.
    func int(_ name: String, minimum: Int = 0) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        return try integer(text, minimum: minimum, for: label(option: name))
    }

    /// The integer value of the positional argument `name` (at least `minimum`).
    func intArgument(_ name: String, minimum: Int = 0) throws(UsageError) -> Int {
        try integer(argument(name), minimum: minimum, for: "<\(name)>")
    }

    /// The value of option `name` as one of `accepted`, or `nil` when not given.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, accepted: [T] = Array(T.allCases))
        throws(UsageError) -> T?
    where T.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let value = accepted.first(where: { $0.rawValue == text }) else {
            throw invalid(
                text, for: label(option: name), expected: "one of \(accepted.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// How far ahead of the clock an event's `--time` may be without `--allow-future-time`:
    /// 24 hours, in milliseconds. Further ahead is taken for a typo (a wrong year, a swapped
    /// day and month): every later event of the session would be stamped at least that late.
    static let futureTimeLimit: Int64 = 24 * 3_600_000

    /// The value of option `name` as milliseconds since the Unix epoch, or `nil` when not given;
    /// digits below a millisecond round as `rounding` says (down unless a lower bound asks for up).
    /// An event time (`--time`) more than ``futureTimeLimit`` ahead of the clock is refused
    /// unless the command was given `--allow-future-time`.
    func time(_ name: String, rounding: Timestamp.Rounding = .down) throws(UsageError) -> Int64? {
        guard let text = value(name) else { return nil }
        guard let ms = Timestamp.parse(text, rounding: rounding) else {
            if let problem = Timestamp.problem(in: text) {
                throw error(
                    "The value '\(text)' is invalid for '\(label(option: name))': \(problem); expected \(Self.acceptedTime)"
                )
            }
            throw invalid(text, for: label(option: name), expected: Self.acceptedTime)
        }
        if name == "time", !flag("allow-future-time") {
            let now = Timestamp.now()
            if ms > now + Self.futureTimeLimit {
                throw error(
                    "--time \(text) is more than 24 hours ahead of the clock (now \(Timestamp.format(now))): every later event of the session would be stamped at least that late; give a time at most 24 hours ahead, or add --allow-future-time if it is meant"
                )
            }
        }
        return ms
    }

    /// The value of option `name` as a point in a session's history: a version number (digits)
    /// or an ISO-8601 time; `nil` when not given.
    func point(_ name: String) throws(UsageError) -> HistoryPoint? {
        guard let text = value(name) else { return nil }
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            guard let version = Int(text), version >= 1 else {
                throw invalid(
                    text, for: label(option: name), expected: "a version number 1 or greater, or \(Self.acceptedTime)")
            }
            return .version(version)
        }
        if let ms = Timestamp.parse(text, rounding: .down) { return .time(ms) }
        if let problem = Timestamp.problem(in: text) {
            throw error(
                "The value '\(text)' is invalid for '\(label(option: name))': \(problem); expected a version number or \(Self.acceptedTime)"
            )
        }
        throw invalid(text, for: label(option: name), expected: "a version number (1, 2, ...) or \(Self.acceptedTime)")
    }
}
