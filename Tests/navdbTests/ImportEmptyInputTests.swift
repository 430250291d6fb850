import Foundation
import Testing

/// `navdb import` of an input without events: into a missing database it creates nothing and says
/// so; into an existing one it is a successful no-op that changes no byte. The tests about a
/// missing or foreign database file are SQLite's (files); the others run on both backends.
@Suite("navdb import: an input without events")
struct ImportEmptyInputTests {
    @Test(
        "an empty or blank input into a missing database creates nothing and says so",
        arguments: CommandBackend.each([
            (["import", "input"], ""), (["import", "input"], "\n\n  \n\r\n"), (["import", "-"], ""),
            (["import", "-"], "\n\t\n"),
            (["import", "--format", "firefox-session", "input"], #"{"version":2,"sessionStateTuples":[]}"#),
        ]))
    func missingDatabaseStaysMissing(arguments: [String], input: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.write("input", input)
        // SQLite: a file that does not exist yet; PostgreSQL: the sandbox's empty schema.
        let database = sandbox.databaseURI.map { ([String](), $0) } ?? (["--db", "new.sqlite"], "new.sqlite")
        let result = try sandbox.run(database.0 + arguments, stdin: input)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == "imported 0 event(s) of 0 session(s); 0 already stored (skipped)"
                + "; the input holds no event, so no database was created at '\(database.1)'\n")
        #expect(result.stderr == "")
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path)
        #expect(left.filter { !$0.hasPrefix(".std") } == ["input"], "no database file: \(left)")
        let json = try sandbox.run(database.0 + ["--json"] + arguments, stdin: input)
        #expect(json.stdout == #"{"imported":0,"sessions":0,"skipped":0}"# + "\n", "\(json)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("new.sqlite").path))
        #expect(try sandbox.databaseBytes() == [:], "no table in the schema")
    }

    @Test(
        "an empty input into an existing database is a no-op: exit 0, 0 imported, no byte changed",
        arguments: CommandBackend.all)
    func existingDatabaseUnchanged(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        let before = try sandbox.databaseBytes()
        let result = try sandbox.ok(["import", "-"], stdin: "\n\n")
        #expect(result.stdout == "imported 0 event(s) of 0 session(s); 0 already stored (skipped)\n")
        #expect(try sandbox.databaseBytes() == before)
    }

    // SQLite only: a foreign file (PostgreSQLCommandTests refuse a schema of foreign tables).
    @Test("an empty input into a file that is not a navdb database is still refused (74), the file unchanged")
    func foreignFileRefused() throws {
        let sandbox = try Sandbox()
        let path = try sandbox.write("notes.txt", "hello")
        let result = try sandbox.run(["--db", "notes.txt", "import", "-"], stdin: "")
        #expect(result.status == 74, "\(result)")
        #expect(
            result.stderr
                == "Error: 'notes.txt' is not a navdb database: not an SQLite database; it was left unchanged\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hello")
    }

    @Test(
        "blank lines before a bad line: exit 65 naming the input's own line number, nothing stored",
        arguments: CommandBackend.all)
    func blankLinesThenBadLine(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let result = try sandbox.run(["import", "-"], stdin: "\n\n{\"x\":1}\n")
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix("Error: line 3: "), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
        // PostgreSQL: no table (the schema's tables came and went with the import's transaction).
        #expect(try sandbox.databaseBytes() == [:])
    }
}
