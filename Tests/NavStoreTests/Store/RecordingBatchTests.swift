import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The store's multi-session batch (the recorder's writer) and its live feed of committed events.
@Suite("Recording batch and event feed")
struct RecordingBatchTests {
    static func push(_ id: String) -> NavigationCommand { .push(Entry(id: id, item: NavigationItem(title: id))) }

    @Test(
        "one transaction over several sessions: each command decided against the running state, a refusal skipped",
        arguments: StoreBackend.all)
    func batch(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend)
        try store.startSession("old", at: 5_000)
        try store.execute(Self.push("R"), session: "old", at: 6_000)
        let outcomes = try store.recordBatch { batch -> [String] in
            var outcomes: [String] = []
            func record(_ command: NavigationCommand, _ key: String, _ at: Int64) throws {
                switch try batch.record(command, session: key, at: at, platform: .ios26) {
                case .appended(let version): outcomes.append("\(key) v\(version)")
                case .unchanged: outcomes.append("\(key) unchanged")
                case .refused(let error): outcomes.append("\(key) refused: \(error)")
                }
            }
            try record(Self.push("A"), "new", 1_000)
            try record(Self.push("A"), "new", 1_001)  // A is live now: refused
            try record(Self.push("B"), "old", 1_000)  // before old's last event: timed at 6,000
            try record(.popTo(entryID: "B"), "old", 7_000)  // nothing to pop
            try record(Self.push("C"), "new", 1_002)
            try record(.pop(source: .backButton), "new", 1_003)
            return outcomes
        }
        #expect(
            outcomes == [
                "new v2", "new refused: entry 'A' is already live in layer 0 (stack: [A]); ids must be unique",
                "old v3",
                "old unchanged", "new v3", "new v4",
            ])
        let new = try store.allEvents(session: "new")
        #expect(new.map(\.type) == ["session.started", "entry.pushed", "entry.pushed", "entries.popped"])
        #expect(new[0].body == .sessionStarted(name: nil, platform: .ios26) && new[0].at == 1_000)
        #expect(try store.allEvents(session: "old").last?.at == 6_000)
        #expect(try store.sessionInfo("new").version == 4)
        #expect(try store.state(session: "new").state.entryIDs == [["A"]])
        #expect(try store.check().isClean)
    }

    @Test("a database error in the batch writes nothing, the sessions it started included")
    func failedBatch() throws {
        let directory = try TemporaryDirectory()
        let store = try NavigationStore(path: directory.path("nav.sqlite"))
        struct Stop: Error {}
        #expect(throws: StoreError.self) {
            try store.recordBatch { batch in
                _ = try batch.record(Self.push("A"), session: "s", at: 1, platform: .ios14)
                throw Stop()
            }
        }
        #expect(try store.sessions().isEmpty)
    }

    @Test(
        "the feed gives history from a version, then what any connection commits, each once; PRAGMA data_version says when"
    )
    func feed() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let writer = try NavigationStore(path: path)
        try writer.startSession("s")
        for index in 0..<10 { try writer.execute(Self.push("E\(index)"), session: "s") }
        var feed = EventFeed(store: try NavigationStore(path: path, create: false), sessions: ["s"], from: 5)
        #expect(try feed.hasNewCommits())
        let first = try feed.read(limit: 3)
        #expect(first.compactMap(Self.version) == [5, 6, 7])
        #expect(try feed.read().compactMap(Self.version) == [8, 9, 10, 11])
        #expect(try feed.read().isEmpty)
        #expect(try !feed.hasNewCommits())
        try writer.startSession("other")
        try writer.execute(Self.push("X"), session: "s")
        #expect(try feed.hasNewCommits())
        #expect(try feed.read().compactMap(Self.version) == [12])
        // Every session, new events only.
        var all = EventFeed(store: try NavigationStore(path: path, create: false))
        #expect(try all.read().isEmpty)
        try writer.execute(Self.push("Y"), session: "other")
        try writer.execute(Self.push("Z"), session: "s")
        #expect(try all.read().compactMap(Self.key) == ["other", "s"])
    }

    @Test("a followed session deleted or truncated is said once; a key started again is followed as a new session")
    func feedRemovals() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let writer = try NavigationStore(path: path)
        try writer.startSession("s")
        try writer.startSession("t")
        for index in 0..<6 {
            try writer.execute(Self.push("E\(index)"), session: "s")
            try writer.execute(Self.push("E\(index)"), session: "t")
        }
        var feed = EventFeed(store: try NavigationStore(path: path, create: false), from: 1)
        #expect(try feed.read(limit: 100).count == 14)
        try writer.truncateSession("t", before: 4)
        _ = try writer.deleteSession("s")
        try writer.startSession("s")
        let items = try feed.read()
        #expect(items.contains(.sessionDeleted(key: "s")))
        #expect(items.contains(.sessionTruncated(key: "t", baseVersion: 3)))
        #expect(items.compactMap(Self.version) == [1])
        #expect(try feed.read().isEmpty)
    }

    static func version(_ item: EventFeed.Item) -> Int? {
        if case .event(let event) = item { event.version } else { nil }
    }

    static func key(_ item: EventFeed.Item) -> String? {
        if case .event(let event) = item { event.session } else { nil }
    }
}
