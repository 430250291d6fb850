import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Every reader of the log (folds, rebuild, `events(session:)` for history, export, lint and the
/// report) reads each payload in place with `PayloadReader` and, where the reader hands it on,
/// with both columns made `String`s (invalid UTF-8 repaired, as `Row` reads text) and decoded by
/// `EventBody`. Rows written by another tool must read the same both ways, and alike in history
/// and in a fold.
@Suite("Streamed events: the in-place read agrees with the String path on rows of another writer")
struct StreamedEventTests {
    /// The body the old path made of a row: its type and payload as `String`s.
    private func reference(type: String, payload: [UInt8]) throws -> EventBody {
        let repaired = String(decoding: payload, as: UTF8.self)
        return try EventBody(type: type, payload: Array(repaired.utf8))
    }

    @Test(
        "payloads the reader takes, hands on (whitespace, escapes, unknown shapes) or cannot read (invalid UTF-8, repaired) stream as the String path reads them",
        arguments: [
            Array(#"{"entry":{"id":"X","item":{"title":"Plain"}}}"#.utf8),
            Array(#"{ "entry" : { "id" : "X" , "item" : { "title" : "Spaced" } } }"#.utf8),
            Array(#"{"entry":{"id":"X","item":{"title":"Esc\u00e9\n"}}}"#.utf8),
            Array(#"{"entry":{"id":"X","params":{"b":1,"a":[1.5,null,{"k":"v"}]}}}"#.utf8),
            Array(#"{"entry":{"id":"X","item":{"title":"Bad "#.utf8) + [0xFF, 0xC3] + Array(#""}}}"#.utf8),
            Array(#"{"entry":{"id":"X"#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8),
        ])
    func foreignPayloads(payload: [UInt8]) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s", at: 1_000)
        let db = try Connection(path: dir.path("nav.sqlite"), mode: .readWrite)
        let hex = payload.map { String(format: "%02X", $0) }.joined()
        try db.execute(
            """
            INSERT INTO events (session_id, version, type, at, event_id, payload)
            VALUES (1, 2, 'entry.pushed', 2000, '019ad3f2-7c41-7a3e-8d21-5f0c3b9e4a17', CAST(X'\(hex)' AS TEXT))
            """)
        db.close()
        let streamed = try store.allEvents(session: "s")
        #expect(streamed.count == 2)
        let expected = try reference(type: "entry.pushed", payload: payload)
        #expect(streamed.last?.body == expected)
        // The fold reads it alike: a state at the version and a rebuild of the projection from
        // the log (which an event another tool appended needs) answer with the same entry.
        guard case .entryPushed(let entry) = expected else {
            Issue.record("not a push: \(expected)")
            return
        }
        let other = try Connection(path: dir.path("nav.sqlite"), mode: .readWrite)
        try other.execute("UPDATE sessions SET version = 2 WHERE id = 1")
        other.close()
        _ = try store.rebuild()
        #expect(try store.state(session: "s", at: .version(2)).state.topEntry == entry)
        #expect(try store.state(session: "s").state.topEntry == entry)
    }
}
