import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite struct SQLiteStatementTests {
    private func openMemory() throws -> Connection {
        let db = try Connection(path: ":memory:", mode: .readWriteCreate)
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v ANY) STRICT")
        return db
    }

    /// Inserts `value` through `bind` and reads it back with `read`.
    private func roundTrip<T>(
        _ db: Connection,
        bind: (Statement) -> Void,
        read: (Statement) -> T
    ) throws -> T {
        let insert = try db.prepare("INSERT INTO t (v) VALUES (?)")
        bind(insert)
        try insert.run()
        let select = try db.prepare("SELECT v FROM t WHERE id = ?")
        select.bind(db.lastInsertRowID, at: 1)
        #expect(try select.step())
        return read(select)
    }

    @Test(
        "every storage class round-trips through SQLValue",
        arguments: [
            SQLValue.null, .integer(0), .integer(.max), .integer(.min), .real(3.5), .real(-0.25),
            .text(""), .text("hello"), .blob([]), .blob([0, 1, 2, 255]),
        ])
    func sqlValueRoundTrip(value: SQLValue) throws {
        let db = try openMemory()
        let read = try roundTrip(db, bind: { $0.bind(value, at: 1) }, read: { $0.value(at: 0) })
        #expect(read == value)
    }

    @Test("typed binds and typed reads agree")
    func typedBindsAndReads() throws {
        let db = try openMemory()
        #expect(try roundTrip(db, bind: { $0.bind(Int64(-42), at: 1) }, read: { $0.int64(at: 0) }) == -42)
        #expect(try roundTrip(db, bind: { $0.bind(Int(7), at: 1) }, read: { $0.int(at: 0) }) == 7)
        #expect(try roundTrip(db, bind: { $0.bind(2.5 as Double?, at: 1) }, read: { $0.double(at: 0) }) == 2.5)
        #expect(try roundTrip(db, bind: { $0.bind(true, at: 1) }, read: { $0.value(at: 0) }) == .integer(1))
        #expect(try roundTrip(db, bind: { $0.bind(false, at: 1) }, read: { $0.value(at: 0) }) == .integer(0))
        #expect(try roundTrip(db, bind: { $0.bind("text" as String?, at: 1) }, read: { $0.string(at: 0) }) == "text")
        #expect(try roundTrip(db, bind: { $0.bind([9, 8] as [UInt8]?, at: 1) }, read: { $0.blob(at: 0) }) == [9, 8])
    }

    @Test("nil binds NULL for every optional overload")
    func nilBindsNull() throws {
        let db = try openMemory()
        let binds: [(Statement) -> Void] = [
            { $0.bind(nil as Int64?, at: 1) },
            { $0.bind(nil as Int?, at: 1) },
            { $0.bind(nil as Double?, at: 1) },
            { $0.bind(nil as String?, at: 1) },
            { $0.bind(nil as [UInt8]?, at: 1) },
            { $0.bind(.null, at: 1) },
        ]
        for bind in binds {
            let read = try roundTrip(db, bind: bind) {
                ($0.isNull(at: 0), $0.string(at: 0), $0.blob(at: 0), $0.value(at: 0))
            }
            #expect(read.0)
            #expect(read.1 == nil)
            #expect(read.2 == nil)
            #expect(read.3 == .null)
        }
    }

    @Test("an empty string reads back as \"\", not nil; an empty blob as [], not nil")
    func emptyIsNotNull() throws {
        let db = try openMemory()
        let text = try roundTrip(db, bind: { $0.bind("" as String?, at: 1) }) { ($0.isNull(at: 0), $0.string(at: 0)) }
        #expect(text.0 == false)
        #expect(text.1 == "")
        let blob = try roundTrip(db, bind: { $0.bind([] as [UInt8]?, at: 1) }) { ($0.isNull(at: 0), $0.blob(at: 0)) }
        #expect(blob.0 == false)
        #expect(blob.1 == [])
        #expect(try db.testScalar("SELECT count(*) FROM t WHERE v IS NULL") == .integer(0))
        #expect(try db.testScalar("SELECT typeof(v) FROM t ORDER BY id LIMIT 1") == .text("text"))
    }

    /// A named text, so that a 100,000-character argument does not flood the test log.
    struct TextCase: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        var testDescription: String { name }
    }

    @Test(
        "text round-trips exactly",
        arguments: [
            TextCase(name: "NUL inside", text: "a\u{0}b"),
            TextCase(name: "only NUL", text: "\u{0}"),
            TextCase(name: "trailing NUL", text: "trailing NUL\u{0}"),
            TextCase(name: "emoji", text: "👩‍👩‍👧‍👦 🇫🇷 emoji"),
            TextCase(name: "combining marks", text: "e\u{301} combining marks"),
            TextCase(name: "right-to-left", text: "שלום עולם right-to-left"),
            TextCase(name: "newlines and tabs", text: "line 1\nline 2\r\n\ttab"),
            TextCase(name: "SQL fragment", text: "'); DROP TABLE t; --"),
            TextCase(name: "100,000 ASCII characters", text: String(repeating: "x", count: 100_000)),
            TextCase(name: "100,000 non-ASCII characters", text: String(repeating: "é🙂", count: 50_000)),
        ])
    func textRoundTrip(textCase: TextCase) throws {
        let text = textCase.text
        let db = try openMemory()
        let read = try roundTrip(db, bind: { $0.bind(text as String?, at: 1) }) { $0.string(at: 0) }
        #expect(read == text)
        // SQLite stored exactly the UTF-8 bytes, NULs included.
        #expect(try db.testScalar("SELECT length(CAST(v AS BLOB)) FROM t") == .integer(Int64(text.utf8.count)))
        #expect(try db.testScalar("SELECT v = ? FROM t", [.text(text)]) == .integer(1))
    }

    @Test("blobs with zero bytes round-trip")
    func blobRoundTrip() throws {
        let db = try openMemory()
        let bytes: [UInt8] = [0, 0, 1, 0, 255, 0]
        #expect(try roundTrip(db, bind: { $0.bind(bytes as [UInt8]?, at: 1) }) { $0.blob(at: 0) } == bytes)
    }

    @Test("bind([SQLValue]) binds parameters 1...n in order")
    func bindArray() throws {
        let db = try openMemory()
        let statement = try db.prepare("SELECT ?, ?, ?, ?")
        statement.bind([1, "two", 3.0, nil])
        #expect(try statement.step())
        #expect((0..<4).map { statement.value(at: $0) } == [.integer(1), .text("two"), .real(3), .null])
    }

    @Test("literals pick the expected overload")
    func literalOverloads() throws {
        let db = try openMemory()
        let statement = try db.prepare("SELECT typeof(?1), typeof(?2), typeof(?3), typeof(?4)")
        statement.bind(5, at: 1)
        statement.bind("x", at: 2)
        statement.bind(1.5, at: 3)
        statement.bind(.null, at: 4)
        #expect(try statement.step())
        #expect((0..<4).map { statement.string(at: $0) } == ["integer", "text", "real", "null"])
    }

    @Test("a failed bind is thrown by the next step, with the SQL")
    func bindErrorSurfacesAtStep() throws {
        let db = try openMemory()
        let statement = try db.prepare("SELECT ?")
        statement.bind(1, at: 2)
        let error = #expect(throws: SQLiteError.self) { try statement.step() }
        #expect(error?.resultCode == SQLiteError.ResultCode.range)
        #expect(error?.sql == "SELECT ?")
        // The error is reported once; the statement itself is fine.
        #expect(try statement.step())
    }

    @Test("column count and names")
    func columns() throws {
        let db = try openMemory()
        let statement = try db.prepare("SELECT 1 AS one, 'b' AS two")
        #expect(statement.columnCount == 2)
        #expect(statement.columnName(at: 0) == "one")
        #expect(statement.columnName(at: 1) == "two")
    }

    @Test("forEachRow visits every row and resets, so the statement can run again")
    func forEachRow() throws {
        let db = try openMemory()
        try db.execute("INSERT INTO t (v) VALUES (1), (2), (3)")
        let statement = try db.prepare("SELECT v FROM t ORDER BY id")
        var seen: [Int] = []
        try statement.forEachRow { seen.append($0.int(at: 0)) }
        try statement.forEachRow { seen.append($0.int(at: 0)) }
        #expect(seen == [1, 2, 3, 1, 2, 3])
    }

    @Test("forEachRow rethrows the body's error and resets")
    func forEachRowRethrows() throws {
        struct Stop: Error {}
        let db = try openMemory()
        try db.execute("INSERT INTO t (v) VALUES (1), (2)")
        let statement = try db.prepare("SELECT v FROM t ORDER BY id")
        #expect(throws: Stop.self) { try statement.forEachRow { _ in throw Stop() } }
        #expect(try statement.step())
        #expect(statement.int(at: 0) == 1)
    }

    @Test("run executes an INSERT and reports changes and the rowid")
    func runInsert() throws {
        let db = try openMemory()
        let insert = try db.prepare("INSERT INTO t (id, v) VALUES (?, ?)")
        insert.bind([41, "x"])
        try insert.run()
        #expect(db.changes == 1)
        #expect(db.lastInsertRowID == 41)
        try db.execute("UPDATE t SET v = 'y'")
        #expect(db.changes == 1)
    }

    @Test("prepare accepts one statement with trailing ; and comments, and refuses more or none")
    func prepareSingleStatement() throws {
        let db = try openMemory()
        _ = try db.prepare("SELECT 1;  -- a comment\n")
        let several = #expect(throws: SQLiteError.self) { try db.prepare("SELECT 1; SELECT 2") }
        #expect(several?.resultCode == SQLiteError.ResultCode.misuse)
        let none = #expect(throws: SQLiteError.self) { try db.prepare("  -- nothing") }
        #expect(none?.resultCode == SQLiteError.ResultCode.misuse)
        let syntax = #expect(throws: SQLiteError.self) { try db.prepare("SELEC 1") }
        #expect(syntax?.resultCode == SQLiteError.ResultCode.error)
        #expect(syntax?.sql == "SELEC 1")
    }
}
