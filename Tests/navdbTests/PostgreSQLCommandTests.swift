import Foundation
import NavStore
import NavStoreTools
import NavStorePostgreSQL
import Testing

/// navdb on a PostgreSQL server: failures exit 74 with libpq's reason and never show a password;
/// a device's log moves to the server and back. Needs a server: skipped, with the reason, when
/// `NAVDB_TEST_POSTGRESQL` is not set.
@Suite(.enabled(if: CommandBackend.server != nil, CommandBackend.skipReason))
struct PostgreSQLCommandTests {
    /// The password role's URI (`NAVDB_TEST_POSTGRESQL_PASSWORD`, no password in it).
    static let passwordURI = ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_PASSWORD"] ?? ""

    @Test(
        "a wrong password, in the URI or in PGPASSWORD, is exit 74 with libpq's reason and is never printed",
        arguments: [true, false])
    func wrongPassword(inURI: Bool) throws {
        let sandbox = try Sandbox()
        let wrong = "Wr0ng-\(UUID().uuidString.prefix(8))"
        let uri =
            inURI
            ? Self.passwordURI.replacingOccurrences(of: "://navdb_pw@", with: "://navdb_pw:\(wrong)@")
            : Self.passwordURI
        for arguments in [["sessions"], ["push", "s", "A"], ["export", "--all"]] {
            let result = try sandbox.run(["--db", uri] + arguments, environment: inURI ? [:] : ["PGPASSWORD": wrong])
            #expect(result.status == 74, "\(result)")
            #expect(result.stderr.hasPrefix("Error: cannot use database 'postgresql://navdb_pw@/navdb?host="))
            #expect(result.stderr.contains("password authentication failed for user \"navdb_pw\""))
            #expect(!result.stderr.contains(wrong) && !result.stdout.contains(wrong))
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        }
    }

    @Test("the right password connects, and still never shows in a message")
    func rightPassword() throws {
        let sandbox = try Sandbox()
        let secret = try #require(ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_SECRET"])
        let uri = Self.passwordURI.replacingOccurrences(of: "://navdb_pw@", with: "://navdb_pw:\(secret)@")
        let schema = try CommandBackend.freshSchemaURI()
        let options = schema[schema.range(of: "options=")!.lowerBound...]
        let db = uri + "&" + options
        try sandbox.ok(["--db", db, "session", "start", "s"])
        let missing = try sandbox.run(["--db", db, "push", "nope", "A"])
        #expect(missing.status == 1)
        #expect(!missing.stderr.contains(secret))
    }

    @Test("no server at the socket, or no such database: exit 74 naming the database and libpq's reason")
    func unreachable() throws {
        let sandbox = try Sandbox()
        let down = try sandbox.run(["--db", "postgresql://ann:Secr3tPw@/navdb?host=/nonexistent-navdb", "sessions"])
        #expect(down.status == 74)
        #expect(down.stderr.hasPrefix("Error: cannot use database 'postgresql://ann@/navdb?host=/nonexistent-navdb': "))
        #expect(down.stderr.contains("No such file or directory"))
        #expect(!down.stderr.contains("Secr3tPw"))
        let server = try #require(CommandBackend.server)
        let missing = try sandbox.run([
            "--db", server.replacingOccurrences(of: "///navdb", with: "///navdb_none"), "sessions",
        ])
        #expect(missing.status == 74)
        #expect(missing.stderr.contains("database \"navdb_none\" does not exist"))
    }

    @Test("a URI's scheme in upper or mixed case reaches the server, as libpq takes it only in lower case")
    func upperCaseScheme() throws {
        let sandbox = try Sandbox(backend: .postgresql)
        let uri = try #require(sandbox.databaseURI)
        let colon = try #require(uri.firstIndex(of: ":"))
        let upper = uri[..<colon].uppercased() + uri[colon...]
        #expect(try sandbox.ok(["--db", upper, "session", "start", "s"]).stdout == "version 1\n")
        let mixed = "PostgreSQL" + uri[colon...]
        #expect(try sandbox.ok(["--db", mixed, "push", "s", "A"]).stdout == "version 2\n")
        #expect(try sandbox.ok(["--db", uri, "sessions"]).stdout.contains("s "))
    }

    @Test(
        "a schema holding someone else's tables is refused (74) and left alone, whatever their names",
        arguments: ["events", "notes"])
    func foreignSchema(table: String) throws {
        let sandbox = try Sandbox(backend: .postgresql)
        let uri = try #require(sandbox.databaseURI)
        let db = try PostgreSQLConnection(uri: uri)
        try db.execute(sql: "CREATE TABLE \(table) (x int)")
        for words in [["session", "start", "s"], ["push", "s", "A"], ["sessions"]] {
            let result = try sandbox.run(words)
            #expect(result.status == 74, "\(words)")
            #expect(
                result.stderr.contains(
                    "is not a navdb database: its schema holds tables navdb did not create (\(table)); give navdb an empty schema of its own"
                ), "\(words): \(result.stderr)")
        }
        #expect(
            try db.query(sql: "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()")
                .rows == [[.integer(1)]])
    }

    @Test("a log moves from a file to the server and back: identical lines, and importing again skips everything")
    func movingLogs() throws {
        let device = try Sandbox()
        try device.ok(["session", "start", "mail", "--time", "2026-11-30T09:00:00Z"])
        try device.ok(["push", "mail", "A", "--title", "Inbox 📬", "--time", "2026-11-30T09:00:01Z"])
        try device.ok([
            "push", "mail", "B", "--title", "邮件", "--pop-guard", "Discard?", "--time", "2026-11-30T09:00:02Z",
        ])
        try device.run(["pop", "mail", "--time", "2026-11-30T09:00:03Z"])
        try device.ok(["present", "mail", "C", "--title", "", "--time", "2026-11-30T09:00:04Z"])
        try device.ok(["session", "start", "other"])
        let exported = try device.ok(["export", "--all"]).stdout

        let server = try Sandbox(backend: .postgresql)
        let first = try server.run(["import", "-"], stdin: exported)
        #expect(first.status == 0, "\(first)")
        #expect(try server.ok(["export", "--all"]).stdout == exported)
        let again = try server.run(["import", "-"], stdin: exported)
        #expect(again.status == 0)
        #expect(again.stdout.contains("\(exported.split(separator: "\n").count) already stored (skipped)"), "\(again)")
        #expect(try server.ok(["check"]).stdout.hasSuffix("ok\n"))
        #expect(try server.ok(["back-menu", "mail"]).stdout == (try device.ok(["back-menu", "mail"]).stdout))

        let back = try Sandbox()
        try back.ok(["import", "-"], stdin: try server.ok(["export", "--all"]).stdout)
        #expect(try back.ok(["export", "--all"]).stdout == exported)
    }

    @Test("a stale --expect-version is exit 4 and writes nothing")
    func staleExpectedVersion() throws {
        let sandbox = try Sandbox(backend: .postgresql)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A"])
        let stale = try sandbox.run(["push", "s", "B", "--expect-version", "1"])
        #expect(stale.status == 4)
        #expect(stale.stderr.hasPrefix("Error: version conflict on session 's': expected version 1, found 2"))
        #expect(try sandbox.ok(["--json", "sessions"]).stdout.contains("\"version\":2"))
    }
}
