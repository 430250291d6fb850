/// Params objects and their values: JSON objects written with their keys sorted by their UTF-8
/// bytes, as `JSONEncoder`'s `.sortedKeys` does.
extension PayloadWriter {
    /// `object` as JSON with its members in the order of their keys' UTF-8 bytes.
    package mutating func write(object: [String: JSONValue]) {
        raw("{")
        // Each member is taken out of the dictionary once (its iterator's copy, moved into
        // temporary memory: on the stack when small) and ordered by its key's UTF-8 bytes, the
        // order of `JSONEncoder`'s `.sortedKeys`: first by the key's first 16 bytes read as two
        // big-endian integers, then, for keys alike that far, by all their bytes. Looking members
        // up by position and comparing keys as `String`s copied each member about three times.
        // An insertion sort: params hold a handful of keys.
        withUnsafeTemporaryAllocation(of: SortedMember.self, capacity: object.count) { members in
            var count = 0
            for (key, value) in object {
                let member = SortedMember(key: key, value: value)
                var index = count
                while index > 0, member.precedes(members[index - 1]) { index -= 1 }
                if index < count {
                    (members.baseAddress! + index + 1).moveInitialize(
                        from: members.baseAddress! + index, count: count - index)
                }
                members.initializeElement(at: index, to: member)
                count += 1
            }
            // Each member moved out as it is written.
            let base = members.baseAddress!
            for index in 0..<count {
                let member = (base + index).move()
                key(member.key, first: index == 0)
                write(value: member.value)
            }
        }
        raw("}")
    }

    /// One member of a params object being written, with its key's sort prefix.
    private struct SortedMember {
        package let key: String
        package let value: JSONValue
        /// The key's first 16 UTF-8 bytes, big-endian, zero-padded: comparing two prefixes as
        /// integers compares those bytes in order.
        package let high: UInt64
        package let low: UInt64

        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
            // The first 16 bytes copied into two zeroed words (on the stack), read big-endian.
            var words: (UInt64, UInt64) = (0, 0)
            var key = key
            key.withUTF8 { utf8 in
                withUnsafeMutableBytes(of: &words) { bytes in
                    if let source = utf8.baseAddress {
                        bytes.baseAddress!.copyMemory(from: source, byteCount: min(utf8.count, 16))
                    }
                }
            }
            let high = UInt64(bigEndian: words.0)
            let low = UInt64(bigEndian: words.1)
            self.high = high
            self.low = low
        }

        /// Whether this key's UTF-8 bytes come before `other`'s (shorter first when one is a
        /// prefix of the other).
        package func precedes(_ other: SortedMember) -> Bool {
            if high != other.high { return high < other.high }
            if low != other.low { return low < other.low }
            // Alike in their first 16 bytes, or one padded with zeros where the other has NULs.
            return PayloadWriter.precedes(key, other.key)
        }
    }

    /// Whether `a`'s UTF-8 bytes come before `b`'s (shorter first when one is a prefix).
    package static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for index in 0..<min(x.count, y.count) where x[index] != y[index] { return x[index] < y[index] }
                return x.count < y.count
            }
        }
    }

    /// Appends `value` as JSON (objects with their keys sorted, as ``write(object:)``).
    package mutating func write(value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .integer(let number): integer(number)
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let values):
            raw("[")
            for (index, element) in values.enumerated() {
                if index > 0 { raw(",") }
                write(value: element)
            }
            raw("]")
        case .object(let object):
            write(object: object)
        }
    }

    /// A non-integer number (``JSONValue/number(_:)``, finite: JSON has no other) in the one form
    /// the store writes on every platform: Swift's shortest text that reads back as the same
    /// `Double` (`description`, the standard library's own, the same on every platform), without
    /// a trailing `.0` (`3e+20`, `0.1`, `1e-05`, `12.5`). It is the text swift-foundation's
    /// `JSONEncoder` writes (the test reference, `PayloadWriterTests`). The store does not leave
    /// numbers to `JSONEncoder`: Apple's Foundation before swift-foundation formats some of them
    /// otherwise, and stored bytes must not depend on the device that wrote them.
    package mutating func number(_ value: Double) {
        rawText(Self.numberText(value))
    }

    /// The text ``number(_:)`` writes for `value`.
    package static func numberText(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
