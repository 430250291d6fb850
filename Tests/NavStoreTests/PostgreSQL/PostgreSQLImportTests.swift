import Foundation
import TestSupport
import Testing

@testable import NavStore

/// Imports into a PostgreSQL schema: a refused import into an empty schema leaves it empty (its
/// tables are created inside the import's transaction).
// Needs a server: skipped, with the reason, when NAVDB_TEST_POSTGRESQL is not set.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLImportTests {
    /// Every object of the URI's schema (relations, functions, types, collations), by kind and
    /// name: what a refused import must leave as it found it.
    static func objects(in uri: String) throws -> [String] {
        try PostgreSQLConnection(uri: uri).query(
            sql: """
                SELECT 'relation ' || relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace
                UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
                UNION ALL SELECT 'type ' || typname FROM pg_type WHERE typnamespace = current_schema()::regnamespace
                UNION ALL SELECT 'collation ' || collname FROM pg_collation
                    WHERE collnamespace = current_schema()::regnamespace
                ORDER BY 1
                """
        ).rows.map { row in if case .text(let name) = row[0] { name } else { "\(row)" } }
    }

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
        #expect(try Self.objects(in: uri) == [])
        #expect(try !NavigationStore.databaseExists(at: uri))
        let report = try NavigationStore.importNDJSON(into: uri, lines: lines)
        #expect(report == ImportReport(sessions: 1, imported: 4, skipped: 0))
        #expect(try Self.objects(in: uri).contains("relation events"))
        #expect(try NavigationStore(path: uri, create: false).check().isClean)
    }
}
