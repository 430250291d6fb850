import Foundation
import Testing

/// What a page or a closed pipe must never cost: the database a report reads, a file that is not a
/// page, or a write that was committed but died without a word.
@Suite("Output guards: report pages and closed pipes")
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
