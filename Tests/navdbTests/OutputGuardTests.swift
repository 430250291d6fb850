import Foundation
import TestSupport
import Testing

/// What a page, an export or a closed pipe must never cost: the database a report or an export
/// reads, a file that is not a page (or an export), or a write that was committed but died
/// without a word.
@Suite("Output guards: report pages, exports and closed pipes")
struct OutputGuardTests {
    @Test(
        "report -o never replaces the database it reads or its -wal/-shm/-journal, also through a link (SQLite only: files)"
    )
    func databaseFiles() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try FileManager.default.createSymbolicLink(
            atPath: sandbox.directory.appendingPathComponent("link.sqlite").path, withDestinationPath: "navdb.sqlite")
        for (db, output) in [
            ("navdb.sqlite", "navdb.sqlite"), ("navdb.sqlite", "./navdb.sqlite-wal"), ("link.sqlite", "navdb.sqlite"),
            ("link.sqlite", "navdb.sqlite-shm"),
            ("navdb.sqlite", "navdb.sqlite-journal"),
        ] {
            try expectRefused(
                sandbox, ["--db", db, "report", "s", "-o", output], status: 73,
                message:
                    "cannot write '\(output)': it is the database this report reads ('\(db)') or one of its files; name another file; nothing was written there"
            )
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: sandbox.directory.appendingPathComponent("navdb.sqlite-journal").path))
        #expect(try sandbox.ok(["history", "s"]).lines.count == 3, "a header and the two events")
    }

    @Test(
        "report -o refuses to replace a file that is not a page; a page, an empty file or a new one is written",
        arguments: CommandBackend.all)
    func foreignFiles(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        let export = try sandbox.write("log.ndjson", "{\"type\":\"session.started\"}\n")
        try expectRefused(
            sandbox, ["report", "s", "-o", "log.ndjson"], status: 73,
            message:
                "cannot write 'log.ndjson': it is a file that is not an HTML page, and navdb replaces only pages (files starting with <!DOCTYPE html>); remove it or name another file; nothing was written there"
        )
        #expect(try String(contentsOfFile: export, encoding: .utf8) == "{\"type\":\"session.started\"}\n")
        try FileManager.default.createDirectory(
            at: sandbox.directory.appendingPathComponent("site"), withIntermediateDirectories: true)
        try sandbox.write("site/index.html", "notes")
        try expectRefused(
            sandbox, ["report", "-o", "site"], status: 73,
            message: "cannot write 'site/index.html': it is a file that is not an HTML page")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.appendingPathComponent("site").path)
                == ["index.html"])
        try sandbox.write("empty.html", "")
        try sandbox.write("old.html", "<!doctype HTML><p>an older page")
        for page in ["empty.html", "old.html", "new.html", "old.html"] {
            #expect(try sandbox.ok(["report", "s", "-o", page]).stdout == "wrote \(page)\n")
            let text = try String(contentsOf: sandbox.directory.appendingPathComponent(page), encoding: .utf8)
            #expect(text.hasPrefix("<!DOCTYPE html>"))
        }
    }

    @Test(
        "export -o never replaces the database it reads or its -wal/-shm/-journal, by name, through a link or as a hard link (SQLite only: files)"
    )
    func exportOverDatabase() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try sandbox.ok(["session", "start", "other", "--time", "2026-11-30T09:00:00Z"])
        let folder = sandbox.directory.path
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.sqlite", withDestinationPath: "navdb.sqlite")
        try FileManager.default.linkItem(atPath: folder + "/navdb.sqlite", toPath: folder + "/hard.sqlite")
        for (db, output) in [
            ("navdb.sqlite", "navdb.sqlite"), ("navdb.sqlite", "./navdb.sqlite"), ("navdb.sqlite", folder + "/navdb.sqlite"),
            ("navdb.sqlite", "navdb.sqlite-wal"), ("navdb.sqlite", "navdb.sqlite-shm"),
            ("navdb.sqlite", "navdb.sqlite-journal"), ("link.sqlite", "navdb.sqlite"), ("navdb.sqlite", "hard.sqlite"),
        ] {
            for arguments in [["export", "s", "-o", output], ["export", "--all", "--output", output]] {
                try expectRefused(
                    sandbox, ["--db", db] + arguments, status: 73,
                    message:
                        "cannot write '\(output)': it is the database this export reads ('\(db)') or one of its files; name another file; nothing was written there"
                )
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/navdb.sqlite-journal"))
        #expect(try sandbox.ok(["history", "s"]).lines.count == 3, "a header and the two events")
        #expect(try sandbox.ok(["history", "other"]).lines.count == 2, "the other session is still there")
    }

    @Test(
        "export -o replaces only an earlier export (0.1.0's too) or an empty file; another database, a page or a text is refused",
        arguments: CommandBackend.all)
    func exportOverForeignFiles(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        let printed = try sandbox.ok(["export", "s"]).stdout
        let otherDatabase = sandbox.directory.appendingPathComponent("other.sqlite").path
        try FileManager.default.copyItem(
            at: TestData.folder("navdb-0.1.0").appendingPathComponent("navdb.sqlite"),
            to: URL(fileURLWithPath: otherDatabase))
        let databaseBytes = try Data(contentsOf: URL(fileURLWithPath: otherDatabase))
        try sandbox.write("page.html", "<!DOCTYPE html><p>a page")
        try sandbox.write("notes.ndjson", "{\"type\":\"session.started\"}\n")
        try sandbox.write("pretty.ndjson", " {\"at\":1}\n")
        for name in ["other.sqlite", "page.html", "notes.ndjson", "pretty.ndjson"] {
            try expectRefused(
                sandbox, ["export", "s", "-o", name], status: 73,
                message:
                    "cannot write '\(name)': it is a file that is not an export, and navdb replaces only exports (NDJSON whose first line starts {\"at\":); remove it or name another file; nothing was written there"
            )
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: otherDatabase)) == databaseBytes)
        #expect(try String(contentsOf: sandbox.directory.appendingPathComponent("notes.ndjson"), encoding: .utf8) == "{\"type\":\"session.started\"}\n")
        try FileManager.default.copyItem(
            at: TestData.folder("navdb-0.1.0").appendingPathComponent("export.ndjson"),
            to: sandbox.directory.appendingPathComponent("old.ndjson"))
        try sandbox.write("empty.ndjson", "")
        for name in ["old.ndjson", "empty.ndjson", "new.ndjson", "new.ndjson"] {
            #expect(try sandbox.ok(["export", "s", "-o", name]).stdout.isEmpty)
            #expect(try String(contentsOf: sandbox.directory.appendingPathComponent(name), encoding: .utf8) == printed)
        }
    }

    @Test(
        "a writing command whose stdout pipe was closed exits 73 and says what it stored, not a silent SIGPIPE",
        arguments: CommandBackend.all)
    func closedPipe(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        // `true` closes the pipe's only reader at once; navdb writes half a second later.
        let push = try shell(sandbox, "{ sleep 0.5; \"$NAVDB\" --db \"$DB\" push s A; echo \"rc=$?\" >&2; } | true")
        #expect(
            push.stderr
                == "Error: session 's' stored version 2, but its output could not be written: Broken pipe\nrc=73\n")
        let history = try sandbox.ok(["history", "s"])
        #expect(history.lines.count == 3, "a header, the start and the push: \(history)")
    }
}
