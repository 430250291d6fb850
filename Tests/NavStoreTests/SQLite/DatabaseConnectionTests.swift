import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("DatabaseConnection: typed rows, arguments, transactions, a migrator of one's own")
struct DatabaseConnectionTests {
    private func memory() throws -> Connection {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute(sql: "CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB) STRICT")
        return db
    }

    @Test("arguments bind in order; every storage class, NULL and '' included, reads back as it was written")
    func roundTrip() throws {
        let db = try memory()
        let changed = try db.execute(
            sql: "INSERT INTO t VALUES (?, ?, ?, ?), (?, ?, ?, ?)",
            arguments: [.integer(.max), .real(0.5), .text("é\u{0}x"), .blob([]), nil, nil, "", nil])
        #expect(changed == 2)
        let rows = try db.fetchAll(sql: "SELECT i, r, s, b FROM t ORDER BY rowid")
        #expect(try rows[0][0] as Int64 == .max)
        #expect(try rows[0]["r"] as Double == 0.5)
        #expect(try rows[0]["s"] as String == "é\u{0}x")
        #expect(try rows[0][3] as [UInt8] == [])
        #expect(try rows[1][0] as Int? == nil)
        #expect(try rows[1]["s"] as String? == "")
        #expect(try rows[1][3] as SQLValue == .null)
        #expect(rows[0].columnNames == ["i", "r", "s", "b"])
    }

    @Test("NULL read as a value, another storage class, an integer out of range or a missing column throws")
    func decodingThrows() throws {
        let db = try memory()
        try db.execute(
            sql: "INSERT INTO t VALUES (NULL, NULL, '7', NULL), (?, 1.5, 'x', x'00')", arguments: [.integer(.max)])
        let rows = try db.fetchAll(sql: "SELECT i, r, s, b FROM t ORDER BY rowid")
        #expect(throws: RowDecodingError(column: "0", problem: .unexpectedNull)) { try rows[0][0] as Int64 }
        #expect(throws: RowDecodingError(column: "s", problem: .typeMismatch("text"))) { try rows[0]["s"] as Int }
        #expect(throws: RowDecodingError(column: "2", problem: .typeMismatch("text"))) { try rows[1][2] as Int? }
        #expect(throws: RowDecodingError(column: "0", problem: .outOfRange(.max))) { try rows[1][0] as Int32 }
        #expect(throws: RowDecodingError(column: "nope", problem: .noSuchColumn)) { try rows[1]["nope"] as Int }
        #expect(throws: RowDecodingError(column: "9", problem: .noSuchColumn)) { try rows[1][9] as Int }
        #expect(throws: RowDecodingError(column: "1", problem: .typeMismatch("real"))) { try rows[1][1] as String }
    }

