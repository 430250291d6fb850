import Foundation
import Testing

/// Usage errors: exit 64, nothing on stdout, and swift-argument-parser's three lines on stderr:
/// `Error: ...`, `Usage: ...`, `  See 'navdb <command> --help' for more information.`
@Suite struct UsageErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        /// The command whose usage is shown (`nil`: the root).
        var command: String?
        /// Text the `Error:` line must contain.
        var message: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["push", "s"], command: "push", message: "Missing expected argument '<id>'"),
        Case(arguments: ["stack"], command: "stack", message: "Missing expected argument '<key>'"),
        Case(arguments: ["push", "s", "A", "--bogus"], command: "push", message: "Unknown option '--bogus'"),
        Case(
            arguments: ["push", "s", "A", "--titel", "x"], command: "push",
            message: "Unknown option '--titel'. Did you mean '--title'?"),
        Case(
            arguments: ["push", "s", "A", "--display-mode", "tiny"], command: "push",
            message:
                "The value 'tiny' is invalid for '--display-mode <mode>': expected one of default, generic, minimal"),
        Case(
            arguments: ["push", "s", "A", "--style=fancy"], command: "push",
            message: "The value 'fancy' is invalid for '--style <style>': expected one of navigator, browser, editor"),
        Case(
            arguments: ["push", "s", "A", "--left-items", "-1"], command: "push",
            message: "The value '-1' is invalid for '--left-items <n>': expected an integer 0 or greater"),
        Case(
            arguments: ["push", "s", "A", "--param", "\u{E9}=1", "--param", "e\u{301}=2"], command: "push",
            message:
                "each key once; 'e\u{301}' is given twice, as U+00E9 and as U+0065 U+0301: the same text in two Unicode spellings"
        ),
        Case(
            arguments: ["back-menu", "s", "--width", "abc"], command: "back-menu",
            message: "The value 'abc' is invalid for '--width <n>'"),
        Case(
            arguments: ["show", "s", "--bar-width", "abc"], command: "show",
            message: "The value 'abc' is invalid for '--bar-width <n>'"),
        Case(
            arguments: ["push", "s", "A", "--time", "yesterday"], command: "push",
            message: "The value 'yesterday' is invalid for '--time <iso8601>': expected an ISO-8601 time"),
        Case(
            arguments: ["push", "s", "A", "--time", "2024-13-45T99:00:00Z"], command: "push",
            message: "The value '2024-13-45T99:00:00Z' is invalid for '--time <iso8601>'"),
        Case(
            arguments: ["stack", "s", "--at", "last"], command: "stack",
            message: "The value 'last' is invalid for '--at <point>': expected a version number"),
        Case(
            arguments: ["push", "s", "A", "--expect-version", "seven"], command: "push",
            message: "The value 'seven' is invalid for '--expect-version <n>'"),
        Case(
            arguments: ["pop", "s", "--source", "back-menu"], command: "pop",
            message: "expected one of back-button, gesture, content-gesture, programmatic"),
        Case(
            arguments: ["pop-to", "s", "A", "--source", "gesture"], command: "pop-to",
            message: "expected one of back-menu, programmatic"),
        Case(
            arguments: ["dismiss", "s", "--source", "back-button"], command: "dismiss",
            message: "expected one of gesture, programmatic"),
        Case(
            arguments: ["menu-select", "s", "first"], command: "menu-select",
            message: "The value 'first' is invalid for '<row>'"),
        Case(
            arguments: ["push", "s", "A", "--param", "novalue"], command: "push",
            message: "The value 'novalue' is invalid for '--param <key=value>'"),
        Case(
            arguments: ["push", "s", "A", "--title"], command: "push", message: "Missing value for '--title <title>'"),
        Case(
            arguments: ["pop", "s", "--confirm=yes"], command: "pop",
            message: "The option '--confirm' does not take a value"),
        Case(arguments: ["pop", "s", "extra"], command: "pop", message: "Unexpected argument 'extra'"),
        Case(
            arguments: ["update", "s", "A", "--unset", "colour"], command: "update",
            message: "The value 'colour' is invalid for '--unset <field>': expected one of title, back-button-title"),
        Case(arguments: ["update", "s", "A"], command: "update", message: "Nothing to update"),
        Case(
            arguments: ["set-stack", "s"], command: "set-stack",
            message: "Missing expected argument '--json-file <file>'"),
        Case(
            arguments: ["history", "s", "--type", "pushed"], command: "history",
            message: "expected one of session.started, entry.pushed"),
        Case(
            arguments: ["history", "s", "--limit", "0"], command: "history", message: "expected an integer 1 or greater"
        ),
        Case(
            arguments: ["replay", "s", "--from", "5", "--to", "2"], command: "replay",
            message: "The value '2' is invalid for '--to <version>'"),
        Case(arguments: ["export"], command: "export", message: "Missing expected argument '<key>'"),
        Case(arguments: ["import"], command: "import", message: "Missing expected argument '<file>'"),
        Case(
            arguments: ["import", "f", "--format", "csv"], command: "import",
            message: "expected one of navdb, firefox-session"),
        Case(arguments: ["session", "start"], command: "session start", message: "Missing expected argument '<key>'"),
        Case(arguments: ["session", "stop", "s"], command: "session", message: "Unknown command 'session stop'"),
        Case(arguments: ["pus", "s", "A"], command: nil, message: "Unknown command 'pus'. Did you mean 'push'?"),
        Case(
            arguments: ["frobnicate"], command: nil,
            message:
                "Unknown command 'frobnicate' (accepted: session start, session delete, session truncate, sessions, push"
        ),
        Case(
            arguments: ["--jsn", "stack", "s"], command: nil, message: "Unknown option '--jsn'. Did you mean '--json'?"),
        Case(arguments: ["--db"], command: nil, message: "Missing value for '--db <path>'"),
        Case(
            arguments: ["session", "start", "b", "--time", "-0001-12-31T23:59:59Z"], command: "session start",
            message:
                "The value '-0001-12-31T23:59:59Z' is invalid for '--time <iso8601>': a signed year is outside the years 0000-9999"
        ),
        Case(
            arguments: ["stack", "s", "--at=+10000-01-01"], command: "stack",
            message:
                "The value '+10000-01-01' is invalid for '--at <point>': a signed year is outside the years 0000-9999"),
        Case(
            arguments: ["history", "s", "--since", "9999-12-31T23:59:59.9999Z"], command: "history",
            message:
                "'--since <time>': rounded up to the next millisecond it falls after 9999-12-31T23:59:59.999Z, the last time of the years 0000-9999"
        ),
        Case(
            arguments: ["push", "s", "A", "--title", "Inbox", "--title=Outbox"], command: "push",
            message: "The option '--title' was given twice, as 'Inbox' and as 'Outbox': it takes one value"),
        Case(
            arguments: ["push", "s", "A", "--title", "caf\u{E9}", "--title", "cafe\u{301}"], command: "push",
            message: "The option '--title' was given twice"),
        Case(
            arguments: ["--db", "a.sqlite", "--db", "b.sqlite", "stack", "s"], command: nil,
            message: "The option '--db' was given twice, as 'a.sqlite' and as 'b.sqlite'"),
        Case(
            arguments: ["--db", "a.sqlite", "stack", "s", "--db", "b.sqlite"], command: "stack",
            message: "The option '--db' was given twice, as 'a.sqlite' and as 'b.sqlite'"),
    ]

    // Usage errors are the parser's: no database is opened, so they run on SQLite only.
    @Test("a usage error exits 64 with the message, a Usage line and a help hint", arguments: cases)
    func usageError(_ c: Case) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(c.arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count == 4, "\(result)")
        #expect(lines[0].hasPrefix("Error: "))
        #expect(lines[0].contains(c.message), "\(lines[0])")
        if let command = c.command {
            #expect(lines[1].hasPrefix("Usage: navdb \(command)"), "\(lines[1])")
            #expect(lines[2] == "  See 'navdb \(command) --help' for more information.")
        } else {
            #expect(lines[1] == "Usage: navdb [--db <path>] [--json] <subcommand>")
            #expect(lines[2] == "  See 'navdb --help' for more information.")
        }
        #expect(lines[3].isEmpty)
        // A usage error opens nothing: no database appears.
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
    }

    // SQLite only: it is about where --db and NAVDB_PATH point (files); PostgreSQLCommandTests
    // selects a server by both.
    @Test("global options are accepted before or after the command")
    func globalOptionsBeforeOrAfterTheCommand() throws {
        let sandbox = try Sandbox()
        let path = sandbox.directory.appendingPathComponent("other.sqlite").path
        try sandbox.ok(["--db", path, "session", "start", "s"])
        try sandbox.ok(["session", "start", "t", "--db=\(path)"])
        let before = try sandbox.ok(["--json", "--db", path, "push", "s", "A"])
        let after = try sandbox.ok(["push", "s", "B", "--db", path, "--json"])
        #expect(try before.object()["version"] as? Int == 2)
        #expect(try after.object()["version"] as? Int == 3)
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
        // $NAVDB_PATH is the default when --db is not given.
        let viaEnvironment = try sandbox.run(["--json", "sessions"], environment: ["NAVDB_PATH": path])
        #expect(viaEnvironment.status == 0)
        #expect((try viaEnvironment.json() as? [[String: Any]])?.map { $0["key"] as? String } == ["s", "t"])
    }

    @Test("an option given twice with the same value is taken once; a repeatable one keeps every value")
    func optionRepeatedWithTheSameValue() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["--db", sandbox.database.path, "session", "start", "s", "--db", sandbox.database.path])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--title", "Inbox"])
        try sandbox.ok(["push", "s", "B", "--param", "a=1", "--param", "b=2"])
        let stack = try sandbox.ok(["--json", "stack", "s"]).object()
        let entries = try #require((stack["layers"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]])
        #expect((entries[0]["item"] as? [String: Any])?["title"] as? String == "Inbox")
        #expect((entries[1]["params"] as? [String: Any])?.keys.sorted() == ["a", "b"])
    }

    @Test("-- ends the options", arguments: CommandBackend.all)
    func doubleDashEndsOptions(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "--title", "Root", "--", "-root"])
        try sandbox.ok(["push", "s", "--title=--not-an-option", "--", "--json"])
        let stack = try sandbox.ok(["--json", "stack", "s"]).object()
        let entries = try #require((stack["layers"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]])
        try #require(entries.map { $0["id"] as? String } == ["-root", "--json"])
        #expect((entries[1]["item"] as? [String: Any])?["title"] as? String == "--not-an-option")
    }
}
