/// How an entry holds its ``Entry/params``: the decoded object, or the JSON text of one read from
/// the store, decoded only when asked for.
///
/// A fold, a historical read or a lint never looks inside params, and building their
/// dictionaries was the largest single cost of reading an event. ``PayloadReader``
/// keeps as text only an object that it reads itself, whole, whatever the depth it is found at,
/// and whose text is plain (ASCII, no escapes, keys distinct by their bytes), so decoding the
/// text later gives exactly the value reading it at once would have given, and cannot fail.
/// Equality and hashing are those of the decoded value, never of the text.
package enum EntryParams: Sendable, Hashable {
    /// Decoded params (`nil`: not set).
    case value([String: JSONValue]?)
    /// The JSON text of a params object that ``PayloadReader/params(_:)`` reads; canonical when
    /// it is what ``PayloadWriter`` writes for its value (a writer then copies it).
    case text(String, isCanonical: Bool)

    /// The params: the value, or the text decoded now.
    package var value: [String: JSONValue]? {
        switch self {
        case .value(let value): return value
        case .text(let text, _): return Self.decode(text)
        }
    }

    package static func == (a: EntryParams, b: EntryParams) -> Bool {
        if case .text(let x, _) = a, case .text(let y, _) = b, x.hasSameScalars(as: y) { return true }
        return a.value == b.value
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// The object `text` holds. ``PayloadReader`` kept the text because it reads it; the
    /// reference decoder stands behind it all the same.
    private static func decode(_ text: String) -> [String: JSONValue]? {
        var text = text
        if let object = text.withUTF8({ PayloadReader.params($0) }) { return object }
        return try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
    }
}
