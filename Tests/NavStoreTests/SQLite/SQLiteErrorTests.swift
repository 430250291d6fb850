import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite struct SQLiteErrorTests {
    @Test("description: primary code, extended code when it differs, message, SQL")
    func descriptions() {
        #expect(
            SQLiteError(extendedResultCode: 1, message: "no such table: x", sql: "SELECT * FROM x").description
                == "SQLite error 1: no such table: x - while executing `SELECT * FROM x`")
        #expect(
            SQLiteError(
                extendedResultCode: 2067, message: "UNIQUE constraint failed: t.x", sql: "INSERT INTO t VALUES (1)"
            ).description
                == "SQLite error 19 (extended 2067): UNIQUE constraint failed: t.x - while executing `INSERT INTO t VALUES (1)`"
        )
        #expect(
            SQLiteError(extendedResultCode: 14, message: "unable to open database file").description
                == "SQLite error 14: unable to open database file")
    }

    @Test("the result code is the low byte of the extended code")
    func resultCode() {
        #expect(SQLiteError(extendedResultCode: 1811, message: "").resultCode == 19)
        #expect(SQLiteError(extendedResultCode: 517, message: "").resultCode == 5)
        #expect(SQLiteError(extendedResultCode: 26, message: "").resultCode == 26)
    }

    @Test(
        "the category follows the primary code; a primary pattern matches its extended codes",
        arguments: [
            (Int32(5), DatabaseErrorCategory.busy), (6, .busy), (517, .busy), (19, .other),
            (2067, .uniqueViolation(detail: "m")), (1555, .uniqueViolation(detail: "m")), (26, .notADatabase),
            (11, .corrupt), (267, .corrupt), (8, .readOnly), (1032, .readOnly), (14, .cannotOpen), (13, .diskFull),
            (4874, .diskFull), (1, .other),
        ])
    func classification(code: Int32, category: DatabaseErrorCategory) {
        let error = SQLiteError(extendedResultCode: .init(rawValue: code), message: "m")
        #expect(error.category == category)
        #expect(SQLiteError.ResultCode(rawValue: code & 0xff) ~= error)
        #expect(error.databaseCause == .sqlite(error))
    }

    @Test("an extended pattern matches only itself; catch clauses match by pattern")
    func patterns() {
        typealias Code = SQLiteError.ResultCode
        let unique = SQLiteError(extendedResultCode: .constraintUnique, message: "")
        #expect(Code.constraint ~= unique)
        #expect(Code.constraintUnique ~= unique)
        #expect(!(Code.constraintTrigger ~= unique))
        #expect(!(Code.constraintUnique ~= SQLiteError(extendedResultCode: .constraint, message: "")))
        let caught: String
        do { throw unique } catch Code.busy { caught = "busy" } catch Code.constraint { caught = "constraint" } catch {
            caught = "other"
        }
        #expect(caught == "constraint")
    }

    @Test("the code constants have SQLite's values")
    func codeValues() {
        typealias Code = SQLiteError.ResultCode
        #expect(
            [
                Code.error, Code.busy, Code.locked, Code.readOnly, Code.ioError, Code.corrupt, Code.full,
                Code.cantOpen, Code.constraint, Code.mismatch, Code.misuse, Code.range, Code.notADatabase,
            ]
                == [1, 5, 6, 8, 10, 11, 13, 14, 19, 20, 21, 25, 26])
        #expect(
            [
                Code.constraintCheck, Code.constraintForeignKey, Code.constraintNotNull,
                Code.constraintPrimaryKey, Code.constraintTrigger, Code.constraintUnique, Code.ioErrorShmSize,
            ]
                == [275, 787, 1299, 1555, 1811, 2067, 4874])
    }
}
