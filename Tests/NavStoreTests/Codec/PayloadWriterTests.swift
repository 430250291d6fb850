import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("PayloadWriter and event ids")
struct PayloadWriterTests {
    /// Random bodies of every type, with unusual text, nil and "" in every field.
    static func randomBodies(seed: UInt64, count: Int) -> [EventBody] {
        var generator = RandomCommands(seed: seed, unusual: true)
        var bodies: [EventBody] = [
            .sessionStarted(name: nil), .sessionStarted(name: ""), .sessionStarted(name: "Mail ✉️"),
            .sessionRestored(RestoreMarker()),
            .sessionRestored(RestoreMarker(restoredVersion: 0, attempt: 2, failedVersions: [9, 3])),
            .sessionRestored(RestoreMarker(restoredVersion: 12, acknowledged: true)),
        ]
        for _ in 0..<count { bodies.append(generator.next().body) }
        // A few shapes the rules rarely draw.
        bodies.append(.entriesPopped(source: .backButton, ids: ["A"], confirmed: true))
        bodies.append(.itemUpdated(id: "A", item: NavigationItem(), fields: []))
        bodies.append(.layerPresented(Entry(id: "M", params: [:]), modalInPresentation: true))
        bodies.append(.layerUpdated(layer: 0, navigationBarHidden: true, modalInPresentation: false, fields: []))
        bodies.append(
            .layerUpdated(
                layer: 3, navigationBarHidden: false, modalInPresentation: true,
                fields: [.navigationBarHidden, .modalInPresentation]))
        bodies.append(.popCancelled(entry: "é\u{0}\"", source: .contentGesture))
        // A recorder's facts: an observed replacement (of the top layer, of layer 0) and dropped calls.
        bodies.append(
            .stackReplaced(
                [Entry(id: "A", item: NavigationItem(title: "\u{1F}\"é/"))],
                observed: StackObservation(reason: "cannot pop 'B' \"by\" gesture\n")))
        bodies.append(.stackReplaced([Entry(id: "A")], observed: StackObservation(reason: "", layer: 0)))
        bodies.append(.callsDropped(count: 1, firstAt: -5, lastAt: 1_767_225_600_999))
        bodies.append(
            .entryPushed(
                Entry(id: "P", params: ["b": .integer(-5), "a": .array([]), "B": .object([:]), "é": .string("\u{1F}")]))
        )
        return bodies
    }

    @Test("payloads are byte for byte what JSONEncoder writes", arguments: [1, 2, 3] as [UInt64])
    func sameBytesAsJSONEncoder(seed: UInt64) throws {
        var checked = 0
        for body in Self.randomBodies(seed: seed, count: 400) {
            let fast = PayloadWriter.json(body)
            #expect(fast == (try body.encoderJSON()), "\(body.type)")
            #expect(try EventBody(type: body.type, payload: Array(fast.utf8)) == body)
            checked += 1
        }
        #expect(checked > 300)
    }

