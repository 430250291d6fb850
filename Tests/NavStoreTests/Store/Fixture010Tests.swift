import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Users' files outlive versions: a database and an export written by navdb 0.1.0
/// (`Tests/Fixtures/navdb-0.1.0/`, a copy of `shared/fixtures/navdb-0.1.0/`) open (migrating a copy) and import with exactly the states
/// 0.1.0 reported, every session being `ios14` (a log without a generation, NavStore.docc/PlatformGenerations.md).
@Suite("navdb 0.1.0 files")
struct Fixture010Tests {
    /// The repository's copy of the fixture (Tests/Fixtures/README.md).
    static let folder = TestData.folder("navdb-0.1.0")

    /// One version of `expected.json`: stack ids per layer, back button, back menu rows (entry, title).
    struct View: Equatable, CustomStringConvertible {
        var stack: [[String]]
        var backButton: BackButton?
        var backMenu: [[String]]?
        var description: String {
            "stack \(stack), button \(backButton.map { "\($0.label) \($0.fallbacks)" } ?? "none"), menu \(backMenu ?? [])"
        }

        init(stack: [[String]], backButton: BackButton?, backMenu: [[String]]?) {
            self.stack = stack
            self.backButton = backButton
            self.backMenu = backMenu
        }

        init(_ state: SessionState) {
            self.init(
                stack: state.entryIDs,
                backButton: state.backButton.map { BackButton(label: $0.label, fallbacks: $0.fallbacks) },
                backMenu: state.backMenu?.map { [$0.entry, $0.title] })
        }
    }

    /// `expected.json`: per session key, the view at each version 1...n.
    static func expected() throws -> [String: [View]] {
        let root =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("expected.json")))
            as! [String: Any]
        var result: [String: [View]] = [:]
        for (key, value) in root["sessions"] as! [String: Any] {
            let views = (value as! [String: Any])["views"] as! [[String: Any]]
            result[key] = views.map { view in
                let button = (view["backButton"] as? [String: Any]).map {
                    BackButton(label: $0["label"] as! String, fallbacks: $0["fallbacks"] as! [String])
                }
                return View(
                    stack: view["stack"] as! [[String]], backButton: button, backMenu: view["backMenu"] as? [[String]])
            }
        }
        return result
    }

    /// Every view of every session read from `store` equals the expected one, and every session is ios14.
    func expectStates(_ store: NavigationStore, _ expected: [String: [View]], _ what: String) throws {
        #expect(Set(try store.sessions().map(\.key)) == Set(expected.keys), "\(what)")
        for (key, views) in expected {
            #expect(try store.sessionInfo(key).platform == .ios14, "\(what) \(key)")
            for (index, view) in views.enumerated() {
                let read = try store.state(session: key, at: .version(index + 1))
                #expect(View(read.state) == view, "\(what): session \(key) version \(index + 1)")
                #expect(read.state.platform == .ios14)
            }
        }
    }

    /// The lines of the 0.1.0 export.
    static func exportLines() throws -> [String] {
        try String(contentsOf: folder.appendingPathComponent("export.ndjson"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    // SQLite only: the 0.1.0 database is an SQLite file (its export is imported on both backends below).
    @Test(
        "the 0.1.0 database opens migrated with exactly the recorded states, and already holds its export")
    func fixture() throws {
        let expected = try Self.expected()
        let dir = try TemporaryDirectory()
        let copy = dir.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("navdb.sqlite").path, toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy)
        let migrated = try NavigationStore(path: copy)
        try expectStates(migrated, expected, "migrated database")
        #expect(try migrated.check().isClean)
        // The export into the migrated database: every event is already there.
        let lines = try Self.exportLines()
        #expect(try migrated.importNDJSON(lines: lines).skipped == lines.count)
    }

    @Test(
        "the migrated 0.1.0 database shows every bar, takes the new events, and keeps its old states")
    func migratedTakesNewEvents() throws {
        let expected = try Self.expected()
        let dir = try TemporaryDirectory()
        let copy = dir.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("navdb.sqlite").path, toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy)
        let store = try NavigationStore(path: copy)
        #expect(store.upgradedFrom != nil)
        for key in expected.keys {
            let state = try store.state(session: key).state
            #expect(state.layers.allSatisfy { !$0.navigationBarHidden }, "\(key)")
            #expect(
                state.layers.flatMap(\.entries).allSatisfy {
                    !$0.item.interactivePopDisabled && !$0.item.contentPopDisabled
                })
        }
        // A session with a back button: hide its bar, record a cancelled swipe before that, restore it.
        let key = try #require(
            expected.keys.sorted().first { try store.state(session: $0).state.backButton != nil },
            "a session with a back button")
        try store.execute(.cancelPop(source: .gesture), session: key)
        try store.execute(.updateLayer(navigationBarHidden: true), session: key)
        let hidden = try store.state(session: key).state
        #expect(hidden.topLayer.navigationBarHidden && hidden.backButton == nil)
        #expect(try store.restore(session: key).layers.last?.navigationBarHidden == true)
        #expect(try store.check().isClean)
        let reopened = try NavigationStore(path: copy)
        #expect(try reopened.state(session: key).state == hidden)
        for (key, views) in expected {
            for (index, view) in views.enumerated() {
                #expect(View(try reopened.state(session: key, at: .version(index + 1)).state) == view)
            }
        }
        #expect(try reopened.rebuild(verify: true).differences.isEmpty)
    }

    @Test(
        "the 0.1.0 export imports with exactly the recorded states, and again skips every event", arguments: StoreBackend.all)
    func importsExport(backend: StoreBackend) throws {
        let expected = try Self.expected()
        let lines = try Self.exportLines()
        let dir = try TemporaryDirectory()
        let imported = try makeStore(dir, on: backend)
        #expect(try imported.importNDJSON(lines: lines).imported == lines.count)
        try expectStates(imported, expected, "imported export")
        #expect(try imported.check().isClean)
        #expect(try imported.importNDJSON(lines: lines).skipped == lines.count)
    }
}
