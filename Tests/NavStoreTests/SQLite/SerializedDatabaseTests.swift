import Testing
@testable import NavStore

@Suite struct SQLiteSerializedDatabaseTests {
    @Test("concurrent callers are serialized: no lost update")
    func concurrentIncrements() async throws {
        let connection = try Connection(path: ":memory:", mode: .readWriteCreate)
        try connection.execute("CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
        let database = SerializedDatabase(connection)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        try database.withConnection { db in
                            try db.transaction {
                                let n = try db.testScalar("SELECT n FROM counter")
                                guard case .integer(let value) = n else { return }
                                let update = try db.cachedStatement("UPDATE counter SET n = ?")
                                update.bind(value + 1, at: 1)
                                try update.run()
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let total = try database.withConnection { try $0.testScalar("SELECT n FROM counter") }
        #expect(total == .integer(400))
    }

    @Test("withConnection returns the body's value and rethrows its error")
    func returnsAndRethrows() throws {
        struct Failure: Error {}
        let database = SerializedDatabase(try Connection(path: ":memory:", mode: .readWriteCreate))
        let value: Int? = try database.withConnection { _ in nil }
        #expect(value == nil)
        #expect(try database.withConnection { try $0.userVersion } == 0)
        #expect(throws: Failure.self) { try database.withConnection { _ in throw Failure() } }
    }
}
