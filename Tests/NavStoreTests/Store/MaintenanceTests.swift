import Foundation
import Testing
@testable import NavStore

@Suite("NavigationStore: check and rebuild name what differs")
struct MaintenanceTests {
    /// Session `s`: A (Inbox, routed), B (Mail) on the base layer; M presented, modal in presentation.
    static func populated(_ dir: TemporaryDirectory) throws -> NavigationStore {
        let store = try makeStore(dir)
        try store.startSession("s", at: 1_000)
        try store.append(contentsOf: [
            .push(Entry(id: "A", route: "mail://inbox", params: ["folder": .string("INBOX")], item: NavigationItem(title: "Inbox"))),
            .push(.titled("B", "Mail")),
            .present(.titled("M", "Compose"), modalInPresentation: true),
        ], session: "s", at: 2_000)
        return store
    }

    /// Changes the projection with plain SQL through a second connection (the `entries` and
    /// `layers` projections are not append-only, only `events` is).
    static func tamper(_ dir: TemporaryDirectory, _ sql: String) throws {
        let db = try Connection(path: dir.path("nav.sqlite"), mode: .readWrite)
        defer { db.close() }
        try db.execute(sql)
    }

    @Test("check and rebuild --verify name the layer, position, entry and fields of the first difference", arguments: [
        ("UPDATE entries SET item = '{\"title\":\"Spam\",\"menuTitle\":\"x\"}' WHERE entry_id = 'B'",
         "layer 0, position 1, entry 'B': item fields title, menuTitle differ"),
        ("UPDATE entries SET route = 'mail://spam', params = '{\"folder\":\"SPAM\"}' WHERE entry_id = 'A'",
         "layer 0, position 0, entry 'A': route; params differ"),
        ("UPDATE entries SET params = NULL WHERE entry_id = 'A'; UPDATE entries SET item = '{}' WHERE entry_id = 'M'",
         "layer 0, position 0, entry 'A': params differ (and 1 more difference)"),
        ("UPDATE layers SET modal_in_presentation = 0 WHERE layer = 1",
         "layer 1: modalInPresentation is false in the projection, true in the fold"),
        ("UPDATE entries SET entry_id = 'X' WHERE entry_id = 'B'",
         "layer 0, position 1: entry 'X' in the projection, 'B' in the fold"),
        ("DELETE FROM entries WHERE entry_id = 'B'",
         "layer 0, position 1: entry 'B' is missing from the projection"),
        ("INSERT INTO entries (session_id, layer, position, entry_id, item) VALUES (1, 0, 2, 'Z', '{}')",
         "layer 0, position 2: entry 'Z' is in the projection but not in the fold"),
        ("DELETE FROM entries WHERE layer = 1; DELETE FROM layers WHERE layer = 1",
         "layer 1 [M] is missing from the projection"),
    ])
    func tamperedProjection(sql: String, difference: String) throws {
        let dir = TemporaryDirectory()
        let store = try Self.populated(dir)
        try Self.tamper(dir, sql)
        let check = try store.check()
        #expect(check.problems == ["session 's': projection differs from the fold of the log: \(difference)"])
        let rebuilt = try store.rebuild(verify: true)
        #expect(rebuilt.differences == ["session 's': projection differed from the fold of the log: \(difference)"])
        #expect(try store.check().isClean)
    }

    @Test("a tampered snapshot is named the same way")
    func tamperedSnapshot() throws {
        let dir = TemporaryDirectory()
        var options = StoreOptions()
        options.snapshotInterval = 2
        let store = try makeStore(dir, options: options)
        try store.startSession("s", at: 1_000)
        try store.append(contentsOf: [.push(.titled("A", "Inbox")), .push(.titled("B", "Mail"))], session: "s", at: 2_000)
        try Self.tamper(dir, #"UPDATE snapshots SET state = '{"layers":[{"entries":[{"id":"A","item":{"title":"Outbox"}}],"modalInPresentation":false}]}' WHERE version = 2"#)
        #expect(try store.check().problems
            == ["session 's': snapshot at version 2 differs from the fold of the log: layer 0, position 0, entry 'A': item fields title differ"])
    }

    @Test("the differences of two states, all of them, in order")
    func stateDifferences() {
        let expected = SessionState(layers: [
            Layer(entries: [.titled("A", "Inbox"), Entry(id: "B", route: "r", item: NavigationItem(title: "Mail", hidesBackButton: true))]),
            Layer(entries: [.titled("M")], modalInPresentation: true),
        ])
        var actual = expected
        actual.layers[0].entries[1].item.hidesBackButton = false
        actual.layers[0].entries[1].route = nil
        actual.layers[1].modalInPresentation = false
        actual.layers[1].entries.append(.titled("N"))
        #expect(actual.differences(from: expected, name: "mine", expectedName: "yours") == [
            "layer 0, position 1, entry 'B': route; item fields hidesBackButton differ",
            "layer 1: modalInPresentation is false in mine, true in yours",
            "layer 1, position 1: entry 'N' is in mine but not in yours",
        ])
        #expect(expected.differences(from: expected, name: "mine", expectedName: "yours").isEmpty)
        #expect(SessionState().firstDifference(from: expected, name: "mine", expectedName: "yours")
            == "layer 0, position 0: entry 'A' is missing from mine (and 2 more differences)")
        #expect(expected.firstDifference(from: SessionState(layers: [expected.layers[0]]), name: "mine", expectedName: "yours")
            == "layer 1 [M] is in mine but not in yours")
    }
}
