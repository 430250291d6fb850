import Foundation
import NavStore
import Testing

/// The backends the command tests run against: SQLite always, PostgreSQL when
/// `NAVDB_TEST_POSTGRESQL` names a server (`.ci/run` and `scripts/with-postgresql.sh` set it).
enum CommandBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    /// The test server's URI, when the environment names one.
    static let server: String? = ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL"].flatMap {
        $0.isEmpty ? nil : $0
    }

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
}
