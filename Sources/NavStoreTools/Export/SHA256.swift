import NavStore

/// SHA-256 (FIPS 180-4, https://csrc.nist.gov/pubs/fips/180-4/upd1/final), for redaction hashes
/// and deterministic import ids: Foundation on Linux has no CryptoKit, and the package uses no
/// outside libraries. Checked against the FIPS 180-2 example vectors in `SHA256Tests`.
///
/// Feed bytes with ``update(_:)`` any number of times, then call ``finalize()`` once.
struct SHA256 {
    /// The digest length in bytes.
    static let byteCount = 32
    /// The block length in bytes (what HMAC pads keys to).
    static let blockByteCount = 64

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    /// Bytes not yet processed (less than one block).
    private var buffer: [UInt8] = []
    /// Bytes already compressed, in whole blocks.
    private var counted: UInt64 = 0
    /// The message schedule, reused for every block.
    private var schedule = [UInt32](repeating: 0, count: 64)

    /// A hasher with nothing fed yet.
    init() {
        buffer.reserveCapacity(Self.blockByteCount)
    }

    /// The digest of `message` in one call.
    static func hash(_ message: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(message)
        return hasher.finalize()
    }

    /// The first 16 bytes of `digest` as a version 8 UUID in lowercase text (RFC 9562 §5.8: the
    /// version and variant bits set, the rest the digest's): the deterministic event ids of the
    /// Firefox session and trace imports.
    static func uuidVersion8(_ digest: [UInt8]) -> String {
        var octets = Array(digest.prefix(16))
        octets[6] = 0x80 | (octets[6] & 0x0F)
        octets[8] = 0x80 | (octets[8] & 0x3F)
        return EventIDGenerator.uuidText(octets)
    }

    /// `digest` in lowercase hexadecimal, two digits a byte.
    static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(digest.count * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Feeds more message bytes.
    /// - Complexity: O(n) in the number of bytes.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        // Contiguous bytes (a native string's UTF-8, an array) are copied a block at a time.
        let copied: Void? = bytes.withContiguousStorageIfAvailable { chunk in
            var rest = chunk[...]
            while !rest.isEmpty {
                let take = min(Self.blockByteCount - buffer.count, rest.count)
                buffer.append(contentsOf: rest.prefix(take))
                rest = rest.dropFirst(take)
                if buffer.count == Self.blockByteCount {
                    processBlock()
                    buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        if copied != nil { return }
        for byte in bytes {
            buffer.append(byte)
            if buffer.count == Self.blockByteCount {
                processBlock()
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    /// Pads the message (a 1 bit, zeros, the 64-bit big-endian bit length) and returns the
    /// 32-byte digest. The hasher must not be used afterwards.
    mutating func finalize() -> [UInt8] {
        let messageBits = (counted &+ UInt64(buffer.count)) &* 8
        buffer.append(0x80)
        if buffer.count > Self.blockByteCount - 8 {
            while buffer.count < Self.blockByteCount { buffer.append(0) }
            processBlock()
            buffer.removeAll(keepingCapacity: true)
        }
        while buffer.count < Self.blockByteCount - 8 { buffer.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            buffer.append(UInt8(truncatingIfNeeded: messageBits >> UInt64(shift)))
        }
        processBlock()
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.byteCount)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    @inline(__always)
    private static func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// Compresses the 64 bytes in `buffer` into `state` (FIPS 180-4 §6.2.2).
    private mutating func processBlock() {
        counted &+= UInt64(Self.blockByteCount)
        for i in 0..<16 {
            let j = i * 4
            schedule[i] =
                UInt32(buffer[j]) << 24 | UInt32(buffer[j + 1]) << 16 | UInt32(buffer[j + 2]) << 8
                | UInt32(buffer[j + 3])
        }
        for i in 16..<64 {
            let w15 = schedule[i - 15]
            let w2 = schedule[i - 2]
            let s0 = Self.rotateRight(w15, 7) ^ Self.rotateRight(w15, 18) ^ (w15 >> 3)
            let s1 = Self.rotateRight(w2, 17) ^ Self.rotateRight(w2, 19) ^ (w2 >> 10)
            schedule[i] = schedule[i - 16] &+ s0 &+ schedule[i - 7] &+ s1
        }
        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        for i in 0..<64 {
            let s1 = Self.rotateRight(e, 6) ^ Self.rotateRight(e, 11) ^ Self.rotateRight(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ Self.roundConstants[i] &+ schedule[i]
            let s0 = Self.rotateRight(a, 2) ^ Self.rotateRight(a, 13) ^ Self.rotateRight(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            h = g
            g = f
            f = e
            e = d &+ t1
            d = c
            c = b
            b = a
            a = t1 &+ t2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
    }
}

/// HMAC-SHA-256 (RFC 2104, https://www.rfc-editor.org/rfc/rfc2104), checked against the
/// RFC 4231 test vectors in `SHA256Tests`: keyed hashes for `export --redact`, so that equal texts
/// hash equally within one export while a hash cannot be looked up in a table of common words.
struct HMACSHA256 {
    private let innerPad: [UInt8]
    private let outerPad: [UInt8]

    /// Prepares the pads for `key` (hashed first when longer than a block, as RFC 2104 says).
    init(key: some Collection<UInt8>) {
        var block = key.count > SHA256.blockByteCount ? SHA256.hash(key) : Array(key)
        block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
        innerPad = block.map { $0 ^ 0x36 }
        outerPad = block.map { $0 ^ 0x5c }
    }

    /// The 32-byte authentication code of `message`.
    func code(for message: some Sequence<UInt8>) -> [UInt8] {
        var inner = SHA256()
        inner.update(innerPad)
        inner.update(message)
        var outer = SHA256()
        outer.update(outerPad)
        outer.update(inner.finalize())
        return outer.finalize()
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal text, two digits per byte.
    var hexText: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
