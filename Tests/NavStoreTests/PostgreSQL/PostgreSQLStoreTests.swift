import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools
@testable import NavStorePostgreSQL

// Needs a server: skipped, with the reason, when NAVDB_TEST_POSTGRESQL is not set.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLStoreTests {
    @Test("a connection the server kills mid-session fails the next append as unusable, and nothing of it is stored")
    func serverKilledConnection() throws {
        let name = "navdb-kill-\(UUID().uuidString.prefix(8))"
        let uri = PostgreSQLTestServer.with(
            try PostgreSQLTestServer.freshSchemaURI(), parameter: "application_name=\(name)")
        let store = try NavigationStore(path: uri)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s")
        let admin = try PostgreSQLConnection(uri: uri)
        let killed = try admin.query(
            sql:
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid()",
            arguments: [.text(name)]
        ).rows
        #expect(killed == [[.integer(1)]])  // the store's connection
        do {
            try store.execute(.push(.titled("B")), session: "s")
            Issue.record("an append on a killed connection succeeded")
        } catch {
            guard case .openFailed(let path, .backend(let cause as PostgreSQLError)) = error else {
                Issue.record("not openFailed: \(error)")
                return
            }
            #expect(path == store.path)
            #expect(cause.kind == .connection)
        }
        let reopened = try NavigationStore(path: uri)
        #expect(try reopened.state(session: "s").version == 2)
    }

    @Test("a read of an empty schema is 'no database' and creates nothing; a write creates the tables")
    func readOfEmptySchema() throws {
        let uri = try PostgreSQLTestServer.freshSchemaURI()
        #expect(throws: StoreError.self) { try NavigationStore(path: uri, create: false) }
        let db = try PostgreSQLConnection(uri: uri)
        let tables = "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
        #expect(try db.queryFirst(sql: tables) == [.integer(0)])
        _ = try NavigationStore(path: uri)
        #expect(try db.queryFirst(sql: tables) != [.integer(0)])
    }

    @Test("the store names a PostgreSQL database by its URI without the password")
    func pathWithoutPassword() throws {
        let uri = try #require(ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_PASSWORD"])
        let secret = try #require(ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_SECRET"])
        let schema = try PostgreSQLTestServer.freshSchemaURI()
        let options = String(schema[try #require(schema.range(of: "options=")).lowerBound...])
        let store = try NavigationStore(
            path: PostgreSQLTestServer.with(
                uri.replacingOccurrences(of: "://navdb_pw@", with: "://navdb_pw:\(secret)@"), parameter: options))
        #expect(!store.path.contains(secret))
        #expect(store.path.hasPrefix("postgresql://navdb_pw@/navdb?host="))
    }
}
