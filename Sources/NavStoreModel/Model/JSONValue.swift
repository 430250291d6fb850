/// Any JSON value, used for an entry's `params` (a JSON object the app stores to rebuild a screen).
///
/// Integers that fit in `Int64` stay integers (`.integer`), so ids such as `12345678901234567`
/// round-trip exactly; other numbers are `.number` (`Double`). Object keys keep no order of
/// their own: encoders that sort keys (as the store's JSON output does) give stable output.
public enum JSONValue: Sendable, Hashable, Codable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number that is a whole number within `Int64`.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string; `""` is a value of its own, distinct from `.null`.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// An object; keys are unique.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    /// - Throws: `DecodingError` when the input is not JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes the value as the JSON it stands for.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
