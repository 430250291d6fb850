/// Makes the ids of events appended without a client-supplied one: UUID version 7 text in
/// lowercase (RFC 9562 §5.7, https://www.rfc-editor.org/rfc/rfc9562#section-5.7).
///
/// The first 48 bits are the wall-clock milliseconds, so ids written one after another land next
/// to each other in the `event_id` index instead of at random places; the remaining 74 bits are a
/// 32-bit counter that starts at a random value and a 42-bit random value fixed per generator
/// (RFC 9562 §6.2, "fixed bit-length dedicated counter"). One random draw per store, none per
/// event: the system generator is slow to draw from, and an append should not wait for it.
package struct EventIDGenerator {
    private var counter: UInt32
    private let node: UInt64

    /// A generator with a fresh random counter start and node.
    package init() {
        var random = SystemRandomNumberGenerator()
        counter = UInt32(truncatingIfNeeded: random.next())
        node = random.next() & ((1 << 42) - 1)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The next id, e.g. `019ad3f2-7c41-7a3e-8d21-5f0c3b9e4a17`.
    /// - Parameter milliseconds: the time part, in ms since the Unix epoch (now by default).
    package mutating func next(milliseconds: Int64 = Timestamp.now()) -> String {
        Self.text(nextBits(milliseconds: milliseconds))
    }

    /// The 128 bits of the next id as two words, spelled by ``text(_:)`` or ``withText(_:_:)``:
    /// 48 bits of time, version 7, 12 + 2 + 18 bits of counter around the variant bits 10, then
    /// 42 bits of node.
    /// - Parameter milliseconds: the time part, in ms since the Unix epoch (now by default).
    package mutating func nextBits(milliseconds: Int64 = Timestamp.now()) -> (high: UInt64, low: UInt64) {
        let count = counter
        counter &+= 1
        let time = UInt64(bitPattern: milliseconds) & 0xFFFF_FFFF_FFFF
        return (
            time << 16 | 0x7000 | UInt64(count >> 20),
            0x8000_0000_0000_0000 | UInt64(count & 0xF_FFFF) << 42 | node
        )
    }

    /// The id `bits` as lowercase UUID text.
    package static func text(_ bits: (high: UInt64, low: UInt64)) -> String {
        String(unsafeUninitializedCapacity: 36) { spell(bits, into: $0) }
    }

    /// Calls `body` with the id `bits` as lowercase UUID text in UTF-8, spelled on the stack: no
    /// `String` (36 bytes allocated and validated) for an id that is only bound to an insert.
    package static func withText<Result>(
        _ bits: (high: UInt64, low: UInt64), _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes: 36 fit
        return try withUnsafeMutableBytes(of: &storage) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let count = spell(bits, into: bytes)
            return try body(UnsafeBufferPointer(rebasing: bytes[0..<count]))
        }
    }

    /// Writes the 36 characters of the id `bits` into `buffer` (at least 36 bytes) and returns
    /// their count: eight hexadecimal digits at a time, each group one 64-bit store.
    private static func spell(_ bits: (high: UInt64, low: UInt64), into buffer: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        precondition(buffer.count >= 36)
        let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
        let dash = UInt8(ascii: "-")
        // 8-4-4-4-12, each store eight digits: a later store writes over the tail of an earlier
        // one, and the dashes go over the digits at 8, 13, 18 and 23 last.
        @inline(__always) func store(_ word: UInt64, at offset: Int) {
            raw.storeBytes(of: hexWord(UInt32(truncatingIfNeeded: word)), toByteOffset: offset, as: UInt64.self)
        }
        store(bits.high >> 32, at: 0)  // 0-7: bits 63-32
        store(bits.high, at: 9)  // 9-12: bits 31-16
        store(bits.high << 16, at: 14)  // 14-17: bits 15-0
        store(bits.low >> 32, at: 19)  // 19-22: bits 63-48
        store(bits.low >> 16, at: 24)  // 24-31: bits 47-16
        store(bits.low, at: 28)  // 28-35: bits 31-0
        raw.storeBytes(of: dash, toByteOffset: 8, as: UInt8.self)
        raw.storeBytes(of: dash, toByteOffset: 13, as: UInt8.self)
        raw.storeBytes(of: dash, toByteOffset: 18, as: UInt8.self)
        raw.storeBytes(of: dash, toByteOffset: 23, as: UInt8.self)
        return 36
    }

    /// `word`'s eight hexadecimal digits in lowercase ASCII, most significant first in memory:
    /// each nibble spread into a byte of its own, then the bytes at 10 or more moved up to `a`.
    @inline(__always)
    package static func hexWord(_ word: UInt32) -> UInt64 {
        var spread = UInt64(word)
        spread = (spread | spread << 16) & 0x0000_FFFF_0000_FFFF
        spread = (spread | spread << 8) & 0x00FF_00FF_00FF_00FF
        spread = (spread | spread << 4) & 0x0F0F_0F0F_0F0F_0F0F
        // 1 in each byte whose nibble is 10-15: adding 6 carries it into bit 4.
        let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let ascii = spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
        // The nibbles were spread least significant first: the text wants the most significant.
        return ascii.byteSwapped.littleEndian
    }

    /// A random version 4 UUID in lowercase text (RFC 9562 §5.4): 122 random bits, no time and
    /// nothing derived from any content, so it cannot be linked to anything.
    package static func randomV4(using random: inout some RandomNumberGenerator) -> String {
        var octets: [UInt8] = []
        octets.reserveCapacity(16)
        for _ in 0..<2 { withUnsafeBytes(of: random.next() as UInt64) { octets += $0 } }
        octets[6] = 0x40 | (octets[6] & 0x0F)
        octets[8] = 0x80 | (octets[8] & 0x3F)
        return uuidText(octets)
    }

    /// 16 octets as lowercase UUID text (8-4-4-4-12 hex digits).
    package static func uuidText(_ octets: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, octet) in octets.prefix(16).enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hexDigits[Int(octet >> 4)])
            text.append(hexDigits[Int(octet & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The accepted shape of an event id, as error messages name it.
    package static let uuidShape =
        "a UUID: 8-4-4-4-12 hexadecimal digits, e.g. 019ad3f2-7c41-7a3e-8d21-5f0c3b9e4a17 (any version, either letter case)"

    /// `text` as the store keeps an event id: UUID text in lowercase. UUIDs compare without
    /// regard to letter case (RFC 9562 §4), so every id is lowercased where it enters the store
    /// (imports, client-supplied ids of live writes) and an upper-case copy of a known id is that id.
    /// - Returns: the lowercase text, or `nil` when `text` is not UUID text (``isUUIDText(_:)``).
    package static func normalized(_ text: String) -> String? {
        guard isUUIDText(text) else { return nil }
        // ASCII only (checked above): lowercase the bytes, with no locale or Unicode tables.
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }) else { return text }
        return String(
            decoding: text.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") ? $0 + 0x20 : $0 },
            as: UTF8.self)
    }

    /// Whether `text` is UUID text (RFC 9562 §4): 32 hexadecimal digits in groups of 8-4-4-4-12
    /// separated by hyphens, in either letter case, of any version and variant.
    package static func isUUIDText(_ text: String) -> Bool {
        var count = 0
        for byte in text.utf8 {
            switch count {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                    UInt8(ascii: "A")...UInt8(ascii: "F"):
                    break
                default: return false
                }
            }
            count += 1
            if count > 36 { return false }
        }
        return count == 36
    }
}
