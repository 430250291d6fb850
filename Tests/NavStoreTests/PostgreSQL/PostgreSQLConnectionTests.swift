import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools
@testable import NavStorePostgreSQL

// Needs a server: skipped, with the reason, when NAVDB_TEST_POSTGRESQL is not set.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLConnectionTests {
    @Test("values round-trip by column type: integers, doubles, text with emoji and CJK, \"\" apart from NULL, bytes")
    func roundTrip() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        try db.execute(sql: "CREATE TABLE t (i bigint, r double precision, s text, b bytea, n text)")
        let values: [SQLValue] = [
            .integer(Int64.min), .real(0.1), .text("Mail 📬 邮件 \"q\" 'a' ?"), .blob([0, 1, 255]), .text(""),
        ]
        try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments: values)
        try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)", arguments: [.null, .null, .null, .null, .null])
        let rows = try db.query(sql: "SELECT i, r, s, b, n FROM t ORDER BY i NULLS LAST")
        #expect(rows.columns == ["i", "r", "s", "b", "n"])
        #expect(rows.rows == [values, [.null, .null, .null, .null, .null]])
    }

    @Test("bool reads as 1 or 0 and sum() of bigint (numeric) as an integer, as SQLite returns them")
    func sqliteShapedResults() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        let row = try db.queryFirst(
            sql: "SELECT EXISTS (SELECT 1), 1 = 2, sum(x), ?::text IS NULL FROM (VALUES (2::bigint), (3)) v(x)",
            arguments: [.null])
        #expect(row == [.integer(1), .integer(0), .integer(5), .integer(1)])
    }

    @Test("statements run inside a row-by-row loop, nested loops included, leave no row of the outer loop out")
    func statementsInsideARowLoop() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        try db.execute(sql: "CREATE TABLE t (i bigint)")
        try db.execute(sql: "CREATE TABLE seen (i bigint, inner_count bigint)")
        try db.execute(sql: "INSERT INTO t SELECT generate_series(1, 50)")
        try db.inTransaction(.write) {
            try db.forEachRow(sql: "SELECT i FROM t ORDER BY i", arguments: []) { row in
                let i: Int64 = try row[0]
                var inner: Int64 = 0
                if i % 10 == 0 {
                    try db.forEachRow(sql: "SELECT i FROM t WHERE i <= ?", arguments: [.integer(i)]) { _ in inner += 1 }
                }
                try db.execute(sql: "INSERT INTO seen VALUES (?, ?)", arguments: [.integer(i), .integer(inner)])
            }
        }
        #expect(try db.queryFirst(sql: "SELECT count(*), sum(i), sum(inner_count) FROM seen") == [50, 1275, 150])
    }

    @Test("a ? inside a string literal is not a parameter")
    func questionMarkInLiteral() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        #expect(try db.queryFirst(sql: "SELECT '?', ?::text", arguments: ["x"]) == [.text("?"), .text("x")])
    }

    @Test("text with a NUL character is refused, not cut short")
    func nulRefused() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        #expect(throws: PostgreSQLError.self) { try db.execute(sql: "SELECT ?::text", arguments: [.text("a\u{0}b")]) }
    }

    @Test("a unique violation carries SQLSTATE 23505 and the constraint's name")
    func uniqueViolation() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        try db.execute(sql: "CREATE TABLE t (k text CONSTRAINT t_k_key UNIQUE)")
        try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["a"])
        let error = #expect(throws: PostgreSQLError.self) {
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["a"])
        }
        #expect(error?.isUniqueViolation == true)
        #expect(error?.constraint == "t_k_key")
        #expect(error?.kind == .statement)
        #expect(error?.description.hasPrefix("PostgreSQL error 23505: duplicate key value") == true)
    }

    @Test("a write transaction that loses a serialization race runs again and commits once")
    func serializationRetry() throws {
        let uri = try PostgreSQLTestServer.freshSchemaURI()
        let db = try PostgreSQLConnection(uri: uri)
        let other = try PostgreSQLConnection(uri: uri)
        try db.execute(sql: "CREATE TABLE counter (n bigint)")
        try db.execute(sql: "INSERT INTO counter VALUES (0)")
        var attempts = 0
        try db.inTransaction(.write) {
            attempts += 1
            _ = try db.queryFirst(sql: "SELECT n FROM counter")
            if attempts == 1 { try other.execute(sql: "UPDATE counter SET n = n + 10") }
            try db.execute(sql: "UPDATE counter SET n = n + 1")
        }
        #expect(attempts == 2)
        #expect(try db.queryFirst(sql: "SELECT n FROM counter") == [.integer(11)])
    }

    @Test("a read transaction cannot write")
    func readOnly() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        try db.execute(sql: "CREATE TABLE t (n bigint)")
        let error = #expect(throws: PostgreSQLError.self) {
            try db.inTransaction(.read) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.sqlState == "25006")
        #expect(try db.queryFirst(sql: "SELECT count(*) FROM t") == [.integer(0)])
    }

    @Test("COPY writes tabs, line breaks, backslashes, NULL and bytes exactly")
    func copyRoundTrip() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        try db.execute(sql: "CREATE TABLE t (i bigint, s text, b bytea)")
        let rows: [[SQLValue]] = [
            [.integer(1), .text("a\tb\nc\\d\r"), .blob([0, 0x5c, 0xff])], [.integer(2), .null, .null],
            [.integer(3), .text(""), .blob([])],
        ]
        #expect(try db.copy(into: "t", columns: ["i", "s", "b"], rows: rows) == 3)
        #expect(try db.query(sql: "SELECT i, s, b FROM t ORDER BY i").rows == rows)
    }

    @Test("a missing database is a connection error naming it, with libpq's reason")
    func missingDatabase() throws {
        let uri = try #require(PostgreSQLTestServer.uri).replacingOccurrences(of: "///navdb", with: "///navdb_missing")
        let error = #expect(throws: PostgreSQLError.self) { try PostgreSQLConnection(uri: uri) }
        #expect(error?.kind == .connection)
        #expect(error?.message.contains("database \"navdb_missing\" does not exist") == true)
    }

    @Test("a wrong password is a connection error that never shows the password, in the URI or in PGPASSWORD")
    func wrongPassword() throws {
        let uri = try #require(ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_PASSWORD"])
        let wrong = "Wr0ngSecret-\(UUID().uuidString.prefix(8))"
        let withPassword = uri.replacingOccurrences(of: "://navdb_pw@", with: "://navdb_pw:\(wrong)@")
        let error = #expect(throws: PostgreSQLError.self) { try PostgreSQLConnection(uri: withPassword) }
        #expect(error?.kind == .connection)
        #expect(error?.message.contains("password authentication failed") == true)
        #expect(error.map { "\($0)".contains(wrong) } == false)
        let keyword = withPassword + "&password=\(wrong)"
        let second = #expect(throws: PostgreSQLError.self) { try PostgreSQLConnection(uri: keyword) }
        #expect(second.map { "\($0)".contains(wrong) } == false)
    }

    @Test("the right password from the URI connects")
    func rightPassword() throws {
        let uri = try #require(ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_PASSWORD"])
        let secret = try #require(ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_SECRET"])
        let db = try PostgreSQLConnection(
            uri: uri.replacingOccurrences(of: "://navdb_pw@", with: "://navdb_pw:\(secret)@"))
        #expect(try db.queryFirst(sql: "SELECT current_user::text") == [.text("navdb_pw")])
        #expect(!db.displayName.contains(secret))
    }
}

