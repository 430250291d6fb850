/// SplitMix64 (https://prng.di.unimi.it/splitmix64.c): a small, fast, seeded generator, so every
/// run of the bench generates the same workloads.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (modulo bias is negligible for the small bounds used here).
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A UUID version 7 text (lowercase) for the time `milliseconds`, shaped as the store's own
    /// event ids (RFC 9562 §5.7: 48 bits of Unix milliseconds first), so that rows written in time
    /// order land next to each other in the `event_id` index, as the store's do.
    mutating func uuidText(milliseconds: Int64) -> String {
        let hi = (UInt64(bitPattern: milliseconds) & 0xFFFF_FFFF_FFFF) << 16 | (next() & 0xFFFF)
        let lo = next()
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        for i in 0..<32 {
            if i == 8 || i == 12 || i == 16 || i == 20 { bytes.append(UInt8(ascii: "-")) }
            var nibble = Int(i < 16 ? (hi >> UInt64(60 - 4 * i)) & 0xF : (lo >> UInt64(60 - 4 * (i - 16))) & 0xF)
            if i == 12 { nibble = 7 }
            if i == 16 { nibble = 8 | (nibble & 3) }
            bytes.append(hex[nibble])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
