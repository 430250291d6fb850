/// Writes an event's payload as compact JSON without `JSONEncoder`: every stored payload and
/// snapshot, on the hot path of appends, batches and imports and everywhere else.
///
/// The bytes are NavStore's own on every platform (<doc:Events>): the same keys as the payload's
/// `Codable` form, unset fields left out, keys sorted by their UTF-8 bytes, `/` not escaped,
/// control characters as `\b \t \n \f \r` or `\u00XX`, a non-integer number in Swift's
/// shortest round-tripping text. That is what swift-foundation's `JSONEncoder` with `.sortedKeys`
/// writes, so `PayloadWriterTests` checks the writer byte for byte against it for every event
/// type; Apple's Foundation before swift-foundation sorts keys otherwise (`item10` before `item9`),
/// which is why the store never leaves stored text to `JSONEncoder`.
package struct PayloadWriter {
    package let bytes: PayloadBytes
    /// Where the last entry ``write(_:)-(Entry)`` wrote has the params object it wrote from a
    /// decoded value (not copied from text); `nil` when it had none.
    private(set) var sortedParams: Range<Int>?

    /// A writer into a buffer of its own with room for `capacity` bytes before it grows.
    package init(capacity: Int = 256) {
        bytes = PayloadBytes(capacity: capacity)
    }

    /// A writer into `buffer`, emptied first (its memory kept).
    package init(into buffer: PayloadBytes) {
        buffer.removeAll()
        bytes = buffer
    }

    /// The payload of `body` as JSON text: the text the store keeps for it.
    package static func json(_ body: EventBody) -> String {
        var writer = PayloadWriter(capacity: 160)
        writer.write(body)
        return writer.text
    }

    /// Calls `use` with the payload of `body` as UTF-8 bytes written into `buffer` (emptied
    /// first, its capacity kept: the hot path of appends writes every payload into one buffer and
    /// binds it in place). The bytes are the same as ``json(_:)-(EventBody)``'s and valid only
    /// during `use`.
    package static func withPayload<Result>(
        _ body: EventBody, in buffer: PayloadBytes, _ use: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        var writer = PayloadWriter(into: buffer)
        writer.write(body)
        return try buffer.withBytes { try use($0) }
    }

    /// A projection row's item as JSON text (set fields only, sorted keys), as `JSONEncoder` writes it.
    package static func json(_ item: NavigationItem) -> String {
        var writer = PayloadWriter()
        writer.write(item)
        return writer.text
    }

    /// A projection row's params as JSON text.
    package static func json(_ params: [String: JSONValue]) -> String {
        var writer = PayloadWriter()
        writer.write(object: params)
        return writer.text
    }

    /// The NDJSON line of `event` with this writer's compact payload (``EventRecord/line(_:payload:previous:)``).
    package static func recordLine(_ event: Event, previous: String? = nil) -> String {
        var writer = PayloadWriter(capacity: 320)
        _ = writer.line(
            at: event.at, eventID: event.eventID, previous: previous, seq: event.seq, session: event.session,
            time: Timestamp.format(event.at), type: event.type, version: event.version
        ) {
            $0.write(event.body)
            return true
        }
        return writer.text
    }

    /// The one writer of an NDJSON event line (`export`, `history --json`, `replay --json`, a
    /// truncated session's base): `{"at","eventID","payload","previous","seq","session","time",
    /// "type","version"}` in this (sorted) order, `previous`, `seq` and `time` left out when
    /// `nil`, the payload written by `payload` (`false` gives up).
    package mutating func line(
        at: Int64, eventID: String, previous: String?, seq: Int64?, session: String, time: String?, type: String,
        version: Int, payload: (inout PayloadWriter) -> Bool
    ) -> Bool {
        raw("{\"at\":")
        integer(at)
        raw(",\"eventID\":")
        string(eventID)
        raw(",\"payload\":")
        guard payload(&self) else { return false }
        if let previous {
            raw(",\"previous\":")
            string(previous)
        }
        if let seq {
            raw(",\"seq\":")
            integer(seq)
        }
        raw(",\"session\":")
        string(session)
        if let time {
            raw(",\"time\":")
            string(time)
        }
        raw(",\"type\":")
        string(type)
        raw(",\"version\":")
        integer(version)
        raw("}")
        return true
    }

    /// `{"id","item","params","route"}` with the unset ones left out, as `Entry.encode(to:)`.
    package mutating func write(_ entry: Entry) {
        raw("{\"id\":")
        string(entry.id)
        // Written, then taken back when it is `{}` (every field unset, which `Entry.encode(to:)`
        // leaves out): comparing with `NavigationItem()` made, copied and destroyed two items.
        let beforeItem = bytes.count
        raw(",\"item\":")
        write(entry.item)
        if bytes.count == beforeItem + 10 { bytes.removeLast(10) }
        sortedParams = nil
        if case .text(let text, isCanonical: true) = entry.storedParams {
            // Read from the store as this writer writes it: copied, not decoded and written again.
            raw(",\"params\":")
            rawText(text)
        } else if let params = entry.params {
            raw(",\"params\":")
            let start = bytes.count
            write(object: params)
            sortedParams = start..<bytes.count
        }
        if let route = entry.route {
            raw(",\"route\":")
            string(route)
        }
        raw("}")
    }

    /// A key of the store's own shapes (no character to escape), after a comma unless `first`.
    package mutating func key(_ name: StaticString, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append($0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    package mutating func key(_ name: String, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// The text written so far.
    package var text: String { bytes.text }

    /// The bytes written at `range` as text when they are plain: ASCII without `\\` (no escape,
    /// so ``PayloadReader`` reads them), else `nil`.
    package func plainText(at range: Range<Int>) -> String? {
        bytes.withBytes { written in
            let text = UnsafeBufferPointer(rebasing: written[range])
            guard !text.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) else { return nil }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// Appends a literal's UTF-8 as it is (JSON punctuation, keys, `true`): a `StaticString`,
    /// whose bytes are at hand, cheaper than a `String` literal's.
    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append($0) }
    }

    /// Appends `text`'s UTF-8 as it is (text that is already JSON).
    package mutating func rawText(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append($0) }
    }

    /// Appends `value` in decimal, without making a `String` of it.
    package mutating func integer(_ value: Int) {
        integer(Int64(value))
    }

    /// Appends `value` in decimal, without making a `String` of it: the digits are formed on the
    /// stack, least significant first, then copied.
    package mutating func integer(_ value: Int64) {
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 19 digits and a sign fit
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude != 0
            if value < 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "-")
            }
            bytes.append(UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    package mutating func strings(_ values: [String]) {
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        raw("]")
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` escaped, control characters as short escapes or `\u00XX`. The
    /// text's UTF-8 is scanned once in place and copied in runs between escapes.
    package mutating func string(_ text: String) {
        // Read in place (a small string's bytes copied to the stack), without the copy of the
        // `String` that `withUTF8` mutates; a string without contiguous UTF-8 is copied.
        guard text.utf8.withContiguousStorageIfAvailable({ quoted($0) }) == nil else { return }
        var text = text
        text.withUTF8 { quoted($0) }
    }

    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        // Most texts (ids, routes, titles, keys) need no escape: checked eight bytes at a time,
        // the tail too, then copied at once with their quotes.
        guard Self.needsEscape(utf8) else { return bytes.appendQuoted(utf8) }
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        if let base = utf8.baseAddress {
            var index = 0
            while index < utf8.count {
                // Eight bytes at a time while none of them needs an escape.
                while index + 8 <= utf8.count,
                    !Self.needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                {
                    index += 8
                }
                guard index < utf8.count else { break }
                let byte = base[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    bytes.append(UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    escape(byte)
                    start = index + 1
                }
                index += 1
            }
        }
        bytes.append(UnsafeBufferPointer(rebasing: utf8[start...]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any byte of `utf8` needs an escape (``needsEscape(_:)-(UInt64)``), eight at a
    /// time: the last fewer than eight in the word of the last eight bytes (some checked twice),
    /// and text shorter than a word in one padded with spaces.
    package static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let count = utf8.count
        guard count >= 8 else {
            var word: UInt64 = 0x2020_2020_2020_2020
            for index in 0..<count { word = word << 8 | UInt64(base[index]) }
            return needsEscape(word)
        }
        var index = 0
        while index + 8 <= count {
            if needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { return true }
            index += 8
        }
        return index < count && needsEscape(UnsafeRawPointer(base + count - 8).loadUnaligned(as: UInt64.self))
    }

    /// Whether any of the eight bytes of `word` is a control character (below 0x20), `"` or `\\`
    /// (the classic "has a byte less than n" and "has a zero byte" word tests, exact as a yes or no).
    package static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highBits
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let quoteFound = (quote &- ones) & ~quote & highBits
        let backslashFound = (backslash &- ones) & ~backslash & highBits
        return control | quoteFound | backslashFound != 0
    }

    /// The escape of a byte that JSON does not allow in a string as it is.
    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(UInt8(ascii: "0"))
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
    }
}
