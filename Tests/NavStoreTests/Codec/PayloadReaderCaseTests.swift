import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The stored names `PayloadReader` matches on their bytes (event types, pop and dismiss sources,
/// platform generations) against the reference, which makes a `String` of them first and asks
/// the enum's `init(rawValue:)`.
@Suite("PayloadReader's byte-matched names against JSONDecoder")
struct PayloadReaderCaseTests {
    /// Every stored name, with the table that matches it.
    static var names: [(name: String, matches: (String) -> Bool)] {
        let kinds = EventBody.Kind.allCases.map { kind in
            (kind.rawValue, { (text: String) in PayloadReader.kinds.value(named: text) == kind })
        }
        let pops = PopSource.allCases.map { source in
            (source.rawValue, { (text: String) in PayloadReader.popSources.value(named: text) == source })
        }
        let dismissals = DismissSource.allCases.map { source in
            (source.rawValue, { (text: String) in PayloadReader.dismissSources.value(named: text) == source })
        }
        let platforms = PlatformGeneration.allCases.map { platform in
            (platform.rawValue, { (text: String) in PayloadReader.platforms.value(named: text) == platform })
        }
        return kinds + pops + dismissals + platforms
    }

    /// Spellings of `name` that are not `name`'s bytes: each is no case for the byte match.
    static func variants(of name: String) -> [String] {
        let spellings = [
            name.uppercased(), " " + name, name + " ", name + "\u{0}", String(name.dropLast()), name + name,
            name.replacingOccurrences(of: "e", with: "e\u{301}"), name.replacingOccurrences(of: "e", with: "\u{E9}"),
            String(name.unicodeScalars.map { $0.isASCII ? Character(Unicode.Scalar($0.value + 0xFEE0)!) : "?" }),
            name.replacingOccurrences(of: "-", with: "\u{2010}"), "\u{212A}" + name, "",
        ]
        // One byte changed at each position, the length kept: names of 8 to 16 bytes are
        // compared as two words (their first and last 8 bytes), which must cover every byte.
        let bytes = Array(name.utf8)
        let oneByteOff = bytes.indices.map { position in
            var changed = bytes
            changed[position] = changed[position] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
            return String(decoding: changed, as: UTF8.self)
        }
        return (spellings + oneByteOff).filter { $0.utf8.elementsEqual(name.utf8) == false }
    }

    @Test("the names are ASCII letters, digits, '-' and '.', so matching bytes is matching strings")
    func namesAreASCII() {
        for (name, matches) in Self.names {
            #expect(
                !name.isEmpty
                    && name.utf8.allSatisfy { $0.isLowercaseASCIILetter || $0.isASCIIDigit || $0 == 0x2D || $0 == 0x2E },
                "\(name)")
            #expect(matches(name), "\(name)")
            for variant in Self.variants(of: name) {
                #expect(!matches(variant), "\(variant.debugDescription) matched as \(name)")
            }
        }
    }

    @Test("a source or platform that is no case, or is spelled with escapes, is read by the reference")
    func sourcesAndPlatforms() throws {
        var spellings: [String] = []
        for (name, _) in Self.names {
            spellings.append(name)
            spellings += Self.variants(of: name).map {
                String(decoding: try! JSONEncoder().encode($0), as: UTF8.self).dropFirst().dropLast()
            }.map(String.init)
            // The same name with its first letter escaped: the reference reads it as the name.
            let scalars = Array(name.unicodeScalars)
            spellings.append(
                String(format: "\\u%04x", scalars[0].value) + String(String.UnicodeScalarView(scalars.dropFirst())))
        }
        var taken = 0
        for text in spellings {
            let payloads: [(String, String)] = [
                ("entries.popped", #"{"ids":["A"],"source":"\#(text)"}"#),
                ("pop.vetoed", #"{"entry":"A","prompt":"P","source":"\#(text)"}"#),
                ("layer.dismissed", #"{"ids":["M"],"source":"\#(text)"}"#),
                ("dismiss.vetoed", #"{"entry":"M","source":"\#(text)"}"#),
                ("session.started", #"{"name":"n","platform":"\#(text)"}"#),
            ]
            for (type, payload) in payloads where PayloadReaderTests.checkBody(type, Array(payload.utf8), text) {
                taken += 1
            }
        }
        #expect(taken >= 5, "the fast path takes the names themselves")
    }

    @Test("an event read from the bytes of its type and payload is the one read from a String and Data (200 seeds)")
    func bytesAndStrings() throws {
        for seed in 1...200 as ClosedRange<UInt64> {
            for body in PayloadWriterTests.randomBodies(seed: seed, count: 12) {
                let payload = Array(PayloadWriter.json(body).utf8)
                for type in [body.type, "entry.pushed", "no.such.type", "Entry.Pushed", "entry.pushed ", ""] {
                    let fromString = Result { () throws(NavigationError) in
                        try EventBody(type: type, payload: Data(payload))
                    }
                    let fromBytes = Array(type.utf8).withUnsafeBytes { typeBytes in
                        payload.withUnsafeBytes { payloadBytes in
                            Result { () throws(NavigationError) in try EventBody(type: typeBytes, payload: payloadBytes)
                            }
                        }
                    }
                    let fromStringAndBytes = payload.withUnsafeBytes { payloadBytes in
                        Result { () throws(NavigationError) in try EventBody(type: type, payload: payloadBytes) }
                    }
                    let context =
                        "seed \(seed), type '\(type)', payload \(String(decoding: payload, as: UTF8.self).prefix(200)); reproduce: swift test --filter PayloadReaderCaseTests/bytesAndStrings"
                    #expect(Self.same(fromBytes, fromString), "\(context)")
                    #expect(Self.same(fromStringAndBytes, fromString), "\(context)")
                    if type == body.type { #expect((try? fromBytes.get()) == body, "\(context)") }
                }
            }
        }
    }

    /// The same event, or the same error message.
    static func same(_ a: Result<EventBody, NavigationError>, _ b: Result<EventBody, NavigationError>) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y
        case (.failure(let x), .failure(let y)): x.description == y.description
        default: false
        }
    }
}

extension UInt8 {
    fileprivate var isLowercaseASCIILetter: Bool { self >= 0x61 && self <= 0x7A }
    fileprivate var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
}
