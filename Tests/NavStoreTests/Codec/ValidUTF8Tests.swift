import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// `String(validUTF8:)`, NavStore's replacement for `String(validating:as:)` (iOS 18): the text of
/// well-formed UTF-8, `nil` for anything else (Unicode 15, §3.9, table 3-7 of well-formed byte
/// sequences), never a replacement character.
@Suite struct ValidUTF8Tests {
    static func text(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { String(validUTF8: $0) }
    }

    @Test(
        "well-formed UTF-8 reads back byte for byte",
        arguments: [
            [], Array("plain ASCII".utf8), Array("Zurück · 戻る · 🇯🇵".utf8), [0x00], [0xEF, 0xBB, 0xBF, 0x41],
            [0xEF, 0xBF, 0xBD], [0xF4, 0x8F, 0xBF, 0xBF], [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80],
            [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80], [0xC2, 0x80], [0xDF, 0xBF],
        ] as [[UInt8]])
    func wellFormed(bytes: [UInt8]) throws {
        let text = try #require(Self.text(bytes))
        #expect(Array(text.utf8) == bytes)
    }

    @Test(
        "ill-formed UTF-8 is refused, also where the replacement would have the same length",
        arguments: [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE],
            [0xC2], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x41, 0xF0, 0x9F, 0x98, 0x41], [0xF1, 0x80, 0x80],
            [0xE1, 0x80, 0x41, 0x42], Array("ok".utf8) + [0xC3],
        ] as [[UInt8]])
    func illFormed(bytes: [UInt8]) {
        #expect(Self.text(bytes) == nil)
    }

    @Test("agrees with the standard library's String(validating:as:) on random bytes", arguments: 0..<16)
    func agreesWithStandardLibrary(seed: UInt64) {
        guard #available(macOS 15, iOS 18, tvOS 18, visionOS 2, *) else { return }
        var rng = SplitMix64(seed: seed)
        // Mostly well-formed text with a few random bytes in it: both outcomes occur often.
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), Array("戻".utf8), Array("🙂".utf8), [0x80], [0xC3], [0xED, 0xA0],
            [0xF4, 0x90], [0xE2, 0x82], [0xFF], [0x00],
        ]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                bytes +=
                    Int.random(in: 0..<4, using: &rng) == 0
                    ? [UInt8.random(in: 0...255, using: &rng)] : pieces.randomElement(using: &rng)!
            }
            let expected = bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
            #expect(Self.text(bytes) == expected, "bytes \(bytes)")
        }
    }
}
