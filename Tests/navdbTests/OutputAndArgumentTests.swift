import Foundation
import Testing

/// Output that cannot be written, arguments that are not text, times that are not exact, and an
/// empty database path: each is an error with its exit code, never a quiet success.
@Suite("navdb: lost output and odd arguments")
struct OutputAndArgumentTests {
    @Test(
        "output that cannot be written (a full disk) exits 73 instead of passing for success",
        arguments: CommandBackend.all)
    func outputToDevFull(backend: CommandBackend) throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        for command in ["history s", "--json stack s", "export s", "push s A --title x"] {
            let result = try shell(sandbox, "\"$NAVDB\" --db \"$DB\" \(command) > /dev/full")
            #expect(result.status == 73, "\(command): \(result)")
            let written =
                command.hasPrefix("push")
                ? "Error: session 's' stored version 2, but its output could not be written: No space left on device"
                : "Error: cannot write the output: No space left on device"
            #expect(result.stderr.hasPrefix(written), "\(command): \(result.stderr)")
        }
        // The push took effect; only its output was lost, as the message says.
        #expect(try sandbox.ok(["--json", "stack", "s"]).stdout.contains("\"id\":\"A\""))
    }

    @Test(
        "an argument that is not valid UTF-8 is refused (64), not stored with a replacement character",
        arguments: CommandBackend.all)
    func invalidUTF8(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let before = try sandbox.databaseBytes()
        let result = try shell(sandbox, "\"$NAVDB\" --db \"$DB\" push s \"$(printf 'x\\377')\"")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("Error: Argument 5 is not valid UTF-8 (bytes 78 FF)"), "\(result.stderr)")
        #expect(try sandbox.databaseBytes() == before)
    }

    @Test(
        "a NAVDB_PATH that is not UTF-8 is refused (64), not replaced by another file name",
        arguments: CommandBackend.all)
    func invalidUTF8Path(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let result = try shell(sandbox, "NAVDB_PATH=\"$(printf 'env\\377.sqlite')\" \"$NAVDB\" session start s")
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("Error: NAVDB_PATH is not valid UTF-8"), "\(result.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { $0.hasPrefix("env") }
                .isEmpty)
    }

    @Test(
        "an import line that is not UTF-8 is refused (65) with its line number; nothing is written",
        arguments: CommandBackend.all)
    func invalidUTF8ImportLine(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let source = sandbox.directory.appendingPathComponent("source.sqlite").path
        try sandbox.ok(["--db", source, "session", "start", "s"])
        try sandbox.ok(["--db", source, "push", "s", "A"])
        let export = try sandbox.ok(["--db", source, "export", "s"]).stdout
        try sandbox.ok(["session", "start", "t"])
        let before = try sandbox.databaseBytes()
        var bytes = Array(export.utf8)
        let quote = bytes.lastIndex(of: UInt8(ascii: "A"))!
        bytes[quote] = 0xFF
        let file = sandbox.directory.appendingPathComponent("bad.ndjson")
        try Data(bytes).write(to: file)
        let result = try sandbox.run(["import", file.path])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("line 2 of") && result.stderr.contains("is not valid UTF-8"), "\(result.stderr)")
        #expect(try sandbox.databaseBytes() == before)
    }

    @Test(
        "an empty session key or entry id is a usage error",
        arguments: [["session", "start", ""], ["push", "", "A"], ["push", "s", ""], ["stack", ""]], CommandBackend.all)
    func emptyKeyOrID(arguments: [String], backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let before = try sandbox.databaseBytes()
        let result = try sandbox.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("Error: The value '' is invalid for '<"), "\(result.stderr)")
        #expect(try sandbox.databaseBytes() == before)
    }

    @Test(
        "an empty --db is a usage error",
        arguments: [
            ["--db", "", "sessions"], ["--db=", "sessions"], ["sessions", "--db", ""], ["sessions", "--db="],
        ], CommandBackend.all)
    func emptyDatabasePath(arguments: [String], backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let result = try sandbox.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderr.hasPrefix("Error: The value '' is invalid for '--db <path>': expected a file path"),
            "\(result)")
    }

    // SQLite only: it is about an empty NAVDB_PATH, which names no database of either kind.
    @Test("a NAVDB_PATH set but empty is a usage error naming it (64), not ./navdb.sqlite; --db still wins")
    func emptyEnvironmentPath() throws {
        let sandbox = try Sandbox()
        for command in ["session start s", "sessions", "import -", "push s A", "export --all"] {
            let result = try shell(sandbox, "NAVDB_PATH= \"$NAVDB\" \(command) </dev/null")
            #expect(result.status == 64, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "Error: NAVDB_PATH is set but empty: expected a file path or a postgresql:// URI (unset it for ./navdb.sqlite, or give --db <path>)\n"
                ), "\(command): \(result.stderr)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { !$0.hasPrefix(".") }
                .isEmpty, "no database created")
        let explicit = try shell(sandbox, "NAVDB_PATH= \"$NAVDB\" --db \"$DB\" session start s")
        #expect(explicit.status == 0, "\(explicit)")
        #expect(try shell(sandbox, "NAVDB_PATH= \"$NAVDB\" --help >/dev/null").status == 0)
    }

    // SQLite only: a URI of a scheme navdb has no backend for names no database of either kind.
    @Test("a --db or NAVDB_PATH of another URI scheme (mysql://) is a usage error (64), its password not shown")
    func unknownScheme() throws {
        let sandbox = try Sandbox()
        for (setting, source) in [
            ("\"$NAVDB\" --db 'mysql://ann:secret@db/nav?password=hunter2'", "--db"),
            ("NAVDB_PATH='mysql://ann:secret@db/nav?password=hunter2' \"$NAVDB\"", "NAVDB_PATH"),
        ] {
            for command in ["session start s", "stack s", "import -", "export --all"] {
                let result = try shell(sandbox, "\(setting) \(command) </dev/null")
                #expect(result.status == 64, "\(command): \(result)")
                #expect(
                    result.stderr.hasPrefix(
                        "Error: \(source) 'mysql://db/nav' is a URI with the scheme 'mysql', which navdb does not open: expected a file path or a postgresql:// URI\n"
                    ),
                    "\(command): \(result.stderr)")
                #expect(!result.stderr.contains("secret") && !result.stderr.contains("hunter2"))
            }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { !$0.hasPrefix(".") }
                .isEmpty, "no database created")
    }

    // SQLite only, as above.
    @Test(
        "the message names any scheme without an article before it: 'a://', 'x+y://', 'HTTP://'",
        arguments: [("a://x", "a://x", "a"), ("x+y://h/db", "x+y://h/db", "x+y"), ("HTTP://h/nav", "http://h/nav", "http")])
    func schemeInMessage(_ location: String, _ shown: String, _ scheme: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", location, "sessions"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "Error: --db '\(shown)' is a URI with the scheme '\(scheme)', which navdb does not open: expected a file path or a postgresql:// URI\nUsage: "
            ), "\(result)")
        #expect(!result.stderr.contains(" a \(scheme)") && !result.stderr.contains(" an \(scheme)"), "\(result)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { !$0.hasPrefix(".") }
                .isEmpty, "no database created")
    }

    @Test(
        "an import whose output is lost exits 73 and says what it stored (and that a second import skips it)",
        arguments: CommandBackend.all)
    func lostOutputOfAnImport(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let source = sandbox.directory.appendingPathComponent("source.sqlite").path
        try sandbox.ok(["--db", source, "session", "start", "h", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["--db", source, "push", "h", "A", "--title", "收件箱", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.write("h.ndjson", try sandbox.ok(["--db", source, "export", "h"]).stdout)
        for (script, stored, skipped) in [
            ("\"$NAVDB\" --db \"$DB\" import h.ndjson >&-", 2, 0),
            ("\"$NAVDB\" --db \"$DB\" --json import - < h.ndjson >&-", 0, 2),
        ] {
            let result = try shell(sandbox, script)
            #expect(result.status == 73, "\(script): \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "Error: the import stored \(stored) event(s) of 1 session(s) and skipped \(skipped) already stored (importing it again skips them all), but its output could not be written: "
                ), "\(script): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(try sandbox.ok(["--json", "history", "h"]).lines.count == 2)
    }

    @Test(
        "a veto whose output is lost exits 73 and says it was vetoed, that nothing was popped, and its version",
        arguments: CommandBackend.all)
    func lostOutputOfAVeto(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok(["push", "s", "B", "--pop-guard", "Discard \"draft\"?", "--time", "2026-11-30T09:00:02Z"])
        try sandbox.ok(["present", "s", "M", "--modal-in-presentation", "--time", "2026-11-30T09:00:03Z"])
        var scripts = [
            (
                "dismiss s --source gesture >&-",
                "the dismissal of 'M' was vetoed (modal in presentation): nothing was dismissed", 5
            ),
            ("dismiss s --source programmatic >/dev/null", nil, 6),
            ("pop s >&-", "the pop of 'B' was vetoed (pop guard \"Discard \\\"draft\\\"?\"): nothing was popped", 7),
            (
                "--json pop s >&-",
                "the pop of 'B' was vetoed (pop guard \"Discard \\\"draft\\\"?\"): nothing was popped", 8
            ),
        ]
        if FileManager.default.fileExists(atPath: "/dev/full") {
            scripts.append(
                (
                    "pop s >/dev/full",
                    "the pop of 'B' was vetoed (pop guard \"Discard \\\"draft\\\"?\"): nothing was popped", 9
                ))
        }
        for (command, sentence, version) in scripts {
            let result = try shell(sandbox, "\"$NAVDB\" --db \"$DB\" \(command)")
            guard let sentence else {
                #expect(result.status == 0, "\(command): \(result)")
                continue
            }
            #expect(result.status == 73, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "Error: session 's': \(sentence), the veto is recorded as version \(version), but its output could not be written: "
                ), "\(command): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        // Nothing was popped: B is still on top, and the vetoes are in the log as the messages say.
        let stack = try sandbox.ok(["--json", "stack", "s"]).stdout
        #expect(stack.contains("\"id\":\"B\""), "\(stack)")
        let vetoes = try sandbox.ok(["--json", "history", "s"]).lines.filter { $0.contains("\"type\":\"pop.vetoed\"") }
        #expect(vetoes.count == scripts.filter { $0.0.contains("pop s") }.count, "\(vetoes)")
    }

    @Test(
        "a time must parse whole and carry its zone",
        arguments: [
            "2026-12-01T10:15:00", "2026-12-01T10:16:00+05:00junk", "2026-11-30garbage", "2024-02-30",
            "2026-11-30T24:00:00Z",
        ], CommandBackend.all)
    func strictTimes(text: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-01-01T00:00:00Z"])
        let before = try sandbox.databaseBytes()
        for arguments in [
            ["push", "s", "A", "--time", text], ["back-menu", "s", "--at", text], ["history", "s", "--since", text],
        ] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(
                result.stderr.contains("'\(text)'") && result.stderr.contains("with its zone"),
                "\(arguments): \(result)")
        }
        #expect(try sandbox.databaseBytes() == before)
        // The accepted forms still work: a comma fraction and an offset.
        try sandbox.ok(["push", "s", "B", "--time", "2026-01-01T02:00:00,5+02:00"])
        #expect(try sandbox.ok(["--json", "history", "s", "--entry", "B"]).stdout.contains("\"at\":1767225600500"))
    }
}
