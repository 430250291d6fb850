import Foundation
import NavStore
import NavStoreTools
import Testing

/// Deep params and numbers in params: whatever a writing path accepts (set-stack, import)
/// reads back through every reader (history, history --json, export then import, check,
/// rebuild --verify, stack --json, restore --json, snapshots); what they cannot keep (params
/// nested deeper than 100 levels, numbers that would change, duplicate keys) is refused at the
/// door with exit 65 and the database unchanged.
@Suite("Reliability: deep and wide JSON, huge numbers")
struct DeepJSONTests {
    /// A params object nested `depth` levels (the object itself is level 1).
    static func params(depth: Int) -> String {
        depth == 1
            ? "{}"
            : #"{"k":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
    }

    /// `count` NDJSON lines of session `key`: its start, then pushes of entries with `params`.
    static func pushes(_ key: String, count: Int, params: String) -> String {
        var lines = [
            #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":{},"session":"\#(key)","type":"session.started","version":1}"#
        ]
        for version in 2...count {
            lines.append(
                #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":{"entry":{"id":"e\#(version)","params":\#(params)}},"session":"\#(key)","type":"entry.pushed","version":\#(version)}"#
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs every reader on the sandbox's database and expects each to succeed; the export
    /// imports into an empty database with the same `history --json`.
    static func everyReaderReads(_ sandbox: Sandbox, sessions: [String], context: String) throws {
        for key in sessions {
            for arguments in [
                ["history", key], ["--json", "history", key], ["--json", "stack", key], ["--json", "restore", key],
                ["replay", key], ["--json", "back-menu", key], ["show", key],
            ] {
                let result = try sandbox.run(arguments)
                #expect(
                    result.status == 0,
                    "\(context): navdb \(arguments.joined(separator: " ")): \(result.description.prefix(600))")
            }
        }
        let check = try sandbox.run(["check"])
        #expect(
            check.status == 0 && check.stdout.contains("\nok\n"), "\(context): check: \(check.description.prefix(600))")
        let snapshots = check.stdout.split(separator: ",").first { $0.contains("snapshot") }
        #expect(
            snapshots != nil && !snapshots!.contains(" 0 snapshot"),
            "\(context): no snapshot was written: \(check.stdout)")
        let verify = try sandbox.run(["rebuild", "--verify"])
        #expect(verify.status == 0, "\(context): rebuild --verify: \(verify.description.prefix(600))")
        let export = try sandbox.run(["export", "--all"])
        #expect(export.status == 0, "\(context): export: \(export.description.prefix(600))")
        // An empty database on the same backend.
        let copy =
            sandbox.databaseURI == nil
            ? sandbox.directory.appendingPathComponent("copy-\(UUID().uuidString).sqlite").path
            : try CommandBackend.freshSchemaURI()
        let imported = try sandbox.run(["--db", copy, "import", "-"], stdin: export.stdout)
        #expect(imported.status == 0, "\(context): import of the export: \(imported.description.prefix(600))")
        for key in sessions {
            let original = try sandbox.run(["--json", "history", key]).stdout
            #expect(
                try sandbox.run(["--db", copy, "--json", "history", key]).stdout == original,
                "\(context): history of the imported copy differs")
        }
    }

    @Test(
        "params nested around the limit: accepted ones read back through every reader, deeper ones are refused at the door (65, unchanged)",
        arguments: Reliability.backends, [1, 2, 99, 100, 101, 102, 103, 104, 300, 507, 508, 509, 1_000])
    func depthAroundTheLimit(backend: CommandBackend, depth: Int) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "root"])
        let file = try sandbox.write("entries.json", #"[{"id":"A","params":"# + Self.params(depth: depth) + "}]")
        let ndjson = Self.pushes("t", count: 70, params: Self.params(depth: depth))
        let accepted = depth <= JSONValue.maximumDepth
        let before = try sandbox.databaseBytes()
        let setStack = try sandbox.run(["set-stack", "s", "--json-file", file])
        if accepted {
            #expect(setStack.status == 0, "\(setStack)")
            let imported = try sandbox.run(["import", "-"], stdin: ndjson)
            #expect(imported.status == 0, "\(imported.description.prefix(600))")
            try Self.everyReaderReads(sandbox, sessions: ["s", "t"], context: "depth \(depth)")
        } else {
            #expect(setStack.status == 65, "\(setStack.description.prefix(600))")
            #expect(
                setStack.stderr.hasPrefix("Error: ") && setStack.stderr.contains("nested deeper than 100 levels"),
                "\(setStack.stderr.prefix(300))")
            let imported = try sandbox.run(["import", "-"], stdin: ndjson)
            #expect(imported.status == 65, "\(imported.description.prefix(600))")
            #expect(
                imported.stderr.contains("line 2") && imported.stderr.contains("nested deeper than 100 levels"),
                "\(imported.stderr.prefix(300))")
            #expect(try sandbox.databaseBytes() == before)
        }
    }

    @Test(
        "wide params (20,000 keys, an array of 100,000 numbers, a 1 MB string) read back through every reader",
        arguments: Reliability.backends)
    func wideParams(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "root"])
        let keys = (0..<20_000).map { #""key-\#($0)":\#($0)"# }.joined(separator: ",")
        let numbers = (0..<100_000).map { String($0 * 7_919) }.joined(separator: ",")
        let params =
            #"{"keys":{"# + keys + #"},"numbers":["# + numbers + #"],"text":""# + String(repeating: "é", count: 500_000)
            + #""}"#
        let file = try sandbox.write("entries.json", #"[{"id":"A","params":"# + params + "}]")
        try sandbox.ok(["set-stack", "s", "--json-file", file])
        let some = (0..<1_000).map { String($0 * 7_919) }.joined(separator: ",")
        try sandbox.ok(["import", "-"], stdin: Self.pushes("t", count: 66, params: #"{"numbers":["# + some + "]}"))
        try Self.everyReaderReads(sandbox, sessions: ["s", "t"], context: "wide")
        let stack = try sandbox.ok(["--json", "stack", "s"]).stdout
        #expect(stack.contains(#""key-19999":19999"#) && stack.contains(String(99_999 * 7_919)))
    }

    @Test(
        "numbers in params are kept exactly as given or refused (65), never changed silently",
        arguments: [
            ("18446744073709551615", nil), ("-0", nil), ("-0.0", nil), ("1e-400", nil), ("1e400", nil),
            ("12345678901234567890123", nil),
            ("0.1000000000000000055511151231257827", nil), ("9223372036854775807", "9223372036854775807"),
            ("-9223372036854775808", "-9223372036854775808"), ("0.1", "0.1"), ("-1.5", "-1.5"), ("0", "0"),
            ("1.7976931348623157e+308", "1.7976931348623157e+308"), ("5e-324", "5e-324"),
            ("123456789012345680000", "1.2345678901234568e+20"),
        ] as [(String, String?)], Reliability.backends)
    func exactNumbers(number: (given: String, stored: String?), backend: CommandBackend) throws {
        let (given, stored) = number
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "root"])
        let file = try sandbox.write("entries.json", #"[{"id":"A","params":{"n":"# + given + "}}]")
        let before = try sandbox.databaseBytes()
        let setStack = try sandbox.run(["set-stack", "s", "--json-file", file])
        let line =
            #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":{"entry":{"id":"B","params":{"n":\#(given)}}},"session":"s","type":"entry.pushed","version":3}"#
        if let stored {
            #expect(setStack.status == 0, "\(setStack)")
            #expect(try sandbox.ok(["--json", "stack", "s"]).stdout.contains(#""params":{"n":\#(stored)}"#))
        } else {
            #expect(setStack.status == 65, "\(setStack)")
            #expect(
                setStack.stderr.hasPrefix("Error: invalid entries in ")
                    && setStack.stderr.contains("the number \(given)"), "\(setStack.stderr)")
            let imported = try sandbox.run(["import", "-"], stdin: line + "\n")
            #expect(imported.status == 65, "\(imported)")
            #expect(
                imported.stderr.contains("line 1") && imported.stderr.contains("the number \(given)"),
                "\(imported.stderr)")
            #expect(try sandbox.databaseBytes() == before)
        }
    }

    @Test(
        "a key given twice (also in two Unicode spellings) in an import line or a set-stack file is refused (65), naming the key; nothing changes",
        arguments: Reliability.backends)
    func duplicateKeys(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "root"])
        let before = try sandbox.databaseBytes()
        let file = try sandbox.write("entries.json", #"[{"id":"A","id":"B"}]"#)
        let setStack = try sandbox.run(["set-stack", "s", "--json-file", file])
        #expect(setStack.status == 65 && setStack.stderr.contains(#"names the key "id" twice"#), "\(setStack)")
        // One text in two Unicode spellings: `[String: JSONValue]` would keep one of the values.
        let spellings = try sandbox.write("spellings.json", #"[{"id":"A","params":{"\u00e9":1,"e\u0301":2}}]"#)
        let refused = try sandbox.run(["set-stack", "s", "--json-file", spellings])
        #expect(
            refused.status == 65 && refused.stderr.contains("as U+00E9 and as U+0065 U+0301")
                && refused.stderr.contains("at [0].params"), "\(refused)")
        for line in [
            #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":{"entry":{"id":"B"}},"session":"s","session":"x","type":"entry.pushed","version":3}"#,
            #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":{"entry":{"id":"B","params":{"k":1,"\u006b":2}}},"session":"s","type":"entry.pushed","version":3}"#,
            #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":{"entry":{"id":"B","params":{"K":1,"\u212a":2}}},"session":"s","type":"entry.pushed","version":3}"#,
        ] {
            let imported = try sandbox.run(["import", "-"], stdin: line + "\n")
            #expect(
                imported.status == 65 && imported.stderr.contains("line 1") && imported.stderr.contains("twice"),
                "\(imported)")
        }
        #expect(try sandbox.databaseBytes() == before)
    }
    @Test(
        "an import line whose time is not a time or disagrees with its at is refused (65); an agreeing one in any zone is accepted",
        arguments: [
            (#""x""#, false), (#""2023-11-14T22:13:21Z""#, false), ("5", false), (#""2023-11-14T22:13:20.000Z""#, true),
            (#""2023-11-14T23:13:20+01:00""#, true),
        ], Reliability.backends)
    func timeAgreesWithAt(example: (time: String, accepted: Bool), backend: CommandBackend) throws {
        let (time, accepted) = example
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "other"])
        let before = try sandbox.databaseBytes()
        let line =
            #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":{},"session":"s","time":\#(time),"type":"session.started","version":1}"#
        let result = try sandbox.run(["import", "-"], stdin: line + "\n")
        if accepted {
            #expect(result.status == 0, "\(result)")
        } else {
            #expect(
                result.status == 65 && result.stderr.hasPrefix("Error: line 1: ") && result.stderr.contains("time"),
                "\(result)")
            #expect(try sandbox.databaseBytes() == before)
        }
    }
}
