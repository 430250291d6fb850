import Foundation
import NavStore
import TestSupport
import Testing

/// The `async` forms of the reads (and the restore) an app makes on the main thread: each gives
/// what its synchronous form gives, throws what it throws, and a restore counts its attempt.
@Suite("Async forms of an app's reads")
struct AsyncFormsTests {
    static func store(_ directory: TemporaryDirectory) throws -> NavigationStore {
        let store = try makeStore(directory)
        try store.startSession("s", name: "Main", at: 1_000)
        try store.execute(.push(Entry(id: "a", item: NavigationItem(title: "Inbox"))), session: "s", at: 2_000)
        try store.execute(.push(Entry(id: "b", item: NavigationItem(title: "Mail"))), session: "s", at: 3_000)
        return store
    }

    @Test("each async read equals its synchronous form")
    @MainActor
    func sameAsSynchronous() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        #expect(try await store.sessions() == (try store.sessions()))
        #expect(try await store.sessionInfo("s") == (try store.sessionInfo("s")))
        let now = try await store.state(session: "s")
        #expect(now == (try await store.state(session: "s")))
        #expect(now.state.backButton?.label == "Inbox")
        #expect(try await store.state(session: "s", at: .version(2)) == (try store.state(session: "s", at: .version(2))))
        #expect(
            try await store.state(session: "s", platform: .ios26) == (try store.state(session: "s", platform: .ios26)))
        #expect(try await store.version(session: "s", at: .time(2_500)) == 2)
        var synchronous: [Event] = []
        try store.events(session: "s") { synchronous.append($0) }
        #expect(try await store.events(session: "s") == synchronous)
        #expect(try await store.events(session: "s", filter: EventFilter(fromVersion: 2)).map(\.version) == [2, 3])
        #expect(try await store.previewRestore(session: "s") == (try store.previewRestore(session: "s")))
    }

    @Test("an async restore counts its attempt and marks; an acknowledgement clears the count")
    func restoreCounts() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        let first = try await store.restore(session: "s", mark: true, at: 4_000)
        #expect(first.layers[0].entries.map(\.id) == ["a", "b"] && first.attempts == 1)
        #expect(try await store.sessionInfo("s").version == 4)  // the marker
        #expect(try await store.previewRestore(session: "s").attempts == 2)
        _ = try await store.acknowledgeRestore(session: "s", at: 5_000)
        #expect(try await store.previewRestore(session: "s").attempts == 1)
    }

    @Test("the async forms throw the synchronous forms' errors, typed")
    func errors() async throws {
        let directory = try TemporaryDirectory()
        let store = try Self.store(directory)
        await #expect(throws: StoreError.sessionNotFound("nope")) { try await store.sessionInfo("nope") }
        await #expect(throws: StoreError.sessionNotFound("nope")) { try await store.state(session: "nope") }
        await #expect(throws: StoreError.sessionNotFound("nope")) { try await store.restore(session: "nope") }
        do {
            _ = try await store.state(session: "s", at: .version(9))
            Issue.record("a version past the log was read")
        } catch {
            // Typed: a StoreError without a cast.
            guard case .pointOutOfRange = error else { Issue.record("\(error)"); return }
        }
        await #expect(throws: StoreError.self) { try await store.restore(session: "s", expectedVersion: 1) }
        #expect(try await store.sessionInfo("s").version == 3)  // nothing appended by the refused restore
    }
}
