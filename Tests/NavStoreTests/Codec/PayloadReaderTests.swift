import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// `PayloadReader` against its reference, Foundation's `JSONDecoder`: on every input the fast
/// path returns the reference's value (the same Unicode scalars, the same JSON when encoded
/// again) or hands the input on (`nil`); it never returns a value where the reference refuses.
@Suite("PayloadReader against JSONDecoder")
struct PayloadReaderTests {
    /// Checks one payload through both paths; returns whether the fast path took it.
    @discardableResult
    static func checkBody(_ type: String, _ bytes: [UInt8], _ context: @autoclosure () -> String = "") -> Bool {
        let fast = bytes.withUnsafeBufferPointer { PayloadReader.body(type: type, payload: $0) }
        guard let fast else { return false }
        let reference = try? EventBody(referenceType: type, payload: bytes)
        #expect(reference == fast, "\(type) \(String(decoding: bytes, as: UTF8.self).prefix(300)) \(context())")
        if let reference {
            #expect((try? fast.encoderJSON()) == (try? reference.encoderJSON()), "\(type) \(context())")
        }
        return true
    }

    @discardableResult
    static func checkState(_ bytes: [UInt8], _ context: @autoclosure () -> String = "") -> Bool {
        let fast = bytes.withUnsafeBufferPointer { PayloadReader.state($0) }
        guard let fast else { return false }
        let reference = try? JSONDecoder().decode(SessionState.self, from: Data(bytes))
        #expect(reference == fast, "\(String(decoding: bytes, as: UTF8.self).prefix(300)) \(context())")
        if let reference {
            #expect(PayloadWriter.json(fast) == PayloadWriter.json(reference), "\(context())")
        }
        return true
    }

