import Foundation
import Testing

/// Each kind of bad input gets a clear one-line error, its documented exit code, and leaves the
/// database byte-for-byte unchanged (navdb's documented contract: README, `--help`).
@Suite struct BadInputTests {
    /// A sandbox with session `s` holding A (Inbox) and B (Draft, guarded).
    func populated(_ backend: CommandBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2024-05-01T10:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--time", "2024-05-01T10:00:01Z"])
        try sandbox.ok([
            "push", "s", "B", "--title", "Draft", "--pop-guard", "Discard?", "--time", "2024-05-01T10:00:02Z",
        ])
        return sandbox
    }

    @Test("an unknown session exits 1 and names the key, for writes and reads", arguments: CommandBackend.all)
    func unknownSession(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(sandbox, ["push", "nosuch", "X"], status: 1, message: "session 'nosuch' not found")
        try expectRefused(sandbox, ["stack", "nosuch"], status: 1, message: "session 'nosuch' not found")
        try expectRefused(sandbox, ["history", "nosuch"], status: 1, message: "session 'nosuch' not found")
        try expectRefused(sandbox, ["restore", "nosuch"], status: 1, message: "session 'nosuch' not found")
    }

    @Test("an entry that is not live exits 1 and names it", arguments: CommandBackend.all)
    func unknownEntry(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(
            sandbox, ["update", "s", "nope", "--title", "X"], status: 1,
            message: "entry 'nope' is not live (stack: [A, B])")
        try expectRefused(sandbox, ["pop-to", "s", "nope"], status: 1, message: "cannot pop to 'nope'")
    }

    @Test("a command the rules refuse exits 1 and appends nothing", arguments: CommandBackend.all)
    func refusedByTheRules(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(sandbox, ["push", "s", "A"], status: 1, message: "entry 'A' is already live")
        try expectRefused(sandbox, ["dismiss", "s"], status: 1, message: "nothing to dismiss")
        try expectRefused(sandbox, ["menu-select", "s", "5"], status: 1, message: "back menu row 5 does not exist")
        try expectRefused(sandbox, ["session", "start", "s"], status: 1, message: "session 's' already exists")
        try sandbox.ok(["pop-to-root", "s"])
        try expectRefused(
            sandbox, ["pop", "s", "--source", "programmatic"], status: 1, message: "cannot pop 'A': it is the root")
        try expectRefused(sandbox, ["back", "s"], status: 1, message: "cannot go back from 'A'")
    }

    @Test("a stale --expect-version is a conflict (exit 4)", arguments: CommandBackend.all)
    func staleExpectedVersionIsAConflict(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(
            sandbox, ["push", "s", "C", "--expect-version", "2"], status: 4,
            message: "version conflict on session 's': expected version 2, found 3")
        let result = try sandbox.ok(["--json", "push", "s", "C", "--expect-version", "3"])
        #expect(try result.object()["version"] as? Int == 4)
    }

    @Test(
        "session start takes --expect-version: 0 for a new session, a conflict otherwise", arguments: CommandBackend.all
    )
    func sessionStartTakesExpectVersion(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(
            sandbox, ["session", "start", "s", "--expect-version", "0"], status: 4,
            message: "version conflict on session 's': expected version 0, found 3")
        try expectRefused(
            sandbox, ["session", "start", "t", "--expect-version", "2"], status: 4,
            message: "version conflict on session 't': expected version 2, found 0")
        #expect(try sandbox.ok(["session", "start", "t", "--expect-version", "0"]).stdout == "version 1\n")
        #expect(try sandbox.ok(["sessions"]).stdout.contains("t"))
        // The expected version of an existing session does not make a start of it a conflict.
        try expectRefused(
            sandbox, ["session", "start", "t", "--expect-version", "1"], status: 1,
            message: "session 't' already exists")
    }

    @Test(
        "a session start refused for its expected version on a missing database exits 4 and creates nothing",
        arguments: CommandBackend.all)
    func refusedStartCreatesNothing(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        // SQLite: no file before or after; PostgreSQL: the fresh schema stays without tables.
        try expectRefused(
            sandbox, ["session", "start", "s", "--expect-version", "5"], status: 4,
            message: "version conflict on session 's': expected version 5, found 0")
        #expect(try sandbox.databaseBytes() == [:])
    }

