import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Builds a database with several interleaved sessions of random commands at increasing times.
func buildRandomLog(
    _ store: NavigationStore, seed: UInt64, sessions: [String], batches: Int, batchSize: ClosedRange<Int>,
    unusual: Bool = false, routesHoldNUL: Bool = true
) throws {
    var rng = SeededGenerator(seed: seed)
    var generators: [String: RandomCommands] = [:]
    var time: Int64 = 1_700_000_000_000
    for (index, key) in sessions.enumerated() {
        try store.startSession(key, name: index == 0 ? nil : (index == 1 ? "" : "Session \(key) ✨"), at: time)
        generators[key] = RandomCommands(seed: seed &+ UInt64(index) &* 1_000, unusual: unusual)
        generators[key]!.routesHoldNUL = routesHoldNUL
    }
    for _ in 0..<batches {
        let key = sessions.randomElement(using: &rng)!
        time += Int64.random(in: 0...5_000, using: &rng)
        let commands = generators[key]!.commands(Int.random(in: batchSize, using: &rng))
        if commands.count == 1 {
            try store.execute(commands[0], session: key, at: time)
        } else {
            try store.append(contentsOf: commands, session: key, at: time)
        }
    }
    // What the store records itself (StoreCommand), which no app command makes: in each log too.
    for key in sessions {
        time += 1
        try store.execute(StoreCommand.markRestored, session: key, at: time)
        try store.execute(StoreCommand.noteDroppedCalls(count: 3, firstAt: time - 50, lastAt: time), session: key, at: time)
    }
}

@Suite("NavigationStore: NDJSON export and import")
struct ExportImportTests {
    @Test(
        "export then import into an empty database gives identical lines, states and sessions",
        arguments: StoreBackend.all)
    func roundTrip(target backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let original = try makeStore(source, options: fastOptions(snapshotInterval: 16))
        try buildRandomLog(original, seed: 1, sessions: ["a", "b", "c"], batches: 60, batchSize: 1...12)
        let lines = try original.exportLines()
        #expect(lines.count == (try original.allEvents().count))

        let copy = try makeStore(target, on: backend, options: fastOptions(snapshotInterval: 16))
        let report = try copy.importNDJSON(lines: lines)
        #expect(report == ImportReport(sessions: 3, imported: lines.count, skipped: 0))
        #expect(try copy.exportLines() == lines)
        #expect(try copy.sessions() == original.sessions())
        for key in ["a", "b", "c"] {
            #expect(try copy.state(session: key) == original.state(session: key))
            #expect(try copy.exportLines(session: key) == original.exportLines(session: key))
        }
        let check = try copy.check()
        #expect(check.isClean, "\(check.problems)")
        #expect(check.snapshots == (try original.check().snapshots))
    }

