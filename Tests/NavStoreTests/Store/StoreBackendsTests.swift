import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// What a database location names (a file, or a URI of a backend), and what happens to a URI no
/// registered backend opens.
@Suite struct StoreBackendsTests {
    @Test(
        "a location is a URI when it starts with scheme://; file: and paths are files",
        arguments: [
            ("nav.sqlite", nil), ("/var/lib/app/nav.sqlite", nil), ("file:x.db", nil), ("file:///var/lib/app/x.db", nil),
            ("./a://b", nil), ("1ab://x", nil), ("a b://x", nil), ("c:/x", nil), ("postgresql://h/d", "postgresql"),
            ("POSTGRES://h/d", "postgres"), ("MySQL://u:p@h/d", "mysql"), ("x+y.z-1://h", "x+y.z-1"), ("", nil),
        ] as [(String, String?)])
    func scheme(location: String, expected: String?) {
        #expect(StoreBackends.uriScheme(of: location) == expected)
        #expect(StoreBackends.isFilePath(location) == (expected == nil))
    }

    @Test("a URI no registered backend opens is refused, named without its user information and query")
    func unknownScheme() throws {
        let uri = "mysql://ann:secret@db.example/nav?password=hunter2"
        let shown = "mysql://db.example/nav"
        #expect(StoreBackends.displayed(uri) == shown)
        let error = #expect(throws: StoreError.self) { try NavigationStore(path: uri) }
        guard case .cannotOpen(let path, let reason) = error else {
            Issue.record("not cannotOpen: \(String(describing: error))")
            return
        }
        #expect(path == shown)
        #expect(reason.contains("no backend registered in this program opens mysql:// URIs"))
        let message = try #require(error).description
        #expect(!message.contains("secret") && !message.contains("hunter2") && !message.contains("\n"))
        #expect(throws: StoreError.self) { try NavigationStore.databaseExists(at: uri) }
        #expect(throws: StoreError.self) { try NavigationStore.importNDJSON(into: uri, lines: [#"{"x":1}"#]) }
        // Nothing was made of it as a file name either.
        #expect(!FileManager.default.fileExists(atPath: "mysql:"))
    }

    @Test("a file path is named as given, a registered backend's URI by the backend, which opens it")
    func displayed() {
        #expect(StoreBackends.displayed("dir/nav.sqlite") == "dir/nav.sqlite")
        #expect(StoreBackends.displayed("file:nav.sqlite") == "file:nav.sqlite")
        StoreBackends.register(StandInBackend())
        #expect(StoreBackends.displayed("standin://ann:pw@h/d") == "standin://h/d (stand-in)")
        // Opening goes to the backend, whose error names the location as the backend shows it.
        let error = #expect(throws: StoreError.self) { try NavigationStore(path: "STANDIN://ann:pw@h/d") }
        #expect(error?.description == "cannot use database 'standin://h/d (stand-in)': a stand-in opens nothing")
    }
}

/// A backend of a scheme of its own, to show that a registered backend names its locations.
private struct StandInBackend: NavStore.StoreBackend {
    var schemes: [String] { ["standin://"] }
    func displayed(_ location: String) -> String { "standin://h/d (stand-in)" }
    func open(
        _ location: String, displayName: String, create: Bool, schemaInFirstWrite: Bool, options: StoreOptions
    ) throws -> any DatabaseConnection {
        throw StoreError.cannotOpen(path: displayName, reason: "a stand-in opens nothing")
    }
}
