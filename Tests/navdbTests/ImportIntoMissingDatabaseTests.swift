import Foundation
import TestSupport
import Testing

/// `navdb import` into a database that does not exist yet: the file appears only with the
/// imported events (built under a temporary name and linked into place), so a refused import
/// leaves nothing, and nothing is ever removed afterwards: an import refused at the same moment
/// as another process creates the database cannot take that database away. SQLite only: files,
/// links and temporary names (ImportEmptyInputTests and ImportIntoPathTests cover an empty schema).
@Suite("navdb import into a missing database")
struct ImportIntoMissingDatabaseTests {
    /// An export of session `h` (three events, emoji, CJK and a 10,000-character title).
    static func export(_ sandbox: Sandbox) throws -> String {
        let source = sandbox.directory.appendingPathComponent("source.sqlite").path
        try sandbox.ok(["--db", source, "session", "start", "h", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["--db", source, "push", "h", "A", "--title", "📥 收件箱", "--time", "2026-11-30T09:00:01Z"])
        let long = String(repeating: "x", count: 10_000)
        try sandbox.ok(["--db", source, "push", "h", "B", "--title", long, "--time", "2026-11-30T09:00:02Z"])
        return try sandbox.ok(["--db", source, "export", "h"]).stdout
    }

    /// The files of the sandbox other than its captured outputs and inputs.
    static func files(_ sandbox: Sandbox) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter {
            !$0.hasPrefix(".std") && !$0.hasPrefix(".shell") && !$0.hasSuffix(".ndjson")
                && !$0.hasPrefix("source.sqlite")
        }.sorted()
    }

    @Test("a refused import leaves no file, not even a temporary one; an accepted one leaves the database alone")
    func refusedLeavesNothing() throws {
        let sandbox = try Sandbox()
        let export = try Self.export(sandbox)
        try sandbox.write("bad.ndjson", export + "{\"x\": 1}\n")
        let refused = try sandbox.run(["--db", "new.sqlite", "import", "bad.ndjson"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.hasPrefix("Error: line 4: "), "\(refused)")
        #expect(try Self.files(sandbox) == [])
        try sandbox.write("good.ndjson", export)
        try sandbox.ok(["--db", "new.sqlite", "import", "good.ndjson"])
        #expect(try Self.files(sandbox) == ["new.sqlite"])
        let history = try sandbox.ok(["--db", "new.sqlite", "--json", "history", "h"]).lines
        #expect(history.count == 3)
    }

    @Test("a database in a folder that does not exist: exit 74 naming the database, never a temporary name")
    func missingFolderNamesTheDatabase() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.ndjson", try Self.export(sandbox))
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.directory.appendingPathComponent("link.sqlite").path,
            withDestinationPath: "nowhere/x.sqlite")
        for (database, file) in [("nowhere/x.sqlite", "nowhere/x.sqlite"), ("link.sqlite", "nowhere/x.sqlite")] {
            let result = try sandbox.run(["--db", database, "import", "good.ndjson"])
            #expect(result.status == 74, "\(result)")
            #expect(
                result.stderr
                    == "Error: cannot use database '\(database)': cannot create \(file): No such file or directory\n")
        }
    }

    @Test("a refused import racing an accepted one into a missing database never takes the accepted one's file away")
    func raceWithRefusedImport() throws {
        let sandbox = try Sandbox()
        let export = try Self.export(sandbox)
        try sandbox.write("good.ndjson", export)
        try sandbox.write("bad.ndjson", "{\"x\": 1}\n")
        for round in 0..<15 {
            let database = "race-\(round).sqlite"
            let results = Locked([String: CommandResult]())
            DispatchQueue.concurrentPerform(iterations: 3) { i in
                let arguments =
                    i == 0
                    ? ["--db", database, "import", "bad.ndjson"]
                    : i == 1
                        ? ["--db", database, "import", "good.ndjson"] : ["--db", database, "session", "start", "s"]
                let result = try? sandbox.run(arguments)
                results.withLock { $0[arguments[3]] = result }
            }
            let all = results.withLock { $0 }
            #expect(all["bad.ndjson"]?.status == 65, "round \(round): \(String(describing: all["bad.ndjson"]))")
            #expect(all["good.ndjson"]?.status == 0, "round \(round): \(String(describing: all["good.ndjson"]))")
            #expect(all["start"]?.status == 0, "round \(round): \(String(describing: all["start"]))")
            let sessions = try sandbox.ok(["--db", database, "--json", "sessions"]).json() as? [[String: Any]]
            #expect(
                Set((sessions ?? []).compactMap { $0["key"] as? String }) == ["h", "s"],
                "round \(round): both the import and the start are kept")
        }
        #expect(try Self.files(sandbox).allSatisfy { $0.hasPrefix("race-") && $0.hasSuffix(".sqlite") })
    }

    @Test("two imports of one export into a missing database at once: one imports, the other skips, once each")
    func raceOfTwoImports() throws {
        let sandbox = try Sandbox()
        try sandbox.write("good.ndjson", try Self.export(sandbox))
        for round in 0..<10 {
            let database = "twice-\(round).sqlite"
            let results = Locked([CommandResult]())
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                let result = try? sandbox.run(["--db", database, "--json", "import", "good.ndjson"])
                results.withLock { $0.append(result ?? CommandResult(status: -1, stdout: "", stderr: "")) }
            }
            let all = results.withLock { $0 }
            #expect(all.allSatisfy { $0.status == 0 }, "round \(round): \(all)")
            let imported = try all.map { try $0.object()["imported"] as? Int ?? -1 }.sorted()
            #expect(imported == [0, 3], "round \(round): \(all)")
            #expect(try sandbox.ok(["--db", database, "--json", "history", "h"]).lines.count == 3)
        }
    }
}