    @Test("a long random session with presents, dismisses and vetoes round-trips exactly", arguments: StoreBackend.all)
    func longRandomSession(target backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let original = try makeStore(source, options: fastOptions())
        // PostgreSQL's text columns cannot hold U+0000: a route holding it is refused there
        // (StoredTextCheck), so the log meant for it has none.
        try buildRandomLog(
            original, seed: 2024, sessions: ["long"], batches: 300, batchSize: 1...20, unusual: true,
            routesHoldNUL: backend != .postgresql)
        let events = try original.allEvents()
        #expect(events.count > 2_500)
        let types = Set(events.map(\.type))
        for type in [
            "layer.presented", "layer.dismissed", "pop.vetoed", "dismiss.vetoed", "entries.popped", "stack.replaced",
            "item.updated", "session.restored",
        ] {
            #expect(types.contains(type), "no \(type) in the random session")
        }
        let lines = try original.exportLines()
        let copy = try makeStore(target, on: backend, options: fastOptions())
        #expect(try copy.importNDJSON(lines: lines).imported == events.count)
        #expect(try copy.exportLines() == lines)
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<40 {
            let version = Int.random(in: 1...events.count, using: &rng)
            #expect(
                try copy.state(session: "long", at: .version(version))
                    == original.state(session: "long", at: .version(version)))
        }
        #expect(try copy.check().isClean)
    }

    @Test(
        "every marker restore and its acknowledgement record (plain, fallbacks, the base root, acknowledged) round-trips",
        arguments: StoreBackend.all)
    func restoreMarkersRoundTrip(backend: StoreBackend) throws {
        let original = try makeStore(TemporaryDirectory())
        try original.startSession("s", at: 0)
        try original.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        _ = try original.restore(session: "s", mark: true, at: 2)
        try original.acknowledgeRestore(session: "s", at: 2)
        try original.execute(.present(.titled("M")), session: "s", at: 3)
        // Fallbacks to the acknowledged state, acknowledged; then to the base root, acknowledged.
        for _ in 0..<3 { _ = try original.restore(session: "s", mark: true, at: 4) }
        try original.acknowledgeRestore(session: "s", at: 5)
        for _ in 0..<5 { _ = try original.restore(session: "s", mark: true, at: 6) }
        try original.acknowledgeRestore(session: "s", at: 7)
        try original.execute(StoreCommand.markRestored, session: "s", at: 8)
        let markers = try original.allEvents(session: "s").compactMap { event -> RestoreMarker? in
            if case .sessionRestored(let marker) = event.body { return marker } else { return nil }
        }
        #expect(markers.contains { $0.acknowledged && $0.restoredVersion == 0 && $0.failedVersions.count == 2 })
        #expect(markers.contains { $0.acknowledged && $0.restoredVersion ?? 0 > 0 })
        #expect(markers.last == RestoreMarker())
        let lines = try original.exportLines()
        let copy = try makeStore(TemporaryDirectory(), on: backend)
        #expect(try copy.importNDJSON(lines: lines).imported == lines.count)
        #expect(try copy.exportLines() == lines)
    }

    @Test("importing the same lines twice is a no-op that reports them skipped", arguments: StoreBackend.all)
    func importTwice(target backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let original = try makeStore(source)
        try buildRandomLog(original, seed: 3, sessions: ["a", "b"], batches: 10, batchSize: 1...6)
        let lines = try original.exportLines()
        let copy = try makeStore(target, on: backend)
        try copy.importNDJSON(lines: lines)
        let before = try databaseContent(copy)
        let again = try copy.importNDJSON(lines: lines)
        #expect(again == ImportReport(sessions: 2, imported: 0, skipped: lines.count))
        #expect(try databaseContent(copy) == before)
        // Into the database they came from: everything is already there.
        #expect(try original.importNDJSON(lines: lines).skipped == lines.count)
    }

    @Test("an input overlapping what is stored appends only the rest", arguments: StoreBackend.all)
    func partialOverlap(target backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let original = try makeStore(source)
        try buildRandomLog(original, seed: 4, sessions: ["a", "b"], batches: 12, batchSize: 1...6)
        let lines = try original.exportLines()
        let copy = try makeStore(target, on: backend)
        try copy.importNDJSON(lines: lines.prefix(lines.count / 2))
        let report = try copy.importNDJSON(lines: lines)
        #expect(report.skipped == lines.count / 2)
        #expect(report.imported == lines.count - lines.count / 2)
        #expect(try copy.exportLines() == lines)
    }

    @Test("a changed event under a known event id is a conflict and changes nothing", arguments: StoreBackend.all)
    func changedEventConflict(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 1_000)
        try store.append(
            contentsOf: [.push(.titled("A", "Inbox")), .push(.titled("B", "Mail"))], session: "s", at: 2_000)
        var lines = try store.exportLines()
        let eventID = try store.allEvents()[2].eventID
        #expect(lines[2].contains("\"Mail\""))
        lines[2] = lines[2].replacingOccurrences(of: "\"Mail\"", with: "\"Spam\"")
        let before = try databaseContent(store)
        #expect(throws: StoreError.eventIDConflict(line: 3, eventID: eventID)) { try store.importNDJSON(lines: lines) }
        #expect(try databaseContent(store) == before)

        // The same id under another session, or at another time, is a conflict too.
        let original = try store.exportLines()
        let otherSession = original[0].replacingOccurrences(of: "\"session\":\"s\"", with: "\"session\":\"t\"")
        #expect(throws: StoreError.eventIDConflict(line: 1, eventID: try store.allEvents()[0].eventID)) {
            try store.importNDJSON(lines: [otherSession])
        }
        // The informative time left out: it would no longer agree with the changed at.
        let otherTime = original[1].replacingOccurrences(of: "\"at\":2000", with: "\"at\":2001")
            .replacingOccurrences(of: #","time":"[^"]*""#, with: "", options: .regularExpression)
        #expect(throws: StoreError.eventIDConflict(line: 2, eventID: try store.allEvents()[1].eventID)) {
            try store.importNDJSON(lines: [original[0], otherTime])
        }
        #expect(try databaseContent(store) == before)
    }

    @Test(
        "an event id that is not a UUID is refused, naming the value and the accepted shape",
        arguments: StoreBackend.all,
        [
            "e1", "", "00000000-0000-7000-8000-00000000000", "00000000-0000-7000-8000-0000000000001",
            "00000000_0000-7000-8000-000000000001",
            "0000000g-0000-7000-8000-000000000001", "{00000000-0000-7000-8000-000000000001}",
            "000000000000700080000000000000001",
        ])
    func nonUUIDEventID(backend: StoreBackend, _ eventID: String) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("existing")
        let before = try databaseContent(store)
        let line = Self.validStart[1].replacingOccurrences(of: "00000000-0000-7000-8000-000000000002", with: eventID)
        let error = #expect(throws: StoreError.self) { try store.importNDJSON(lines: [Self.validStart[0], line]) }
        guard case .invalidImport(2, let reason)? = error else {
            Issue.record("expected invalidImport on line 2, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("event id '\(eventID)' is not a UUID: 8-4-4-4-12 hexadecimal digits"), "\(reason)")
        #expect(try databaseContent(store) == before)
    }

    @Test(
        "UUIDs of any version and letter case are accepted and stored in lowercase",
        arguments: StoreBackend.all,
        [
            "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "F47AC10B-58CC-4372-A567-0E02B2C3D479",
            "00000000-0000-0000-0000-000000000000",
            "019Ad3f2-7C41-7a3e-8D21-5f0c3b9e4a17",
        ])
    func uuidEventIDs(backend: StoreBackend, _ eventID: String) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let lines = [Self.validStart[0].replacingOccurrences(of: "00000000-0000-7000-8000-000000000001", with: eventID)]
        #expect(try store.importNDJSON(lines: lines).imported == 1)
        #expect(try store.allEvents().map(\.eventID) == [eventID.lowercased()])
        #expect(try store.importNDJSON(lines: lines) == ImportReport(sessions: 1, imported: 0, skipped: 1))
    }

    @Test(
        "an event id in another letter case is the same id: skipped when the content is the same, a conflict when not",
        arguments: StoreBackend.all)
    func eventIDsIgnoreCase(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let upper = Self.validStart.map {
            $0.replacingOccurrences(
                of: "00000000-0000-7000-8000-00000000000", with: "ABCDEF00-0000-7000-8000-00000000000")
        }
        let lower = upper.map { $0.replacingOccurrences(of: "ABCDEF00", with: "abcdef00") }
        #expect(try store.importNDJSON(lines: lower) == ImportReport(sessions: 1, imported: 3, skipped: 0))
        // The same events with their ids in upper case are already stored.
        #expect(try store.importNDJSON(lines: upper) == ImportReport(sessions: 1, imported: 0, skipped: 3))
        #expect(try store.allEvents().map(\.eventID) == (1...3).map { "abcdef00-0000-7000-8000-00000000000\($0)" })
        // A different event under an upper-case copy of a known id is a conflict, with the stored id.
        let changed = upper[2].replacingOccurrences(of: #""at":3000"#, with: #""at":3001"#)
        let before = try databaseContent(store)
        #expect(throws: StoreError.eventIDConflict(line: 1, eventID: "abcdef00-0000-7000-8000-000000000003")) {
            try store.importNDJSON(lines: [changed])
        }
        // ... and so is a new event (the session's next version) under it: it is not stored twice.
        let next =
            #"{"at":4000,"eventID":"ABCDEF00-0000-7000-8000-000000000002","payload":{},"session":"s","type":"session.restored","version":4}"#
        #expect(throws: StoreError.eventIDConflict(line: 1, eventID: "abcdef00-0000-7000-8000-000000000002")) {
            try store.importNDJSON(lines: [next])
        }
        #expect(try databaseContent(store) == before)
        // Within one input, a repeat in another case is the same id.
        let otherDir = try TemporaryDirectory()
        let other = try makeStore(otherDir, on: backend)
        #expect(try other.importNDJSON(lines: lower + [upper[1]]) == ImportReport(sessions: 1, imported: 3, skipped: 1))
        let reused = next.replacingOccurrences(of: "-000000000002", with: "-000000000003")
        let error = #expect(throws: StoreError.self) { try other.importNDJSON(lines: [reused]) }
        #expect(error == .eventIDConflict(line: 1, eventID: "abcdef00-0000-7000-8000-000000000003"))
    }

    @Test(
        "a title changed to a canonically equivalent spelling under a known id is a conflict, not already stored",
        arguments: StoreBackend.all)
    func canonicallyEquivalentTitleConflicts(backend: StoreBackend) throws {
        let composed = "Caf\u{E9}"
        let decomposed = "Cafe\u{301}"
        #expect(composed == decomposed, "Swift's == takes them for the same title")
        func pushed(_ title: String) -> String {
            #"{"at":2000,"eventID":"00000000-0000-7000-8000-000000000002","payload":{"entry":{"id":"A","item":{"title":"\#(title)"}}},"session":"s","type":"entry.pushed","version":2}"#
        }
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.importNDJSON(lines: [Self.validStart[0], pushed(composed)])
        #expect(try store.importNDJSON(lines: [pushed(composed)]) == ImportReport(sessions: 1, imported: 0, skipped: 1))
        let before = try databaseContent(store)
        #expect(throws: StoreError.eventIDConflict(line: 2, eventID: "00000000-0000-7000-8000-000000000002")) {
            try store.importNDJSON(lines: [Self.validStart[0], pushed(decomposed)])
        }
        #expect(try databaseContent(store) == before)
        // An import that changes the title to the other spelling by an event of its own is stored
        // exactly, projection included.
        let update =
            #"{"at":3000,"eventID":"00000000-0000-7000-8000-000000000003","payload":{"fields":["title"],"id":"A","item":{"title":"\#(decomposed)"}},"session":"s","type":"item.updated","version":3}"#
        #expect(try store.importNDJSON(lines: [update]).imported == 1)
        let title = try #require(
            try NavigationStore(path: store.path).state(session: "s").state.layers[0].entries[0].item.title)
        #expect(Array(title.unicodeScalars) == Array(decomposed.unicodeScalars))
        #expect(try store.check().isClean)
    }

    @Test(
        "session keys that are canonically equivalent but not the same text are different sessions",
        arguments: StoreBackend.all)
    func canonicallyEquivalentSessionKeys(backend: StoreBackend) throws {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        func started(_ key: String, _ name: String, _ id: Int) -> String {
            #"{"at":1000,"eventID":"00000000-0000-7000-8000-00000000000\#(id)","payload":{"name":"\#(name)"},"session":"\#(key)","type":"session.started","version":1}"#
        }
        func pushed(_ key: String, _ id: Int) -> String {
            #"{"at":2000,"eventID":"00000000-0000-7000-8000-00000000000\#(id)","payload":{"entry":{"id":"A"}},"session":"\#(key)","type":"entry.pushed","version":2}"#
        }
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let lines = [started(composed, "one", 1), started(decomposed, "two", 2), pushed(decomposed, 3)]
        #expect(try store.importNDJSON(lines: lines) == ImportReport(sessions: 2, imported: 3, skipped: 0))
        #expect(try store.sessionInfo(composed).name == "one")
        #expect(try store.sessionInfo(decomposed).name == "two")
        #expect(try store.sessionInfo(composed).version == 1)
        #expect(try store.sessionInfo(decomposed).version == 2)
        #expect(try store.check().isClean)
        #expect(try store.importNDJSON(lines: lines) == ImportReport(sessions: 2, imported: 0, skipped: 3))
    }

    @Test("an id stored in upper or mixed case by an earlier navdb is found in any case", arguments: StoreBackend.all)
    func legacyEventIDCase(backend: StoreBackend) throws {
        for stored in ["ABCDEF00-0000-7000-8000-00000000000A", "AbCdEf00-0000-7000-8000-00000000000a"] {
            let dir = try TemporaryDirectory()
            let store = try makeStore(dir, on: backend)
            // What an earlier navdb stored as given, written here with plain SQL.
            try executeSQL(
                """
                INSERT INTO sessions (id, key, name, created_at, updated_at, version) VALUES (1, 's', 'Mail', 1000, 1000, 1);
                INSERT INTO layers (session_id, layer, modal_in_presentation) VALUES (1, 0, 0);
                INSERT INTO events (session_id, version, type, at, event_id, payload)
                    VALUES (1, 1, 'session.started', 1000, '\(stored)', '{"name":"Mail"}');
                """, on: store)
            let line = Self.validStart[0].replacingOccurrences(
                of: "00000000-0000-7000-8000-000000000001", with: "abcdef00-0000-7000-8000-00000000000a")
            for form in [
                line,
                line.replacingOccurrences(
                    of: "abcdef00-0000-7000-8000-00000000000a", with: "ABCDEF00-0000-7000-8000-00000000000A"),
                line.replacingOccurrences(of: "abcdef00", with: stored.prefix(8)),
            ] {
                #expect(
                    try store.importNDJSON(lines: [form]) == ImportReport(sessions: 1, imported: 0, skipped: 1),
                    "\(stored) \(form)")
            }
            let changed = line.replacingOccurrences(of: #""at":1000"#, with: #""at":1001"#)
            #expect(throws: StoreError.eventIDConflict(line: 1, eventID: stored)) {
                try store.importNDJSON(lines: [changed])
            }
        }
    }

    @Test(
        "an event id used twice in one input with different content names the line it repeats",
        arguments: StoreBackend.all)
    func repeatedIDWithinInput(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let secondID = "00000000-0000-7000-8000-000000000002"
        // Line 4: a new event (version 4) under line 2's id.
        let reused =
            #"{"at":4000,"eventID":"\#(secondID)","payload":{},"session":"s","type":"session.restored","version":4}"#
        let before = try databaseContent(store)
        #expect(
            throws: StoreError.invalidImport(
                line: 4,
                reason:
                    "event id \(secondID) repeats line 2 of the input with different content (there: version 2 of session 's', type entry.pushed); every event needs its own id"
            )
        ) {
            try store.importNDJSON(lines: Self.validStart + [reused])
        }
        // Line 5: version 2 again under its own id, with another time: the same message, not "already stored".
        let changed = Self.validStart[1].replacingOccurrences(of: #""at":2000"#, with: #""at":2500"#)
        let error = #expect(throws: StoreError.self) { try store.importNDJSON(lines: Self.validStart + ["", changed]) }
        #expect(
            error?.description.contains("line 5: event id \(secondID) repeats line 2 of the input") == true,
            "\(String(describing: error))")
        #expect(error?.description.contains("already stored") == false)
        #expect(try databaseContent(store) == before)
        // Once stored by an earlier import, the same reuse is a conflict with the stored event.
        try store.importNDJSON(lines: Self.validStart)
        #expect(throws: StoreError.eventIDConflict(line: 1, eventID: secondID)) {
            try store.importNDJSON(lines: [reused])
        }
        // An identical repeat within one input is skipped, as across inputs.
        let otherDir = try TemporaryDirectory()
        let other = try makeStore(otherDir, on: backend)
        #expect(
            try other.importNDJSON(lines: Self.validStart + [Self.validStart[1]])
                == ImportReport(sessions: 1, imported: 3, skipped: 1))
    }

    /// A valid start of a log, lines 1...3: session "s" started, A then B pushed.
    static let validStart = [
        #"{"at":1000,"eventID":"00000000-0000-7000-8000-000000000001","payload":{"name":"Mail"},"session":"s","type":"session.started","version":1}"#,
        #"{"at":2000,"eventID":"00000000-0000-7000-8000-000000000002","payload":{"entry":{"id":"A","item":{"title":"Inbox"}}},"session":"s","type":"entry.pushed","version":2}"#,
        #"{"at":3000,"eventID":"00000000-0000-7000-8000-000000000003","payload":{"entry":{"id":"B"}},"session":"s","type":"entry.pushed","version":3}"#,
    ]

    @Test(
        "invalid lines are refused with their line number and reason, and nothing is written",
        arguments: StoreBackend.each([
            (["not json at all"], 4, "not JSON: it reads \"not json at all\""),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{},"session":"s","type":"session.restored"}"#
                ], 4, "missing key 'version'"
            ),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{"entry":{"title":"x"}},"session":"s","type":"entry.pushed","version":4}"#
                ], 4, "missing key 'id' at payload.entry"
            ),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{},"session":"s","type":"entry.teleported","version":4}"#
                ], 4, "unknown event type 'entry.teleported'"
            ),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{},"session":"s","type":"session.restored","version":5}"#
                ], 4, "session 's' is at version 3 here, so the next version is 4, but this line is version 5"
            ),
            (
                [
                    #"{"at":2999,"eventID":"00000000-0000-7000-8000-000000000004","payload":{},"session":"s","type":"session.restored","version":4}"#
                ], 4, "earlier than the event before it"
            ),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{"ids":["A"],"source":"programmatic"},"session":"s","type":"entries.popped","version":4}"#
                ], 4, "not the top entries"
            ),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{"entry":{"id":"A"}},"session":"s","type":"entry.pushed","version":4}"#
                ], 4, "entry 'A' is already live"
            ),
            (
                [
                    "", "   ",
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{},"session":"t","type":"session.restored","version":2}"#,
                ], 6, "session 't' does not exist"
            ),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{"entry":{"id":"X"}},"session":"t","type":"entry.pushed","version":1}"#
                ], 4, "starts with session.started"
            ),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{"name":"again"},"session":"s","type":"session.started","version":4}"#
                ], 4, "session.started can only be version 1"
            ),
            (
                [
                    #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{"ids":["B"],"source":"sideways"},"session":"s","type":"entries.popped","version":4}"#
                ], 4, "bad entries.popped payload"
            ),
            (
                [
                    #"{"at":"soon","eventID":"00000000-0000-7000-8000-000000000004","payload":{},"session":"s","type":"session.restored","version":4}"#
                ], 4, "expected an integer at at, found a string"
            ),
            ([#"[1, 2, 3]"#], 4, "not an event record"),
        ]))
    func invalidLines(extra: [String], line: Int, reason: String, backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("existing")
        try store.execute(.push(.titled("Z")), session: "existing")
        let before = try databaseContent(store)
        let error = #expect(throws: StoreError.self) { try store.importNDJSON(lines: Self.validStart + extra) }
        guard case .invalidImport(let actualLine, let actualReason)? = error else {
            Issue.record("expected invalidImport, got \(String(describing: error))")
            return
        }
        #expect(actualLine == line)
        #expect(actualReason.contains(reason), "\(actualReason)")
        #expect(try databaseContent(store) == before)
        #expect(try store.sessions().map(\.key) == ["existing"])
    }

    @Test("the valid start alone imports, and its lines come back with their event ids", arguments: StoreBackend.all)
    func validStartImports(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let report = try store.importNDJSON(lines: Self.validStart + ["", "\r"])
        #expect(report == ImportReport(sessions: 1, imported: 3, skipped: 0))
        #expect(try store.allEvents().map(\.eventID) == (1...3).map { "00000000-0000-7000-8000-00000000000\($0)" })
        #expect(try store.sessionInfo("s").name == "Mail")
        #expect(try store.sessionInfo("s").createdAt == 1_000)
        #expect(try store.sessionInfo("s").updatedAt == 3_000)
        #expect(try store.state(session: "s").backButton?.label == "Inbox")
        // The session goes on from where the import left it.
        try store.execute(.pop(source: .gesture), session: "s", at: 3_000)
        #expect(try store.state(session: "s").state.entryIDs == [["A"]])
    }

    @Test("progress is reported while streaming", arguments: StoreBackend.all)
    func progress(backend: StoreBackend) throws {
        // 12,001 lines: a start, a root, then pushes and pops.
        var lines = [Self.validStart[0], Self.validStart[1]]
        for version in 3...12_001 {
            lines.append(
                version % 2 == 1
                    ? #"{"at":5000,"eventID":"00000000-0000-7000-9000-\#(String(1_000_000_000_000 + version).dropFirst())","payload":{"entry":{"id":"E\#(version)"}},"session":"s","type":"entry.pushed","version":\#(version)}"#
                    : #"{"at":5000,"eventID":"00000000-0000-7000-9000-\#(String(1_000_000_000_000 + version).dropFirst())","payload":{"ids":["E\#(version - 1)"],"source":"gesture"},"session":"s","type":"entries.popped","version":\#(version)}"#
            )
        }
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        final class Calls { var done: [Int] = [] }
        let calls = Calls()
        let report = try store.importNDJSON(lines: lines) { done, _ in calls.done.append(done) }
        #expect(report.imported == 12_001)
        #expect(calls.done == [10_000, 12_001])
        #expect(try store.state(session: "s").state.entryIDs == [["A", "E12001"]])
    }
}