    @Test("snapshots and projection rows are byte for byte what JSONEncoder writes", arguments: [4, 5] as [UInt64])
    func statesSameBytesAsJSONEncoder(seed: UInt64) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var generator = RandomCommands(seed: seed, unusual: true)
        var checked = 0
        for _ in 0..<300 {
            _ = generator.next()
            let state = generator.state
            let fast = PayloadWriter.json(state)
            #expect(fast == String(decoding: try encoder.encode(state), as: UTF8.self))
            #expect(try JSONDecoder().decode(SessionState.self, from: Data(fast.utf8)) == state)
            for entry in state.layers.flatMap(\.entries) {
                #expect(
                    PayloadWriter.json(entry.item) == String(decoding: try encoder.encode(entry.item), as: UTF8.self))
                if let params = entry.params, case let text = PayloadWriter.json(params) {
                    #expect(text == String(decoding: try encoder.encode(params), as: UTF8.self))
                }
            }
            checked += 1
        }
        #expect(checked > 50, "states without a non-integer param number, which the writer leaves to JSONEncoder")
    }

    @Test("export lines are byte for byte EventRecord.jsonLine()")
    func sameLinesAsEventRecord() throws {
        for (index, body) in Self.randomBodies(seed: 9, count: 200).enumerated() {
            let event = Event(
                seq: Int64(index + 1), session: "s \"q\" 🧭", version: index + 1, at: 1_700_000_000_123 + Int64(index),
                eventID: "id-\(index)", body: body)
            let line = PayloadWriter.recordLine(event)
            #expect(line == (try EventRecord(event).jsonLine()))
        }
    }

    /// Text that exercises every escape and none: every control character, quotes and backslashes
    /// at both ends, DEL, emoji, CJK, combining marks, 10,000 characters.
    static let edgeTexts: [String] =
        ["", " ", "\"", "\\", "\"\\\"", "/", "\u{7F}", "e\u{301}", "🧭👩‍👩‍👧‍👦", "日本語のタイトル", "a\"b\\c\nd"]
        + (0..<0x20).map { "<\(String(UnicodeScalar(UInt8($0))))>" }
        + [String((0..<0x20).map { Character(UnicodeScalar(UInt8($0))) }), String(repeating: "🧭x\n", count: 3_334)]

    /// Bodies that carry each edge text in every text field, nil and "" included, and params whose
    /// keys sort by their bytes (upper case, prefixes, non-ASCII) and whose integers are at the limits.
    static func edgeBodies() -> [EventBody] {
        var bodies: [EventBody] = []
        for (index, text) in edgeTexts.enumerated() {
            let item = NavigationItem(
                title: text, backButtonTitle: index % 2 == 0 ? nil : text,
                backBarButtonItem: index % 3 == 0 ? BackBarButtonItem(title: text) : nil, menuTitle: text,
                popGuard: PopGuard(prompt: text))
            let params: [String: JSONValue] = [
                text: .string(text), "a": .integer(.min), "ab": .integer(.max), "B": .integer(0), "ü": .integer(-1),
                "🧭": .array([.null, .bool(true), .string(text)]), "Z": .object(["y": .integer(10), "x": .string("")]),
            ]
            let entry = Entry(id: "id \(text)", route: text, params: params, item: item)
            bodies += [
                .entryPushed(entry), .layerPresented(entry, modalInPresentation: index % 2 == 0),
                .stackReplaced([entry, Entry(id: "plain")]), .sessionStarted(name: text),
                .popVetoed(entry: text, prompt: text, source: .backButton),
                .itemUpdated(id: text, item: item, fields: ["title", text]),
                .entriesPopped(source: .gesture, ids: [text, ""], confirmed: false),
                .layerDismissed(source: .programmatic, ids: [text]), .dismissVetoed(entry: text, source: .gesture),
                .popCancelled(entry: text, source: .gesture),
            ]
        }
        return bodies
    }

    @Test("edge text in every field: the payload written into a reused buffer is JSONEncoder's and reads back")
    func edgeTextInReusedBuffer() throws {
        let buffer = PayloadBytes(capacity: 16)
        // Longest first, so that every later payload is written over a longer one.
        let bodies = try Self.edgeBodies().map { ($0, try $0.encoderJSON()) }.sorted {
            $0.1.utf8.count > $1.1.utf8.count
        }
        for (body, reference) in bodies {
            let written = PayloadWriter.withPayload(body, in: buffer) {
                String(decoding: $0, as: UTF8.self)
            }
            #expect(written == reference, "\(body.type)")
            #expect(PayloadWriter.json(body) == reference)
            #expect(try EventBody(type: body.type, payload: Array(reference.utf8)) == body)
        }
        let entries = Self.edgeBodies().compactMap { body -> Entry? in
            if case .entryPushed(let entry) = body { return entry }
            return nil
        }
        let state = SessionState(layers: [Layer(entries: entries), Layer(entries: entries, modalInPresentation: true)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(PayloadWriter.json(state) == String(decoding: try encoder.encode(state), as: UTF8.self))
    }

    @Test("the eight-byte escape test agrees with the byte test for every byte in every position")
    func wordEscapeTest() {
        func byteNeedsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }
        var random = SeededGenerator(seed: 16)
        for filler in [UInt8(ascii: "a"), 0x20, 0x7F, 0x80, 0xFF, 0x21, 0x23, 0x5B, 0x5D] {
            for position in 0..<8 {
                for byte in UInt8.min...UInt8.max {
                    var word = [UInt8](repeating: filler, count: 8)
                    word[position] = byte
                    // Random other bytes that need no escape, so carries from neighbours are covered.
                    for other in 0..<8 where other != position && Bool.random(using: &random) {
                        word[other] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xC3, 0xFF].randomElement(
                            using: &random)!
                    }
                    let value = word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                    #expect(PayloadWriter.needsEscape(value) == word.contains(where: byteNeedsEscape), "\(word)")
                }
            }
        }
    }

    @Test("the escape scan of a whole text finds one byte that needs it at every position of every length to 40")
    func textEscapeScan() {
        for count in 0...40 {
            for filler in [UInt8(ascii: "a"), 0x20, 0x7F, 0xC3] {
                var text = [UInt8](repeating: filler, count: count)
                text.withUnsafeBufferPointer { #expect(!PayloadWriter.needsEscape($0), "\(count) bytes of \(filler)") }
                for position in 0..<count {
                    for byte: UInt8 in [0x00, 0x1F, 0x22, 0x5C, 0x0A] {
                        text[position] = byte
                        text.withUnsafeBufferPointer {
                            #expect(PayloadWriter.needsEscape($0), "\(byte) at \(position) of \(count)")
                        }
                        text[position] = filler
                    }
                }
                // Written as a JSON string: JSONEncoder's bytes, quotes around the text.
                let string = String(decoding: text, as: UTF8.self) + "\"" + String(decoding: text, as: UTF8.self)
                var writer = PayloadWriter()
                writer.string(string)
                #expect(writer.text == String(decoding: try! JSONEncoder().encode(string), as: UTF8.self))
            }
        }
    }

    @Test("edge text through the append path: state, history, projection, snapshots and check agree with the values")
    func edgeTextThroughAppends() throws {
        let dir = try TemporaryDirectory()
        var options = StoreOptions()
        options.snapshotInterval = 2
        let store = try makeStore(dir, options: options)
        try store.startSession("s")
        let entries = Self.edgeBodies().compactMap { body -> Entry? in
            if case .entryPushed(let entry) = body { return entry }
            return nil
        }
        let result = try store.append(contentsOf: entries.dropLast().map { .push($0) }, session: "s")
        let last = try #require(entries.last)
        try store.execute(.present(last), session: "s")
        #expect(result.event?.body == .entryPushed(entries[entries.count - 2]))
        let state = try store.state(session: "s").state
        #expect(state.layers.flatMap(\.entries) == entries)
        for version in [2, 9, 20] {
            let past = try store.state(session: "s", at: .version(version)).state
            #expect(past.topLayer.entries == Array(entries.prefix(version - 1)))
        }
        let bodies =
            entries.dropLast().map { EventBody.entryPushed($0) } + [.layerPresented(last, modalInPresentation: false)]
        #expect(try store.allEvents().dropFirst().map(\.body) == bodies)
        #expect(try store.check().isClean)
        #expect(try store.rebuild(verify: true).differences.isEmpty)
    }

    @Test("integers are written in decimal at every magnitude, Int64.min and max included")
    func integers() {
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power, power - 1, -power, 1 - power]
        }
        for value in values {
            var writer = PayloadWriter()
            writer.integer(value)
            #expect(writer.text == String(value))
        }
    }

    @Test(
        "a non-integer number in params is written by the store's own writer: shortest round-trip text, no trailing .0")
    func numbersAreWrittenHere() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let numbers: [(Double, String)] = [
            (1.5, "1.5"), (0.1, "0.1"), (-0.1, "-0.1"), (1e-05, "1e-05"), (1e20, "1e+20"), (3e20, "3e+20"),
            (12.5, "12.5"), (1.0 / 3, "0.3333333333333333"), (2e-308, "2e-308"),
            (
                .greatestFiniteMagnitude,
                "1.7976931348623157e+308"
            ), (.leastNonzeroMagnitude, "5e-324"), (9.223372036854776e18, "9.223372036854776e+18"),
            (123456789012345.67, "123456789012345.67"), (1e16, "1e+16"), (-2.5e-7, "-2.5e-07"),
        ]
        for (number, text) in numbers {
            var writer = PayloadWriter()
            writer.number(number)
            #expect(writer.text == text, "\(number)")
            // swift-foundation's JSONEncoder, the reference, writes the same; it reads back exact.
            #expect(String(decoding: try encoder.encode([number]), as: UTF8.self) == "[\(text)]")
            #expect(Double(text) == number)
        }
        var random = SeededGenerator(seed: 42)
        for _ in 0..<2_000 {
            let number = Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))
            guard number.isFinite, number != number.rounded() || abs(number) > 9e18 else { continue }
            var writer = PayloadWriter()
            writer.number(number)
            #expect("[\(writer.text)]" == String(decoding: try encoder.encode([number]), as: UTF8.self))
            #expect(Double(writer.text) == number)
        }
        // Every payload is the writer's: stored, read back, the same value.
        let body = EventBody.entryPushed(Entry(id: "A", params: ["x": .number(1.5), "y": .array([.number(0.1)])]))
        #expect(PayloadWriter.json(body) == #"{"entry":{"id":"A","params":{"x":1.5,"y":[0.1]}}}"#)
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s")
        try store.execute(
            .push(Entry(id: "A", params: ["x": .number(1.5), "y": .array([.number(0.1)])])), session: "s")
        #expect(
            try store.state(session: "s").state.topEntry?.params == ["x": .number(1.5), "y": .array([.number(0.1)])])
        #expect(try store.allEvents().last?.body == body)
    }

    @Test("keys go in the order of their UTF-8 bytes, where Apple's older Foundation compared them as NSString does")
    func keyOrderIsUTF8Bytes() throws {
        // Each pair is ordered otherwise by a numeric, case-insensitive NSString comparison
        // ("item9" before "item10", "id2" before "ID"): the store writes the bytes' order always.
        let params: [String: JSONValue] = [
            "item10": .integer(1), "item9": .integer(2), "ID": .integer(3), "id2": .integer(4), "a": .number(0.5),
            "B": .bool(true), "é": .null, "Z": .integer(5), "_": .integer(6),
            "🧭": .integer(7),
        ]
        var writer = PayloadWriter()
        writer.write(object: params)
        let expected = params.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(expected == ["B", "ID", "Z", "_", "a", "id2", "item10", "item9", "é", "🧭"])
        let written = try JSONDecoder().decode([String: JSONValue].self, from: Data(writer.text.utf8))
        #expect(written == params)
        var position = writer.text.startIndex
        for key in expected {
            let quoted = "\"" + key + "\":"
            let found = try #require(writer.text.range(of: quoted, range: position..<writer.text.endIndex), "\(key)")
            position = found.upperBound
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(writer.text == String(decoding: try encoder.encode(params), as: UTF8.self))
    }

    @Test("params objects of 0 to 300 keys, keys that prefix each other and nested objects are JSONEncoder's bytes")
    func wideParamsObjects() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var random = SeededGenerator(seed: 16)
        for count in [0, 1, 2, 3, 8, 17, 64, 300] {
            var params: [String: JSONValue] = [:]
            while params.count < count {
                let length = Int.random(in: 0...20, using: &random)
                let key = String((0..<length).map { _ in "abAB_é\u{1F600}\"".randomElement(using: &random)! })
                params[key] =
                    Bool.random(using: &random)
                    ? .integer(Int64(params.count)) : .object(["z": .null, key: .bool(true)])
            }
            let text = PayloadWriter.json(params)
            #expect(text == String(decoding: try encoder.encode(params), as: UTF8.self), "\(count) keys")
            let body = EventBody.entryPushed(Entry(id: "P", params: params))
            #expect(PayloadWriter.json(body) == (try body.encoderJSON()), "\(count) keys")
        }
        // Keys alike in their first 16 bytes (the writer's integer prefix), NULs against the
        // prefix's zero padding, 15 to 17 bytes, and a multi-byte character across byte 16.
        let sixteen = "0123456789abcdef"
        let alike = [
            sixteen, sixteen + "0", sixteen + "\u{0}", sixteen + "\u{0}\u{0}", sixteen + "é",
            String(sixteen.dropLast()),
            String(sixteen.dropLast()) + "\u{0}", "a", "a\u{0}", "a\u{0}\u{0}", "a\u{0}b", "", "\u{0}",
            "012345678901234é", "012345678901234\u{0}é", sixteen + "zz", sixteen + "za",
        ]
        let alikeParams = Dictionary(
            uniqueKeysWithValues: alike.enumerated().map { ($1, JSONValue.integer(Int64($0))) })
        #expect(
            PayloadWriter.json(alikeParams) == String(decoding: try encoder.encode(alikeParams), as: UTF8.self))
        let marker = RestoreMarker(restoredVersion: 7, attempt: 3, failedVersions: [12, 0, 9_000_000_000])
        #expect(PayloadWriter.json(.sessionRestored(marker)) == (try EventBody.sessionRestored(marker).encoderJSON()))
    }

    @Test("generated event ids are distinct lowercase version 7 UUIDs in time order")
    func eventIDs() {
        var generator = EventIDGenerator()
        let ids = (0..<2_000).map { generator.next(milliseconds: 1_700_000_000_000 + Int64($0 / 100)) }
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        let pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        #expect(ids.allSatisfy { $0.wholeMatch(of: pattern) != nil })
        #expect(ids[0].hasPrefix("018bcfe5-6800-"))  // 1_700_000_000_000 ms = 0x018bcfe56800
        #expect(generator.next(milliseconds: 0xABCD_EF01_2345).hasPrefix("abcdef01-2345-7"))
        // The id bound to an insert from the stack is the text every reader gets.
        for _ in 0..<100 {
            let bits = generator.nextBits(milliseconds: 0x0123_4567_89AB)
            #expect(
                EventIDGenerator.withText(bits) { String(decoding: $0, as: UTF8.self) } == EventIDGenerator.text(bits))
            #expect(EventIDGenerator.text(bits).wholeMatch(of: pattern) != nil)
        }
        #expect(generator.next(milliseconds: 0x6789_0000_0000).hasPrefix("67890000-0000-7"))
    }

    @Test("an id's text is Foundation's UUID text of its 128 bits, in lowercase, for any bits")
    func eventIDTextMatchesFoundation() {
        var random = SplitMix64(seed: 0x5EED_1D5)
        // Every nibble value in every position, the extremes, and seeded random bits.
        var cases: [(UInt64, UInt64)] = [(0, 0), (.max, .max), (0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210)]
        for nibble in UInt64(0)...15 {
            let repeated = nibble &* 0x1111_1111_1111_1111
            cases += [(repeated, 0), (0, repeated), (repeated, ~repeated)]
        }
        for _ in 0..<2_000 { cases.append((random.next(), random.next())) }
        for (high, low) in cases {
            var octets: [UInt8] = []
            withUnsafeBytes(of: high.bigEndian) { octets += $0 }
            withUnsafeBytes(of: low.bigEndian) { octets += $0 }
            let foundation = UUID(
                uuid: (
                    octets[0], octets[1], octets[2], octets[3], octets[4], octets[5], octets[6], octets[7],
                    octets[8], octets[9], octets[10], octets[11], octets[12], octets[13], octets[14], octets[15]
                )
            ).uuidString.lowercased()
            #expect(EventIDGenerator.text((high, low)) == foundation)
            #expect(EventIDGenerator.withText((high, low)) { String(decoding: $0, as: UTF8.self) } == foundation)
            #expect(EventIDGenerator.uuidText(octets) == foundation)
        }
    }

    @Test("stored events get version 7 ids unless the client gives one")
    func storedIDs() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s", eventID: "F47AC10B-58CC-4372-A567-0E02B2C3D479")
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s")
        let ids = try store.allEvents().map(\.eventID)
        #expect(ids[0] == "f47ac10b-58cc-4372-a567-0e02b2c3d479")
        #expect(ids[1].count == 36 && ids[1].dropFirst(14).first == "7")
        #expect(ids[1] != ids[2])
        // The ids a write returns are the stored ones: a single append's, a batch's last.
        let single = try store.execute(.push(.titled("C")), session: "s")
        let batch = try store.append(contentsOf: [.push(.titled("D")), .push(.titled("E"))], session: "s")
        let stored = try store.allEvents().map(\.eventID)
        #expect(single.event?.eventID == stored[3])
        #expect(batch.event?.eventID == stored[5])
        #expect(Set(stored).count == stored.count)
    }
}

extension EventBody {
    /// The payload as swift-foundation's `JSONEncoder` writes it with sorted keys: the test
    /// reference the store's own writer is compared with byte for byte (the store never writes
    /// stored text with `JSONEncoder`).
    func encoderJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try payloadData(encoder), as: UTF8.self)
    }
}
