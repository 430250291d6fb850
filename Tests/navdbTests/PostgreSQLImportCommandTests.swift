import Foundation
import NavStore
import NavStoreTools
import NavStorePostgreSQL
import TestSupport
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#endif

/// `navdb import` into an empty PostgreSQL schema, as into a missing SQLite file: a refused import
/// (exit 65, one line naming the line) or a killed one leaves the schema as it was, with no table;
/// U+0000 in a text PostgreSQL stores as text is refused naming the line and the field. Needs a
/// server: skipped, with the reason, when `NAVDB_TEST_POSTGRESQL` is not set.
@Suite(.enabled(if: CommandBackend.server != nil, CommandBackend.skipReason))
struct PostgreSQLImportCommandTests {
    /// The export of session `h` from a file (started, A and B pushed: three lines).
    static func export(_ sandbox: Sandbox) throws -> [String] {
        let source = sandbox.directory.appendingPathComponent("source.sqlite").path
        try sandbox.ok(["--db", source, "session", "start", "h", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["--db", source, "push", "h", "A", "--title", "Inbox", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok(["--db", source, "push", "h", "B", "--title", "Mail", "--time", "2026-11-30T09:00:02Z"])
        return try sandbox.ok(["--db", source, "export", "h"]).lines
    }

    static let nulRule =
        "on PostgreSQL session keys and names, entry ids and routes are text without U+0000 (titles and params may contain it); nothing was imported"

    /// Bad inputs made from the export, and the start of the one line of stderr each gives.
    static let refusals: [(name: String, input: @Sendable ([String]) -> [String], stderr: String)] = [
        ("a line that is not JSON", { [$0[0], "not json"] }, #"Error: line 2: not JSON: it reads "not json""#),
        (
            "a version gap", { [$0[0], $0[2]] },
            "Error: line 2: session 'h' is at version 1 here, so the next version is 2, but this line is version 3"
        ),
        (
            "U+0000 in an entry id", { $0.map { $0.replacingOccurrences(of: #""id":"B""#, with: #""id":"B\u0000""#) } },
            "Error: line 3: version 3 of session 'h': the entry id 'B\\u{0}' contains U+0000 (NUL), which PostgreSQL text cannot hold, and the entry is still on a stack at the end of the import: \(nulRule)\n"
        ),
        (
            "U+0000 in the session key",
            { $0.map { $0.replacingOccurrences(of: #""session":"h""#, with: #""session":"h\u0000""#) } },
            "Error: line 1: the session key 'h\\u{0}' contains U+0000 (NUL), which PostgreSQL text cannot hold: \(nulRule)\n"
        ),
    ]

    @Test(
        "a refused import into an empty schema: exit 65, one line naming the line, and the schema stays empty",
        arguments: refusals.map(\.name))
    func refusedImportLeavesSchemaEmpty(refusal: String) throws {
        let (_, input, stderr) = try #require(Self.refusals.first { $0.name == refusal })
        let sandbox = try Sandbox(backend: .postgresql)
        let uri = try #require(sandbox.databaseURI)
        let lines = try Self.export(sandbox)
        let result = try sandbox.run(["import", "-"], stdin: input(lines).joined(separator: "\n") + "\n")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix(stderr), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stdout.isEmpty, "\(result)")
        #expect(try PostgreSQLSchemaObjects.names(in: uri) == [])
        let read = try sandbox.run(["sessions"])
        #expect(read.status == 1 && read.stderr.hasPrefix("Error: no navdb database at "), "\(read)")
        #expect(
            try sandbox.ok(["import", "-"], stdin: lines.joined(separator: "\n") + "\n").stdout
                == "imported 3 event(s) of 1 session(s); 0 already stored (skipped)\n")
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
    }

    @Test("an import killed inside its transaction leaves the empty schema empty, and the next import works")
    func killedImportLeavesSchemaEmpty() throws {
        let sandbox = try Sandbox(backend: .postgresql)
        let uri = try #require(sandbox.databaseURI)
        let schema = try #require(uri.components(separatedBy: "search_path%3D").last)
        let lines = try Self.export(sandbox)
        let process = Process()
        process.executableURL = try Navdb.binary()
        process.arguments = ["--db", uri, "import", "-"]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Two lines, and the input stays open: the import waits for the third inside its transaction.
        stdin.fileHandleForWriting.write(Data((lines[0] + "\n" + lines[1] + "\n").utf8))
        // The importer holds the schema's migration lock and waits for the client ('idle in
        // transaction'), steadily: it read both lines, inside the transaction that created the
        // tables (a migration committed on its own is never idle holding the lock for long).
        let admin = try PostgreSQLConnection(uri: uri)
        let importer = """
            SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
            AND classid = \(PostgreSQLMigrator.lockClass) AND objid = hashtext(?)::oid
            """
        let waiting = try admin.prepareCount(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction' AND pid IN (\(importer))",
            schema)
        let deadline = Date().addingTimeInterval(30)
        var steady = 0
        while steady < 4 && Date() < deadline {
            steady = try waiting() == 1 ? steady + 1 : 0
            usleep(50_000)
        }
        #expect(steady == 4, "the import never waited for input inside its transaction")
        let created = try admin.prepareCount(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'relation' AND mode = 'AccessExclusiveLock' AND pid IN (\(importer))",
            schema)
        #expect(try created() >= 5, "the transaction holds the tables it created")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        // The server ends the dead client's transaction and lock.
        let holders = try admin.prepareCount("SELECT count(*) FROM (\(importer)) AS l", schema)
        let ended = Date().addingTimeInterval(30)
        while try holders() > 0 && Date() < ended { usleep(20_000) }
        #expect(try holders() == 0)
        #expect(try PostgreSQLSchemaObjects.names(in: uri) == [])
        try sandbox.ok(["import", "-"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(try sandbox.ok(["--json", "history", "h"]).lines.count == 3)
    }

    @Test("imports and a session start racing into one empty schema: each succeeds once, the tables made once")
    func racesIntoEmptySchema() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.ndjson", try Self.export(sandbox).joined(separator: "\n") + "\n")
        try sandbox.write("bad.ndjson", "{\"x\": 1}\n")
        for round in 0..<5 {
            let uri = try CommandBackend.freshSchemaURI()
            let results = Locked([String: CommandResult]())
            let runs = [
                ["import", "good.ndjson"], ["import", "good.ndjson"], ["import", "bad.ndjson"],
                ["session", "start", "s"],
            ]
            DispatchQueue.concurrentPerform(iterations: runs.count) { i in
                let result = try? sandbox.run(["--db", uri, "--json"] + runs[i])
                results.withLock { $0["\(i)"] = result }
            }
            let all = results.withLock { $0 }
            let imported = (0...1).map { (try? all["\($0)"]?.object()["imported"] as? Int) ?? -1 }.sorted()
            #expect(imported == [0, 3], "round \(round): \(all)")
            #expect(all["2"]?.status == 65 && all["3"]?.status == 0, "round \(round): \(all)")
            let sessions = try sandbox.ok(["--db", uri, "--json", "sessions"]).json() as? [[String: Any]]
            #expect(Set((sessions ?? []).compactMap { $0["key"] as? String }) == ["h", "s"], "round \(round)")
        }
    }
}

extension PostgreSQLConnection {
    /// A closure that runs `sql` (a `count(*)` with one `?`, bound to `argument`) and returns the count.
    fileprivate func prepareCount(_ sql: String, _ argument: String) throws -> () throws -> Int {
        { [self] in
            guard case .integer(let count) = try self.query(sql: sql, arguments: [.text(argument)]).rows.first?[0]
            else { return -1 }
            return Int(count)
        }
    }
}