    @Test("restore --mark takes --expect-version", arguments: CommandBackend.all)
    func restoreMarkTakesExpectVersion(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        // Stale: exit 4, no marker appended, no attempt counted (the database is unchanged).
        try expectRefused(
            sandbox, ["restore", "s", "--mark", "--expect-version", "2"], status: 4,
            message: "version conflict on session 's': expected version 2, found 3")
        let marked = try sandbox.ok(["--json", "restore", "s", "--mark", "--expect-version", "3"]).object()
        #expect(marked["version"] as? Int == 4)
        #expect(marked["attempts"] as? Int == 1)
        try expectRefused(
            sandbox, ["restore", "s", "--ack", "--expect-version", "4"], status: 64,
            message: "--expect-version cannot be combined with --ack or --at")
    }

    @Test("a --time before the session's previous event is refused", arguments: CommandBackend.all)
    func timeBeforeThePreviousEvent(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(
            sandbox, ["push", "s", "C", "--time", "2024-05-01T09:00:00Z"], status: 1,
            message: "is earlier than the previous event")
    }

    @Test("a bad option value is a usage error naming the value and what is accepted", arguments: CommandBackend.all)
    func badOptionValue(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(
            sandbox, ["push", "s", "C", "--display-mode", "tiny"], status: 64,
            message: "'tiny' is invalid for '--display-mode <mode>'")
        try expectRefused(
            sandbox, ["push", "s", "C", "--left-items", "-1"], status: 64,
            message: "'-1' is invalid for '--left-items <n>'")
        try expectRefused(
            sandbox, ["stack", "s", "--at", "soon"], status: 64, message: "'soon' is invalid for '--at <point>'")
    }

    @Test("a missing argument is a usage error", arguments: CommandBackend.all)
    func missingArgument(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(sandbox, ["push", "s"], status: 64, message: "Missing expected argument '<id>'")
        try expectRefused(sandbox, ["pop-to", "s"], status: 64, message: "Missing expected argument '<id>'")
    }

    @Test("an --at point outside the session is refused, naming the versions it has", arguments: CommandBackend.all)
    func pointOutsideTheSession(backend: CommandBackend)
        throws
    {
        let sandbox = try populated(backend)
        try expectRefused(
            sandbox, ["stack", "s", "--at", "99"], status: 1, message: "version 99 is outside session 's'")
        try expectRefused(
            sandbox, ["back-menu", "s", "--at", "2020-01-01T00:00:00Z"], status: 1, message: "is outside session 's'")
    }

    @Test(
        "a session key past 1,000 bytes of UTF-8 is refused on every backend, at start and in an import, before anything is written",
        arguments: CommandBackend.all)
    func sessionKeyLimit(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        let long = String(repeating: "k", count: 1_001)
        try expectRefused(
            sandbox, ["session", "start", long], status: 1,
            message:
                "the session key '\(String(repeating: "k", count: 40))…' is 1001 bytes of UTF-8; a key holds at most 1000 bytes (the same on every backend)"
        )
        // Three bytes a character: 334 characters are 1,002 bytes; 333 are 999, taken.
        try expectRefused(
            sandbox, ["session", "start", String(repeating: "日", count: 334)], status: 1, message: "is 1002 bytes of UTF-8")
        let taken = String(repeating: "日", count: 333)
        try sandbox.ok(["session", "start", taken])
        try sandbox.ok(["push", taken, "A"])
        #expect(try sandbox.ok(["sessions"]).stdout.contains(taken))
        // An export line of a longer key (as SQLite kept them before the limit) is refused whole.
        let line = #"{"at":1,"eventID":"00000000-0000-4000-8000-000000000001","payload":{"platform":"ios14"},"session":""#
            + String(repeating: "s", count: 1_200) + #"","type":"session.started","version":1}"#
        let file = try sandbox.write("long.ndjson", line + "\n")
        try expectRefused(sandbox, ["import", file], status: 1, message: "is 1200 bytes of UTF-8")
    }

