import Foundation
import TestSupport
import Testing

@testable import NavStore

/// `NavigationStore.importNDJSON(into:lines:)` and `importFirefoxSession(into:data:)`: an input
/// without events creates no database; one with events creates it and keeps the file's line numbers.
@Suite("NavigationStore: importing into a path")
struct ImportIntoPathTests {
    @Test(
        "an input without an event line leaves a missing database missing", arguments: [[], [""], ["", " ", "\t\r"]])
    func emptyInputCreatesNothing(lines: [String]) throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("new.sqlite").path
        let report = try NavigationStore.importNDJSON(into: path, lines: lines)
        #expect(report == ImportReport(sessions: 0, imported: 0, skipped: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
    }

    @Test("a Firefox file of no tabs leaves a missing database missing")
    func emptyFirefoxFileCreatesNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("new.sqlite").path
        let report = try NavigationStore.importFirefoxSession(
            into: path, data: Array(#"{"version":2,"sessionStateTuples":[]}"#.utf8))
        #expect(report == ImportReport(sessions: 0, imported: 0, skipped: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [])
    }

    @Test("an empty input into an existing database is a no-op that changes no byte")
    func emptyInputIntoExistingDatabase() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory)
        try store.startSession("s", at: 1_700_000_000_000)
        let path = directory.url.appendingPathComponent("nav.sqlite").path
        let before = fileBytes(path)
        #expect(try NavigationStore.importNDJSON(into: path, lines: ["", ""]).imported == 0)
        #expect(fileBytes(path) == before)
    }

    @Test("an empty input into a file that is not a navdb database is refused, the file unchanged")
    func emptyInputIntoForeignFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("notes.txt").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try NavigationStore.importNDJSON(into: path, lines: [String]()) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("hello".utf8))
    }

    @Test("blank lines before the events keep the file's line numbers in errors and import the rest")
    func blankLinesKeepLineNumbers() throws {
        let source = try TemporaryDirectory()
        let store = try makeStore(source)
        try store.startSession("s", at: 1_700_000_000_000)
        try store.execute(.push(Entry(id: "A")), session: "s", at: 1_700_000_000_001)
        var lines: [String] = []
        try store.exportNDJSON(session: "s") { lines.append($0) }
        let target = try TemporaryDirectory()
        let path = target.url.appendingPathComponent("new.sqlite").path
        #expect(throws: StoreError.invalidImport(line: 5, reason: "not an event record: missing key 'type'")) {
            try NavigationStore.importNDJSON(into: path, lines: ["", " "] + lines + [#"{"x":1}"#])
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: target.url.path) == [], "no file, no temporary file")
        let report = try NavigationStore.importNDJSON(into: path, lines: ["", " "] + lines)
        #expect(report == ImportReport(sessions: 1, imported: 2, skipped: 0))
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.url.path) == ["new.sqlite"])
        #expect(
            try NavigationStore(path: path, create: false).state(session: "s").state.topLayer.entries.map(\.id) == ["A"]
        )
    }
}
