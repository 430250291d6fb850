import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Imports into a PostgreSQL schema: a refused import into an empty schema leaves it empty (its
/// tables are created inside the import's transaction), and a text PostgreSQL cannot hold
/// (U+0000 in a session key or name, entry id or route) is refused naming the line and the field,
/// before it reaches the server.
// Needs a server: skipped, with the reason, when NAVDB_TEST_POSTGRESQL is not set.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLImportTests {
    /// The export of one session `s` named "Home": started, A pushed with a route, B presented,
    /// the modal layer replaced by C and D (lines 1 to 4).
    static func export() throws -> [String] {
        let store = try makeStore(try TemporaryDirectory(), on: .sqlite)
        try store.startSession("s", name: "Home", at: 1_700_000_000_000)
        try store.execute(.push(Entry(id: "A", route: "app://a")), session: "s", at: 1_700_000_000_001)
        try store.execute(.present(Entry(id: "B"), modalInPresentation: false), session: "s", at: 1_700_000_000_002)
        try store.execute(.setStack([Entry(id: "C"), Entry(id: "D")]), session: "s", at: 1_700_000_000_003)
        var lines: [String] = []
        try store.exportNDJSON(session: "s") { lines.append($0) }
        return lines
    }

    /// What every such refusal says of the text, and what PostgreSQL accepts.
    static let nul = "contains U+0000 (NUL), which PostgreSQL text cannot hold"
    static let rule =
        "on PostgreSQL session keys and names, entry ids and routes are text without U+0000 (titles and params may contain it)"
    /// What the refusal of an entry's id or route adds: such text in an event is JSON, which
    /// holds it; the `entries` projection holds the entries on a stack at the end.
    static let live = "and the entry is still on a stack at the end of the import"

    /// Each text PostgreSQL stores in a column, with U+0000 put in it on one line, and the reason
    /// the import gives for that line.
    static let nulFields: [(field: String, line: Int, from: String, to: String, reason: String)] = [
        ("session key", 1, #""session":"s""#, #""session":"s\u0000""#, "the session key 's\u{0}' \(nul): \(rule)"),
        (
            "session name", 1, #""name":"Home""#, #""name":"Ho\u0000me""#,
            "version 1 of session 's': the session name 'Ho\u{0}me' \(nul): \(rule)"
        ),
        (
            "route of a pushed entry", 2, #""route":"app://a""#, #""route":"app://\u0000""#,
            "version 2 of session 's': the route 'app://\u{0}' of entry 'A' \(nul), \(live): \(rule)"
        ),
        (
            "id in a replaced stack", 4, #""id":"D""#, #""id":"\u0000D""#,
            "version 4 of session 's': the entry id '\u{0}D' \(nul), \(live): \(rule)"
        ),
    ]

    @Test(
        "U+0000 in a session key or name, or an entry id or route on a stack at the end: refused naming the line and the field, nothing written",
        arguments: nulFields.map(\.field))
    func nulNamesLineAndField(field: String) throws {
        let (_, line, from, to, reason) = try #require(Self.nulFields.first { $0.field == field })
        let lines = try Self.export()
        let edited = lines.map { $0.replacingOccurrences(of: from, with: to) }
        #expect(edited != lines)
        // Into an empty schema: it stays empty.
        let empty = try PostgreSQLTestServer.freshSchemaURI()
        #expect(throws: StoreError.invalidImport(line: line, reason: reason)) {
            try NavigationStore.importNDJSON(into: empty, lines: edited)
        }
        #expect(try PostgreSQLSchemaObjects.names(in: empty) == [])
        // Into a store holding a session: the same error, and no row changed.
        let store = try makeStore(try TemporaryDirectory(), on: .postgresql)
        try store.startSession("other", at: 1_700_000_000_000)
        let before = try databaseContent(store)
        #expect(throws: StoreError.invalidImport(line: line, reason: reason)) {
            try store.importNDJSON(lines: edited)
        }
        #expect(try databaseContent(store) == before)
        // SQLite stores it exactly.
        let file = try makeStore(try TemporaryDirectory(), on: .sqlite)
        #expect(try file.importNDJSON(lines: edited).imported == lines.count)
    }

    @Test("U+0000 in the id and route of an entry a later line pops: imported, kept exactly in the events' JSON")
    func nulInPoppedEntry() throws {
        let lines = try Self.export().map {
            $0.replacingOccurrences(of: #""id":"B"}"#, with: #""id":"B\u0000","route":"\u0000"}"#)
        }
        #expect(lines[2].contains(#"B\u0000"#))
        let store = try makeStore(try TemporaryDirectory(), on: .postgresql)
        #expect(try store.importNDJSON(lines: lines).imported == 4)
        var exported: [String] = []
        try store.exportNDJSON(session: "s") { exported.append($0) }
        #expect(exported == lines)
        let presented = try store.state(session: "s", at: .version(3)).state.topLayer.entries
        #expect(presented.map(\.id) == ["B\u{0}"] && presented.map(\.route) == ["\u{0}"])
        #expect(try store.check().isClean)
    }

    @Test("U+0000 in an entry of a truncated session's base: refused naming the base's line and the field")
    func nulInBase() throws {
        let store = try makeStore(try TemporaryDirectory(), on: .sqlite)
        try store.startSession("s", at: 1_700_000_000_000)
        try store.execute(.push(Entry(id: "A\u{0}", route: "r")), session: "s", at: 1_700_000_000_001)
        try store.execute(.push(Entry(id: "B")), session: "s", at: 1_700_000_000_002)
        try store.truncateSession("s", before: 3)
        var lines: [String] = []
        try store.exportNDJSON(session: "s") { lines.append($0) }
        let empty = try PostgreSQLTestServer.freshSchemaURI()
        #expect(
            throws: StoreError.invalidImport(
                line: 1,
                reason:
                    "the base of session 's' at version 2: the entry id 'A\u{0}' \(Self.nul), \(Self.live): \(Self.rule)"
            )
        ) {
            try NavigationStore.importNDJSON(into: empty, lines: lines)
        }
        #expect(try PostgreSQLSchemaObjects.names(in: empty) == [])
    }

    @Test(
        "a refused import into an empty schema leaves no table, function, type or collation; an accepted one creates them",
        arguments: ["not JSON", "version gap", "refused by the rules"])
    func refusedImportLeavesSchemaEmpty(refusal: String) throws {
        let lines = try Self.export()
        let input: [String] =
            switch refusal {
            case "not JSON": [lines[0], "not json"]
            case "version gap": [lines[0], lines[2]]
            default: [lines[0], lines[1], lines[1].replacingOccurrences(of: #""version":2"#, with: #""version":3"#)]
            }
        let uri = try PostgreSQLTestServer.freshSchemaURI()
        #expect {
            try NavigationStore.importNDJSON(into: uri, lines: input)
        } throws: { error in
            guard case .invalidImport(line: 2...3, _) = error as? StoreError else { return false }
            return true
        }
        #expect(try PostgreSQLSchemaObjects.names(in: uri) == [])
        #expect(try !NavigationStore.databaseExists(at: uri))
        let report = try NavigationStore.importNDJSON(into: uri, lines: lines)
        #expect(report == ImportReport(sessions: 1, imported: 4, skipped: 0))
        #expect(try PostgreSQLSchemaObjects.names(in: uri).contains("relation events"))
        #expect(try NavigationStore(path: uri, create: false).check().isClean)
    }

    @Test(
        "a refused Firefox import into an empty schema leaves it empty, naming the tab and the field",
        arguments: [true, false])
    func refusedFirefoxImportLeavesSchemaEmpty(inTitle: Bool) throws {
        let uri = try PostgreSQLTestServer.freshSchemaURI()
        let (title, url) = inTitle ? (#"T\u0000"#, "A") : ("T", #"A\\u0000"#)  // GECKO_STATE is JSON in JSON
        let history =
            #"{\"history\":{\"entries\":[{\"title\":\"A\",\"url\":\"https://example.com/\#(url)\"}],\"index\":1}}"#
        let file =
            #"{"version":2,"sessionStateTuples":[{"session":{"uuid":"t1","title":"\#(title)","url":"https://example.com/","lastAccess":1000},"engineSession":{"GECKO_STATE":"\#(history)"}}]}"#
        let reason =
            inTitle
            ? "tab 1 'T\u{0}' (uuid 't1'): version 1 of session 't1': the session name 'T\u{0}' \(Self.nul): \(Self.rule)"
            : "tab 1 'T' (uuid 't1'): version 2 of session 't1': the route 'https://example.com/A\u{0}' of entry '1' \(Self.nul), \(Self.live): \(Self.rule)"
        #expect(throws: StoreError.invalidImportFile(reason: reason)) {
            try NavigationStore.importFirefoxSession(into: uri, data: Array(file.utf8))
        }
        #expect(try PostgreSQLSchemaObjects.names(in: uri) == [])
    }
}
