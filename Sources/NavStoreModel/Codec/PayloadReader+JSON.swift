/// Any JSON value, as the params of an entry hold (see ``PayloadReader``).
extension PayloadReader {
    // MARK: Any JSON value (params)

    /// A value as ``JSONValue/init(from:)`` reads it; `nil` defers.
    package mutating func value() -> JSONValue? {
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
    package mutating func optionalParams() -> [String: JSONValue]?? {
        switch skipSpaceAndPeek() {
        case UInt8(ascii: "n"): return literal("null") ? .some(nil) : nil
        case Self.openBrace:
            guard case .object(let object)? = value() else { return nil }
            return .some(object)
        default: return nil
        }
    }

    /// The text of a params object kept whole as ``EntryParams/text(_:isCanonical:)``: an object
    /// that ``value()`` reads (so ``params(_:)`` reads its text alone, at any depth) and whose
    /// text is plain: ASCII, no escapes, at most 16 keys per object and none twice (by bytes,
    /// which for ASCII is by `String` equality). `nil`, with nothing read, for `null` or anything
    /// else (``optionalParams()`` then reads it). `isCanonical`: the text is byte for byte what
    /// ``PayloadWriter`` writes for its value (no whitespace between tokens, the keys of every
    /// object in ascending byte order, no fractions), so a writer may copy it.
    package mutating func plainParamsText() -> (text: String, isCanonical: Bool)? {
        guard skipSpaceAndPeek() == Self.openBrace else { return nil }
        let (start, startDepth) = (index, depth)
        var isCanonical = true
        skippedSpace = false
        guard skipPlainValue(&isCanonical) else {
            (index, depth) = (start, startDepth)
            return nil
        }
        // Whitespace between the tokens: a plain string holds none but spaces, read as its bytes.
        if skippedSpace { isCanonical = false }
        let text = UnsafeBufferPointer(start: base + start, count: index - start)
        return (String(decoding: text, as: UTF8.self), isCanonical)
    }

    /// Reads a plain value (see ``plainParamsText()``) without building it: `false` for
    /// anything ``value()`` would not read, or that is not plain.
    private mutating func skipPlainValue(_ isCanonical: inout Bool) -> Bool {
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
                    guard skipPlainValue(&isCanonical) else { return false }
                } while consume(Self.comma)
                guard consume(Self.closeBracket) else { return false }
            }
            depth -= 1
            return true
        case Self.openBrace:
            let (opened, isEmpty) = openObject()
            guard opened else { return false }
            if isEmpty { return true }
            // The keys read so far, on the stack: an object with more goes to ``value()``.
            return withUnsafeTemporaryAllocation(of: (start: Int, count: Int).self, capacity: 16) { keys in
                var count = 0
                // While the keys ascend, each one differs from all before it: no search needed.
                var ascending = true
                while true {
                    guard skipSpaceAndPeek() == Self.quote, let key = plainString(), consume(Self.colon), count < 16
                    else { return false }
                    if count > 0, ascending, !bytes(of: keys[count - 1], precede: key) {
                        ascending = false
                        isCanonical = false
                    }
                    if !ascending,
                        keys[..<count].contains(where: { bytes(at: $0.start, count: $0.count, equalTo: key) })
                    {
                        return false
                    }
                    keys[count] = key
                    count += 1
                    guard skipPlainValue(&isCanonical), let more = afterMember() else { return false }
                    if !more { return true }
                }
            }
        default:
            if integer() != nil { return true }
            let start = index
            guard let number = fraction() else { return false }
            // Canonical when it is the text the writer gives that number (``PayloadWriter/number(_:)``).
            if isCanonical {
                let text = PayloadWriter.numberText(number)
                let count = index - start
                isCanonical =
                    text.utf8.count == count
                    && text.utf8.elementsEqual(UnsafeBufferPointer(start: base + start, count: count))
            }
            return true
        }
    }

    /// A string of printable ASCII without escapes, read: its bytes' start and count.
    private mutating func plainString() -> (start: Int, count: Int)? {
        guard consume(Self.quote) else { return nil }
        let start = index
        skipPlainRun()
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

    /// Whether the bytes of `a` come before those of `b` (a prefix first), as the writer sorts keys.
    private func bytes(of a: (start: Int, count: Int), precede b: (start: Int, count: Int)) -> Bool {
        let order = memcmp(base + a.start, base + b.start, min(a.count, b.count))
        return order < 0 || (order == 0 && a.count < b.count)
    }

    /// Whether the bytes at `start` equal those of `other`.
    private func bytes(at start: Int, count: Int, equalTo other: (start: Int, count: Int)) -> Bool {
        count == other.count && memcmp(base + start, base + other.start, count) == 0
    }
}
