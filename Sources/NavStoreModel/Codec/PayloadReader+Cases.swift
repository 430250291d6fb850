/// The cases of an enum whose raw values are its stored names (event types, pop and dismiss
/// sources, platform generations), with those names' UTF-8 bytes: text read from the store is
/// matched on its bytes, without making a `String` of it first.
///
/// The names come from the enum's own raw values, so the enum stays the one list of them.
package struct RawValueTable<Value: RawRepresentable & CaseIterable & Sendable>: Sendable where Value.RawValue == String {
    /// Every case's name, one after the other.
    private let bytes: [UInt8]
    /// Where each case's name is in ``bytes``, in the order of ``values``.
    private let spans: [(start: Int, count: Int)]
    /// The cases, in the order of `allCases`.
    private let values: [Value]
    /// For each case, its name's first and last 8 bytes as words (overlapping when the name is
    /// shorter than 16 bytes; 0 for a name shorter than 8): a name of 8 to 16 bytes is matched by
    /// its length and two word compares, without a call to `memcmp`.
    private let words: [(head: UInt64, tail: UInt64)]

    /// The table of every case of `Value`.
    package init() {
        var bytes: [UInt8] = []
        var spans: [(start: Int, count: Int)] = []
        for value in Value.allCases {
            spans.append((bytes.count, value.rawValue.utf8.count))
            bytes.append(contentsOf: value.rawValue.utf8)
        }
        self.bytes = bytes
        self.spans = spans
        values = Array(Value.allCases)
        words = bytes.withUnsafeBufferPointer { names in
            spans.map { span in
                guard span.count >= 8 else { return (0, 0) }
                let start = names.baseAddress! + span.start
                return (Self.word(start), Self.word(start + span.count - 8))
            }
        }
    }

    /// The 8 bytes at `start` as a word (byte 0 the lowest, whatever the platform's byte order).
    @inline(__always)
    private static func word(_ start: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self))
    }

    /// The case named by the `count` bytes at `start`, compared byte for byte; `nil` for any
    /// other text. `init(rawValue:)` compares `String`s by canonical equivalence, which for these
    /// names (ASCII letters, digits, `-` and `.`: no Unicode text but themselves is canonically
    /// equivalent to them) is the same comparison; `PayloadReaderTests` checks the names.
    package func value(_ start: UnsafePointer<UInt8>, count: Int) -> Value? {
        if count >= 8, count <= 16 {
            let (head, tail) = (Self.word(start), Self.word(start + count - 8))
            for offset in spans.indices where spans[offset].count == count {
                if words[offset].head == head, words[offset].tail == tail { return values[offset] }
            }
            return nil
        }
        return bytes.withUnsafeBufferPointer { names in
            for (offset, span) in spans.enumerated() where span.count == count {
                if count == 0 || memcmp(names.baseAddress! + span.start, start, count) == 0 { return values[offset] }
            }
            return nil
        }
    }

    /// The case named by `text`'s UTF-8 bytes; `nil` for any other text.
    package func value(_ text: UnsafeBufferPointer<UInt8>) -> Value? {
        guard let start = text.baseAddress else { return spans.firstIndex { $0.count == 0 }.map { values[$0] } }
        return value(start, count: text.count)
    }

    /// The case named `name` (a `String`), matched on its bytes; `nil` for any other name.
    package func value(named name: String) -> Value? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ value($0) }) { return found }
        return Value(rawValue: name)
    }
}

/// The stored enums, as ``PayloadReader`` matches them.
extension PayloadReader {
    package static let kinds = RawValueTable<EventBody.Kind>()
    package static let popSources = RawValueTable<PopSource>()
    package static let dismissSources = RawValueTable<DismissSource>()
    package static let tabSelectionSources = RawValueTable<TabSelectionSource>()
    package static let tabReselects = RawValueTable<TabReselect>()
    package static let platforms = RawValueTable<PlatformGeneration>()
    package static let layerFields = RawValueTable<LayerField>()

    /// A string value naming a case of `table`'s enum, matched on its bytes. `nil` defers: for
    /// anything but a string, for a string with an escape or a control character (the reference
    /// reads it, and may find a case in it), and for a name that is no case (the reference
    /// refuses it, naming the accepted values).
    package mutating func caseValue<Value>(_ table: RawValueTable<Value>) -> Value? {
        guard consume(Self.quote) else { return nil }
        let start = index
        while index < end {
            let byte = base[index]
            if byte == Self.quote {
                let found = table.value(base + start, count: index - start)
                index += 1
                return found
            }
            if byte == Self.backslash || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }
}