    @Test(
        "two text columns are read in place at once; NULL, another storage class or a missing column gives nil, and the body is not called"
    )
    func twoTextColumns() throws {
        let db = try memory()
        try db.execute(
            sql: "INSERT INTO t VALUES (1, NULL, ?, NULL), (2, NULL, '', NULL), (3, NULL, NULL, NULL)",
            arguments: [.text("é\u{0}x")])
        var calls = 0
        func read(_ row: Row, _ first: Int, _ second: Int) -> [String]? {
            row.withUTF8(at: first, second) { a, b in
                calls += 1
                return [String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self)]
            }
        }
        let owned = try db.fetchAll(sql: "SELECT s, s AS t, i, b FROM t ORDER BY i")
        var viewed: [[[String]?]] = []
        try db.forEachRow(sql: "SELECT s, s AS t, i, b FROM t ORDER BY i", arguments: []) { row in
            viewed.append([read(row, 0, 1), read(row, 1, 0), read(row, 0, 2), read(row, 3, 0), read(row, 0, 9)])
        }
        let copied = owned.map { [read($0, 0, 1), read($0, 1, 0), read($0, 0, 2), read($0, 3, 0), read($0, 0, 9)] }
        let expected: [[[String]?]] = [
            [["é\u{0}x", "é\u{0}x"], ["é\u{0}x", "é\u{0}x"], nil, nil, nil],
            [["", ""], ["", ""], nil, nil, nil],
            [nil, nil, nil, nil, nil],
        ]
        #expect(viewed == expected)
        #expect(copied == expected)
        #expect(calls == 8)
    }

    @Test("a read transaction refuses to write, and leaves nothing changed; a write transaction writes")
    func readTransactionCannotWrite() throws {
        let db = try memory()
        let error = #expect(throws: SQLiteError.self) {
            try db.inTransaction(.read) { try db.execute(sql: "INSERT INTO t (i) VALUES (1)") }
        }
        #expect(error?.resultCode == .misuse)
        #expect(db.isInTransaction == false)
        #expect(try db.fetchOne(sql: "SELECT count(*) FROM t")?[0] as Int? == 0)
        _ = try db.inTransaction(.write) { try db.execute(sql: "INSERT INTO t (i) VALUES (1)") }
        #expect(try db.inTransaction(.read) { try db.fetchOne(sql: "SELECT count(*) FROM t")?[0] as Int? } == 1)
    }

    @Test("statements are reset by the layer: a nested read of the same SQL, an early stop, a failed step")
    func statementsAreReset() throws {
        let db = try memory()
        for i in 1...3 { try db.execute(sql: "INSERT INTO t (i) VALUES (?)", arguments: [.integer(Int64(i))]) }
        var pairs: [Int] = []
        try db.forEachRow(sql: "SELECT i FROM t ORDER BY i", arguments: []) { outer in
            let inner = try db.fetchAll(sql: "SELECT i FROM t ORDER BY i").count
            pairs.append(try outer[0] * 10 + inner)
        }
        #expect(pairs == [13, 23, 33])
        #expect(try db.firstValue(sql: "SELECT i FROM t ORDER BY i", arguments: []) { try $0[0] as Int? } == 1)
        // Nothing holds a read open: a write transaction from another connection is possible.
        #expect(db.isInTransaction == false)
        #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO t (i) VALUES ('x')") }
        #expect(try db.fetchOne(sql: "SELECT count(*) FROM t")?[0] as Int? == 3)
    }

    @Test("a migrator is a value: a test registers its own migrations, applied once each, in order")
    func ownMigrator() throws {
        var migrator = Migrator()
        migrator.registerMigration(Migration(identifier: "1_a", sql: "CREATE TABLE a (x INTEGER) STRICT"))
        migrator.registerMigration(Migration(identifier: "2_b", sql: "INSERT INTO a VALUES (1)"))
        #expect(migrator.currentVersion == 2)
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        #expect(try migrator.isCurrent(db) == false)
        try migrator.migrate(db)
        try migrator.migrate(db)
        #expect(try migrator.isCurrent(db))
        #expect(try migrator.inspect(db) == .current)
        #expect(try Migrator.embedded.isCurrent(db) == false)
        #expect(try db.fetchOne(sql: "SELECT count(*) FROM a")?[0] as Int? == 1)
        #expect(try db.userVersion == 2)
    }

    @Test("a unique violation is categorized with the columns it names, so the store can tell which")
    func uniqueViolationCategory() throws {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute(sql: "CREATE TABLE e (s INTEGER, v INTEGER, id TEXT UNIQUE, UNIQUE (s, v)) STRICT")
        try db.execute(sql: "INSERT INTO e VALUES (1, 1, 'x')")
        let byID = #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO e VALUES (1, 2, 'x')") }
        #expect(byID?.category == .uniqueViolation(detail: "UNIQUE constraint failed: e.id"))
        let byVersion = #expect(throws: SQLiteError.self) { try db.execute(sql: "INSERT INTO e VALUES (1, 1, 'y')") }
        #expect(byVersion?.category == .uniqueViolation(detail: "UNIQUE constraint failed: e.s, e.v"))
    }
}
