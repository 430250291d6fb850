import NavStore
import NavStoreTools
import TestSupport
import Testing

/// `EventFeed` across deletions: SQLite gives the seq numbers of deleted newest rows to later
/// ones, and a key started again may get the deleted session's row id.
@Suite("EventFeed: deletions, truncations and reused numbers")
struct EventFeedTests {
    /// Every item the feed has now.
    static func drain(_ feed: inout EventFeed) throws -> [EventFeed.Item] {
        var all: [EventFeed.Item] = []
        while true {
            let items = try feed.read(limit: 3)
            if items.isEmpty { return all }
            all += items
        }
    }

    static func events(_ items: [EventFeed.Item]) -> [String] {
        items.map { item in
            switch item {
            case .event(let event): "\(event.session)@\(event.version)"
            case .sessionDeleted(let key): "deleted \(key)"
            case .sessionTruncated(let key, let base): "truncated \(key) at \(base)"
            }
        }
    }

    @Test("truncate, delete and start again (the whole log emptied): every new event once", arguments: [false, true])
    func emptiedLog(followAll: Bool) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory)
        try store.startSession("s", at: 1_000)
        try store.execute(.push(Entry(id: "A")), session: "s", at: 2_000)
        try store.execute(.push(Entry(id: "B")), session: "s", at: 3_000)
        var feed = EventFeed(store: store, sessions: followAll ? nil : ["s"])
        #expect(try Self.drain(&feed).isEmpty)  // only what is committed after the start
        try store.execute(.push(Entry(id: "C")), session: "s", at: 4_000)
        #expect(Self.events(try Self.drain(&feed)) == ["s@4"])
        _ = try store.truncateSession("s", before: 3)
        #expect(Self.events(try Self.drain(&feed)) == ["truncated s at 2"])
        _ = try store.deleteSession("s")
        // The log is empty now: the next rows get seq 1, 2, ... again, and "s" may get the same id.
        try store.startSession("s", at: 5_000)
        try store.execute(.push(Entry(id: "D")), session: "s", at: 6_000)
        #expect(Self.events(try Self.drain(&feed)) == ["deleted s", "s@1", "s@2"])
        try store.execute(.push(Entry(id: "E")), session: "s", at: 7_000)
        #expect(Self.events(try Self.drain(&feed)) == ["s@3"])
    }

    @Test("a deletion does not give again what was there before the start (no first version)")
    func nothingOldAfterADeletion() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory)
        try store.startSession("old", at: 1_000)
        try store.execute(.push(Entry(id: "A")), session: "old", at: 2_000)
        try store.startSession("gone", at: 3_000)
        var feed = EventFeed(store: store)
        #expect(try Self.drain(&feed).isEmpty)
        _ = try store.deleteSession("gone")
        try store.execute(.push(Entry(id: "B")), session: "old", at: 4_000)
        #expect(Self.events(try Self.drain(&feed)) == ["deleted gone", "old@3"])
    }

    @Test("from a first version: the history from it, then what comes, across a deletion of another session")
    func fromVersion() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory)
        try store.startSession("a", at: 1_000)
        try store.execute(.push(Entry(id: "A")), session: "a", at: 2_000)
        try store.execute(.push(Entry(id: "B")), session: "a", at: 3_000)
        try store.startSession("b", at: 3_500)
        var feed = EventFeed(store: store, from: 2)
        #expect(Self.events(try Self.drain(&feed)) == ["a@2", "a@3"])
        _ = try store.deleteSession("b")
        try store.execute(.push(Entry(id: "C")), session: "a", at: 4_000)
        #expect(Self.events(try Self.drain(&feed)) == ["deleted b", "a@4"])
    }
}
