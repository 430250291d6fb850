import Foundation
import NavStore
import NavStoreTools
import NavStorePostgreSQL
import Testing

/// The backends the command tests run against: SQLite always, PostgreSQL when
/// `NAVDB_TEST_POSTGRESQL` names a server (`.ci/run` and `scripts/with-postgresql.sh` set it).
enum CommandBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    /// The test server's URI, when the environment names one. Reading it registers NavStore's
    /// PostgreSQL backend in the test process, as `navdb` does at start-up, so that the tests'
    /// own stores open its URIs too.
    static let server: String? = {
        PostgreSQLBackend.register()
        return ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL"].flatMap { $0.isEmpty ? nil : $0 }
    }()

    /// Every backend available to this run.
    static let all: [CommandBackend] = server == nil ? [.sqlite] : [.sqlite, .postgresql]

    /// Why PostgreSQL command tests are skipped when they are.
    static let skipReason: Comment =
        "NAVDB_TEST_POSTGRESQL is not set: no PostgreSQL server to run navdb against (run the tests through scripts/with-postgresql.sh or .ci/run)"

    var testDescription: String { rawValue }

    /// A URI for a new, empty schema on the test server (`search_path` through libpq's `options`).
    static func freshSchemaURI() throws -> String {
        let server = try #require(server, "no PostgreSQL test server")
        let schema = "cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgreSQLConnection(uri: server).execute(sql: "CREATE SCHEMA \(schema)")
        return server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// Every row of every table in `uri`'s schema as text (`row::text`, sorted), keyed by table.
    static func rows(of uri: String) throws -> [String: Data] {
        let db = try PostgreSQLConnection(uri: uri)
        let tables = try db.query(
            sql:
                "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1"
        ).rows
        var content: [String: Data] = [:]
        for case .text(let table) in tables.compactMap(\.first) {
            let rows = try db.query(sql: "SELECT t::text FROM \"\(table)\" t ORDER BY 1").rows
            content[table] = Data(rows.map { "\($0)" }.joined(separator: "\n").utf8)
        }
        return content
    }
}

/// Says, by name, whether the PostgreSQL half of the command tests runs: without a server it is
/// skipped with the reason.
@Suite struct CommandBackendTests {
    @Test(
        "the command tests also run on PostgreSQL",
        .enabled(if: CommandBackend.server != nil, CommandBackend.skipReason))
    func postgreSQLHalfRuns() throws {
        #expect(CommandBackend.all == [.sqlite, .postgresql])
        let sandbox = try Sandbox(backend: .postgresql)
        #expect(sandbox.databaseArgument.hasPrefix("postgres"))
        try sandbox.ok(["session", "start", "s"])
        #expect(try sandbox.databaseBytes()["sessions"]?.isEmpty == false)
    }
}

extension CommandBackend {
    /// Each case of a table on every backend: for `@Test(arguments:)` whose cases are tuples
    /// (which a second `arguments` collection would not spread into parameters).
    static func each<A: Sendable, B: Sendable>(_ cases: [(A, B)]) -> [(A, B, CommandBackend)] {
        all.flatMap { backend in cases.map { ($0.0, $0.1, backend) } }
    }

    /// Each case of a three-column table on every backend.
    static func each<A: Sendable, B: Sendable, C: Sendable>(_ cases: [(A, B, C)]) -> [(A, B, C, CommandBackend)] {
        all.flatMap { backend in cases.map { ($0.0, $0.1, $0.2, backend) } }
    }
}

extension Sandbox {
    /// Runs `sql` on the sandbox's database directly (as any other tool could, behind navdb's
    /// back): through SQLite for the file, through libpq for the PostgreSQL schema.
    func executeSQL(_ sql: String) throws {
        if let databaseURI {
            try PostgreSQLConnection(uri: databaseURI).execute(sql: sql)
        } else {
            let db = try Connection(path: database.path, mode: .readWrite)
            defer { db.close() }
            try db.execute(sql)
        }
    }
}