    static func checkProjection(_ itemBytes: [UInt8], _ paramsBytes: [UInt8], _ context: @autoclosure () -> String = "")
    {
        if let fast = itemBytes.withUnsafeBufferPointer({ PayloadReader.item($0) }) {
            let reference = try? JSONDecoder().decode(NavigationItem.self, from: Data(itemBytes))
            #expect(reference == fast, "\(String(decoding: itemBytes, as: UTF8.self)) \(context())")
            if let reference { #expect(PayloadWriter.json(fast) == PayloadWriter.json(reference)) }
        }
        if let fast = paramsBytes.withUnsafeBufferPointer({ PayloadReader.params($0) }) {
            let reference = try? JSONDecoder().decode([String: JSONValue].self, from: Data(paramsBytes))
            #expect(reference == fast, "\(String(decoding: paramsBytes, as: UTF8.self).prefix(300)) \(context())")
            if let reference { #expect(PayloadWriter.json(fast) == PayloadWriter.json(reference)) }
        }
    }

    @Test(
        "every payload the writer produces reads back through the fast path as the same value",
        arguments: [11, 12, 13] as [UInt64])
    func writerPayloads(seed: UInt64) throws {
        var taken = 0
        var total = 0
        for body in PayloadWriterTests.randomBodies(seed: seed, count: 400) {
            let text = PayloadWriter.json(body)
            total += 1
            if Self.checkBody(body.type, Array(text.utf8), "seed \(seed)") {
                taken += 1
            } else {
                // Only an event of a tab's stack off screen is handed on (EventPayload.swift).
                #expect(body.tab != nil, "handed on: \(text) (seed \(seed))")
            }
            if body.tab == nil {
                #expect(
                    Array(text.utf8).withUnsafeBufferPointer { PayloadReader.body(type: body.type, payload: $0) }
                        == body)
            }
        }
        #expect(taken > total / 2, "taken \(taken) of \(total), seed \(seed)")
    }

    @Test(
        "every snapshot and projection row the writer produces reads back through the fast path",
        arguments: [14, 15] as [UInt64])
    func writerStates(seed: UInt64) throws {
        var generator = RandomCommands(seed: seed, unusual: true)
        var taken = 0
        var written = 0
        // Until 300 states were written or 3,000 commands drawn: how many states the fast writer
        // takes (it hands on any non-ASCII text) depends on the seed's mix of unusual texts.
        for _ in 0..<3_000 where written < 300 {
            _ = generator.next()
            let state = generator.state
            let text = PayloadWriter.json(state)
            written += 1
            if Self.checkState(Array(text.utf8), "seed \(seed)") { taken += 1 }
            #expect(Array(text.utf8).withUnsafeBufferPointer { PayloadReader.state($0) } == state)
            for entry in state.layers.flatMap(\.entries) {
                Self.checkProjection(
                    Array(PayloadWriter.json(entry.item).utf8),
                    Array((entry.params.flatMap(PayloadWriter.json) ?? "{}").utf8))
            }
        }
        #expect(taken == written && written > 20, "taken \(taken) of \(written) written, seed \(seed)")
    }

    /// Hostile texts: every one must be refused or handed on where the reference refuses, and
    /// read alike where it reads.
    static let hostilePayloads: [(String, String)] = {
        var cases: [(String, String)] = [
            ("entry.pushed", #"{"entry":{"id":"A","id":"B"}}"#),
            ("entry.pushed", #"{"entry":{"id":"A"},"entry":{"id":"B"}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","params":{"k":1,"k":2}}}"#),
            ("entry.pushed", #"{"entry":{"\u0069d":"A"}}"#),
            ("entry.pushed", #"{"entry":{"id":"A\u0000B\/\n\t\"\\\u00e9\u4e2d"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\ud83d\ude00"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\ud83d"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\udc00"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\ud83d\u0041"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\ud83d\ud83d\ude00"}}"#),
            ("entry.pushed", #"{"entry":{"id":"a\uD83D\uDE00b\ud83d\udcec","item":{"title":"\udbff\udfff"}}}"#),
            ("entry.pushed", #"{"entry":{"id":"\ud83dx\ude00"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\ud83d\ude0"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\ude00x"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\x"}}"#),
            ("entry.pushed", #"{"entry":{"id":"\u12"}}"#),
            ("entry.pushed", "{\"entry\":{\"id\":\"a\u{01}b\"}}"),
            (
                "entry.pushed",
                " \n\t{ \"entry\" : { \"id\" : \"A\" , \"route\" : null , \"item\" : null , \"params\" : { } } } \r\n"
            ),
            ("entry.pushed", #"{"entry":{"id":"A"}} x"#),
            ("entry.pushed", #"{"entry":{"id":"A"}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A"},}"#),
            ("entry.pushed", #"{"entry":{"id":"A",}}"#),
            ("entry.pushed", #"{"entry":{"id":null}}"#),
            ("entry.pushed", #"{"entry":{"route":"r"}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","extra":1}}"#),
            ("entry.pushed", #"{"entry":{"id":"A"},"unknown":true}"#),
            ("entry.pushed", #"{"entry":null}"#),
            ("entry.pushed", #"{}"#),
            ("entry.pushed", #"[]"#),
            ("entry.pushed", #""#),
            ("entry.pushed", "\u{FEFF}{\"entry\":{\"id\":\"A\"}}"),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"title":"T","title":"U"}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"leftBarButtonItems":-1}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"leftBarButtonItems":1.0}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"leftBarButtonItems":1e2}}}"#),
            (
                "entry.pushed",
                #"{"entry":{"id":"A","item":{"leftBarButtonItems":3,"style":"editor","backButtonDisplayMode":"minimal"}}}"#
            ),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"style":"nope"}}}"#),
            (
                "entry.pushed",
                #"{"entry":{"id":"A","item":{"style":null,"backButtonDisplayMode":null,"hidesBackButton":null}}}"#
            ),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"popGuard":{}}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"popGuard":{"prompt":"Discard?"}}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"popGuard":{"prompt":null}}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"backBarButtonItem":{"title":null,"image":true}}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"hidesBackButton":1}}}"#),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"hidesBackButton":truex}}}"#),
            ("entries.popped", #"{"ids":["A"],"source":"gesture","confirmed":null}"#),
            ("entries.popped", #"{"ids":["A"],"source":"sideways"}"#),
            ("entries.popped", #"{"ids":[],"source":"gesture"}"#),
            ("entries.popped", #"{"ids":["A",],"source":"gesture"}"#),
            ("entries.popped", #"{"ids":"A","source":"gesture"}"#),
            ("item.updated", #"{"id":"A","item":{},"fields":null}"#),
            ("item.updated", #"{"id":"A","item":null}"#),
            ("item.updated", #"{"id":"A","fields":[]}"#),
            ("session.started", #"{"name":null}"#),
            ("session.started", #"{"name":1}"#),
            ("session.restored", #"{"restoredVersion":3}"#),
            ("session.restored", #"{}"#),
            ("session.restored", #" { } "#),
            ("session.restored", #"{"restoredVersion":0,"attempt":1,"failedVersions":[2,1],"acknowledged":true}"#),
            ("session.restored", #"{"acknowledged":false,"failedVersions":[]}"#),
            ("session.restored", #"{"acknowledged":null}"#),
            ("session.restored", #"{"restoredVersion":-1}"#),
            ("session.restored", #"{"attempt":0}"#),
            ("session.restored", #"{"failedVersions":[3,0]}"#),
            ("session.restored", #"{"failedVersions":null}"#),
            ("session.restored", #"{"attempt":null}"#),
            ("session.restored", #"{"restoredVersion":1.0}"#),
            ("session.restored", #"{"restoredVersion":99999999999999999999}"#),
            ("session.restored", #"{"restoredVersion":3,"restoredVersion":4}"#),
            ("session.restored", #"{"restored":3}"#),
            ("session.restored", #"[]"#),
            (
                "tabs.replaced",
                #"{"tabs":[{"id":"a","reselect":"popToRoot","title":"A"},{"id":"b","reselect":"none"}]}"#
            ),
            ("tabs.replaced", #"{"tabs":[]}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a"}]}"#),
            ("tabs.replaced", #"{"tabs":[{"title":null,"id":""}]}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a","reselect":null}]}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a","reselect":"sometimes"}]}"#),
            ("tabs.replaced", #"{"tabs":[{"reselect":"guarded"}]}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a","id":"b"}]}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a"},]}"#),
            ("tabs.replaced", #"{"tabs":null}"#),
            ("tabs.replaced", #"{}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a"}],"tab":"b"}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"\u00e9","title":"Mail\n"}]}"#),
            ("entry.pushed", #"{"entry":{"id":"A"},"tab":"mail"}"#),
            ("entry.pushed", #"{"tab":"mail","entry":{"id":"A"}}"#),
            ("no.such.type", #"{}"#),
            ("layer.dismissed", #"{"ids":["M"],"source":"back-button"}"#),
            ("dismiss.vetoed", #"{"entry":"M","source":"gesture"}"#),
            ("pop.vetoed", #"{"entry":"M","prompt":"","source":"back-menu"}"#),
            ("pop.cancelled", #"{"entry":"B","source":"gesture"}"#),
            ("pop.cancelled", #"{"source":"content-gesture","entry":"B"}"#),
            ("pop.cancelled", #"{"entry":"B","source":"sideways"}"#),
            ("pop.cancelled", #"{"entry":null,"source":"gesture"}"#),
            ("pop.cancelled", #"{"entry":"B"}"#),
            ("pop.cancelled", #"{"entry":"B","source":"gesture","entry":"C"}"#),
            (
                "layer.updated",
                #"{"fields":["navigationBarHidden"],"layer":0,"modalInPresentation":false,"navigationBarHidden":true}"#
            ),
            (
                "layer.updated",
                #" { "layer" : 2 , "fields" : [ ] , "navigationBarHidden" : false , "modalInPresentation" : true } "#
            ),
            (
                "layer.updated",
                #"{"fields":["navigationBarHidden","modalInPresentation"],"layer":1,"modalInPresentation":true,"navigationBarHidden":true}"#
            ),
            (
                "layer.updated",
                #"{"fields":["toolbarHidden"],"layer":0,"modalInPresentation":false,"navigationBarHidden":true}"#
            ),
            (
                "layer.updated",
                #"{"fields":["navigationBarHidden"],"layer":-1,"modalInPresentation":false,"navigationBarHidden":true}"#
            ),
            (
                "layer.updated",
                #"{"fields":["navigationBarHidden"],"layer":1.0,"modalInPresentation":false,"navigationBarHidden":true}"#
            ),
            (
                "layer.updated",
                #"{"fields":["navigationBarHidden"],"layer":0,"modalInPresentation":null,"navigationBarHidden":true}"#
            ),
            ("layer.updated", #"{"fields":["navigationBarHidden"],"layer":0,"navigationBarHidden":true}"#),
            ("layer.updated", #"{"fields":null,"layer":0,"modalInPresentation":false,"navigationBarHidden":true}"#),
            (
                "layer.updated",
                #"{"fields":["navigationBarHidden",],"layer":0,"modalInPresentation":false,"navigationBarHidden":true}"#
            ),
            (
                "layer.updated",
                #"{"fields":["navigationBarHidden"],"layer":99999999999999999999,"modalInPresentation":false,"navigationBarHidden":true}"#
            ),
        ]
        let numbers = [
            "0", "-0", "1", "-1", "007", "123456789012345678", "-123456789012345678", "1234567890123456789",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615",
            "99999999999999999999999", "1e400", "-1e400", "1e-400", "1.0", "1.5", "1e2", "1E2", "0.1", "-", "1.",
            ".5", "+1", "0x10", "1_000", "NaN", "Infinity", "12a",
            "1.5", "-1.5", "0.5", "-0.5", "-0.0", "0.000", "1.25e1", "12345678901234567.5", "1234567890.1234567",
            "0.30000000000000004", "00.5", "1.5.5", "9007199254740993.0", "0.1234567890123456789",
        ]
        for number in numbers {
            cases.append(("entry.pushed", #"{"entry":{"id":"A","params":{"n":"# + number + "}}}"))
            cases.append(("entry.pushed", #"{"entry":{"id":"A","params":{"n":["# + number + "]}}}"))
        }
        for depth in [1, 50, 99, 100, 101, 125, 126, 127, 128, 129, 200, 511, 512, 513, 2000] {
            cases.append(
                (
                    "entry.pushed",
                    #"{"entry":{"id":"A","params":{"d":"# + String(repeating: "[", count: depth)
                        + String(repeating: "]", count: depth) + "}}}"
                ))
            cases.append(
                (
                    "entry.pushed",
                    #"{"entry":{"id":"A","params":"# + String(repeating: #"{"k":"#, count: depth) + "1"
                        + String(repeating: "}", count: depth) + "}}"
                ))
        }
        return cases
    }()

    @Test("hostile payloads: escapes, duplicate keys, numbers, nesting, whitespace, nulls")
    func hostile() {
        var taken = 0
        for (type, text) in Self.hostilePayloads where Self.checkBody(type, Array(text.utf8)) { taken += 1 }
        #expect(taken > 20, "the fast path takes the ordinary ones")
    }

    @Test(
        "session.restored and tabs.replaced are read fast as the reference reads them; a value it refuses is handed on")
    func restoreMarkersAndTabs() {
        let taken = [
            ("session.restored", #"{}"#),
            ("session.restored", #"{"acknowledged":true,"attempt":2,"failedVersions":[9,3],"restoredVersion":0}"#),
            ("session.restored", #"{"acknowledged":null,"restoredVersion":7}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a","reselect":"guarded","title":""},{"id":"b"}]}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a","title":null}]}"#),
            ("tabs.replaced", #"{"tabs":[]}"#),
        ]
        for (type, text) in taken {
            #expect(Self.checkBody(type, Array(text.utf8)), "\(text): handed on")
        }
        let refused = [
            ("session.restored", #"{"restoredVersion":-1}"#),
            ("session.restored", #"{"attempt":0}"#),
            ("session.restored", #"{"failedVersions":[3,0]}"#),
            ("tabs.replaced", #"{"tabs":[{"title":"A"}]}"#),
            ("tabs.replaced", #"{"tabs":[{"id":"a","reselect":"sometimes"}]}"#),
        ]
        for (type, text) in refused {
            #expect(!Self.checkBody(type, Array(text.utf8)), "\(text): taken")
            #expect(throws: NavigationError.self) { try EventBody(type: type, payload: Array(text.utf8)) }
        }
    }

    @Test("plain params stay JSON text until asked for, and read as the reference reads them")
    func paramsKeptAsText() throws {
        let cases: [(params: String, plain: Bool)] = [
            (#"{"id":12,"ref":"home-feed","tab":"shop"}"#, true),
            (#"{ "a" : [1, -2.5, true, false, null, {"b": [[]]}], "c": {}, "d": "x y" }"#, true),
            (#"{}"#, true),
            (#"{"b":1,"a":[true,null,"x"],"ab":{"z":-3,"y":[]}}"#, true),
            (#"{"a":1.5,"b":{}}"#, true),
            (#"{"a":{"c":1,"d":"two words"},"b":[]}"#, true),
            (#"{"\u00e9":1}"#, false),
            (#"{"a":"line\nbreak"}"#, false),
            (#"{"a":"日本"}"#, false),
            (#"{"é":{"a":1}}"#, false),
            (#"{"a":{"b":1,"b":2}}"#, false),
            (#"{"a":"x y","b":1}"#, true),
            (#"{"b":1,"a":2}"#, true),
            (#"{"a":1,"b":2,"a":3}"#, false),
            (#"{"b":1,"a":2,"b":3}"#, false),
            (#"{"a":{"b":1},"c":[1, 2]}"#, true),
            (#"{"a":"\#t1"}"#, false),
            ("{\"a\":\t1}", true),
            (#"{"abcdefgh":"ijklmnopqrstuvwx","abcdefgi":""q"}"#, false),
            (#"{"abcdefgh":"ijklmnopqrstuvwxyz0123456789","k":[true,null]}"#, true),
        ]
        for (params, plain) in cases {
            let payload = Array(#"{"entry":{"id":"A","params":\#(params)}}"#.utf8)
            let reference = try? JSONDecoder().decode([String: JSONValue].self, from: Data(params.utf8))
            let body = payload.withUnsafeBufferPointer { PayloadReader.body(type: "entry.pushed", payload: $0) }
            guard case .entryPushed(let entry)? = body else {
                #expect(!plain, "\(params): the fast path took it")
                continue
            }
            Self.checkBody("entry.pushed", payload)
            if case .text(let text, let isCanonical) = entry.storedParams {
                #expect(plain, "\(params) kept as text")
                #expect(text == params)
                let written = reference.flatMap { PayloadWriter.json($0) }
                #expect(isCanonical == (written == params), "\(params): canonical is what the writer writes")
            } else {
                #expect(!plain, "\(params) decoded at once")
            }
            #expect(entry.params == reference, "\(params)")
            var copy = entry
            copy.params = reference
            #expect(copy == entry && copy.hashValue == entry.hashValue, "\(params)")
        }
    }

    @Test("invalid UTF-8 in strings and keys is handed to the reference")
    func invalidUTF8() {
        let sequences: [[UInt8]] = [
            [0xFF], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
        ]
        for bad in sequences {
            let prefix = Array(#"{"entry":{"id":"A"#.utf8)
            let suffix = Array(#""}}"#.utf8)
            let bytes = prefix + bad + suffix
            #expect(
                bytes.withUnsafeBufferPointer { PayloadReader.body(type: "entry.pushed", payload: $0) } == nil, "\(bad)"
            )
            Self.checkBody(
                "entry.pushed", Array(#"{"entry":{"id":"A","params":{""#.utf8) + bad + Array(#"":1}}}"#.utf8))
        }
        // Valid multi-byte text is read, not handed on.
        #expect(Self.checkBody("entry.pushed", Array(#"{"entry":{"id":"é中😀"}}"#.utf8)))
    }

    @Test("fuzzed payloads, snapshots and projection rows: the fast path agrees or hands on (200 seeds)")
    func fuzzed() throws {
        let alphabet = Array(#"{}[]:,"\ nul tr fa e0129-.+Eu/"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
        for seed in 1...200 as ClosedRange<UInt64> {
            var random = SplitMix(seed: seed)
            let bodies = PayloadWriterTests.randomBodies(seed: seed, count: 8)
            var generator = RandomCommands(seed: seed &+ 1000, unusual: true)
            for _ in 0..<20 { _ = generator.next() }
            var texts = bodies.map { ($0.type, Array(PayloadWriter.json($0).utf8)) }
            texts.append(("state", Array(PayloadWriter.json(generator.state).utf8)))
            for (type, original) in texts {
                for _ in 0..<6 {
                    var bytes = original
                    for _ in 0..<(1 + Int(random.next() % 3)) {
                        let position = Int(random.next() % UInt64(bytes.count + 1))
                        switch random.next() % 4 {
                        case 0: if position < bytes.count { bytes.remove(at: position) }
                        case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                        case 2:
                            if position < bytes.count {
                                bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                            }
                        default:
                            // Repeat a slice: duplicate keys, members and nesting.
                            let end = min(bytes.count, position + Int(random.next() % 24))
                            bytes.insert(contentsOf: bytes[position..<end], at: position)
                        }
                    }
                    let context =
                        "seed \(seed): \(type) mutated; reproduce: swift test --filter PayloadReaderTests/fuzzed"
                    if type == "state" {
                        Self.checkState(bytes, context)
                    } else {
                        Self.checkBody(type, bytes, context)
                        Self.checkProjection(bytes, bytes, context)
                    }
                }
            }
        }
    }

    @Test("the store reads its own events, snapshots and projection through the fast path with the same results")
    func storeRoundTrip() throws {
        let directory = try TemporaryDirectory(prefix: "payload-reader")
        let store = try NavigationStore(
            path: directory.path("store.sqlite"), options: fastOptions(snapshotInterval: 8))
        var generator = RandomCommands(seed: 77, unusual: true)
        try store.startSession("s", at: 1_767_225_600_000)
        var states: [SessionState] = [SessionState()]
        for _ in 0..<120 {
            let (command, body) = generator.next()
            _ = command
            try store.append(contentsOf: [command], session: "s")
            states.append(SessionState.fold([body], from: states.last!))
        }
        for version in stride(from: 1, through: 121, by: 7) {
            #expect(
                try store.state(session: "s", at: .version(version)).state == states[version - 1], "version \(version)")
        }
        #expect(try store.state(session: "s").state == states.last!)
    }
}

/// A small seeded generator for the fuzzer (SplitMix64).
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
