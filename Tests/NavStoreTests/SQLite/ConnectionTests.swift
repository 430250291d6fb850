import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite struct SQLiteConnectionTests {
    @Test("a created database file and its -wal file are owner-only (0600)")
    func createdFileIsOwnerOnly() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("navdb.sqlite")
            let db = try Connection(path: path, mode: .readWriteCreate)
            #expect(try sqliteTestPermissions(ofFileAtPath: path) == 0o600)
            try db.setJournalModeWAL()
            try db.execute("CREATE TABLE t (x INTEGER) STRICT; INSERT INTO t VALUES (1)")
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
            #expect(try sqliteTestPermissions(ofFileAtPath: path) == 0o600)
            #expect(try sqliteTestPermissions(ofFileAtPath: path + "-wal") == 0o600)
            #expect(try sqliteTestPermissions(ofFileAtPath: path + "-shm") == 0o600)
            db.close()
        }
    }

    @Test("opening an existing file with readWriteCreate keeps its permissions and content")
    func existingFileIsNotRecreated() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("existing.sqlite")
            do {
                let db = try Connection(path: path, mode: .readWriteCreate)
                try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7)")
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
            let db = try Connection(path: path, mode: .readWriteCreate)
            #expect(try db.testScalar("SELECT x FROM t") == .integer(7))
            #expect(try sqliteTestPermissions(ofFileAtPath: path) == 0o640)
        }
    }

    @Test("readWrite and readOnly do not create a missing file")
    func missingFileIsCantOpen() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("missing.sqlite")
            for mode in [Connection.OpenMode.readWrite, .readOnly] {
                let error = #expect(throws: SQLiteError.self) { try Connection(path: path, mode: mode) }
                #expect(error?.resultCode == .cantOpen)
            }
            let files = try dir.fileNames()
            #expect(files == [])
        }
    }

    @Test("a file in a missing directory is cantOpen and creates nothing")
    func missingDirectory() throws {
        try withTemporaryDirectory { dir in
            let error = #expect(throws: SQLiteError.self) {
                try Connection(path: dir.path("no/such/dir.sqlite"), mode: .readWriteCreate)
            }
            #expect(error?.resultCode == .cantOpen)
            let files = try dir.fileNames()
            #expect(files == [])
        }
    }

    @Test("a read-only connection refuses writes with SQLITE_READONLY")
    func readOnlyRefusesWrites() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("ro.sqlite")
            do {
                let db = try Connection(path: path, mode: .readWriteCreate)
                try db.execute("CREATE TABLE t (x INTEGER)")
            }
            let db = try Connection(path: path, mode: .readOnly)
            let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (1)") }
            #expect(error?.resultCode == .readOnly)
        }
    }

    @Test("a writer behind another's lock waits its busy timeout, then fails busy; it gets in once the lock is free")
    func busyTimeoutWaitsThenFails() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("busy.sqlite")
            let holder = try Connection(path: path, mode: .readWriteCreate)
            try holder.setJournalModeWAL()
            try holder.execute("CREATE TABLE t (x INTEGER)")
            let waiter = try Connection(path: path, mode: .readWrite)
            try waiter.setBusyTimeout(milliseconds: 200)
            try holder.execute("BEGIN IMMEDIATE")
            let started = Date()
            let error = #expect(throws: SQLiteError.self) { try waiter.execute("BEGIN IMMEDIATE") }
            #expect(error?.resultCode == .busy)
            // At least the timeout: one sleep of a millisecond per try (a loaded machine waits longer).
            #expect(Date().timeIntervalSince(started) >= 0.2)
            try holder.execute("COMMIT")
            // Freed while the waiter waits: it gets in, long before its timeout. The lock is held
            // by a connection of another thread, which frees it 50 ms after taking it.
            try waiter.setBusyTimeout(milliseconds: 60_000)
            let taken = DispatchSemaphore(value: 0)
            let release = Thread {
                guard let other = try? Connection(path: path, mode: .readWrite),
                    (try? other.execute("BEGIN IMMEDIATE")) != nil
                else {
                    taken.signal()
                    return
                }
                taken.signal()
                usleep(50_000)
                try? other.execute("COMMIT")
            }
            release.start()
            taken.wait()
            // Throws SQLITE_BUSY if the waiter gave up.
            try waiter.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1); COMMIT")
            #expect(try waiter.pragmaText("busy_timeout") == "0")
            // 0 turns waiting off: a held lock fails at once.
            try holder.execute("BEGIN IMMEDIATE")
            try waiter.setBusyTimeout(milliseconds: 0)
            #expect(throws: SQLiteError.self) { try waiter.execute("BEGIN IMMEDIATE") }
            try holder.execute("COMMIT")
        }
    }

    @Test("configuration steps take effect")
    func configurationSteps() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir.path("config.sqlite"), mode: .readWriteCreate)
            #expect(try db.pragmaText("foreign_keys") == "0")
            try db.enableForeignKeys()
            #expect(try db.pragmaText("foreign_keys") == "1")
            try db.setBusyTimeout(milliseconds: 2500)
            // The wait is NavStore's own busy handler, which SQLite's pragma does not report.
            #expect(try db.pragmaText("busy_timeout") == "0")
            try db.setJournalModeWAL()
            #expect(try db.pragmaText("journal_mode") == "wal")
            try db.setDurability(.normal)
            #expect(try db.pragmaText("synchronous") == "1")
            try db.setDurability(.full)
            #expect(try db.pragmaText("synchronous") == "2")
        }
    }

    @Test("foreign keys and secure delete are on after their steps, and foreign keys are refused inside a transaction")
    func foreignKeysAndSecureDelete() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir.path("steps.sqlite"), mode: .readWriteCreate)
            try db.execute("PRAGMA secure_delete = OFF")
            #expect(try db.pragmaText("secure_delete") == "0")
            try db.enableSecureDelete()
            #expect(try db.pragmaText("secure_delete") == "1")
            try db.execute("BEGIN")
            let error = #expect(throws: SQLiteError.self) { try db.enableForeignKeys() }
            #expect(error?.resultCode == .misuse)
            #expect(try db.pragmaText("foreign_keys") == "0")
            try db.execute("COMMIT")
            try db.enableForeignKeys()
            #expect(try db.pragmaText("foreign_keys") == "1")
            try db.execute("CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p(id))")
            let violation = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO c VALUES (1)") }
            #expect(violation?.resultCode == .constraint)
        }
    }

    @Test("SQLite's memory statistics cannot be turned off once SQLite is initialized, and stores work as before")
    func memoryStatisticsAfterInitialization() throws {
        try withTemporaryDirectory { dir in
            let store = try NavigationStore(path: dir.path("memstatus.sqlite"))
            #expect(NavigationStore.disableSQLiteMemoryStatistics() == false)
            try store.startSession("s")
            #expect(
                try store.execute(.push(Entry(id: "a", item: NavigationItem(title: "A"))), session: "s").version == 2)
        }
    }

    @Test("opening does not configure: a new connection has SQLite's defaults")
    func openingDoesNotConfigure() throws {
        try withTemporaryDirectory { dir in
            let db = try Connection(path: dir.path("defaults.sqlite"), mode: .readWriteCreate)
            #expect(try db.pragmaText("journal_mode") == "delete")
            #expect(try db.pragmaText("foreign_keys") == "0")
        }
    }

    @Test("setJournalModeWAL throws when SQLite keeps another mode")
    func walRefusedInMemory() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        let error = #expect(throws: SQLiteError.self) { try db.setJournalModeWAL() }
        #expect(error?.message.contains("memory") == true)
    }

    @Test("pragmaText refuses names that are not identifiers")
    func pragmaNameValidation() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        for name in ["", "journal_mode; DROP TABLE x", "user version", "table_info(x)", "é"] {
            let error = #expect(throws: SQLiteError.self) { try db.pragmaText(name) }
            #expect(error?.resultCode == SQLiteError.ResultCode.misuse)
        }
        #expect(try db.pragmaText("user_version") == "0")
    }

    @Test("user_version and application_id read back what was set")
    func headerIntegers() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        #expect(try db.userVersion == 0)
        #expect(try db.applicationID == 0)
        try db.setUserVersion(12)
        try db.setApplicationID(Migrator.applicationID)
        #expect(try db.userVersion == 12)
        #expect(try db.applicationID == 0x4E41_5644)
        try db.setApplicationID(-1)
        #expect(try db.applicationID == -1)
    }

    @Test("cachedStatement returns the same statement, reset with bindings cleared")
    func cachedStatementReuse() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        let sql = "SELECT ?1, ?2"
        let first = try db.cachedStatement(sql)
        first.bind(1, at: 1)
        first.bind("a", at: 2)
        #expect(try first.step())
        #expect(first.value(at: 0) == .integer(1))
        // Asked for again mid-iteration: same object, rewound, bindings gone.
        let second = try db.cachedStatement(sql)
        #expect(first === second)
        #expect(try second.step())
        #expect(second.value(at: 0) == .null)
        #expect(second.value(at: 1) == .null)
        #expect(try db.cachedStatement("SELECT ?1, ?2 ") !== first)
        #expect(try db.prepare(sql) !== first)
    }

    @Test("cachedStatement finds a statement by its text from any storage, short or long, beyond 64 statements too")
    func cachedStatementLookups() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        // 100 distinct texts: the first 64 are kept in the list, the others by text.
        let texts = (0..<100).map { "SELECT \($0) AS value_of_a_long_enough_column_name" }
        let statements = try texts.map { try db.cachedStatement($0) }
        for (index, text) in texts.enumerated() {
            // The same text in new storage (not the same address) finds the same statement.
            let copy = String(decoding: Array(text.utf8), as: UTF8.self)
            let again = try db.cachedStatement(copy)
            #expect(again === statements[index], "text \(index)")
            #expect(try again.step())
            #expect(again.value(at: 0) == .integer(Int64(index)), "text \(index)")
        }
        // A text of at most 15 bytes lives in the String value itself: found by text.
        let short = try db.cachedStatement("SELECT 7")
        #expect(try db.cachedStatement("SELECT " + "7") === short)
        #expect(try db.cachedStatement("SELECT 8") !== short)
    }

    @Test("a transaction commits what its body did and returns its value")
    func transactionCommits() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute("CREATE TABLE t (x INTEGER)")
        #expect(db.isInTransaction == false)
        let value = try db.transaction {
            #expect(db.isInTransaction)
            try db.execute("INSERT INTO t VALUES (1)")
            return 42
        }
        #expect(value == 42)
        #expect(db.isInTransaction == false)
        #expect(try db.testScalar("SELECT count(*) FROM t") == .integer(1))
    }

    @Test(
        "a transaction rolls back and rethrows the body's own error",
        arguments: [
            Connection.TransactionKind.deferred, .immediate,
        ])
    func transactionRollsBack(kind: Connection.TransactionKind) throws {
        struct Refused: Error, Equatable { let reason: String }
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute("CREATE TABLE t (x INTEGER)")
        #expect(throws: Refused(reason: "no")) {
            try db.transaction(kind) {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Refused(reason: "no")
            }
        }
        #expect(db.isInTransaction == false)
        #expect(try db.testScalar("SELECT count(*) FROM t") == .integer(0))
    }

    @Test("transactions do not nest")
    func nestedTransactionFails() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute("CREATE TABLE t (x INTEGER)")
        #expect(throws: SQLiteError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.transaction {}
            }
        }
        #expect(db.isInTransaction == false)
        #expect(try db.testScalar("SELECT count(*) FROM t") == .integer(0))
    }

    @Test("a UNIQUE violation keeps code 19, extended code 2067, the message and the SQL")
    func uniqueViolation() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute("CREATE TABLE t (x INTEGER UNIQUE) STRICT")
        let sql = "INSERT INTO t (x) VALUES (?)"
        let insert = try db.prepare(sql)
        insert.bind(1, at: 1)
        try insert.run()
        let error = #expect(throws: SQLiteError.self) { try insert.run() }
        #expect(error?.resultCode == 19)
        #expect(error?.extendedResultCode == 2067)
        #expect(error?.extendedResultCode == SQLiteError.ResultCode.constraintUnique)
        #expect(error?.resultCode == .constraint)
        #expect(error?.message == "UNIQUE constraint failed: t.x")
        #expect(error?.sql == sql)
        #expect(
            error?.description
                == "SQLite error 19 (extended 2067): UNIQUE constraint failed: t.x - while executing `INSERT INTO t (x) VALUES (?)`"
        )
    }

    @Test("execute reports the failing SQL")
    func executeError() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        let error = #expect(throws: SQLiteError.self) { try db.execute("CREATE TABLE t (x); SELECT * FROM nowhere") }
        #expect(error?.resultCode == SQLiteError.ResultCode.error)
        #expect(error?.message == "no such table: nowhere")
        #expect(error?.sql == "CREATE TABLE t (x); SELECT * FROM nowhere")
    }

    @Test("a second writer gets SQLITE_BUSY once its busy timeout expires")
    func busyWriter() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("busy.sqlite")
            let first = try Connection(path: path, mode: .readWriteCreate)
            try first.setJournalModeWAL()
            try first.execute("CREATE TABLE t (x INTEGER)")
            let second = try Connection(path: path, mode: .readWrite)
            try second.setBusyTimeout(milliseconds: 50)
            try first.transaction {
                try first.execute("INSERT INTO t VALUES (1)")
                let error = #expect(throws: SQLiteError.self) { try second.transaction {} }
                #expect(error?.resultCode == .busy)
                #expect(error?.sql == "BEGIN IMMEDIATE TRANSACTION")
            }
            #expect(second.isInTransaction == false)
            // Once the lock is free the second writer proceeds.
            try second.transaction { try second.execute("INSERT INTO t VALUES (2)") }
            #expect(try first.testScalar("SELECT count(*) FROM t") == .integer(2))
        }
    }

    @Test("a closed connection throws SQLITE_MISUSE instead of crashing")
    func closedConnection() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        let kept = try db.cachedStatement("SELECT 1")
        db.close()
        db.close()
        let error = #expect(throws: SQLiteError.self) { try db.execute("SELECT 1") }
        #expect(error?.resultCode == SQLiteError.ResultCode.misuse)
        #expect(throws: SQLiteError.self) { try db.prepare("SELECT 1") }
        #expect(db.isInTransaction == false)
        // A statement still held keeps working until released (sqlite3_close_v2).
        #expect(try kept.step())
    }

    @Test("integrity_check says ok on a sound database")
    func integrityCheck() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
        #expect(try db.integrityCheck() == ["ok"])
    }

    @Test("a truncate checkpoint empties the WAL file")
    func checkpointTruncate() throws {
        try withTemporaryDirectory { dir in
            let path = dir.path("wal.sqlite")
            let db = try Connection(path: path, mode: .readWriteCreate)
            try db.setJournalModeWAL()
            try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)")
            let walSize = {
                (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue
            }
            #expect(try walSize() ?? 0 > 0)
            let result = try db.checkpoint(mode: .truncate)
            #expect(result.walFrames == 0)
            #expect(try walSize() == 0)
            try db.checkpoint(mode: .passive)
        }
    }
}
