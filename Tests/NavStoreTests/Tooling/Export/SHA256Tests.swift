import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("SHA-256 and HMAC-SHA-256")
struct SHA256Tests {
    /// FIPS 180-2 Appendix B examples, the empty message and the 896-bit message of the NIST
    /// examples collection.
    @Test(
        "digests match the FIPS 180-2 test vectors",
        arguments: [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func fipsVectors(message: String, digest: String) {
        #expect(SHA256.hash(Array(message.utf8)).hexText == digest)
    }

    @Test("one million 'a' (FIPS 180-2 B.3), fed in uneven pieces")
    func millionA() {
        var hasher = SHA256()
        var fed = 0
        var piece = 1
        while fed < 1_000_000 {
            let count = min(piece, 1_000_000 - fed)
            hasher.update(repeatElement(UInt8(ascii: "a"), count: count))
            fed += count
            piece = piece * 3 % 997 + 1
        }
        #expect(hasher.finalize().hexText == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(
        "messages around the padding boundary hash the same whole or in pieces",
        arguments: [55, 56, 57, 63, 64, 65, 119, 120, 128])
    func paddingBoundaries(length: Int) {
        let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pieces = SHA256()
        pieces.update(message.prefix(length / 3))
        pieces.update(message.dropFirst(length / 3))
        #expect(pieces.finalize() == SHA256.hash(message))
    }

    /// RFC 4231 §4.2–4.8 (test case 5 is truncated to 128 bits by the RFC).
    @Test(
        "HMAC-SHA-256 matches the RFC 4231 test vectors",
        arguments: [
            (
                Array(repeating: UInt8(0x0b), count: 20), Array("Hi There".utf8),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
            ),
            (
                Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
            ),
            (
                Array(repeating: UInt8(0xaa), count: 20), Array(repeating: UInt8(0xdd), count: 50),
                "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
            ),
            (
                Array(UInt8(1)...UInt8(25)), Array(repeating: UInt8(0xcd), count: 50),
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
            ),
            (
                Array(repeating: UInt8(0x0c), count: 20), Array("Test With Truncation".utf8),
                "a3b6167473100ee06e0c796c2955552b"
            ),
            (
                Array(repeating: UInt8(0xaa), count: 131),
                Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
            ),
            (
                Array(repeating: UInt8(0xaa), count: 131),
                Array(
                    "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                        .utf8),
                "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
            ),
        ])
    func rfc4231(key: [UInt8], data: [UInt8], expected: String) {
        let code = HMACSHA256(key: key).code(for: data).hexText
        #expect(code.hasPrefix(expected))
        #expect(code.count == 64)
    }
}
