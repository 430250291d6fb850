import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Tampered projections and snapshots, changed with plain SQL behind the store's back, on both
/// backends (PostgreSQL stores the same JSON text in the same tables).
@Suite("NavigationStore: check and rebuild name what differs")
struct MaintenanceTests {
    /// Session `s`: A (Inbox, routed), B (Mail) on the base layer; M presented, modal in presentation.
    static func populated(_ dir: TemporaryDirectory, _ backend: StoreBackend) throws -> NavigationStore {
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 1_000)
        try store.append(
            contentsOf: [
                .push(
                    Entry(
                        id: "A", route: "mail://inbox", params: ["folder": .string("INBOX")],
                        item: NavigationItem(title: "Inbox"))),
                .push(.titled("B", "Mail")),
                .present(.titled("M", "Compose"), modalInPresentation: true),
            ], session: "s", at: 2_000)
        return store
    }

    /// Changes the projection with plain SQL (one or more statements) through a second
    /// connection to `store`'s database (the `entries` and `layers` projections are not
    /// append-only, only `events` is).
    static func tamper(_ store: NavigationStore, _ sql: String) throws {
        try executeSQL(sql, on: store)
    }

    /// A second store on `store`'s database, as another process would open it.
    static func reopen(_ store: NavigationStore, options: StoreOptions = StoreOptions()) throws -> NavigationStore {
        try NavigationStore(path: store.path, options: options)
    }

    @Test(
        "check and rebuild --verify name the layer, position, entry and fields of the first difference",
        arguments: StoreBackend.each([
            (
                "UPDATE entries SET item = '{\"title\":\"Spam\",\"menuTitle\":\"x\"}' WHERE entry_id = 'B'",
                "layer 0, position 1, entry 'B': item fields title, menuTitle differ"
            ),
            (
                "UPDATE entries SET route = 'mail://spam', params = '{\"folder\":\"SPAM\"}' WHERE entry_id = 'A'",
                "layer 0, position 0, entry 'A': route; params differ"
            ),
            (
                "UPDATE entries SET params = NULL WHERE entry_id = 'A'; UPDATE entries SET item = '{}' WHERE entry_id = 'M'",
                "layer 0, position 0, entry 'A': params differ (and 1 more difference)"
            ),
            (
                "UPDATE layers SET modal_in_presentation = 0 WHERE layer = 1",
                "layer 1: modalInPresentation is false in the projection, true in the fold"
            ),
            (
                "UPDATE layers SET navigation_bar_hidden = 1 WHERE layer = 1",
                "layer 1: navigationBarHidden is true in the projection, false in the fold"
            ),
            (
                "UPDATE entries SET entry_id = 'X' WHERE entry_id = 'B'",
                "layer 0, position 1: entry 'X' in the projection, 'B' in the fold"
            ),
            (
                "DELETE FROM entries WHERE entry_id = 'B'",
                "layer 0, position 1: entry 'B' is missing from the projection"
            ),
            (
                "INSERT INTO entries (session_id, layer, position, entry_id, item) VALUES (1, 0, 2, 'Z', '{}')",
                "layer 0, position 2: entry 'Z' is in the projection but not in the fold"
            ),
            (
                "DELETE FROM entries WHERE layer = 1; DELETE FROM layers WHERE layer = 1",
                "layer 1 [M] is missing from the projection"
            ),
        ]))
    func tamperedProjection(sql: String, difference: String, backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try Self.populated(dir, backend)
        try Self.tamper(store, sql)
        let check = try store.check()
        #expect(check.problems == ["session 's': projection differs from the fold of the log: \(difference)"])
        let rebuilt = try store.rebuild(verify: true)
        #expect(rebuilt.differences == ["session 's': projection differed from the fold of the log: \(difference)"])
        #expect(try store.check().isClean)
    }

    @Test("a tampered snapshot is named the same way", arguments: StoreBackend.all)
    func tamperedSnapshot(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        var options = StoreOptions()
        options.snapshotInterval = 2
        let store = try makeStore(dir, on: backend, options: options)
        try store.startSession("s", at: 1_000)
        try store.append(
            contentsOf: [.push(.titled("A", "Inbox")), .push(.titled("B", "Mail"))], session: "s", at: 2_000)
        try Self.tamper(
            store,
            #"UPDATE snapshots SET state = '{"layers":[{"entries":[{"id":"A","item":{"title":"Outbox"}}],"modalInPresentation":false}]}' WHERE version = 2"#
        )
        #expect(
            try store.check().problems
                == [
                    "session 's': snapshot at version 2 differs from the fold of the log: layer 0, position 0, entry 'A': item fields title differ"
                ])
    }

    @Test(
        "an unreadable projection row is a problem naming the session, layer, position, entry and what is wrong",
        arguments: StoreBackend.each([
            ("item = 'not json'", "item 'not json' is not a navigation item (not JSON)"),
            (
                #"item = '{"title":5}'"#,
                #"item '{"title":5}' is not a navigation item (expected a string at title, found a number"#
            ),
            ("item = '[]'", "item '[]' is not a navigation item (expected an object, found an array"),
            ("params = 'oops'", "params 'oops' are not a JSON object (not JSON)"),
            (
                #"item = '{"backButtonDisplayMode":"weird"}'"#,
                #"item '{"backButtonDisplayMode":"weird"}' is not a navigation item (unknown backButtonDisplayMode 'weird' (known: default, generic, minimal) at backButtonDisplayMode)"#
            ),
        ]))
    func unreadableProjectionRow(assignment: String, problem: String, backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try Self.populated(dir, backend)
        try Self.tamper(store, "UPDATE entries SET \(assignment) WHERE entry_id = 'B'")
        let row = "session 's': projection row at layer 0, position 1, entry 'B' cannot be read: \(problem)"
        let check = try store.check()
        #expect(check.problems.count == 1)
        #expect(check.problems.first?.hasPrefix(row) == true, "\(check.problems)")
        #expect(
            check.problems.first?.hasSuffix("; a rebuild rewrites it from the log") == true, "\(check.problems)")
        // The current state cannot be read, and the error says which row and how to repair it.
        let reopened = try Self.reopen(store)
        let error = #expect(throws: StoreError.self) { try reopened.state(session: "s") }
        guard case .unreadableRow(_, let unreadable)? = error else {
            Issue.record("expected unreadableRow, got \(String(describing: error))")
            return
        }
        let reason = unreadable.description
        #expect(reason.hasPrefix(row) && reason.hasSuffix("a rebuild rewrites it from the log"), "\(reason)")
        // A past version does not read the projection.
        #expect(try reopened.state(session: "s", at: .version(3)).state.entryIDs == [["A", "B"]])
        let rebuilt = try reopened.rebuild(verify: true)
        #expect(rebuilt.differences.count == 1)
        #expect(rebuilt.differences.first?.hasPrefix(row) == true, "\(rebuilt.differences)")
        #expect(try reopened.check().isClean)
        #expect(try reopened.state(session: "s").state.entryIDs == [["A", "B"], ["M"]])
    }

    @Test(
        "an unreadable snapshot is a problem for check and a difference for rebuild --verify; historical reads pass over it",
        arguments: StoreBackend.all)
    func unreadableSnapshot(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        var options = StoreOptions()
        options.snapshotInterval = 2
        let store = try makeStore(dir, on: backend, options: options)
        try store.startSession("s", at: 1_000)
        try store.append(
            contentsOf: ["A", "B", "C", "D"].map { .push(.titled($0, "Title \($0)")) }, session: "s", at: 2_000)
        let expected = try (1...5).map { try store.state(session: "s", at: .version($0)).state }
        try Self.tamper(store, "UPDATE snapshots SET state = 'garbage' WHERE version = 4")
        let reopened = try Self.reopen(store, options: options)
        // Version 4 folds from the snapshot at 2; version 3 too.
        #expect(try reopened.state(session: "s", at: .version(4)).state == expected[3])
        #expect(try reopened.state(session: "s", at: .version(3)).state == expected[2])
        #expect(
            try reopened.check().problems == [
                "session 's': snapshot at version 4 cannot be read: state 'garbage' is not a session state (not JSON); a rebuild rewrites it from the log"
            ])
        // With every snapshot unreadable, a historical read folds from the start.
        try Self.tamper(store, #"UPDATE snapshots SET state = '{"layers":5}' WHERE version = 2"#)
        let again = try Self.reopen(store, options: options)
        for version in 1...4 {
            #expect(try again.state(session: "s", at: .version(version)).state == expected[version - 1])
        }
        let check = try again.check()
        #expect(check.snapshots == 2)
        #expect(check.problems.count == 2)
        #expect(
            check.problems.first?.hasPrefix(
                "session 's': snapshot at version 2 cannot be read: state '{\"layers\":5}' is not a session state (")
                == true, "\(check.problems)")
        let rebuilt = try again.rebuild(verify: true)
        #expect(rebuilt.differences.count == 2)
        #expect(
            rebuilt.differences.last
                == "session 's': snapshot at version 4 cannot be read: state 'garbage' is not a session state (not JSON)"
        )
        #expect(try again.check().isClean)
        #expect(try again.state(session: "s", at: .version(4)).state == expected[3])
    }

    @Test(
        "a title changed to a canonically equivalent spelling is a difference in a projection and a snapshot",
        arguments: StoreBackend.all)
    func canonicallyEquivalentTitle(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        var options = StoreOptions()
        options.snapshotInterval = 3
        let store = try makeStore(dir, on: backend, options: options)
        try store.startSession("s", at: 1_000)
        try store.append(
            contentsOf: [
                .push(.titled("A", "Caf\u{E9}")), .push(Entry(id: "B", params: ["k\u{E9}y": .string("\u{E9}")])),
            ],
            session: "s", at: 2_000)
        try Self.tamper(
            store,
            """
            UPDATE entries SET item = '{"title":"Cafe\u{301}"}' WHERE entry_id = 'A';
            UPDATE snapshots SET state = '{"layers":[{"entries":[{"id":"A","item":{"title":"Caf\u{E9}"}},{"id":"B","params":{"ke\u{301}y":"\u{E9}"}}],"modalInPresentation":false}]}' WHERE version = 3;
            """)
        let reopened = try Self.reopen(store, options: options)
        #expect(
            try reopened.check().problems == [
                "session 's': snapshot at version 3 differs from the fold of the log: layer 0, position 1, entry 'B': params differ",
                "session 's': projection differs from the fold of the log: layer 0, position 0, entry 'A': item fields title differ",
            ])
        #expect(
            try reopened.rebuild(verify: true).differences == [
                "session 's': snapshot at version 3 differed from the fold of the log: layer 0, position 1, entry 'B': params differ",
                "session 's': projection differed from the fold of the log: layer 0, position 0, entry 'A': item fields title differ",
            ])
        #expect(try reopened.check().isClean)
        let title = try #require(try reopened.state(session: "s").state.layers[0].entries[0].item.title)
        #expect(Array(title.unicodeScalars) == Array("Caf\u{E9}".unicodeScalars))
    }

    @Test(
        "vacuum, alone or after a deletion, keeps every remaining state and leaves check clean",
        arguments: StoreBackend.all)
    func vacuumKeepsStates(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try Self.populated(dir, backend)
        let states = try (1...4).map { try store.state(session: "s", at: .version($0)).state }
        try store.startSession("gone", at: 3_000)
        try store.execute(.push(.titled("X", "Gone")), session: "gone", at: 3_001)
        let deleted = try store.deleteSession("gone", vacuum: true)
        #expect(deleted.vacuumed && deleted.walTruncated && deleted.events == 2, "\(deleted)")
        let vacuumed = try store.vacuum()
        #expect(vacuumed.vacuumed && vacuumed.walTruncated && vacuumed.sessions.isEmpty, "\(vacuumed)")
        // A vacuum measures the bytes before and after it; a removal without one does not.
        let measured: StorageChange.Measured = backend == .sqlite ? .sqliteFile : .postgresqlTables
        #expect(deleted.storage?.measured == measured && vacuumed.storage?.measured == measured, "\(vacuumed)")
        if let storage = vacuumed.storage {
            #expect(storage.reclaimed == storage.before - storage.after && storage.after > 0)
        }
        if backend == .sqlite {
            let size = try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int
            #expect(vacuumed.storage?.after == size.map(Int64.init), "the file, its -wal truncated to nothing")
        }
        try store.startSession("kept", at: 4_000)
        #expect(try store.deleteSession("kept").storage == nil)
        let reopened = try Self.reopen(store)
        #expect(try reopened.sessions().map(\.key) == ["s"])
        #expect(try (1...4).map { try reopened.state(session: "s", at: .version($0)).state } == states)
        #expect(try reopened.check().isClean)
    }

    @Test("the differences of two states, all of them, in order")
    func stateDifferences() {
        let expected = SessionState(layers: [
            Layer(entries: [
                .titled("A", "Inbox"),
                Entry(id: "B", route: "r", item: NavigationItem(title: "Mail", hidesBackButton: true)),
            ]),
            Layer(entries: [.titled("M")], modalInPresentation: true),
        ])
        var actual = expected
        actual.layers[0].entries[1].item.hidesBackButton = false
        actual.layers[0].entries[1].route = nil
        actual.layers[1].modalInPresentation = false
        actual.layers[1].entries.append(.titled("N"))
        #expect(
            actual.differences(from: expected, name: "mine", expectedName: "yours") == [
                "layer 0, position 1, entry 'B': route; item fields hidesBackButton differ",
                "layer 1: modalInPresentation is false in mine, true in yours",
                "layer 1, position 1: entry 'N' is in mine but not in yours",
            ])
        #expect(expected.differences(from: expected, name: "mine", expectedName: "yours").isEmpty)
        #expect(
            SessionState().firstDifference(from: expected, name: "mine", expectedName: "yours")
                == "layer 0, position 0: entry 'A' is missing from mine (and 2 more differences)")
        #expect(
            expected.firstDifference(
                from: SessionState(layers: [expected.layers[0]]), name: "mine", expectedName: "yours")
                == "layer 1 [M] is in mine but not in yours")
    }
}
