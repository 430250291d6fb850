import Foundation
import NavStore
import NavStoreTools
import Testing

/// NavStore.docc/Retention.md through the binary: `session delete`, `session truncate`, `prune`, `vacuum`.
@Suite("navdb: retention commands")
struct RetentionCommandTests {
    /// The raw bytes of the database, its -wal and its -shm; on PostgreSQL (whose files are the
    /// server's) every row of every table of the schema, as text.
    static func allFiles(_ sandbox: Sandbox) throws -> [String: Data] {
        if sandbox.databaseURI != nil { return try sandbox.databaseBytes() }
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"] {
            if let data = FileManager.default.contents(atPath: sandbox.database.path + suffix) { files[suffix] = data }
        }
        return files
    }

    /// Every text field given through the CLI carries `marker`.
    static func writeMarked(_ sandbox: Sandbox, _ marker: String) throws -> [String] {
        let key = "\(marker)-key"
        try sandbox.ok(["session", "start", key, "--name", "\(marker)-name"])
        try sandbox.ok(["push", key, "root", "--title", "Root"])
        try sandbox.ok([
            "push", key, "\(marker)-entry", "--title", "\(marker)-title", "--back-button-title", "\(marker)-back",
            "--back-bar-button-title", "\(marker)-custom", "--menu-title", "\(marker)-menu", "--pop-guard",
            "\(marker)-prompt",
            "--route", "\(marker)-route", "--param", "\(marker)-pkey=\(marker)-pvalue",
        ])
        try sandbox.ok(["push", key, "\(marker)-gone", "--title", "\(marker)-gone-title"])
        try sandbox.ok(["pop", key])
        #expect(try sandbox.run(["pop", key, "--source", "back-button"]).status == 3)
        try sandbox.ok(["restore", key])
        return [
            "key", "name", "entry", "title", "back", "custom", "menu", "prompt", "route", "pkey", "pvalue", "gone",
            "gone-title",
        ].map { "\(marker)-\($0)" }
    }

    @Test(
        "session delete erases every text of the session from the database, -wal and -shm; the other session answers as before",
        arguments: CommandBackend.all)
    func deleteErases(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "other"])
        try sandbox.ok(["push", "other", "A", "--title", "Kept"])
        let texts = try Self.writeMarked(sandbox, "Mk9q")
        let reads = [
            ["stack", "other"], ["show", "other"], ["history", "other"], ["back-menu", "other", "--at", "1"],
        ]
        let before = try reads.map { try sandbox.ok($0).stdout }
        // Unknown session, stale version: exit 1 and 4, nothing changed.
        let bytes = try sandbox.databaseBytes()
        #expect(try sandbox.run(["session", "delete", "nope"]).status == 1)
        let stale = try sandbox.run(["session", "delete", "Mk9q-key", "--expect-version", "2"])
        #expect(stale.status == 4)
        #expect(stale.stderr == "Error: version conflict on session 'Mk9q-key': expected version 2, found 6\n")
        #expect(try sandbox.databaseBytes() == bytes)
        // A dry run says what would go and changes no byte; with --vacuum it is a usage error.
        let dry = try sandbox.ok(["--json", "session", "delete", "Mk9q-key", "--dry-run"]).object()
        #expect(dry["dryRun"] as? Bool == true && dry["events"] as? Int == 6)
        #expect(try sandbox.ok(["session", "delete", "Mk9q-key", "--dry-run"]).stdout.contains("would delete 1 session"))
        #expect(try sandbox.run(["session", "delete", "Mk9q-key", "--dry-run", "--vacuum"]).status == 64)
        #expect(try sandbox.databaseBytes() == bytes)

        let deleted = try sandbox.ok(["--json", "session", "delete", "Mk9q-key", "--expect-version", "6"])
        let report = try deleted.object()
        #expect(report["events"] as? Int == 6)
        #expect(report["walTruncated"] as? Bool == true && report["freeSpaceZeroed"] as? Bool == true, "\(report)")
        for (suffix, data) in try Self.allFiles(sandbox) {
            for text in texts {
                #expect(data.range(of: Data(text.utf8)) == nil, "\(text) is still in navdb.sqlite\(suffix)")
            }
        }
        #expect(try reads.map { try sandbox.ok($0).stdout } == before)
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
        #expect(try sandbox.ok(["rebuild", "--verify"]).status == 0)
        #expect(try sandbox.run(["stack", "Mk9q-key"]).status == 1)
        try sandbox.ok(["session", "start", "Mk9q-key"])
    }

    @Test(
        "session truncate keeps stack, back-menu, show and restore from the base on, refuses earlier points, and history, replay and export start at the base",
        arguments: CommandBackend.all)
    func truncateKeepsTheRest(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--name", "Trip"])
        for (index, title) in ["Inbox 📥", "", "日本語", "Mail", "Draft"].enumerated() {
            try sandbox.ok(["push", "s", "E\(index)", "--title", title])
        }
        try sandbox.ok(["update", "s", "E1", "--back-button-title", "Back to 1"])
        try sandbox.ok(["pop", "s"])
        try sandbox.ok(["present", "s", "M", "--title", "Compose"])
        try sandbox.ok(["push", "s", "N", "--title", "Attach"])
        // Versions 1...10; truncate before 5: the base is version 4.
        let reads: (Int) -> [[String]] = { v in
            [
                ["stack", "s", "--at", "\(v)"], ["back-menu", "s", "--at", "\(v)"], ["show", "s", "--at", "\(v)"],
                ["--json", "stack", "s", "--at", "\(v)"],
            ]
        }
        let before = try (4...10).map { v in try reads(v).map { try sandbox.ok($0).stdout } }
        let restoreBefore = try sandbox.ok(["--json", "stack", "s"]).stdout
        let fullExport = try sandbox.ok(["export", "s"]).stdout
        // Not a version (64), a version the session does not hold (1, as `stack --at`), stale
        // version (4): nothing changed.
        let bytes = try sandbox.databaseBytes()
        for (arguments, status) in [
            (["session", "truncate", "s", "--before", "0"], 64), (["session", "truncate", "s", "--before", "11"], 1),
            (["session", "truncate", "s", "--before", "x"], 64), (["session", "truncate", "s"], 64),
            (["session", "truncate", "s", "--before", "5", "--expect-version", "9"], 4),
            (["session", "truncate", "nope", "--before", "5"], 1),
        ] {
            let result = try sandbox.run(arguments)
            #expect(result.status == Int32(status), "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("Error: "), "\(arguments): \(result)")
        }
        #expect(try sandbox.databaseBytes() == bytes)

        let truncated = try sandbox.ok(["session", "truncate", "s", "--before", "5", "--expect-version", "10"])
        #expect(
            truncated.stdout.hasSuffix(
                "truncated 1 session: 4 events, \(truncated.stdout.split(separator: " ").dropLast().last ?? "") bytes\n"
            ))
        #expect(try (4...10).map { v in try reads(v).map { try sandbox.ok($0).stdout } } == before)
        #expect(try sandbox.ok(["--json", "stack", "s"]).stdout == restoreBefore)
        let restored = try sandbox.ok(["--json", "restore", "s"]).stdout
        #expect(restored.contains("\"restoredVersion\":10"))
        let early = try sandbox.run(["stack", "s", "--at", "3"])
        #expect(early.status == 1)
        #expect(early.stderr.contains("version 4 is its base"), "\(early)")
        #expect(early.stderr.contains("truncated at "), "\(early)")
        let again = try sandbox.run(["session", "truncate", "s", "--before", "3"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("its base is version 4"), "\(again)")

        let history = try sandbox.ok(["history", "s"]).lines
        #expect(history.first?.hasPrefix("(truncated at ") == true)
        #expect(history.first?.contains("after base version 4") == true)
        #expect(history.dropFirst(2).first?.hasPrefix("      5 ") == true, "\(history)")
        let historyJSON = try sandbox.ok(["--json", "history", "s"]).lines
        #expect(historyJSON.first?.contains("\"type\":\"session.truncated\"") == true)
        #expect(historyJSON.count == 7)
        let replay = try sandbox.ok(["replay", "s"]).stdout
        #expect(replay.hasPrefix("(truncated at "))
        #expect(try sandbox.ok(["--json", "replay", "s"]).lines.first?.hasPrefix("{\"backButton\":") == true)
        #expect(try sandbox.run(["replay", "s", "--from", "4"]).status == 1)
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
        #expect(try sandbox.ok(["rebuild", "--verify"]).status == 0)

        // The export carries the base: imported into an empty file, every later state reads the same.
        let export = try sandbox.ok(["export", "s"]).stdout
        #expect(export.hasPrefix("{\"at\":"))
        #expect(export.split(separator: "\n").first?.contains("\"type\":\"session.truncated\"") == true)
        let copy = try Sandbox(backend: backend)
        try copy.ok(["import", "-"], stdin: export)
        #expect(try (4...10).map { v in try reads(v).map { try copy.ok($0).stdout } } == before)
        #expect(try copy.ok(["check"]).stdout.hasSuffix("ok\n"))
        // The export made before the truncation is refused by the truncated file, which stays as it was.
        let bytesAfter = try sandbox.databaseBytes()
        let old = try sandbox.run(["import", "-"], stdin: fullExport)
        #expect(old.status == 65)
        #expect(old.stderr.contains("at or below its base version 4"), "\(old)")
        #expect(try sandbox.databaseBytes() == bytesAfter)
    }

    @Test(
        "prune --dry-run lists sessions, events and bytes and changes no byte; prune deletes them",
        arguments: CommandBackend.all)
    func prune(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "old", "--time", "2020-01-01T00:00:00Z"])
        try sandbox.ok(["push", "old", "A", "--title", "Old", "--time", "2020-01-02T00:00:00Z"])
        try sandbox.ok(["session", "start", "new"])
        let files = try Self.allFiles(sandbox)
        let dry = try sandbox.ok(["prune", "--before", "2021-01-01T00:00:00Z", "--dry-run"])
        #expect(dry.lines.count == 3, "\(dry)")
        #expect(dry.lines[1].hasPrefix("old "))
        #expect(dry.lines[2].hasPrefix("would delete 1 session: 2 events, "))
        #expect(try Self.allFiles(sandbox) == files, "a dry run changes no byte of the database, -wal or -shm")
        for arguments in [
            ["prune"], ["prune", "--before", "yesterday"],
            ["prune", "--before", "2021-01-01", "--dry-run", "--vacuum"],
        ] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
        #expect(try Self.allFiles(sandbox) == files)
        let done = try sandbox.ok(["--json", "prune", "--before", "2021-01-01", "--vacuum"]).object()
        #expect((done["sessions"] as? [[String: Any]])?.map { $0["key"] as? String } == ["old"])
        #expect(done["vacuumed"] as? Bool == true)
        #expect(try sandbox.ok(["sessions"]).stdout.contains("new"))
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
        #expect(try sandbox.ok(["vacuum"]).stdout.hasPrefix("vacuumed: "))
    }

    @Test(
        "vacuum says the bytes before and after and what it reclaimed: the SQLite file and its -wal, PostgreSQL's tables",
        arguments: CommandBackend.all)
    func vacuumSaysWhatItReclaimed(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["session", "start", "big"])
        let padding = String(repeating: "a title that takes room ", count: 40)
        for index in 1...30 { try sandbox.ok(["push", "big", "E\(index)", "--title", "\(index) \(padding)"]) }
        // Without --vacuum, nothing is measured.
        let deleted = try sandbox.ok(["--json", "session", "delete", "big"]).object()
        #expect(deleted["storage"] is NSNull, "\(deleted)")
        let text = try sandbox.ok(["vacuum"])
        #expect(text.lines.count == 1, "\(text)")
        let json = try sandbox.ok(["--json", "vacuum"]).object()
        let storage = try #require(json["storage"] as? [String: Any], "\(json)")
        let before = try #require(storage["before"] as? Int)
        let after = try #require(storage["after"] as? Int)
        #expect(storage["reclaimed"] as? Int == before - after)
        if sandbox.databaseURI == nil {
            let match = try #require(
                text.stdout.wholeMatch(
                    of: /vacuumed: the file and its -wal took (\d+) bytes before, (\d+) after: (\d+) bytes reclaimed\n/),
                "\(text)")
            let (textBefore, textAfter, reclaimed) = (Int(match.1)!, Int(match.2)!, Int(match.3)!)
            #expect(reclaimed == textBefore - textAfter && reclaimed > 30 * padding.utf8.count, "\(text)")
            #expect(storage["measured"] as? String == "sqliteFile")
            // What it says is what is on disk: the file, its -wal truncated to nothing.
            let files = try Self.allFiles(sandbox)
            #expect(after == (files[""]?.count ?? -1) + (files["-wal"]?.count ?? 0), "\(json)")
        } else {
            #expect(
                text.stdout.hasPrefix("vacuumed: NavStore's tables (with indexes and TOAST) took "), "\(text)")
            #expect(text.stdout.contains("PostgreSQL's VACUUM keeps deleted rows' space"), "\(text)")
            #expect(storage["measured"] as? String == "postgresqlTables")
        }
        // The other retention commands say the same after --vacuum.
        try sandbox.ok(["session", "start", "gone"])
        let prune = try sandbox.ok(["prune", "--before", "2999-01-01T00:00:00Z", "--vacuum"]).lines.last ?? ""
        #expect(prune.hasPrefix("deleted 2 sessions: 2 events, "), "\(prune)")
        #expect(prune.contains("; file vacuumed: ") && prune.contains(" bytes before, "), "\(prune)")
    }

    // SQLite-only by nature: it runs the sqlite3 shell on the file (PostgreSQL's triggers are
    // tested in PostgreSQLMigratorTests).
    @Test("a plain sqlite3 DELETE or UPDATE of events is refused by the triggers")
    func plainSQLRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A"])
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { return }
        for sql in ["DELETE FROM events;", "UPDATE events SET at = 0;", "DELETE FROM maintenance;"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [sandbox.database.path, sql]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus != 0, "\(sql) went through")
            #expect(message.contains("navdb:"), "\(sql): \(message)")
        }
        #expect(try sandbox.ok(["history", "s"]).lines.count == 3)
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
    }
}
