/// Reads the JSON the store writes (``PayloadWriter``'s payloads, snapshots and projection
/// columns) without `JSONDecoder`: the hot path of historical reads, folds and rebuilds, where
/// `JSONDecoder` was most of the cost of an event.
///
/// Foundation's `JSONDecoder` stays the reference. This reader returns the value the reference
/// would return, or `nil` to hand the input to the reference, never another value: it takes only
/// the shapes it knows fully (the keys of <doc:Events> once each, in any order, JSON whitespace
/// anywhere) and returns `nil` for anything else: an unknown or repeated key, an escaped key, a
/// lone `\u` surrogate, a raw control character or invalid UTF-8 in a string, a number other than an
/// integer of at most 18 digits (no `-0`) or a plain fraction of at most 17 digits, nesting deeper than ``maximumDepth``, a `null` where
/// a value is required, an unknown enum value, text after the value. `PayloadReaderTests`
/// decodes every shape the writer produces and hostile variants through both paths.
package struct PayloadReader {
    /// Nesting levels this reader follows (a snapshot's wrapper plus params), well inside the
    /// 512 levels `JSONDecoder` reads: deeper text goes to the reference.
    package static let maximumDepth = 128

    package let base: UnsafePointer<UInt8>
    package let end: Int
    package var index = 0
    package var depth = 0
    /// Whether ``skipSpaceAndPeek()`` skipped whitespace since this was last set to `false`.
    package var skippedSpace = false

    /// A reader of `bytes`; `nil` for no bytes (not JSON: the reference says why).
    package init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        self.base = base
        end = bytes.count
    }

    // MARK: Entry points

    /// The event body of `kind` stored as `payload`, or `nil` to hand it to `JSONDecoder`.
    @inline(__always)
    package static func body(kind: EventBody.Kind, payload: UnsafeBufferPointer<UInt8>) -> EventBody? {
        guard var reader = PayloadReader(payload) else { return nil }
        guard let body = reader.body(kind: kind), reader.atEnd() else { return nil }
        return body
    }

    /// The event body of the type named `type` stored as `payload`, or `nil` to hand it to
    /// `JSONDecoder` (an unknown type among others).
    package static func body(type: String, payload: UnsafeBufferPointer<UInt8>) -> EventBody? {
        guard let kind = kinds.value(named: type) else { return nil }
        return body(kind: kind, payload: payload)
    }

    /// A snapshot's state (`{"layers":[...],"platform":...}`), or `nil` to hand it to `JSONDecoder`.
    package static func state(_ bytes: UnsafeBufferPointer<UInt8>) -> SessionState? {
        guard var reader = PayloadReader(bytes) else { return nil }
        guard let state = reader.state(), reader.atEnd() else { return nil }
        return state
    }

    /// A projection row's item, or `nil` to hand it to `JSONDecoder`.
    package static func item(_ bytes: UnsafeBufferPointer<UInt8>) -> NavigationItem? {
        guard var reader = PayloadReader(bytes) else { return nil }
        guard let item = reader.item(), reader.atEnd() else { return nil }
        return item
    }

    /// A projection row's params object, or `nil` to hand it to `JSONDecoder`.
    package static func params(_ bytes: UnsafeBufferPointer<UInt8>) -> [String: JSONValue]? {
        guard var reader = PayloadReader(bytes) else { return nil }
        guard reader.skipSpaceAndPeek() == UInt8(ascii: "{"), let value = reader.value(),
            case .object(let object) = value, reader.atEnd()
        else { return nil }
        return object
    }

    // MARK: Bytes

    package static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    package static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    package static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    package static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":")

    /// Skips JSON whitespace (RFC 8259 §2: space, tab, line feed, carriage return) and returns
    /// the next byte, or `nil` at the end.
    @inline(__always)
    package mutating func skipSpaceAndPeek() -> UInt8? {
        while index < end {
            let byte = base[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return byte }
            index += 1
            skippedSpace = true
        }
        return nil
    }

    @inline(__always)
    package mutating func consume(_ byte: UInt8) -> Bool {
        guard skipSpaceAndPeek() == byte else { return false }
        index += 1
        return true
    }

    /// The value of one hexadecimal digit of a `\u` escape (either letter case), or `nil`.
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Only whitespace is left.
    package mutating func atEnd() -> Bool { skipSpaceAndPeek() == nil }

    /// Whether the `count` bytes at `start` spell `name`.
    @inline(__always)
    package func bytes(at start: Int, count: Int, equal name: StaticString) -> Bool {
        count == name.utf8CodeUnitCount && memcmp(base + start, name.utf8Start, count) == 0
    }

    /// A literal (`true`, `false`, `null`) followed by a byte that can end a value.
    @inline(__always)
    package mutating func literal(_ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard end - index >= count, memcmp(base + index, name.utf8Start, count) == 0 else { return false }
        if index + count < end {
            let next = base[index + count]
            guard
                next == Self.comma || next == Self.closeBrace || next == Self.closeBracket
                    || next == 0x20 || next == 0x0A || next == 0x0D || next == 0x09
            else { return false }
        }
        index += count
        return true
    }

    // MARK: Objects

    /// Opens an object: `true` when `{` was read. `isEmpty` tells whether it closed at once.
    @inline(__always)
    package mutating func openObject() -> (opened: Bool, isEmpty: Bool) {
        guard consume(Self.openBrace) else { return (false, false) }
        depth += 1
        guard depth <= Self.maximumDepth else { return (false, false) }
        if consume(Self.closeBrace) {
            depth -= 1
            return (true, true)
        }
        return (true, false)
    }

    /// A key of the fixed schema: its bytes' start and count, the colon after it read. `nil` for
    /// an escaped key (left to the reference).
    @inline(__always)
    package mutating func schemaKey() -> (start: Int, count: Int)? {
        guard consume(Self.quote) else { return nil }
        let start = index
        skipPlainRun()
        while index < end {
            let byte = base[index]
            if byte == Self.quote {
                let count = index - start
                index += 1
                guard consume(Self.colon) else { return nil }
                return (start, count)
            }
            if byte == Self.backslash || byte < 0x20 { return nil }
            index += 1
        }
        return nil
    }

    /// After a member: `.more` after a comma, `.closed` after `}`, `nil` for anything else.
    @inline(__always)
    package mutating func afterMember() -> Bool? {
        switch skipSpaceAndPeek() {
        case Self.comma:
            index += 1
            return true
        case Self.closeBrace:
            index += 1
            depth -= 1
            return false
        default: return nil
        }
    }

    /// Reads the members of an object whose `{` was read: `member` is called with each key's
    /// index in `keys` and must read its value; `nil` for an unknown or repeated key.
    @inline(__always)
    package mutating func members(_ keys: [StaticString], _ member: (inout PayloadReader, Int) -> Bool) -> Bool {
        var seen: UInt32 = 0
        while true {
            guard let (start, count) = schemaKey() else { return false }
            guard let which = keys.firstIndex(where: { bytes(at: start, count: count, equal: $0) }) else {
                return false
            }
            let bit: UInt32 = 1 << UInt32(which)
            guard seen & bit == 0 else { return false }
            seen |= bit
            guard member(&self, which) else { return false }
            guard let more = afterMember() else { return false }
            if !more { return true }
        }
    }

    // MARK: Scalars

    /// A string value. `nil` for anything but a string the reference reads the same way.
    package mutating func string() -> String? {
        guard consume(Self.quote) else { return nil }
        let start = index
        var ascii = true
        skipPlainRun()
        while index < end {
            let byte = base[index]
            if byte == Self.quote {
                let text = UnsafeBufferPointer(start: base + start, count: index - start)
                index += 1
                return ascii ? String(decoding: text, as: UTF8.self) : String(validUTF8: text)
            }
            if byte == Self.backslash {
                index = start
                return escapedString()
            }
            if byte < 0x20 { return nil }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        return nil
    }

    /// Skips the bytes of a string that are printable ASCII other than a quote or a backslash,
    /// eight at a time, up to the first other byte (or the last few bytes), which the caller
    /// then reads one by one.
    @inline(__always)
    package mutating func skipPlainRun() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        while end - index >= 8 {
            // Byte 0 the lowest, whatever the platform's byte order.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // A byte is zero in `word ^ c` where it equals c; (x - 1) & ~x sets the top bit of a
            // byte below 0x20 (x - 0x20) or of a zero byte. A borrow can mark bytes above a
            // marked one, never below it: the lowest mark is the first byte to stop at.
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let marks =
                (((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
                    | ((word &- ones &* 0x20) & ~word) | word) & (ones &* 0x80)
            guard marks == 0 else {
                index += marks.trailingZeroBitCount >> 3
                return
            }
            index += 8
        }
    }

    /// A string holding escapes, read from its first byte after the quote: `\" \\ \/ \b \f \n
    /// \r \t`, `\uXXXX` outside the surrogates and a surrogate pair `\uD8XX\uDCXX`; `nil` for
    /// anything else (a lone surrogate among it).
    package mutating func escapedString() -> String? {
        var bytes: [UInt8] = []
        while index < end {
            let byte = base[index]
            if byte == Self.quote {
                index += 1
                return bytes.withUnsafeBufferPointer { String(validUTF8: $0) }
            }
            if byte < 0x20 { return nil }
            if byte != Self.backslash {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 1 < end else { return nil }
            let kind = base[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                guard end - index >= 4 else { return nil }
                var unit: UInt32 = 0
                for offset in 0..<4 {
                    guard let value = Self.hexValue(base[index + offset]) else { return nil }
                    unit = unit << 4 | UInt32(value)
                }
                index += 4
                if (0xD800...0xDBFF).contains(unit) {
                    // A high surrogate must be followed by `\u` and a low one: the pair is one
                    // scalar (RFC 8259 §7, `"\ud83d\udcec"` for U+1F4EC). A lone half defers:
                    // the reference refuses it.
                    guard end - index >= 6, base[index] == Self.backslash, base[index + 1] == UInt8(ascii: "u")
                    else { return nil }
                    var low: UInt32 = 0
                    for offset in 2..<6 {
                        guard let value = Self.hexValue(base[index + offset]) else { return nil }
                        low = low << 4 | UInt32(value)
                    }
                    guard (0xDC00...0xDFFF).contains(low) else { return nil }
                    index += 6
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(unit) else { return nil }  // a lone low surrogate: to the reference
                UTF8.encode(scalar) { bytes.append($0) }
            default:
                return nil
            }
        }
        return nil
    }

    /// A string, or `nil` for `null` (as `decodeIfPresent` reads it). The outer `nil` defers.
    package mutating func optionalString() -> String?? {
        if skipSpaceAndPeek() == UInt8(ascii: "n") { return literal("null") ? .some(nil) : nil }
        guard let text = string() else { return nil }
        return .some(text)
    }

    /// `true` or `false`; `nil` defers.
    package mutating func bool() -> Bool? {
        switch skipSpaceAndPeek() {
        case UInt8(ascii: "t"): return literal("true") ? true : nil
        case UInt8(ascii: "f"): return literal("false") ? false : nil
        default: return nil
        }
    }

    /// A flag read with `decodeIfPresent(Bool.self) ?? false`: `null` is `false`; `nil` defers.
    package mutating func optionalFlag() -> Bool? {
        if skipSpaceAndPeek() == UInt8(ascii: "n") { return literal("null") ? false : nil }
        return bool()
    }

    /// An array whose elements `element` reads; `nil` defers (when `element` does, among others).
    @inline(__always)
    package mutating func array<Element>(_ element: (inout PayloadReader) -> Element?) -> [Element]? {
        guard consume(Self.openBracket) else { return nil }
        var result: [Element] = []
        if consume(Self.closeBracket) { return result }
        while true {
            guard let value = element(&self) else { return nil }
            result.append(value)
            if consume(Self.comma) { continue }
            return consume(Self.closeBracket) ? result : nil
        }
    }

    /// An array of strings; `nil` defers.
    package mutating func strings() -> [String]? {
        guard consume(Self.openBracket) else { return nil }
        var result: [String] = []
        if consume(Self.closeBracket) { return result }
        while true {
            guard let text = string() else { return nil }
            result.append(text)
            if consume(Self.comma) { continue }
            return consume(Self.closeBracket) ? result : nil
        }
    }
}