@Suite struct PostgreSQLOfflineTests {
    @Test("no server at the socket is a connection error with libpq's reason, password removed")
    func serverDown() throws {
        let uri = "postgresql://ann:Sup3rSecret@/navdb?host=/nonexistent-navdb-socket&connect_timeout=2"
        do {
            _ = try PostgreSQLConnection(uri: uri)
            Issue.record("connected to a server that does not exist")
        } catch {
            #expect(error.kind == .connection)
            #expect(error.message.contains("/nonexistent-navdb-socket") || error.message.contains("libpq"))
            #expect(!"\(error)".contains("Sup3rSecret"))
        }
    }

    @Test(
        "passwords are removed from URIs, key=value strings and query parameters",
        arguments: [
            ("postgresql://ann:s3cr%40t@db.example/navdb", "postgresql://ann@db.example/navdb"),
            ("postgres://ann:pw@/navdb?host=/tmp&sslmode=require", "postgres://ann@/navdb?host=/tmp&sslmode=require"),
            (
                "postgresql://db/navdb?user=ann&password=hunter22&sslmode=verify-full",
                "postgresql://db/navdb?user=ann&password=&sslmode=verify-full"
            ),
            ("host=db password='it\\'s secret' user=ann", "host=db password= user=ann"),
            ("could not connect: postgresql://bob:xyzzy@h/d failed", "could not connect: postgresql://bob@h/d failed"),
            ("postgresql:///navdb?host=/tmp/s", "postgresql:///navdb?host=/tmp/s"),
        ])
    func redaction(input: String, expected: String) {
        #expect(PostgreSQLURI.redactingPasswords(in: input) == expected)
    }

