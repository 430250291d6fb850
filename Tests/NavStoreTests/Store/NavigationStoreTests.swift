import Foundation
import Testing
@testable import NavStore

@Suite("NavigationStore: appending and reading")
struct NavigationStoreTests {
    @Test("a session starts at version 1 and pushes append versions 2, 3, ...")
    func startAndPush() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
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

    @Test("a refused command appends nothing and names the stack")
    func refusedAppendsNothing() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s")
        #expect(throws: StoreError.rules(.cannotPopRoot(root: "A", layer: 0, stack: "[A]"))) {
            try store.execute(.pop(source: .programmatic), session: "s")
        }
        #expect(try store.state(session: "s").version == 2)
    }

    @Test("a stale expected version is a conflict, not a lost update")
    func expectedVersionConflict() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s", expectedVersion: 1)
        #expect(throws: StoreError.versionConflict(session: "s", expected: 1, actual: 2)) {
            try store.execute(.push(.titled("B")), session: "s", expectedVersion: 1)
        }
        #expect(try store.state(session: "s").state.entryIDs == [["A"]])
    }

    @Test("starting a session takes an expected version: 0, the version of a session that does not exist yet")
    func startSessionExpectedVersion() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
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

    @Test("a guarded back tap is vetoed and the veto is recorded")
    func vetoRecorded() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s")
        try store.execute(.push(Entry(id: "B", item: NavigationItem(popGuard: PopGuard(prompt: "Discard?")))), session: "s")
        let result = try store.execute(.pop(source: .backButton), session: "s")
        #expect(result.outcome == .vetoed && result.version == 4)
        #expect(result.event?.type == "pop.vetoed")
        #expect(try store.state(session: "s").state.entryIDs == [["A", "B"]])
    }

    @Test("an explicit time earlier than the previous event is refused")
    func timeNeverGoesBack() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s", at: 1_000)
        #expect(throws: StoreError.timeBeforePrevious(session: "s", given: 999, previous: 1_000)) {
            try store.execute(.push(.titled("A")), session: "s", at: 999)
        }
        try store.execute(.push(.titled("A")), session: "s", at: 1_000)
    }

    @Test("the projection survives reopening and equals a fold of the log")
    func reopen() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try makeStore(dir)
            try store.startSession("s")
            try store.execute(.push(.titled("A", "Home")), session: "s")
            try store.execute(.push(.titled("B", "")), session: "s")
            try store.execute(.present(.titled("M", "Compose"), modalInPresentation: true), session: "s")
            try store.execute(.push(.titled("N")), session: "s")
            try store.updateItem("A", session: "s") { $0.backButtonTitle = "Mailboxes" }
        }
        let store = try makeStore(dir)
        let now = try store.state(session: "s")
        var bodies: [EventBody] = []
        try store.events(session: "s") { bodies.append($0.body) }
        #expect(now.state == SessionState.fold(bodies))
        #expect(now.state.layers[1].modalInPresentation)
        #expect(now.state.layers[0].entries[1].item.title == "")
        #expect(now.state.layers[0].entries[0].item.backButtonTitle == "Mailboxes")
    }

    @Test("state at every version equals a fold of the first v events", arguments: [1, 3, 64])
    func timeTravel(interval: Int) throws {
        let dir = TemporaryDirectory()
        var options = StoreOptions()
        options.snapshotInterval = interval
        let store = try makeStore(dir, options: options)
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

    @Test("history filters by type, entry, time, limit and order")
    func historyFilters() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
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

    @Test("the database file is created owner-only")
    func ownerOnly() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s")
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("reads of a missing database are refused and create nothing")
    func missingDatabase() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("missing.sqlite")
        #expect(throws: StoreError.databaseNotFound(path: path)) { try NavigationStore(path: path, create: false) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