    @Test(
        "an event past 16 MiB of JSON is refused at the write (set-stack, import), so that every reader reads back what a write took",
        arguments: CommandBackend.all)
    func payloadLimit(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        let title = String(repeating: "x", count: 17 << 20)
        let file = try sandbox.write("big.json", #"[{"id": "A", "item": {"title": ""# + title + #""}}]"#)
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", file], status: 65,
            message:
                "the stack.replaced event would be 17825836 bytes of JSON; an event holds at most 16777216 bytes (16 MiB), so that every reader reads back what was written; nothing was written"
        )
        // An import line under the 64 MiB a line may hold, but past the limit: refused, its line named.
        let line =
            #"{"at":1,"eventID":"00000000-0000-4000-8000-000000000001","payload":{"platform":"ios14"},"session":"big","type":"session.started","version":1}"#
            + "\n"
            + #"{"at":2,"eventID":"00000000-0000-4000-8000-000000000002","payload":{"entry":{"id":"A","item":{"title":""#
            + title + #""}}},"session":"big","type":"entry.pushed","version":2}"#
        let lines = try sandbox.write("big.ndjson", line + "\n")
        try expectRefused(sandbox, ["import", lines], status: 65, message: "line 2: the entry.pushed event would be")
        // Just under the limit: taken, exported and imported again whole.
        let fits = String(repeating: "y", count: 15 << 20)
        let ok = try sandbox.write("ok.json", #"[{"id": "B", "item": {"title": ""# + fits + #""}}]"#)
        try sandbox.ok(["set-stack", "s", "--json-file", ok])
        let export = try sandbox.ok(["export", "s"]).stdout
        #expect(export.contains(fits))
    }

    @Test(
        "bad JSON for set-stack exits 65 with a message naming what is wrong",
        arguments: CommandBackend.each([
            ("not json", "entries.json': not JSON (expected a JSON array"),
            ("{\"id\": \"A\"}", "expected an array, found an object"),
            ("[{\"title\": \"no id\"}]", "missing key 'id' at [0]"),
            ("[{\"id\": \"X\"}, {\"id\": 7}]", "expected a string at [1].id, found a number"),
            ("[{\"id\": \"X\", \"item\": {\"backButtonDisplayMode\": \"tiny\"}}]", "at [0].item.backButtonDisplayMode"),
            ("[{\"id\": \"X\", \"item\": {\"leftBarButtonItems\": -2}}]", "leftBarButtonItems must be 0 or more"),
            (
                "[{\"id\": \"X\", \"item\": {\"title\": \"a\\udc00\"}}]",
                "an escape of U+DC00, half of a UTF-16 surrogate pair, without its other half (JSON text is Unicode: an escape of U+D800-U+DBFF is followed by one of U+DC00-U+DFFF) at [0].item.title"
            ),
        ]))
    func badJSONForSetStack(_ json: String, _ message: String, backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        let file = try sandbox.write("entries.json", json)
        try expectRefused(sandbox, ["set-stack", "s", "--json-file", file], status: 65, message: message)
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "-"], stdin: json, status: 65,
            message: "invalid entries in stdin")
    }

    @Test("a set-stack file that cannot be read exits 65 naming the file", arguments: CommandBackend.all)
    func unreadableJSONFile(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "missing.json"], status: 65,
            message: "cannot read 'missing.json': No such file or directory")
    }

    @Test("an empty set-stack list is refused by the rules", arguments: CommandBackend.all)
    func emptySetStackIsRefusedByTheRules(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        let file = try sandbox.write("empty.json", "[]")
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", file], status: 1, message: "set-stack needs at least one entry")
    }

    @Test("a file that is not a navdb database exits 74 and is left unchanged", arguments: CommandBackend.all)
    func nonNavdbFile(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let notes = try sandbox.write("notes.txt", "These are my notes, not a database.\n")
        let original = try Data(contentsOf: URL(fileURLWithPath: notes))
        for arguments in [["stack", "s"], ["push", "s", "A"], ["session", "start", "s"], ["sessions"], ["check"]] {
            let result = try sandbox.run(["--db", notes] + arguments)
            #expect(result.status == 74, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("Error: '\(notes)' is not a navdb database"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: notes)) == original)
        #expect(!FileManager.default.fileExists(atPath: notes + "-wal"))
    }

    @Test("a command on a missing database exits 1 (not found, not unusable) and creates no file or table", arguments: CommandBackend.all)
    func readingAMissingDatabaseCreatesNothing(backend: CommandBackend)
        throws
    {
        let sandbox = try Sandbox(backend: backend)
        for arguments in [["stack", "s"], ["sessions"], ["push", "s", "A"], ["history", "s"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            let named = backend == .sqlite ? "'./navdb.sqlite'" : "'\(sandbox.databaseArgument)'"
            #expect(result.stderr.contains("no navdb database at \(named)"), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
        #expect(try sandbox.databaseBytes().isEmpty, "no table was created")
    }
}
