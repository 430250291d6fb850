import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Users' files outlive versions: a database and an export written by navdb 0.1.0
/// (`Tests/Fixtures/navdb-0.1.0/`, a copy of `shared/fixtures/navdb-0.1.0/`) still open, import and report exactly the states 0.1.0
/// recorded in `expected.json`.
@Suite("navdb 0.1.0 files")
struct FixtureTests {
    /// The repository's copy of the fixture (Tests/Fixtures/README.md).
    static let folder = TestData.folder("navdb-0.1.0")

    /// One version of `expected.json`: the stack (entry ids per layer), the back button and the
    /// back menu as (entry, title) rows.
    struct View: Decodable {
        var version: Int
        var stack: [[String]]
        var backButton: Button?
        var backMenu: [[String]]?
    }

    /// A back button as 0.1.0 recorded it.
    struct Button: Decodable {
        var label: String
        var fallbacks: [String]
    }

    struct Expected: Decodable {
        struct Session: Decodable {
            var version: Int
            var views: [View]
        }
        var sessions: [String: Session]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: folder.appendingPathComponent("expected.json")))
    }

    /// Checks every version of every expected session against `store`.
    static func compare(_ store: NavigationStore, _ expected: Expected, _ source: String) throws {
        #expect(Set(try store.sessions().map(\.key)) == Set(expected.sessions.keys), "\(source)")
        for (key, session) in expected.sessions {
            #expect(try store.sessionInfo(key).version == session.version, "\(source): session \(key)")
            for view in session.views {
                let state = try store.state(session: key, at: .version(view.version)).state
                let place = "\(source): session '\(key)' version \(view.version)"
                #expect(state.entryIDs == view.stack, "\(place)")
                #expect(state.backButton?.label == view.backButton?.label, "\(place)")
                #expect(state.backButton?.fallbacks == view.backButton?.fallbacks, "\(place)")
                #expect(state.backMenu?.map { [$0.entry, $0.title] } == view.backMenu, "\(place)")
            }
        }
    }

    @Test(
        "the 0.1.0 export imports into an empty database with exactly the recorded states", arguments: StoreBackend.all)
    func importsExport(backend: StoreBackend) throws {
        let expected = try Self.expected()
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend)
        let text = try String(contentsOf: Self.folder.appendingPathComponent("export.ndjson"), encoding: .utf8)
        let report = try store.importNDJSON(lines: text.split(separator: "\n").map(String.init))
        #expect(report.imported == 138 && report.skipped == 0)
        try Self.compare(store, expected, "import")
        #expect(try store.check().problems.isEmpty)
    }

    // SQLite only: the 0.1.0 database is an SQLite file.
    @Test("a copy of the 0.1.0 database opens with exactly the recorded states")
    func opensDatabase() throws {
        let expected = try Self.expected()
        let directory = try TemporaryDirectory()
        let path = directory.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: Self.folder.appendingPathComponent("navdb.sqlite").path, toPath: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let store = try NavigationStore(path: path, create: false)
        try Self.compare(store, expected, "database")
    }
}
