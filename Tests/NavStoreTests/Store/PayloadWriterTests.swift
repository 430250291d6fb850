import Foundation
import TestSupport
import Testing

@testable import NavStore

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
            guard let fast = PayloadWriter.json(body) else { continue }
            #expect(fast == (try body.payloadJSON()), "\(body.type)")
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
            guard let fast = PayloadWriter.json(state) else { continue }
            #expect(fast == String(decoding: try encoder.encode(state), as: UTF8.self))
            #expect(try JSONDecoder().decode(SessionState.self, from: Data(fast.utf8)) == state)
            for entry in state.layers.flatMap(\.entries) {
                #expect(
                    PayloadWriter.json(entry.item) == String(decoding: try encoder.encode(entry.item), as: UTF8.self))
                if let params = entry.params, let text = PayloadWriter.json(params) {
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
            guard let line = PayloadWriter.recordLine(event) else { continue }
            #expect(line == (try EventRecord(event).jsonLine()))
        }
    }

    @Test("a non-integer number in params is left to JSONEncoder")
    func numbersFallBack() throws {
        let body = EventBody.entryPushed(Entry(id: "A", params: ["x": .number(1.5)]))
        #expect(PayloadWriter.json(body) == nil)
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s")
        try store.execute(.push(Entry(id: "A", params: ["x": .number(1.5)])), session: "s")
        #expect(try store.state(session: "s").state.topEntry?.params == ["x": .number(1.5)])
        #expect(try store.allEvents().last?.body == body)
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
    }
}
