import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("NavigationStore: appending and reading")
struct NavigationStoreTests {
    @Test("a session starts at version 1 and pushes append versions 2, 3, ...", arguments: StoreBackend.all)
    func startAndPush(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let started = try store.startSession("s", name: "Mail")
        #expect(started.version == 1)
        let pushed = try store.execute(.push(.titled("A", "Inbox")), session: "s")
        #expect(pushed.version == 2 && pushed.outcome == .ok)
        try store.execute(.push(.titled("B", "Mail")), session: "s")
        let state = try store.state(session: "s")
        #expect(state.version == 3)
        #expect(state.state.entryIDs == [["A", "B"]])
        #expect(state.backButton == BackButton(label: "Inbox", fallbacks: ["Back", ""]))
        #expect(try store.sessions().map(\.key) == ["s"])
        #expect(try store.sessionInfo("s").depth == 2)
    }

    @Test("a refused command appends nothing and names the stack", arguments: StoreBackend.all)
    func refusedAppendsNothing(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s")
        #expect(throws: StoreError.rules(.cannotPopRoot(root: "A", layer: 0, stack: "[A]"))) {
            try store.execute(.pop(source: .programmatic), session: "s")
        }
        #expect(try store.state(session: "s").version == 2)
    }

    @Test("a stale expected version is a conflict, not a lost update", arguments: StoreBackend.all)
    func expectedVersionConflict(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s", expectedVersion: 1)
        #expect(throws: StoreError.versionConflict(session: "s", expected: 1, actual: 2)) {
            try store.execute(.push(.titled("B")), session: "s", expectedVersion: 1)
        }
        #expect(try store.state(session: "s").state.entryIDs == [["A"]])
    }

    @Test(
        "starting a session takes an expected version: 0, the version of a session that does not exist yet",
        arguments: StoreBackend.all)
    func startSessionExpectedVersion(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        #expect(throws: StoreError.versionConflict(session: "s", expected: 3, actual: 0)) {
            try store.startSession("s", expectedVersion: 3)
        }
        #expect(try store.sessions().isEmpty)
        #expect(try store.startSession("s", expectedVersion: 0).version == 1)
        try store.execute(.push(.titled("A")), session: "s")
        #expect(throws: StoreError.versionConflict(session: "s", expected: 0, actual: 2)) {
            try store.startSession("s", expectedVersion: 0)
        }
        // The version matches: the start itself is what is refused.
        #expect(throws: StoreError.sessionExists("s")) { try store.startSession("s", expectedVersion: 2) }
        #expect(try store.state(session: "s").version == 2)
    }

    @Test(
        "a client-supplied event id must be a UUID; it is stored in lowercase and known in any case",
        arguments: StoreBackend.all)
    func clientEventIDs(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let shape = "is not a UUID: 8-4-4-4-12 hexadecimal digits"
        for bad in [
            "client-given", "", "F47AC10B-58CC-4372-A567-0E02B2C3D47", "{F47AC10B-58CC-4372-A567-0E02B2C3D479}",
        ] {
            let error = #expect(throws: StoreError.self) { try store.startSession("s", eventID: bad) }
            #expect(error == .invalidEventID(bad))
            #expect(error?.description.hasPrefix("invalid event: event id '\(bad)' \(shape)") == true)
        }
        #expect(try store.sessions().isEmpty)
        try store.startSession("s", eventID: "F47AC10B-58CC-4372-A567-0E02B2C3D479")
        try store.execute(.push(.titled("A")), session: "s", eventID: "019AD3F2-7C41-7A3E-8D21-5F0C3B9E4A17")
        try store.updateItem("A", session: "s", eventID: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8") { $0.title = "Inbox" }
        #expect(
            try store.allEvents().map(\.eventID)
                == [
                    "f47ac10b-58cc-4372-a567-0e02b2c3d479", "019ad3f2-7c41-7a3e-8d21-5f0c3b9e4a17",
                    "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
                ])
        #expect(throws: StoreError.self) { try store.execute(.push(.titled("B")), session: "s", eventID: "not-a-uuid") }
        #expect(throws: StoreError.self) { try store.updateItem("A", session: "s", eventID: "x") { $0.title = "Mail" } }
        // An upper-case copy of a known id is that id: it is not stored a second time.
        #expect(throws: StoreError.self) {
            try store.execute(.push(.titled("B")), session: "s", eventID: "019AD3F2-7C41-7A3E-8D21-5F0C3B9E4A17")
        }
        #expect(try store.state(session: "s").version == 3)
        #expect(try store.check().isClean)
    }

    @Test("a guarded back tap is vetoed and the veto is recorded", arguments: StoreBackend.all)
    func vetoRecorded(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s")
        try store.execute(
            .push(Entry(id: "B", item: NavigationItem(popGuard: PopGuard(prompt: "Discard?")))), session: "s")
        let result = try store.execute(.pop(source: .backButton), session: "s")
        #expect(result.outcome == .vetoed && result.version == 4)
        #expect(result.event?.type == "pop.vetoed")
        #expect(try store.state(session: "s").state.entryIDs == [["A", "B"]])
    }

    @Test("an explicit time earlier than the previous event is refused", arguments: StoreBackend.all)
    func timeNeverGoesBack(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 1_000)
        #expect(throws: StoreError.timeBeforePrevious(session: "s", given: 999, previous: 1_000)) {
            try store.execute(.push(.titled("A")), session: "s", at: 999)
        }
        try store.execute(.push(.titled("A")), session: "s", at: 1_000)
    }

    @Test(
        "an explicit time outside the years 0000-9999 is refused by every write, nothing written, and one at the edge is read back",
        arguments: StoreBackend.all)
    func timeOutsideTheReadableYears(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        for bad in [Timestamp.latest + 1, Int64.max, Timestamp.earliest - 1, Int64.min] {
            #expect(throws: StoreError.timeOutOfRange(session: "t", given: bad)) {
                try store.startSession("t", at: bad)
            }
        }
        #expect(try store.sessions().isEmpty)
        try store.startSession("s", at: Timestamp.earliest)
        let before = try databaseContent(store)
        let bad = Timestamp.latest + 1
        #expect(throws: StoreError.timeOutOfRange(session: "s", given: bad)) {
            try store.execute(.push(.titled("A")), session: "s", at: bad)
        }
        #expect(throws: StoreError.timeOutOfRange(session: "s", given: bad)) {
            try store.append(contentsOf: [.push(.titled("A"))], session: "s", at: bad)
        }
        #expect(throws: StoreError.timeOutOfRange(session: "s", given: bad)) {
            try store.restore(session: "s", mark: true, at: bad)
        }
        #expect(try databaseContent(store) == before)
        #expect(StoreError.timeOutOfRange(session: "s", given: bad).description.contains("9999-12-31T23:59:59.999Z"))
        // The last millisecond that can be written is written, exported and read back.
        try store.execute(.push(.titled("A")), session: "s", at: Timestamp.latest)
        var lines: [String] = []
        try store.exportNDJSON(session: "s") { lines.append($0) }
        #expect(lines.last?.contains("\"time\":\"9999-12-31T23:59:59.999Z\"") == true, "\(lines)")
        let copy = try makeStore(try TemporaryDirectory(), on: backend)
        #expect(try copy.importNDJSON(lines: lines).imported == 2)
    }

    @Test("the projection survives reopening and equals a fold of the log", arguments: StoreBackend.all)
    func reopen(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let location = try backend.location(dir)
        do {
            let store = try NavigationStore(path: location)
            try store.startSession("s")
            try store.execute(.push(.titled("A", "Home")), session: "s")
            try store.execute(.push(.titled("B", "")), session: "s")
            try store.execute(.present(.titled("M", "Compose"), modalInPresentation: true), session: "s")
            try store.execute(.push(.titled("N")), session: "s")
            try store.updateItem("A", session: "s") { $0.backButtonTitle = "Mailboxes" }
        }
        let store = try NavigationStore(path: location)
        let now = try store.state(session: "s")
        var bodies: [EventBody] = []
        try store.events(session: "s") { bodies.append($0.body) }
        #expect(now.state == SessionState.fold(bodies))
        #expect(now.state.layers[1].modalInPresentation)
        #expect(now.state.layers[0].entries[1].item.title == "")
        #expect(now.state.layers[0].entries[0].item.backButtonTitle == "Mailboxes")
    }

    @Test(
        "state at every version equals a fold of the first v events", arguments: StoreBackend.all, [1, 3, 64])
    func timeTravel(backend: StoreBackend, interval: Int) throws {
        let dir = try TemporaryDirectory()
        var options = StoreOptions()
        options.snapshotInterval = interval
        let store = try makeStore(dir, on: backend, options: options)
        try store.startSession("s", at: 0)
        for i in 0..<150 {
            let command: NavigationCommand = i % 5 == 4 ? .pop(source: .programmatic) : .push(.titled("E\(i)", "T\(i)"))
            try store.execute(command, session: "s", at: Int64(i + 1) * 10)
        }
        var bodies: [EventBody] = []
        try store.events(session: "s") { bodies.append($0.body) }
        for version in 1...bodies.count {
            let expected = SessionState.fold(bodies.prefix(version))
            let actual = try store.state(session: "s", at: .version(version))
            #expect(actual.state == expected)
            #expect(actual.version == version)
        }
        // Time points: exactly at an event and between two events.
        #expect(try store.state(session: "s", at: .time(20)).version == 3)
        #expect(try store.state(session: "s", at: .time(25)).version == 3)
        #expect(try store.state(session: "s", at: .time(1_000_000)).version == bodies.count)
        #expect(throws: StoreError.self) { try store.state(session: "s", at: .time(-1)) }
        #expect(throws: StoreError.self) { try store.state(session: "s", at: .version(0)) }
        #expect(throws: StoreError.self) { try store.state(session: "s", at: .version(bodies.count + 1)) }
    }

    @Test("history filters by type, entry, time, limit and order", arguments: StoreBackend.all)
    func historyFilters(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.execute(.push(.titled("A")), session: "s", at: 10)
        try store.execute(.push(.titled("B")), session: "s", at: 20)
        try store.execute(.pop(source: .programmatic), session: "s", at: 30)
        func versions(_ filter: EventFilter) throws -> [Int] {
            var result: [Int] = []
            try store.events(session: "s", filter: filter) { result.append($0.version) }
            return result
        }
        #expect(try versions(EventFilter()) == [1, 2, 3, 4])
        #expect(try versions(EventFilter(types: ["entry.pushed"])) == [2, 3])
        #expect(try versions(EventFilter(entry: "B")) == [3, 4])
        #expect(try versions(EventFilter(since: 15, until: 30)) == [3, 4])
        #expect(try versions(EventFilter(limit: 2, reverse: true)) == [4, 3])
    }

    @Test(
        "a client-supplied event id that is already stored is a clear error, and nothing is appended",
        arguments: StoreBackend.all)
    func reusedEventID(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let id = "0190a6b2-1c3d-7e4f-8a5b-6c7d8e9f0a1b"
        try store.startSession("s", eventID: id)
        #expect(
            throws: StoreError.eventIDExists(id)
        ) {
            try store.execute(.push(.titled("A")), session: "s", eventID: id)
        }
        #expect(try store.state(session: "s").version == 1)
    }

    @Test(
        "an update to a canonically equivalent but different title is recorded, not dropped as no change",
        arguments: StoreBackend.all)
    func exactUpdate(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s")
        try store.execute(.push(.titled("A", "caf\u{E9}")), session: "s")
        let result = try store.updateItem("A", session: "s") { $0.title = "cafe\u{301}" }
        #expect(result.event?.type == "item.updated")
        #expect(
            try store.state(session: "s").state.topEntry?.item.title?.unicodeScalars.elementsEqual(
                "cafe\u{301}".unicodeScalars) == true)
    }

    @Test(
        "one store shared by concurrent tasks serializes them: no lost update, no gap", arguments: StoreBackend.all)
    func concurrentCallers(backend: StoreBackend) async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        try store.startSession("s")
        try store.execute(.push(.titled("root")), session: "s")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for n in 0..<50 { try store.execute(.push(.titled("t\(task)-\(n)")), session: "s") }
                }
            }
            try await group.waitForAll()
        }
        let events = try store.allEvents(session: "s")
        #expect(events.map(\.version) == Array(1...402))
        #expect(try await store.state(session: "s").state.depth == 401)
        // A store error thrown inside the lock reaches the caller, and the store keeps working.
        #expect(throws: StoreError.sessionNotFound("missing")) { try store.execute(.back, session: "missing") }
        #expect(try store.execute(.pop(source: .programmatic), session: "s").version == 403)
    }

    // SQLite only: it reads the database file or runs SQLite's own SQL on it.
    @Test("the database file is created owner-only", arguments: [StoreBackend.sqlite])
    func ownerOnly(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s")
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test(
        "reads of a missing database (no file, or an empty PostgreSQL schema) are refused and create nothing",
        arguments: StoreBackend.all)
    func missingDatabase(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let path = backend == .sqlite ? dir.path("missing.sqlite") : try backend.location(dir)
        #expect(throws: StoreError.databaseNotFound(path: path)) { try NavigationStore(path: path, create: false) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == [])
        #expect(try !NavigationStore.databaseExists(at: path))
    }
}
