import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite struct SQLiteMigratorTests {
    /// A new file, migrated, with foreign keys on.
    private func openMigrated(_ path: String) throws -> Connection {
        let db = try Connection(path: path, mode: .readWriteCreate)
        try db.enableForeignKeys()
        try db.setBusyTimeout(milliseconds: 1000)
        try db.setJournalModeWAL()
        try Migrator.embedded.migrate(db)
        return db
    }

    /// Runs `inspect` and `migrate` on the file at `name` in `dir` and checks that neither
    /// changed any byte of any file in the directory.
    private func expectRefusedUntouched(_ dir: TemporaryDirectory, _ name: String, as expected: SchemaCheck) throws {
        let before = try dir.snapshot()
        do {
            let db = try Connection(path: dir.path(name), mode: .readWrite)
            #expect(try Migrator.embedded.inspect(db) == expected)
            let refusal = #expect(throws: MigrationRefused.self) { try Migrator.embedded.migrate(db) }
            #expect(refusal?.check == expected)
            db.close()
        }
        #expect(try dir.snapshot() == before)
    }

    @Test("the application id is NAVD")
    func applicationID() {
        let bytes = withUnsafeBytes(of: Migrator.applicationID.bigEndian) { Array($0) }
        #expect(String(decoding: bytes, as: UTF8.self) == "NAVD")
    }

    @Test("a brand-new file is empty, and inspecting it leaves it at 0 bytes")
    func inspectNewFile() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("new.sqlite")
            let db = try Connection(path: path, mode: .readWriteCreate)
            #expect(try Migrator.embedded.inspect(db) == .empty)
            db.close()
            #expect(try dir.snapshot() == ["new.sqlite": Data()])
        }
    }

    @Test("a file switched to WAL but never migrated is still empty")
    func inspectWALOnly() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir.path("wal-only.sqlite"), mode: .readWriteCreate)
            try db.setJournalModeWAL()
            #expect(try db.pragmaText("page_count") != "0")
            #expect(try Migrator.embedded.inspect(db) == .empty)
            try Migrator.embedded.migrate(db)
            #expect(try Migrator.embedded.inspect(db) == .current)
        }
    }

    @Test("migrating sets application_id, user_version and records the migration")
    func migrateNewFile() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("navdb.sqlite")
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            let db = try openMigrated(path)
            let after = Int64(Date().timeIntervalSince1970 * 1000)
            #expect(try Migrator.embedded.inspect(db) == .current)
            #expect(try db.applicationID == Migrator.applicationID)
            #expect(try db.userVersion == Int32(Migrator.embedded.migrations.count))
            let statement = try db.prepare("SELECT identifier, applied_at FROM schema_migrations ORDER BY identifier")
            var rows: [(String, Int64)] = []
            try statement.forEachRow { rows.append(($0.string(at: 0) ?? "", $0.int64(at: 1))) }
            #expect(rows.map(\.0) == Migrator.embedded.migrations.map(\.identifier))
            for row in rows {
                #expect(row.1 >= before - 1 && row.1 <= after + 1)
            }
            #expect(try db.integrityCheck() == ["ok"])
            db.close()

            // Reopened: still current, and migrating again changes nothing.
            let reopened = try Connection(path: path, mode: .readWrite)
            #expect(try Migrator.embedded.inspect(reopened) == .current)
            try Migrator.embedded.migrate(reopened)
            #expect(try reopened.testScalar("SELECT count(*) FROM schema_migrations") == .integer(Int64(rows.count)))
        }
    }

    @Test("the migrations of one opening are one transaction: a failing one leaves the file at its old schema")
    func failingMigrationRollsBackTheOthers() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("old.sqlite")
            // A file at schema 1, as navdb 0.1.0 left it.
            var first = Migrator()
            first.registerMigration(Migrator.embedded.migrations[0])
            let db = try Connection(path: path, mode: .readWriteCreate)
            try db.setJournalModeWAL()
            try first.migrate(db)
            #expect(try db.userVersion == 1)
            // Later migrations that work, then one that fails at its second statement.
            var later = first
            for migration in Migrator.embedded.migrations.dropFirst() { later.registerMigration(migration) }
            later.registerMigration(
                Migration(identifier: "9999_broken", sql: "CREATE TABLE half (a); SELECT nothing FROM missing_table"))
            #expect(throws: SQLiteError.self) { try later.migrate(db) }
            // Nothing of 0002 onwards, nor of the broken one, is left: schema 1, as before.
            #expect(try db.userVersion == 1)
            #expect(try db.testScalar("SELECT count(*) FROM schema_migrations") == .integer(1))
            #expect(
                try db.testScalar("SELECT count(*) FROM sqlite_schema WHERE name IN ('maintenance', 'half')")
                    == .integer(0))
            #expect(try first.inspect(db) == .current)
            #expect(try Migrator.embedded.inspect(db) == .needsMigration(from: 1))
        }
    }

    @Test("an identifier already recorded is skipped")
    func recordedMigrationIsSkipped() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir.path("partial.sqlite"), mode: .readWriteCreate)
            // As if every migration had been applied by hand without setting the header.
            try db.execute(
                """
                CREATE TABLE schema_migrations (identifier TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT;
                \(Migrator.embedded.migrations.map { "INSERT INTO schema_migrations VALUES ('\($0.identifier)', 0);" }.joined(separator: "\n"))
                PRAGMA application_id = \(Migrator.applicationID);
                """)
            #expect(try Migrator.embedded.inspect(db) == .needsMigration(from: 0))
            try Migrator.embedded.migrate(db)
            // None was run (their tables do not exist) and their records are untouched.
            #expect(
                try db.testScalar("SELECT count(*) FROM sqlite_schema WHERE name IN ('events', 'maintenance')")
                    == .integer(0))
            #expect(try db.testScalar("SELECT count(*) FROM schema_migrations WHERE applied_at <> 0") == .integer(0))
            // The header is derived from the records.
            #expect(try db.userVersion == Migrator.embedded.currentVersion)
            #expect(try Migrator.embedded.inspect(db) == .current)
        }
    }

    @Test("user_version is derived from schema_migrations: a header that disagrees is rewritten, nothing runs again")
    func headerIsDerivedFromTheRecords() throws {
        try withTemporaryDirectory { dir in
            let db = try openMigrated(dir.path("navdb.sqlite"))
            let recorded = try db.testScalar("SELECT group_concat(identifier || applied_at) FROM schema_migrations")
            let current = Migrator.embedded.currentVersion
            for header in [Int32(0), current - 1] {
                try db.setUserVersion(header)
                #expect(try !Migrator.embedded.isCurrent(db))
                #expect(try Migrator.embedded.inspect(db) == .needsMigration(from: header))
                try Migrator.embedded.migrate(db)
                #expect(try db.userVersion == current)
                #expect(
                    try db.testScalar("SELECT group_concat(identifier || applied_at) FROM schema_migrations")
                        == recorded)
            }
            // A header that says current while a record is missing is not current: the table wins,
            // so the unrecorded migration runs again, fails on the tables it finds, and rolls back.
            try db.execute("DELETE FROM schema_migrations WHERE identifier = '0001_initial'")
            #expect(try Migrator.embedded.inspect(db) == .needsMigration(from: current))
            #expect(throws: SQLiteError.self) { try Migrator.embedded.migrate(db) }
            #expect(try db.userVersion == current)
            #expect(try db.testScalar("SELECT count(*) FROM schema_migrations") == .integer(Int64(current) - 1))
            #expect(try db.integrityCheck() == ["ok"])
        }
    }

    @Test(
        "the events table is append-only: UPDATE and DELETE abort",
        arguments: [
            "UPDATE events SET type = 'x'",
            "DELETE FROM events",
            "UPDATE events SET payload = '{}' WHERE seq = 1",
        ])
    func eventsAreAppendOnly(sql: String) throws {
        try withTemporaryDirectory { dir in
            let db = try openMigrated(dir.path("log.sqlite"))
            try db.execute(
                """
                INSERT INTO sessions (key, created_at, updated_at, version) VALUES ('s', 0, 0, 1);
                INSERT INTO events (session_id, version, type, at, event_id, payload)
                    VALUES (1, 1, 'session.started', 0, 'e1', '{}');
                """)
            let error = #expect(throws: SQLiteError.self) { try db.execute(sql) }
            #expect(error?.extendedResultCode == SQLiteError.ResultCode.constraintTrigger)
            #expect(error?.message.contains("append-only") == true)
            #expect(try db.testScalar("SELECT type || payload FROM events") == .text("session.started{}"))
        }
    }

    @Test("foreign keys of the schema are enforced")
    func foreignKeysEnforced() throws {
        try withTemporaryDirectory { dir in
            let db = try openMigrated(dir.path("fk.sqlite"))
            let error = #expect(throws: SQLiteError.self) {
                try db.execute(
                    """
                    INSERT INTO events (session_id, version, type, at, event_id, payload)
                        VALUES (99, 1, 'session.started', 0, 'e1', '{}')
                    """)
            }
            #expect(error?.extendedResultCode == SQLiteError.ResultCode.constraintForeignKey)
        }
    }

    @Test("random bytes are notADatabase, and the file is byte-for-byte unchanged")
    func inspectRandomBytes() throws {
        try withTemporaryDirectory { dir in
            var generator = SystemRandomNumberGenerator()
            for (name, size) in [("random.sqlite", 8192), ("short.sqlite", 10)] {
                let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
                try Data(bytes).write(to: dir.url.appendingPathComponent(name))
                try expectRefusedUntouched(dir, name, as: .notADatabase)
            }
        }
    }

    @Test("a text file is notADatabase, unchanged")
    func inspectTextFile() throws {
        try withTemporaryDirectory { dir in
            try Data("hello, this is not a database\n".utf8).write(to: dir.url.appendingPathComponent("notes.txt"))
            try expectRefusedUntouched(dir, "notes.txt", as: .notADatabase)
        }
    }

    @Test("another application's SQLite file is foreign, unchanged")
    func inspectForeignApplication() throws {
        try withTemporaryDirectory { dir in
            do {
                let other = try Connection(path: dir.path("other.sqlite"), mode: .readWriteCreate)
                try other.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')")
                try other.setApplicationID(0x1234_5678)
            }
            try expectRefusedUntouched(dir, "other.sqlite", as: .foreign(applicationID: 0x1234_5678))
        }
    }

    @Test("a SQLite file with tables and application_id 0 is foreign, unchanged")
    func inspectPlainSQLiteFile() throws {
        try withTemporaryDirectory { dir in
            do {
                let other = try Connection(path: dir.path("plain.sqlite"), mode: .readWriteCreate)
                try other.setJournalModeWAL()
                try other.execute("CREATE TABLE events (x); INSERT INTO events VALUES (1)")
                try other.checkpoint(mode: .truncate)
            }
            try expectRefusedUntouched(dir, "plain.sqlite", as: .foreign(applicationID: 0))
        }
    }

    @Test("a navdb file with a newer user_version is newer, unchanged")
    func inspectNewerSchema() throws {
        try withTemporaryDirectory { dir in
            do {
                let db = try openMigrated(dir.path("future.sqlite"))
                try db.setUserVersion(Migrator.embedded.currentVersion + 98)
                try db.checkpoint(mode: .truncate)
            }
            try expectRefusedUntouched(dir, "future.sqlite", as: .newer(Migrator.embedded.currentVersion + 98))
        }
    }

    @Test("inspect works on a read-only connection")
    func inspectReadOnly() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("ro.sqlite")
            do { _ = try openMigrated(path) }
            let db = try Connection(path: path, mode: .readOnly)
            #expect(try Migrator.embedded.inspect(db) == .current)
        }
    }
}
