import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools
@testable import NavStorePostgreSQL

// Needs a server: skipped, with the reason, when NAVDB_TEST_POSTGRESQL is not set.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLMigratorTests {
    /// A migrated schema with one session and one event.
    private func migratedWithOneEvent() throws -> PostgreSQLConnection {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        try PostgreSQLMigrator.migrate(db)
        try db.execute(sql: "INSERT INTO sessions (key, created_at, updated_at, version) VALUES ('s', 0, 0, 1)")
        try db.execute(
            sql: """
                INSERT INTO events (session_id, version, type, at, event_id, payload)
                SELECT id, 1, 'session.started', 0, 'e1', '{}' FROM sessions
                """)
        return db
    }

    @Test("migrating records every migration once; migrating again changes nothing")
    func migratesOnce() throws {
        let db = try migratedWithOneEvent()
        try PostgreSQLMigrator.migrate(db)
        let recorded = try db.query(sql: "SELECT identifier FROM schema_migrations ORDER BY 1").rows
        #expect(recorded == PostgreSQLMigrator.all.map { [.text($0.identifier)] })
        #expect(try db.queryFirst(sql: "SELECT count(*) FROM events") == [.integer(1)])
    }

    @Test(
        "the events table refuses UPDATE, DELETE and TRUNCATE with navdb's message",
        arguments: [
            "UPDATE events SET type = 'x'", "DELETE FROM events", "TRUNCATE events CASCADE",
        ])
    func appendOnly(statement: String) throws {
        let db = try migratedWithOneEvent()
        let error = #expect(throws: PostgreSQLError.self) { try db.execute(sql: statement) }
        #expect(error?.message.hasPrefix("navdb: the events table is append-only") == true)
        #expect(
            try db.queryFirst(sql: "SELECT count(*), min(type) FROM events") == [.integer(1), .text("session.started")])
    }

    @Test("a DELETE inside a transaction that raised the maintenance flag is allowed")
    func maintenanceDelete() throws {
        let db = try migratedWithOneEvent()
        try db.inTransaction(.write) {
            try db.execute(sql: "UPDATE maintenance SET removing = 1 WHERE id = 1")
            try db.execute(sql: "DELETE FROM events")
            try db.execute(sql: "UPDATE maintenance SET removing = 0 WHERE id = 1")
        }
        #expect(try db.queryFirst(sql: "SELECT count(*) FROM events") == [.integer(0)])
    }

    @Test("UNIQUE (session_id, version) and unique event ids hold; ids compare by exact bytes")
    func uniqueness() throws {
        let db = try migratedWithOneEvent()
        let insert =
            "INSERT INTO events (session_id, version, type, at, event_id, payload) SELECT id, ?, 't', 0, ?, '{}' FROM sessions"
        let sameVersion = #expect(throws: PostgreSQLError.self) { try db.execute(sql: insert, arguments: [1, "e2"]) }
        #expect(sameVersion?.constraint == "events_session_id_version_key")
        let sameID = #expect(throws: PostgreSQLError.self) { try db.execute(sql: insert, arguments: [2, "e1"]) }
        #expect(sameID?.constraint == "events_event_id_key")
        try db.execute(sql: insert, arguments: [2, "E1"])
        #expect(try db.query(sql: "SELECT event_id FROM events ORDER BY event_id").rows == [["E1"], ["e1"]])
    }

    @Test("a migration of one schema waits only for migrations of the same schema, not of another")
    func migrationLockPerSchema() throws {
        let busyURI = try PostgreSQLTestServer.freshSchemaURI()
        // Another process migrating `busy`: its transaction holds that schema's migration lock.
        let holder = try PostgreSQLConnection(uri: busyURI)
        try holder.execute(sql: "BEGIN")
        try holder.execute(
            sql: "SELECT pg_advisory_xact_lock(?::integer, hashtext(current_schema()))",
            arguments: [.integer(PostgreSQLMigrator.lockClass)])
        defer { _ = try? holder.execute(sql: "ROLLBACK") }
        // Another schema migrates meanwhile (a wait would end in lock_timeout's error).
        let other = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        try other.execute(sql: "SET lock_timeout = '5s'")
        try PostgreSQLMigrator.migrate(other)
        #expect(try PostgreSQLMigrator.state(other) == .current)
        // The same schema waits for the holder: here until its lock_timeout, then refused, unmigrated.
        let same = try PostgreSQLConnection(uri: busyURI)
        try same.execute(sql: "SET lock_timeout = '200ms'")
        #expect(throws: PostgreSQLError.self) { try PostgreSQLMigrator.migrate(same) }
        #expect(try PostgreSQLMigrator.state(same) == .empty)
    }

    @Test(
        "a schema holding someone else's tables or views is refused and left alone, whatever their names",
        arguments: [
            (["CREATE TABLE sessions (x int)"], ["sessions"]),
            (["CREATE TABLE t (x int)"], ["t"]),
            (["CREATE VIEW v AS SELECT 1 AS one"], ["v"]),
            ((1...6).map { "CREATE TABLE t\($0) (x int)" }, ["t1", "t2", "t3", "t4", "t5"]),
        ])
    func foreignSchema(statements: [String], named: [String]) throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        for statement in statements { try db.execute(sql: statement) }
        let before = try db.query(
            sql: "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
                + " ORDER BY 1")
        #expect(throws: PostgreSQLMigrator.Refusal.foreign(named)) { try PostgreSQLMigrator.migrate(db) }
        #expect(throws: PostgreSQLMigrator.Refusal.foreign(named)) { try PostgreSQLMigrator.state(db) }
        let after = try db.query(
            sql: "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema()"
                + " ORDER BY 1")
        #expect(after.rows == before.rows)
        #expect(after.rows.count == statements.count)
    }

    @Test("a schema migrated by a newer navdb is refused")
    func newerSchema() throws {
        let db = try migratedWithOneEvent()
        try db.execute(sql: "INSERT INTO schema_migrations VALUES ('9999_future', 0)")
        #expect(throws: PostgreSQLMigrator.Refusal.newer(["9999_future"])) { try PostgreSQLMigrator.migrate(db) }
    }
}
