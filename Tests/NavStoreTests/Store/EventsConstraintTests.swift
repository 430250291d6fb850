import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The constraints of the `events` table hold against other writers, not only against the store:
/// they are why the store keeps them although its own appends never break them (the sessions
/// foreign key costs SQLite work on every append, and the store reads the session row in the same
/// write transaction before every append).
@Suite("The events table's constraints against another writer")
struct EventsConstraintTests {
    @Test(
        "another connection with foreign keys on cannot store an event of no session, version 0 or a taken version",
        arguments: [
            ("session_id 999", "999, 3", "FOREIGN KEY constraint failed"),
            ("version 0", "1, 0", "CHECK constraint failed"),
            ("a taken version", "1, 2", "UNIQUE constraint failed: events.session_id, events.version"),
        ])
    func foreignWriterRefused(label: String, sessionAndVersion: String, message: String) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s", at: 1_000)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 2_000)
        let before = try store.allEvents()

        let db = try Connection(path: dir.path("nav.sqlite"), mode: .readWrite)
        try db.execute("PRAGMA foreign_keys = ON")
        let insert = """
            INSERT INTO events (session_id, version, type, at, event_id, payload)
            VALUES (\(sessionAndVersion), 'entry.pushed', 3000, '019ad3f2-7c41-7a3e-8d21-5f0c3b9e4a17', '{"entry":{"id":"X"}}')
            """
        do {
            try db.execute(insert)
            Issue.record("\(label): the insert was stored")
        } catch {
            #expect(error.message.contains(message), "\(label): \(error.message)")
        }
        db.close()

        #expect(try store.allEvents() == before, "\(label)")
        let check = try store.check()
        #expect(check.isClean, "\(label): \(check.problems)")
    }
}
