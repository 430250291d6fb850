import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// `NavigationStore.importNDJSON(into:lines:)` and `importFirefoxSession(into:data:)`: an input
/// without events creates no database; one with events creates it and keeps the file's line numbers.
/// On PostgreSQL a missing database is an empty schema.
@Suite("NavigationStore: importing into a path")
struct ImportIntoPathTests {
    /// Where a database does not exist yet: a file name in `directory`, or a fresh, empty schema.
    static func missing(_ directory: TemporaryDirectory, _ backend: StoreBackend) throws -> String {
        backend == .sqlite ? directory.url.appendingPathComponent("new.sqlite").path : try backend.location(directory)
    }

    @Test(
        "an input without an event line leaves a missing database missing",
        arguments: StoreBackend.all, [[], [""], ["", " ", "\t\r"]])
    func emptyInputCreatesNothing(backend: StoreBackend, lines: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.missing(directory, backend)
        let report = try NavigationStore.importNDJSON(into: path, lines: lines)
        #expect(report == ImportReport(sessions: 0, imported: 0, skipped: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
        #expect(try !NavigationStore.databaseExists(at: path))
    }

    @Test("a Firefox file of no tabs leaves a missing database missing", arguments: StoreBackend.all)
    func emptyFirefoxFileCreatesNothing(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.missing(directory, backend)
        let report = try NavigationStore.importFirefoxSession(
            into: path, data: Array(#"{"version":2,"sessionStateTuples":[]}"#.utf8))
        #expect(report == ImportReport(sessions: 0, imported: 0, skipped: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
        #expect(try !NavigationStore.databaseExists(at: path))
    }

    @Test("an empty input into an existing database is a no-op that changes no byte", arguments: StoreBackend.all)
    func emptyInputIntoExistingDatabase(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend)
        try store.startSession("s", at: 1_700_000_000_000)
        let before = try databaseContent(store)
        #expect(try NavigationStore.importNDJSON(into: store.path, lines: ["", ""]).imported == 0)
        #expect(try databaseContent(store) == before)
        #expect(try NavigationStore.databaseExists(at: store.path))
    }

    // SQLite only: a file that is not a database (PostgreSQLCommandTests refuse a foreign schema).
    @Test("an empty input into a file that is not a navdb database is refused, the file unchanged")
    func emptyInputIntoForeignFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("notes.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try NavigationStore.importNDJSON(into: path, lines: [String]()) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("hello".utf8))
    }

    @Test(
        "blank lines before the events keep the file's line numbers in errors and import the rest",
        arguments: StoreBackend.all)
    func blankLinesKeepLineNumbers(backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let store = try makeStore(source)
        try store.startSession("s", at: 1_700_000_000_000)
        try store.execute(.push(Entry(id: "A")), session: "s", at: 1_700_000_000_001)
        var lines: [String] = []
        try store.exportNDJSON(session: "s") { lines.append($0) }
        let target = try TemporaryDirectory()
        let path = try Self.missing(target, backend)
        #expect(throws: StoreError.invalidImport(line: 5, reason: "not an event record: missing key 'type'")) {
            try NavigationStore.importNDJSON(into: path, lines: ["", " "] + lines + [#"{"x":1}"#])
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: target.url.path) == [], "no file, no temporary file")
        // On PostgreSQL the schema's tables came and went with the refused import's transaction.
        #expect(try !NavigationStore.databaseExists(at: path))
        let report = try NavigationStore.importNDJSON(into: path, lines: ["", " "] + lines)
        #expect(report == ImportReport(sessions: 1, imported: 2, skipped: 0))
        let files = try FileManager.default.contentsOfDirectory(atPath: target.url.path)
        #expect(files == (backend == .sqlite ? ["new.sqlite"] : []))
        #expect(
            try NavigationStore(path: path, create: false).state(session: "s").state.topLayer.entries.map(\.id) == ["A"]
        )
    }
}