    @Test("a password from the URI is removed even where a message quotes it bare")
    func literalPassword() {
        let text = PostgreSQLURI.redactingPasswords(
            in: "role rejected s3cr@t", uri: "postgresql://ann:s3cr%40t@db/navdb")
        #expect(text == "role rejected ***")
    }

    @Test("postgresql:// and postgres:// are URIs (any case); paths and file: URIs are not")
    func detection() {
        #expect(PostgreSQLURI.isURI("postgresql://h/d"))
        #expect(PostgreSQLURI.isURI("POSTGRES://h/d"))
        #expect(!PostgreSQLURI.isURI("postgresql.sqlite"))
        #expect(!PostgreSQLURI.isURI("file:postgres://x"))
    }

    @Test("libpq gets a URI's scheme in lower case, the rest as given; a key=value string unchanged")
    func schemeLowerCasedForLibPQ() {
        #expect(PostgreSQLURI.forLibPQ("POSTGRESQL://Ann@H/D?Host=/X") == "postgresql://Ann@H/D?Host=/X")
        #expect(PostgreSQLURI.forLibPQ("Postgres://h/d") == "postgres://h/d")
        #expect(PostgreSQLURI.forLibPQ("postgresql://h/d") == "postgresql://h/d")
        #expect(PostgreSQLURI.forLibPQ("host=/X dbname=D") == "host=/X dbname=D")
        #expect(PostgreSQLURI.forLibPQ("NAV.sqlite") == "NAV.sqlite")
    }

    @Test("? parameters are numbered outside literals, quoted names, dollar quotes and comments")
    func placeholders() {
        let sql = "SELECT ?, '?''?', \"a?\", $$?$$, $t$ ? $t$ -- ?\n, /* ? */ ? FROM t WHERE x = $1"
        let numbered = SQLPlaceholders.numbered(sql)
        #expect(numbered.sql == "SELECT $1, '?''?', \"a?\", $$?$$, $t$ ? $t$ -- ?\n, /* ? */ $2 FROM t WHERE x = $1")
        #expect(numbered.count == 2)
    }
}

// Needs a server: skipped, with the reason, when NAVDB_TEST_POSTGRESQL is not set.
@Suite(.enabled(if: PostgreSQLTestServer.isAvailable, PostgreSQLTestServer.skipReason))
struct PostgreSQLStreamingTests {
    @Test("forEachRow streams every row in order; an error thrown by the body stops it and the connection stays usable")
    func streaming() throws {
        let db = try PostgreSQLConnection(uri: try PostgreSQLTestServer.freshSchemaURI())
        var seen: [Int64] = []
        try db.forEachRawRow(sql: "SELECT g AS n FROM generate_series(1, ?) g ORDER BY g", arguments: [.integer(1000)])
        {
            columns, values in
            #expect(columns == ["n"])
            if case .integer(let n) = values[0] { seen.append(n) }
        }
        #expect(seen == Array(1...1000))
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.forEachRawRow(sql: "SELECT g FROM generate_series(1, 100000) g") { _, _ in throw Stop() }
        }
        #expect(try db.queryFirst(sql: "SELECT 7") == [.integer(7)])
        #expect(throws: PostgreSQLError.self) { try db.forEachRawRow(sql: "SELECT 1/0") { _, _ in } }
        #expect(try db.queryFirst(sql: "SELECT 8") == [.integer(8)])
    }
}
