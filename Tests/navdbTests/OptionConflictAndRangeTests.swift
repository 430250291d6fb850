import Foundation
import Testing

/// Options that contradict each other, numbers out of range, versions a session does not hold,
/// and output lost after a write: each has one documented exit code, a one-line message that
/// names the value and what is accepted, and leaves the database as it was.
@Suite("navdb: conflicting options, ranges, versions out of the log, lost output after a write")
struct OptionConflictAndRangeTests {
    /// A session `s` at version 10 (a start and nine pushes).
    func tenVersions(_ backend: CommandBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        for id in ["A", "B", "C", "D", "E", "F", "G", "H", "I"] { try sandbox.ok(["push", "s", id, "--title", id]) }
        return sandbox
    }

    /// Runs `arguments`, expects `status` and an `Error:` line containing `message`, nothing on
    /// stdout, and the database unchanged.
    func refused(
        _ sandbox: Sandbox, _ arguments: [String], status: Int32, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let before = try sandbox.databaseBytes()
        let result = try sandbox.run(arguments)
        #expect(result.status == status, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("Error: "), "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(try sandbox.databaseBytes() == before, "the database changed", sourceLocation: sourceLocation)
    }

    @Test(
        "a field set and unset in one update, a rule both run and disabled: usage errors (64)",
        arguments: CommandBackend.all)
    func contradictions(backend: CommandBackend) throws {
        let sandbox = try tenVersions(backend)
        try refused(
            sandbox, ["update", "s", "I", "--title", "b", "--unset", "title"], status: 64,
            message: "--title and --unset title cannot be combined")
        try refused(
            sandbox, ["update", "s", "I", "--display-mode", "minimal", "--unset", "display-mode"], status: 64,
            message: "--display-mode and --unset display-mode cannot be combined")
        try refused(
            sandbox, ["lint", "--rule", "blank-menu-row", "--disable", "blank-menu-row"], status: 64,
            message: "--rule blank-menu-row and --disable blank-menu-row cannot be combined")
        // Different fields still combine.
        try sandbox.ok(["update", "s", "I", "--title", "b", "--unset", "back-button-title"])
    }

    @Test("a number past the largest 64-bit integer names the range, maximum included", arguments: CommandBackend.all)
    func numbersPastInt64(backend: CommandBackend) throws {
        let sandbox = try tenVersions(backend)
        let huge = "99999999999999999999"
        try refused(
            sandbox, ["push", "s", "X", "--left-items", huge], status: 64,
            message:
                "The value '\(huge)' is invalid for '--left-items <n>': expected an integer from 0 to 9223372036854775807"
        )
        try refused(
            sandbox, ["history", "s", "--limit", huge], status: 64,
            message: "expected an integer from 1 to 9223372036854775807")
        try refused(
            sandbox, ["pop", "s", "--expect-version", huge], status: 64,
            message: "expected an integer from 0 to 9223372036854775807")
        try refused(
            sandbox, ["stack", "s", "--at", huge], status: 64,
            message: "expected a version number from 1 to 9223372036854775807")
        try refused(sandbox, ["menu-select", "s", huge], status: 64, message: "'<row>': expected an integer from 1 to")
    }

    @Test(
        "every --width is a label's room, 1 to 10000, with one message; show's bar is --bar-width, 16 to 10000",
        arguments: CommandBackend.each([
            (["back-menu", "s"], "width", "1"), (["lint"], "width", "1"), (["report", "s"], "width", "1"),
            (["show", "s"], "bar-width", "16"),
        ]))
    func widths(_ command: [String], _ option: String, _ minimum: String, backend: CommandBackend) throws {
        let sandbox = try tenVersions(backend)
        for width in ["0", "-1", "10001", "x"] {
            try refused(
                sandbox, command + ["--\(option)", width], status: 64,
                message:
                    "The value '\(width)' is invalid for '--\(option) <n>': expected an integer from \(minimum) to 10000")
        }
        #expect(try sandbox.run(command + ["--\(option)", "10000"]).status != 64)
    }

    @Test(
        "a version the session does not hold is 'not found' (1) for every command that takes one",
        arguments: CommandBackend.all)
    func versionsPastTheLog(backend: CommandBackend) throws {
        let sandbox = try tenVersions(backend)
        for arguments in [
            ["stack", "s", "--at", "99"], ["replay", "s", "--from", "99"], ["report", "s", "--from", "99"],
            ["session", "truncate", "s", "--before", "99"],
        ] {
            try refused(sandbox, arguments, status: 1, message: "99")
        }
    }

    @Test(
        "truncating before version 1 of a session never truncated says there is nothing before it",
        arguments: CommandBackend.all)
    func truncateBeforeOne(backend: CommandBackend) throws {
        let sandbox = try tenVersions(backend)
        let before = try sandbox.databaseBytes()
        let result = try sandbox.ok(["session", "truncate", "s", "--before", "1"])
        #expect(result.stdout == "nothing to truncate: there is nothing before version 1 to remove\n")
        #expect(try sandbox.databaseBytes() == before)
        try sandbox.ok(["session", "truncate", "s", "--before", "4"])
        #expect(
            try sandbox.ok(["session", "truncate", "s", "--before", "4"]).stdout
                == "nothing to truncate: the session is already truncated at base version 3, so --before 4 removes nothing\n"
        )
    }

    @Test(
        "a write whose output is lost exits 73 and says its event was stored, and as which version",
        arguments: CommandBackend.all)
    func lostOutputAfterAWrite(backend: CommandBackend) throws {
        let sandbox = try tenVersions(backend)
        var scripts = ["\"$NAVDB\" --db \"$DB\" push s X >&-"]
        if FileManager.default.fileExists(atPath: "/dev/full") {
            scripts.append("\"$NAVDB\" --db \"$DB\" push s Y > /dev/full")
        }
        for (offset, script) in scripts.enumerated() {
            let result = try shell(sandbox, script)
            #expect(result.status == 73, "\(script): \(result)")
            #expect(
                result.stderr.hasPrefix(
                    "Error: session 's' stored version \(11 + offset), but its output could not be written: "),
                "\(script): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(try sandbox.ok(["--json", "stack", "s"]).stdout.contains("\"id\":\"X\""))
        #expect(try sandbox.ok(["--help"]).stdout.contains("73 output that could not be written"))
    }
}
