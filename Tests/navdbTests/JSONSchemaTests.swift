import Foundation
import NavStore
import NavStoreTools
import Testing

/// One JSON convention for every command's `--json` (Schemas/README.md), a JSON
/// Schema per output shape in `Schemas/`, and every command's output validated against its schema.
@Suite struct JSONSchemaTests {
    static let folder = Navdb.packageRoot.appendingPathComponent("Schemas")

    /// Validates `text` (one JSON document, or one per line when `lines`) against `schema`.
    func expectValid(
        _ text: String, _ schema: String, lines: Bool = false, _ command: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let validator = try JSONSchemaValidator(folder: Self.folder)
        let documents = lines ? text.split(separator: "\n").map(String.init) : [text]
        #expect(
            !documents.isEmpty && !text.isEmpty, "navdb \(command.joined(separator: " ")) printed nothing",
            sourceLocation: sourceLocation)
        for document in documents {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(document.utf8))
            let problems = validator.problems(value, against: schema)
            #expect(
                problems.isEmpty,
                "navdb \(command.joined(separator: " ")) against \(schema): \(problems)\n\(document.prefix(600))",
                sourceLocation: sourceLocation)
        }
    }

    /// Runs `navdb --json ARGS` (expecting `status`) and validates its stdout.
    func check(
        _ sandbox: Sandbox, _ arguments: [String], _ schema: String, lines: Bool = false, status: Int32 = 0,
        stdin: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try sandbox.run(["--json"] + arguments, stdin: stdin)
        #expect(
            result.status == status, "navdb --json \(arguments.joined(separator: " ")): \(result)",
            sourceLocation: sourceLocation)
        try expectValid(result.stdout, schema, lines: lines, arguments, sourceLocation: sourceLocation)
    }

    @Test("every command's --json output validates against its schema", arguments: CommandBackend.all)
    func everyCommand(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let write = "write-result.schema.json"
        try check(sandbox, ["session", "start", "s", "--name", "Shop", "--time", "2026-11-30T09:00:00Z"], write)
        try check(
            sandbox,
            [
                "push", "s", "A", "--title", "首页", "--route", "app://home", "--param", "n=1", "--time",
                "2026-11-30T09:00:01Z",
            ], write)
        try check(
            sandbox,
            [
                "push", "s", "B", "--title", "Categories", "--back-button-title", "Shop", "--back-bar-button-title",
                "Custom",
                "--back-bar-button-image", "--menu-title", "Cats", "--time", "2026-11-30T09:00:02Z",
            ], write)
        try check(
            sandbox,
            [
                "push", "s", "C", "--title", "Address", "--pop-guard", "Discard address?", "--style", "editor",
                "--display-mode", "minimal", "--left-items", "1", "--supplement-back-button", "--time",
                "2026-11-30T09:00:03Z",
            ], write)
        try check(sandbox, ["pop", "s"], write, status: 3)
        try check(sandbox, ["update", "s", "C", "--unset", "pop-guard"], write)
        try check(sandbox, ["pop-to", "s", "A", "--source", "back-menu"], write)
        try check(sandbox, ["pop-to-root", "s"], write)
        try check(
            sandbox, ["set-stack", "s", "--json-file", "-"], write,
            stdin: #"[{"id": "A", "item": {"title": "Home"}}, {"id": "D", "params": {"k": [1, {"x": null}]}}]"#)
        try check(sandbox, ["menu-select", "s", "1"], write)
        try check(sandbox, ["push", "s", "E"], write)
        try check(sandbox, ["back", "s"], write)
        try check(sandbox, ["present", "s", "M", "--title", "Compose", "--modal-in-presentation"], write)
        try check(sandbox, ["dismiss", "s", "--source", "gesture"], write, status: 3)
        try check(sandbox, ["push", "s", "N", "--title", "Draft", "--interactive-pop-disabled"], write)
        try check(sandbox, ["update-layer", "s", "--no-modal-in-presentation", "--navigation-bar-hidden"], write)
        try check(sandbox, ["update-layer", "s", "--navigation-bar-hidden"], write)
        try check(sandbox, ["update-layer", "s", "--navigation-bar-shown", "--modal-in-presentation"], write)
        #expect(try sandbox.run(["--json", "pop", "s", "--source", "gesture", "--cancelled"]).status == 1)
        try check(
            sandbox, ["update", "s", "N", "--unset", "interactive-pop-disabled", "--back-bar-button-item"], write)
        try check(sandbox, ["pop", "s", "--source", "gesture", "--cancelled"], write)
        try check(sandbox, ["sessions"], "sessions.schema.json")
        try check(sandbox, ["stack", "s"], "stack.schema.json")
        try check(sandbox, ["stack", "s", "--at", "3"], "stack.schema.json")
        try check(sandbox, ["back-menu", "s"], "back-menu.schema.json")
        try check(sandbox, ["back-menu", "s", "--at", "3", "--width", "4"], "back-menu.schema.json")
        try check(sandbox, ["back-menu", "s", "--at", "1"], "back-menu.schema.json")
        try check(sandbox, ["show", "s", "--bar-width", "30"], "back-menu.schema.json")
        try check(sandbox, ["history", "s"], "event.schema.json", lines: true)
        try check(sandbox, ["replay", "s"], "replay-line.schema.json", lines: true)
        try check(sandbox, ["export", "s"], "event.schema.json", lines: true)
        let export = try sandbox.ok(["export", "--all"]).stdout
        try check(sandbox, ["restore", "s"], "restore.schema.json")
        try check(sandbox, ["restore", "s", "--ack"], "restore-ack.schema.json")
        try check(sandbox, ["check"], "check.schema.json")
        try check(sandbox, ["rebuild", "--verify"], "rebuild.schema.json")
        try check(sandbox, ["rebuild"], "rebuild.schema.json")
        try check(sandbox, ["--db", "other.sqlite", "import", "-"], "import-report.schema.json", stdin: export)
        try check(
            sandbox, ["--db", "trace.sqlite", "import", "--format", "uikit-trace", "-", "--session", "t"],
            "trace-import-report.schema.json",
            stdin: #"{"callback":"didShow","at":1000,"stack":[{"id":"A"}]}"# + "\n"
                + #"{"callback":"didShow","at":2000,"stack":[{"id":"A"},{"id":"B","item":{"hidesBackButton":true}}]}"#
                + "\n"
                + #"{"callback":"interactivePop","at":3000,"phase":"began"}"# + "\n"
                + #"{"callback":"didShow","at":4000,"stack":[{"id":"A"}]}"#)
        try check(sandbox, ["--db", "trace.sqlite", "history", "t"], "event.schema.json", lines: true)
        try check(sandbox, ["session", "truncate", "s", "--before", "3"], "retention.schema.json")
        try check(sandbox, ["replay", "s"], "replay-line.schema.json", lines: true)
        try check(sandbox, ["export", "s"], "event.schema.json", lines: true)
        try check(sandbox, ["report", "s", "-o", "s.html"], "report.schema.json")
        try check(sandbox, ["lint"], "lint.schema.json")
        try check(sandbox, ["lint", "s", "--width", "3", "--fail-on", "never"], "lint.schema.json")
        try check(sandbox, ["prune", "--before", "2026-11-30", "--dry-run"], "retention.schema.json")
        try check(sandbox, ["vacuum"], "retention.schema.json")
        try check(sandbox, ["--db", "other.sqlite", "session", "delete", "s"], "retention.schema.json")
    }

    @Test("a tab bar's session (<doc:TabBars>): every --json output validates against its schema", arguments: CommandBackend.all)
    func tabBar(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let write = "write-result.schema.json"
        try check(sandbox, ["session", "start", "t"], write)
        try check(sandbox, ["tabs", "t", "mail:Mail", "cal:@guarded", "me"], write)
        try check(sandbox, ["push", "t", "A", "--title", "Inbox"], write)
        try check(sandbox, ["push", "t", "B", "--pop-guard", "Discard?"], write)
        try check(sandbox, ["select-tab", "t", "cal"], write)
        try check(sandbox, ["push", "t", "C", "--tab", "mail"], write)
        try check(sandbox, ["update-layer", "t", "--navigation-bar-hidden", "--tab", "mail"], write)
        try check(sandbox, ["select-tab", "t", "mail", "--source", "programmatic"], write)
        try check(sandbox, ["select-tab", "t", "mail"], write)
        try check(sandbox, ["stack", "t"], "stack.schema.json")
        try check(sandbox, ["stack", "t", "--at", "3"], "stack.schema.json")
        try check(sandbox, ["back-menu", "t", "--tab", "cal"], "back-menu.schema.json")
        try check(sandbox, ["show", "t", "--tab", "me"], "back-menu.schema.json")
        try check(sandbox, ["history", "t"], "event.schema.json", lines: true)
        try check(sandbox, ["replay", "t"], "replay-line.schema.json", lines: true)
        try check(sandbox, ["export", "t"], "event.schema.json", lines: true)
        try check(sandbox, ["export", "t", "--redact"], "event.schema.json", lines: true)
        try check(sandbox, ["restore", "t", "--dry-run"], "restore.schema.json")
        try check(sandbox, ["report", "t", "-o", "t.html"], "report.schema.json")
        try check(sandbox, ["lint", "t", "--fail-on", "never"], "lint.schema.json")
    }

    @Test(
        "times are written twice, as milliseconds and as ISO-8601 text, and a veto carries its prompt",
        arguments: CommandBackend.all)
    func convention(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok(["push", "s", "B", "--pop-guard", "Discard draft?", "--time", "2026-11-30T09:00:02.5Z"])
        let veto = try sandbox.run(["--json", "pop", "s"])
        #expect(veto.status == 3)
        #expect(try veto.object()["prompt"] as? String == "Discard draft?")
        #expect(try sandbox.ok(["--json", "pop", "s", "--confirm"]).object()["prompt"] is NSNull)
        let sessions = try #require(try sandbox.ok(["--json", "sessions"]).json() as? [[String: Any]])
        #expect(sessions.first?["createdAt"] as? Int == 1_796_029_200_000)
        #expect(sessions.first?["createdTime"] as? String == "2026-11-30T09:00:00.000Z")
        #expect(
            sessions.first?["updatedTime"] as? String
                == Timestamp.format(try #require(sessions.first?["updatedAt"] as? Int).int64))
        let event = try sandbox.ok(["--json", "history", "s", "--limit", "1", "--reverse"]).object()
        #expect(event["time"] as? String == Timestamp.format(try #require(event["at"] as? Int).int64))
    }

    @Test(
        "the validator refuses a missing key, an extra key, a wrong type, a value outside an enum, an unknown keyword")
    func validatorBites() throws {
        let validator = try JSONSchemaValidator(folder: Self.folder)
        func problems(_ json: String, _ schema: String) throws -> [String] {
            validator.problems(try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8)), against: schema)
        }
        #expect(
            try problems(
                #"{"session":"s","version":2,"outcome":"ok","prompt":null,"unchanged":null}"#,
                "write-result.schema.json"
            )
            .isEmpty)
        #expect(
            try problems(#"{"session":"s","version":2,"outcome":"ok","unchanged":null}"#, "write-result.schema.json")
                == [
                    "$: missing key 'prompt'"
                ])
        #expect(
            try problems(
                #"{"session":"s","version":2,"outcome":"ok","prompt":null,"unchanged":null,"x":1}"#,
                "write-result.schema.json")
                == ["$: key 'x' is not in the schema"])
        #expect(
            try problems(
                #"{"session":"s","version":"2","outcome":"ok","prompt":null,"unchanged":null}"#,
                "write-result.schema.json")
                == ["$.version: string where integer is expected"])
        #expect(
            try problems(
                #"{"session":"s","version":2,"outcome":"maybe","prompt":null,"unchanged":null}"#,
                "write-result.schema.json"
            )
            .count == 1)
        #expect(
            try problems(
                #"{"at":1,"eventID":"e","payload":{},"seq":1,"session":"s","time":"yesterday","type":"entry.pushed","version":1}"#,
                "event.schema.json"
            ).count == 1)
        // The schema lists every event type.
        #expect(
            try problems(
                #"{"at":1,"eventID":"e","payload":{},"seq":1,"session":"s","time":"1970-01-01T00:00:00.001Z","type":"entry.teleported","version":1}"#,
                "event.schema.json"
            ).count == 1)
        for type in EventBody.typeNames + ["session.truncated"] {
            #expect(
                try problems(
                    #"{"at":1,"eventID":"e","payload":{},"seq":1,"session":"s","time":"1970-01-01T00:00:00.001Z","type":"\#(type)","version":1}"#,
                    "event.schema.json"
                ).isEmpty, "\(type)")
        }
        #expect(try problems(#"true"#, "sessions.schema.json") == ["$: boolean where array is expected"])
        // Every schema file parses and uses only the keywords the validator knows.
        #expect(validator.schemas.count >= 12)
        for name in validator.schemas.keys.sorted() {
            #expect(validator.unsupportedKeywords(in: name).isEmpty, "\(name)")
        }
    }
}

extension Int {
    fileprivate var int64: Int64 { Int64(self) }
}
