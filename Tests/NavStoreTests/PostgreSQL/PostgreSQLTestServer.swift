import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools
@testable import NavStorePostgreSQL

/// The PostgreSQL server the tests use: `NAVDB_TEST_POSTGRESQL`, set by `.ci/run` and
/// `scripts/with-postgresql.sh` to a throwaway cluster's Unix socket. Each test gets a fresh schema.
enum PostgreSQLTestServer {
    /// The server's URI, when the environment names one. Reading it registers NavStore's
    /// PostgreSQL backend in the test process (as `navdb` does at start-up), so that
    /// `NavigationStore(path:)` opens the URIs the tests make.
    static let uri: String? = {
        PostgreSQLBackend.register()
        return ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL"].flatMap { $0.isEmpty ? nil : $0 }
    }()

    /// Whether PostgreSQL tests can run.
    static var isAvailable: Bool { uri != nil }

    /// Why the PostgreSQL tests are skipped when they are.
    static let skipReason: Comment =
        "NAVDB_TEST_POSTGRESQL is not set: no PostgreSQL server to test against (run the tests through scripts/with-postgresql.sh or .ci/run)"

    /// Runs a test only when a server is available, and says why not otherwise.
    static var required: ConditionTrait { .enabled(if: isAvailable, skipReason) }

    /// A URI for a new, empty schema of its own (`search_path` set through libpq's `options`), so
    /// that tests running in parallel never see each other's tables.
    static func freshSchemaURI() throws -> String {
        guard let uri else { throw NoServer() }
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgreSQLConnection(uri: uri)
        try admin.execute(sql: "CREATE SCHEMA \(schema)")
        return with(uri, parameter: "options=-csearch_path%3D\(schema)")
    }

    /// `uri` with one more query parameter.
    static func with(_ uri: String, parameter: String) -> String {
        uri + (uri.contains("?") ? "&" : "?") + parameter
    }

    /// Thrown when a test asks for a schema without a server (its suite should have been skipped).
    struct NoServer: Error {}
}
