import NavStore

/// Typed, validated reads of option values and arguments. Each throws a ``UsageError`` naming the
/// bad value, the option and what would be accepted (exit code 64).
extension ParsedArguments {
    /// What error messages say a time may be (parsing is the library's ``Timestamp/parse(_:)``).
    static let acceptedTime = "an ISO-8601 time with its zone, such as 2024-05-01T12:00:00Z or 2024-05-01T14:00:00.250+02:00, or a date such as 2024-05-01 (midnight UTC)"

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
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, accepted: [T] = Array(T.allCases)) throws(UsageError) -> T?
    where T.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let value = accepted.first(where: { $0.rawValue == text }) else {
            throw invalid(text, for: label(option: name), expected: "one of \(accepted.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// The value of option `name` as milliseconds since the Unix epoch, or `nil` when not given.
    func time(_ name: String) throws(UsageError) -> Int64? {
        guard let text = value(name) else { return nil }
        guard let ms = Timestamp.parse(text) else {
            if let problem = Timestamp.problem(in: text) {
                throw error("The value '\(text)' is invalid for '\(label(option: name))': \(problem); expected \(Self.acceptedTime)")
            }
            throw invalid(text, for: label(option: name), expected: Self.acceptedTime)
        }
        return ms
    }

    /// The value of option `name` as a point in a session's history: a version number (digits)
    /// or an ISO-8601 time; `nil` when not given.
    func point(_ name: String) throws(UsageError) -> HistoryPoint? {
        guard let text = value(name) else { return nil }
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            guard let version = Int(text), version >= 1 else {
                throw invalid(text, for: label(option: name), expected: "a version number 1 or greater, or \(Self.acceptedTime)")
            }
            return .version(version)
        }
        if let ms = Timestamp.parse(text) { return .time(ms) }
        if let problem = Timestamp.problem(in: text) {
            throw error("The value '\(text)' is invalid for '\(label(option: name))': \(problem); expected a version number or \(Self.acceptedTime)")
        }
        throw invalid(text, for: label(option: name), expected: "a version number (1, 2, ...) or \(Self.acceptedTime)")
    }
}
