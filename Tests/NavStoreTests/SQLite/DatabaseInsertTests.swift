import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("DatabaseInsert: SQLite's prepared insert does what the portable one does")
struct DatabaseInsertTests {
    private static let table =
        "CREATE TABLE e (seq INTEGER PRIMARY KEY, s INTEGER NOT NULL, id TEXT NOT NULL UNIQUE, p TEXT NOT NULL) STRICT"
    private static let sql = "INSERT INTO e (s, id, p) VALUES (?, ?, ?)"

    /// SQLite's own insert, then the portable one (``ArgumentListInsert``) on a second database.
    private func bothInserts(sql: String = Self.sql) throws -> [(Connection, any DatabaseInsert)] {
        try [true, false].map { prepared in
            let db = try Connection(path: ":memory:", mode: .readWriteCreate)
            try db.execute(sql: Self.table)
            let insert: any DatabaseInsert =
                prepared
                ? try db.preparedInsert(sql: sql, returning: "seq")
                : ArgumentListInsert(connection: db, sql: sql, key: "seq")
            return (db, insert)
        }
    }

    private func run(_ insert: any DatabaseInsert, _ s: Int64, id: String, payload: String) throws -> Int64? {
        insert.bind(integer: s, at: 1)
        insert.bind(text: id, at: 2)
        var bytes = Array(payload.utf8)
        return try bytes.withUnsafeMutableBufferPointer { try insert.run(binding: UnsafeBufferPointer($0)) }
    }

    @Test("rows, keys and text (empty, NUL, emoji, 10,000 characters) come back as bound, on both inserts")
    func sameRows() throws {
        let texts = ["", "nul\u{0}inside", "🧭 日本語 e\u{301}", String(repeating: "é", count: 10_000), "{\"a\":1}"]
        var tables: [[[SQLValue]]] = []
        for (db, insert) in try bothInserts() {
            for (index, text) in texts.enumerated() {
                #expect(try run(insert, Int64(index), id: "id-\(index)", payload: text) == Int64(index + 1))
            }
            let rows = try db.fetchAll(sql: "SELECT seq, s, id, p FROM e ORDER BY seq")
            #expect(try rows.map { try $0[3] as String } == texts)
            tables.append(try rows.map { row in try (0..<4).map { try row[$0] as SQLValue } })
        }
        #expect(tables[0] == tables[1])
    }

    @Test("ON CONFLICT DO NOTHING gives nil; a unique violation is categorized; a read transaction refuses")
    func conflictsAndRefusals() throws {
        for (db, insert) in try bothInserts() {
            _ = try run(insert, 1, id: "x", payload: "a")
            let error = #expect(throws: (any Error).self) { try run(insert, 1, id: "x", payload: "b") }
            #expect(
                (error as? any DatabaseBackendError)?.category
                    == .uniqueViolation(detail: "UNIQUE constraint failed: e.id"))
            let refused = #expect(throws: (any Error).self) {
                try db.inTransaction(.read) { try run(insert, 2, id: "y", payload: "c") }
            }
            #expect((refused as? SQLiteError)?.resultCode == .misuse)
            #expect(try db.fetchOne(sql: "SELECT count(*) FROM e")?[0] as Int? == 1)
        }
        for (db, insert) in try bothInserts(sql: Self.sql + " ON CONFLICT (id) DO NOTHING") {
            #expect(try run(insert, 1, id: "x", payload: "a") == 1)
            #expect(try run(insert, 1, id: "x", payload: "b") == nil)
            #expect(try db.fetchOne(sql: "SELECT p FROM e")?[0] as String? == "a")
        }
    }

    @Test("borrowed text is never read after its run: a later run that binds none there stores NULL, not stale bytes")
    func borrowedTextReleased() throws {
        let (db, insert) = try bothInserts()[0]
        _ = try run(insert, 1, id: "x", payload: "first")
        insert.bind(integer: 2, at: 1)
        insert.bind(text: "y", at: 2)
        let error = #expect(throws: SQLiteError.self) { try insert.run() }
        #expect(error?.message.contains("NOT NULL constraint failed: e.p") == true)
        #expect(try db.fetchOne(sql: "SELECT count(*) FROM e")?[0] as Int? == 1)
        // Bound again in place, as a copied text, or after a failed run: never the stale bytes.
        _ = try run(insert, 3, id: "z", payload: "third")
        insert.bind(integer: 4, at: 1)
        insert.bind(text: "w", at: 2)
        insert.bind(text: "copied", at: 3)
        #expect(try insert.run() == 3)
        _ = try run(insert, 5, id: "v", payload: "fifth")
        insert.bind(integer: 6, at: 1)
        insert.bind(text: "t", at: 2)
        #expect(try insert.run(binding: UnsafeBufferPointer(start: nil, count: 0)) == 5)
        insert.bind(integer: 7, at: 1)
        insert.bind(text: "u", at: 2)
        #expect(throws: SQLiteError.self) { try insert.run() }
        let rows = try db.fetchAll(sql: "SELECT s, p FROM e ORDER BY seq").map {
            try "\($0[0] as Int) \($0[1] as String)"
        }
        #expect(rows == ["1 first", "3 third", "4 copied", "5 fifth", "6 "])
    }
}

extension DatabaseInsert {
    /// Binds `payload` as the third argument and runs.
    fileprivate func run(binding payload: UnsafeBufferPointer<UInt8>) throws -> Int64? {
        bind(utf8: payload, at: 3)
        return try run()
    }
}
