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
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
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

    /// Feeds more message bytes.
    /// - Complexity: O(n) in the number of bytes.
    mutating func update(_ bytes: some Sequence<UInt8>) {
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
            schedule[i] = UInt32(buffer[j]) << 24 | UInt32(buffer[j + 1]) << 16 | UInt32(buffer[j + 2]) << 8 | UInt32(buffer[j + 3])
        }
        for i in 16..<64 {
            let w15 = schedule[i - 15], w2 = schedule[i - 2]
            let s0 = Self.rotateRight(w15, 7) ^ Self.rotateRight(w15, 18) ^ (w15 >> 3)
            let s1 = Self.rotateRight(w2, 17) ^ Self.rotateRight(w2, 19) ^ (w2 >> 10)
            schedule[i] = schedule[i - 16] &+ s0 &+ schedule[i - 7] &+ s1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for i in 0..<64 {
            let s1 = Self.rotateRight(e, 6) ^ Self.rotateRight(e, 11) ^ Self.rotateRight(e, 25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ s1 &+ choice &+ Self.roundConstants[i] &+ schedule[i]
            let s0 = Self.rotateRight(a, 2) ^ Self.rotateRight(a, 13) ^ Self.rotateRight(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ majority
            h = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
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
