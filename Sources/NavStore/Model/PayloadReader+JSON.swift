#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Any JSON value, as the params of an entry hold (see ``PayloadReader``).
extension PayloadReader {
    // MARK: Any JSON value (params)

    /// A value as ``JSONValue/init(from:)`` reads it; `nil` defers.
    mutating func value() -> JSONValue? {
        switch skipSpaceAndPeek() {
        case Self.quote: return string().map(JSONValue.string)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool().map(JSONValue.bool)
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case Self.openBracket:
            index += 1
            depth += 1
            guard depth <= Self.maximumDepth else { return nil }
            var elements: [JSONValue] = []
            if consume(Self.closeBracket) {
                depth -= 1
                return .array(elements)
            }
            while true {
                guard let element = value() else { return nil }
                elements.append(element)
                if consume(Self.comma) { continue }
                guard consume(Self.closeBracket) else { return nil }
                depth -= 1
                return .array(elements)
            }
        case Self.openBrace:
            let (opened, isEmpty) = openObject()
            guard opened else { return nil }
            var object: [String: JSONValue] = [:]
            if isEmpty { return .object(object) }
            while true {
                guard skipSpaceAndPeek() == Self.quote, let key = string(), consume(Self.colon) else { return nil }
                guard let element = value() else { return nil }
                // A repeated key: which one the reference keeps is its business.
                guard object.updateValue(element, forKey: key) == nil else { return nil }
                guard let more = afterMember() else { return nil }
                if !more { return .object(object) }
            }
        default:
            if let integer = integer() { return .integer(integer) }
            return fraction().map(JSONValue.number)
        }
    }

    /// Params as `decodeIfPresent([String: JSONValue].self)` reads them: `null` is `nil`.
    mutating func optionalParams() -> [String: JSONValue]?? {
        switch skipSpaceAndPeek() {
        case UInt8(ascii: "n"): return literal("null") ? .some(nil) : nil
        case Self.openBrace:
            guard case .object(let object)? = value() else { return nil }
            return .some(object)
        default: return nil
        }
    }

    /// The text of a params object kept whole as ``EntryParams/text(_:)``: an object that
    /// ``value()`` reads (so ``params(_:)`` reads its text alone, at any depth) and whose text is
    /// plain: ASCII, no escapes, no key twice (by bytes, which for ASCII is by `String`
    /// equality). `nil`, with nothing read, for `null` or anything else (``optionalParams()``
    /// then reads it).
    mutating func plainParamsText() -> String? {
        guard skipSpaceAndPeek() == Self.openBrace else { return nil }
        let (start, startDepth) = (index, depth)
        guard skipPlainValue() else {
            (index, depth) = (start, startDepth)
            return nil
        }
        return String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
    }

    /// Reads a plain value (see ``plainParamsText()``) without building it: `false` for
    /// anything ``value()`` would not read, or that is not plain.
    private mutating func skipPlainValue() -> Bool {
        switch skipSpaceAndPeek() {
        case Self.quote: return plainString() != nil
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool() != nil
        case UInt8(ascii: "n"): return literal("null")
        case Self.openBracket:
            index += 1
            depth += 1
            guard depth <= Self.maximumDepth else { return false }
            if !consume(Self.closeBracket) {
                repeat {
                    guard skipPlainValue() else { return false }
                } while consume(Self.comma)
                guard consume(Self.closeBracket) else { return false }
            }
            depth -= 1
            return true
        case Self.openBrace:
            let (opened, isEmpty) = openObject()
            guard opened else { return false }
            if isEmpty { return true }
            var keys: [(start: Int, count: Int)] = []
            while true {
                guard skipSpaceAndPeek() == Self.quote, let key = plainString(), consume(Self.colon) else {
                    return false
                }
                guard !keys.contains(where: { bytes(at: $0.start, count: $0.count, equalTo: key) }) else {
                    return false
                }
                keys.append(key)
                guard skipPlainValue(), let more = afterMember() else { return false }
                if !more { return true }
            }
        default:
            return integer() != nil || fraction() != nil
        }
    }

    /// A string of printable ASCII without escapes, read: its bytes' start and count.
    private mutating func plainString() -> (start: Int, count: Int)? {
        guard consume(Self.quote) else { return nil }
        let start = index
        while index < end {
            let byte = base[index]
            if byte == Self.quote {
                index += 1
                return (start, index - 1 - start)
            }
            guard byte >= 0x20, byte < 0x80, byte != Self.backslash else { return nil }
            index += 1
        }
        return nil
    }

    /// Whether the bytes at `start` equal those of `other`.
    private func bytes(at start: Int, count: Int, equalTo other: (start: Int, count: Int)) -> Bool {
        count == other.count && memcmp(base + start, base + other.start, count) == 0
    }
}
