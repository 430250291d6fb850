import Foundation
import Testing

/// The same kind of mistake gets the same answer, a command that does
/// nothing says why, default sources are visible, and messages name what is wrong.
@Suite struct ConsistencyAndMessageTests {
    func session(_ sandbox: Sandbox) throws {
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-01T10:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--time", "2026-11-01T10:00:01Z"])
    }

    /// Runs `arguments`, expects `status`, an empty stdout, and the database unchanged.
    func refused(
        _ sandbox: Sandbox, _ arguments: [String], status: Int32, stdin: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let before = try sandbox.databaseBytes()
        let result = try sandbox.run(arguments, stdin: stdin)
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(try sandbox.databaseBytes() == before, "the database changed", sourceLocation: sourceLocation)
        return result.stderr
    }

    @Test(
        "history --since after --until is a usage error (exit 64), as replay --from 5 --to 2 is",
        arguments: CommandBackend.all)
    func emptyTimeRange(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let history = try refused(
            sandbox, ["history", "s", "--since", "2026-11-02", "--until", "2026-11-01"], status: 64)
        #expect(
            history.hasPrefix(
                "Error: The value '2026-11-01' is invalid for '--until <time>': expected a time at or after --since 2026-11-02\n"
            ))
        let replay = try refused(sandbox, ["replay", "s", "--from", "5", "--to", "2"], status: 64)
        #expect(replay.hasPrefix("Error: The value '2"))
        // Equal bounds are a range of one instant, not a mistake.
        #expect(
            try sandbox.ok(["history", "s", "--since", "2026-11-01T10:00:01Z", "--until", "2026-11-01T10:00:01Z"]).lines
                .count == 2)
    }

    @Test(
        "pop-to-root on a root exits 0 and says why nothing was popped; pop on a root is refused",
        arguments: CommandBackend.all)
    func popToRootAtRoot(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        #expect(
            try sandbox.ok(["pop-to-root", "s"]).stdout
                == "version 2 (unchanged: already at the root; nothing popped)\n")
        #expect(
            try sandbox.ok(["pop-to", "s", "A"]).stdout
                == "version 2 (unchanged: 'A' is already the top entry; nothing popped)\n")
        let pop = try refused(sandbox, ["pop", "s"], status: 1)
        #expect(pop.contains("root"))
        #expect(try sandbox.ok(["pop-to-root", "--help"]).stdout.contains("popToRootViewController(animated:)"))
    }

    @Test(
        "pop and dismiss show their default source in the usage line and name the UIKit call behind each source",
        arguments: CommandBackend.all)
    func defaultSources(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let pop = try sandbox.ok(["pop", "--help"]).stdout
        #expect(pop.contains("USAGE: navdb pop <key> [--source <source> (default: back-button)] [--confirm]"))
        #expect(pop.contains("navigationBar(_:shouldPop:)") && pop.contains("popViewController(animated:)"))
        #expect(pop.contains("(values: back-button, gesture, content-gesture, programmatic; default: back-button)\n"))
        let dismiss = try sandbox.ok(["dismiss", "--help"]).stdout
        #expect(dismiss.contains("USAGE: navdb dismiss <key> [--source <source> (default: programmatic)]"))
        #expect(dismiss.contains("dismiss(animated:completion:)"))
        let popTo = try sandbox.ok(["pop-to", "--help"]).stdout
        #expect(
            popTo.contains("[--source <source> (default: programmatic)]")
                && popTo.contains("popToViewController(_:animated:)"))
        // The usage line of an error shows the default too.
        let error = try sandbox.run(["dismiss", "s", "--source", "swipe"])
        #expect(error.status == 64)
        #expect(error.stderr.contains("Usage: navdb dismiss <key> [--source <source> (default: programmatic)]"))
    }

    @Test(
        "importing a text file says the line is not JSON, without Foundation's wording", arguments: CommandBackend.all)
    func importText(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let file = try sandbox.write("notes.txt", "hello world\nsecond line\n")
        let stderr = try refused(sandbox, ["import", file], status: 65)
        #expect(
            stderr
                == "Error: line 1: not JSON: it reads \"hello world\" (navdb imports NDJSON, one JSON event object per line, as 'navdb export' writes); nothing was imported\n"
        )
        #expect(!stderr.contains("The given data"))
        let array = try refused(sandbox, ["import", "-"], status: 65, stdin: "[1, 2]\n")
        #expect(
            array == "Error: line 1: not an event record: expected an object, found an array; nothing was imported\n")
        let json = try sandbox.write("bad.json", "{")
        let setStack = try refused(sandbox, ["set-stack", "s", "--json-file", json], status: 65)
        #expect(setStack.contains("not JSON") && !setStack.contains("The given data"))
    }

    @Test(
        "a time with a field out of range names the field",
        arguments: CommandBackend.each([
            ("2026-13-01", "month 13 is out of range 1-12"),
            ("2026-13-01T10:00:00Z", "month 13 is out of range 1-12"),
            ("2026-02-29", "day 29 is out of range 1-28 for 2026-02"),
            ("2026-11-30T24:00:00Z", "hour 24 is out of range 0-23"),
            ("2026-11-30T10:60:00Z", "minute 60 is out of range 0-59"),
            ("2026-11-30T10:00:60Z", "second 60 is out of range 0-59 (a leap second is not accepted)"),
            ("2026-11-30T10:00:00", "the time has no zone"),
            ("2026-11-30T10:00:00+25:00", "the zone's hours 25 are out of range 0-23"),
        ]))
    func timeFields(text: String, reason: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let history = try refused(sandbox, ["history", "s", "--since", text], status: 64)
        #expect(
            history.hasPrefix("Error: The value '\(text)' is invalid for '--since <time>': \(reason)"), "\(history)")
        let push = try refused(sandbox, ["push", "s", "B", "--time", text], status: 64)
        #expect(push.contains(": \(reason)"))
        let at = try refused(sandbox, ["stack", "s", "--at", text], status: 64)
        #expect(at.contains(": \(reason)"))
        // A text that is not shaped like a time gets the list of accepted shapes alone.
        let shape = try refused(sandbox, ["history", "s", "--since", "yesterday"], status: 64)
        #expect(
            shape.hasPrefix("Error: The value 'yesterday' is invalid for '--since <time>': expected an ISO-8601 time"))
    }

    @Test(
        "session list suggests sessions; an unknown session subcommand lists those there are",
        arguments: CommandBackend.all)
    func sessionSuggestions(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        for word in ["list", "ls"] {
            let stderr = try refused(sandbox, ["session", word], status: 64)
            #expect(stderr.hasPrefix("Error: Unknown command 'session \(word)'. Did you mean 'sessions'?"))
        }
        let typo = try refused(sandbox, ["session", "strt", "x"], status: 64)
        #expect(typo.hasPrefix("Error: Unknown command 'session strt'. Did you mean 'session start'?"))
        let other = try refused(sandbox, ["session", "frobnicate"], status: 64)
        #expect(other.hasPrefix("Error: Unknown command 'session frobnicate' (accepted: session start"))
        #expect(other.contains("'navdb sessions' lists the sessions"))
    }
}
