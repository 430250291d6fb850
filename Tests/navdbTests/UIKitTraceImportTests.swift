import Foundation
import NavStore
import NavStoreTools
import TestSupport
import Testing

/// `navdb import --format uikit-trace FILE|- --session KEY [--platform P]` (NavStore.docc/Recording.md), with
/// every trace of `Tests/Fixtures/traces/` (and `../shared/traces/`) and with bad lines of every kind.
@Suite("navdb import --format uikit-trace")
struct UIKitTraceImportTests {
    /// The events of `key` after `session.started`, from `history --json`, as bodies.
    static func bodies(_ sandbox: Sandbox, _ key: String) throws -> [EventBody] {
        let history = try sandbox.ok(["--json", "history", key])
        return try history.lines.dropFirst().map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let type = try #require(object["type"] as? String)
            let payload = try JSONSerialization.data(withJSONObject: try #require(object["payload"]))
            return try EventBody(type: type, payload: payload)
        }
    }

    /// Imports `trace` with `--format format` into session `key`, then checks what its case
    /// expects: the events, the stack, the back button and menu, the lint rules, a clean check.
    static func importAndCheck(_ trace: TraceCase, format: String, key: String, in sandbox: Sandbox) throws {
        let file = try sandbox.write("\(trace.id).ndjson", trace.ndjson)
        var arguments = ["import", "--format", format, file, "--session", key]
        if trace.platform != .default { arguments += ["--platform", trace.platform.rawValue] }
        let imported = try sandbox.ok(arguments)
        #expect(imported.stdout.contains("into session '\(key)' (started)"), "\(imported)")
        let events = try bodies(sandbox, key)
        #expect(trace.eventMismatches(events).isEmpty, "\(trace): \(trace.eventMismatches(events))")
        let stack = try sandbox.ok(["--json", "stack", key]).object()
        let layers = try #require(stack["layers"] as? [[String: Any]])
        let ids = layers.map { ($0["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
        if let expected = trace.stack { #expect(ids == expected, "\(trace)") }
        let menu = try sandbox.ok(["--json", "back-menu", key]).object()
        if let expected = trace.backButton {
            let button = menu["backButton"] as? [String: Any]
            let found = button.map {
                TraceCase.ExpectedButton(
                    label: $0["label"] as? String ?? "?", fallbacks: $0["fallbacks"] as? [String] ?? [])
            }
            #expect(found == expected, "\(trace): \(menu)")
        }
        if let expected = trace.backMenu {
            let rows = (menu["backMenu"] as? [[String: Any]])?.map { $0["title"] as? String ?? "?" }
            #expect(rows == expected, "\(trace): \(menu)")
        }
        if let rules = trace.lint {
            let lint = try sandbox.run(["--json", "lint", key, "--fail-on", "never"])
            let findings = try #require(try lint.object()["findings"] as? [[String: Any]])
            let found = Set(findings.compactMap { $0["rule"] as? String })
            for rule in rules { #expect(found.contains(rule), "\(trace): lint found \(found.sorted())") }
        }
        #expect(try sandbox.ok(["check"]).status == 0)
        // Importing the same trace again changes nothing: every event is found and skipped.
        let history = try sandbox.ok(["--json", "history", key]).stdout
        let again = try sandbox.ok(["--json"] + arguments).object()
        #expect(again["imported"] as? Int == 0, "\(trace): \(again)")
        #expect(again["skipped"] as? Int == history.split(separator: "\n").count, "\(trace): \(again)")
        #expect(try sandbox.ok(["--json", "history", key]).stdout == history, "\(trace)")
    }

    @Test(
        "every shared trace: events, stack, back button, back menu and lint as its case expects",
        arguments: CommandBackend.all)
    func sharedTraces(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        for trace in try TraceCase.all() {
            try Self.importAndCheck(trace, format: "uikit-trace", key: "t-\(trace.id)", in: sandbox)
        }
    }

    @Test(
        "a cancelled swipe in a trace is pop.cancelled with its source; a sheet locked after presentation is layer.updated",
        arguments: CommandBackend.all)
    func cancelledSwipeAndLockedSheet(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let lines = [
            #"{"callback":"didShow","at":1000,"stack":[{"id":"A","item":{"title":"Inbox"}}]}"#,
            #"{"callback":"didShow","at":2000,"stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"B","item":{"title":"Mail"}}]}"#,
            #"{"callback":"interactivePop","at":3000,"phase":"began","recognizer":"content"}"#,
            #"{"callback":"interactivePop","at":4000,"phase":"cancelled","recognizer":"content"}"#,
            #"{"callback":"interactivePop","at":5000,"phase":"began","recognizer":"edge"}"#,
            #"{"callback":"interactivePop","at":6000,"phase":"cancelled","recognizer":"edge"}"#,
            #"{"callback":"present","at":7000,"stack":[{"id":"S","item":{"title":"Edit"}}]}"#,
            #"{"callback":"dismissAttempt","at":8000}"#,
        ]
        let file = try sandbox.write("cancel.ndjson", lines.joined(separator: "\n"))
        try sandbox.ok(["import", "--format", "uikit-trace", file, "--session", "c", "--platform", "ios26"])
        let events = try Self.bodies(sandbox, "c")
        #expect(
            events == [
                .entryPushed(Entry(id: "A", item: NavigationItem(title: "Inbox"))),
                .entryPushed(Entry(id: "B", item: NavigationItem(title: "Mail"))),
                .popCancelled(entry: "B", source: .contentGesture), .popCancelled(entry: "B", source: .gesture),
                .layerPresented(Entry(id: "S", item: NavigationItem(title: "Edit")), modalInPresentation: false),
                .layerUpdated(
                    layer: 1, navigationBarHidden: false, modalInPresentation: true, fields: [.modalInPresentation]),
                .dismissVetoed(entry: "S", source: .gesture),
            ])
        let history = try sandbox.ok(["history", "c"]).stdout
        #expect(history.contains("cancelled pop of B (content-gesture)"), "\(history)")
        #expect(try sandbox.ok(["check"]).status == 0)
    }

    static let start = #"{"callback":"didShow","at":1000,"stack":[{"id":"A","item":{"title":"Inbox"}}]}"#
    static let push =
        #"{"callback":"didShow","at":2000,"stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"B","item":{"hidesBackButton":true,"title":"Detail"}}]}"#

    @Test(
        "a bad line is refused with its number and reason (exit 65), and the database is left as it was",
        arguments: [
            (#"{"callback":"didTeleport","at":3000}"#, "unknown callback 'didTeleport'"),
            (#"{"callback":"didShow","at":3000}"#, "didShow needs 'stack'"),
            (#"{"callback":"shouldPop","at":3000,"id":"Z"}"#, "names entry 'Z', which is not on the stack"),
            (#"{"callback":"didPop","at":3000,"id":"Z"}"#, "'Z'"),
            (#"{"callback":"itemChanged","at":3000,"id":"Z","item":{}}"#, "'Z'"),
            (#"{"callback":"didShow","at":3000,"stack":[]}"#, "empty stack"),
            (#"{"callback":"didShow","at":3000,"stack":[{"id":"A"},{"id":"A"}]}"#, "more than once"),
            (#"{"callback":"didShow","at":3000,"layer":4,"stack":[{"id":"A"}]}"#, "layer 4"),
            (#"{"callback":"didShow","at":1500,"stack":[{"id":"A"}]}"#, "earlier than the line before it"),
            (
                #"{"callback":"shouldPop","at":3000,"id":"B","colour":"red"}"#,
                "unknown key of a shouldPop line 'colour'"
            ),
            (#"{"callback":"programmatic","at":3000,"call":"teleport"}"#, "unknown programmaticCall 'teleport'"),
            (#"{"callback":"dismiss","at":3000}"#, "no layer is presented"),
            (#"{"callback": "didShow", "stack": [}"#, "not JSON"),
            (#"{"callback":"didShow","at":99999999999999999999,"stack":[{"id":"A"}]}"#, "99999999999999999999"),
            (
                #"{"callback":"didShow","at":3000.5,"stack":[{"id":"A"}]}"#,
                "expected a whole number of milliseconds since the Unix epoch, found the number 3000.5 at at"
            ),
            (
                #"{"callback":"didShow","at":3000,"layer":0.5,"stack":[{"id":"A"}]}"#,
                "expected a whole number, the layer's index (0 = base), found the number 0.5 at layer"
            ),
            (
                #"{"callback":"didShow","at":3000,"layer":"top","stack":[{"id":"A"}]}"#,
                "expected a whole number, the layer's index (0 = base), found another value at layer"
            ),
            (
                #"{"callback":"itemChanged","at":3000,"id":"B","layer":99,"item":{"title":"b"}}"#,
                "an itemChanged line takes no 'layer': the item is found by its id, in whichever layer holds it"
            ),
        ])
    func badLine(line: String, words: String) throws {
        try Self.refuse([Self.start, Self.push, line, Self.start], line: 3, words: words)
    }

    /// A trace whose lines have no `at` (timed by the import's clock): a push, a pop.
    static let untimed = [
        #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}}]}"#,
        #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"B"}]}"#,
        #"{"callback":"shouldPop","id":"B","answer":true}"#,
        "",
        #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}}]}"#,
    ]

    @Test(
        "a trace imported twice changes nothing; a longer one appends what follows; one that differs, or a session that moved on, is refused",
        arguments: CommandBackend.all)
    func importedTwice(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        var files = 0
        func importing(_ lines: [String], _ key: String = "s") throws -> CommandResult {
            files += 1
            let file = try sandbox.write("t-\(files).ndjson", lines.joined(separator: "\n") + "\n")
            return try sandbox.run(["--json", "import", "--format", "uikit-trace", file, "--session", key])
        }
        func history(_ key: String = "s") throws -> String { try sandbox.ok(["--json", "history", key]).stdout }
        let first = try importing(Self.untimed).object()
        #expect(first["imported"] as? Int == 4 && first["skipped"] as? Int == 0, "\(first)")
        let imported = try history()
        let before = try sandbox.databaseBytes()
        // A second import of the same untimed trace skips every line: it must not invent a
        // programmatic pop and a push.
        let second = try importing(Self.untimed).object()
        #expect(second["imported"] as? Int == 0 && second["skipped"] as? Int == 4, "\(second)")
        #expect(second["version"] as? Int == 4 && second["created"] as? Bool == false, "\(second)")
        #expect(try history() == imported)
        #expect(try sandbox.databaseBytes() == before, "a second import writes nothing")
        // Blank lines are not part of a trace's identity.
        let spaced = try importing(Self.untimed.flatMap { [$0, ""] }).object()
        #expect(spaced["imported"] as? Int == 0, "\(spaced)")
        // The text output says so.
        let file = try sandbox.write("again.ndjson", Self.untimed.joined(separator: "\n"))
        let text = try sandbox.ok(["import", "--format", "uikit-trace", file, "--session", "s"])
        #expect(
            text.stdout.contains(
                "imported 0 event(s) from 4 callback(s) into session 's'; 4 already stored by an earlier import of these lines (skipped); it is at version 4"
            ), "\(text)")
        // A longer trace appends what follows the part imported before.
        let pushC = #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"C"}]}"#
        let longer = try importing(Self.untimed + [pushC]).object()
        #expect(longer["imported"] as? Int == 1 && longer["skipped"] as? Int == 4, "\(longer)")
        #expect(try sandbox.ok(["--json", "stack", "s"]).stdout.contains(#""id":"C""#))
        // The shorter trace is still one imported before: nothing to do.
        let shorter = try importing(Self.untimed).object()
        #expect(shorter["imported"] as? Int == 0 && shorter["version"] as? Int == 5, "\(shorter)")
        // The same first line, then another history: refused, nothing written.
        let unchanged = try sandbox.databaseBytes()
        let other = try importing([
            Self.untimed[0], #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"Z"}]}"#,
        ])
        #expect(other.status == 65, "\(other)")
        #expect(other.stderr.hasPrefix("Error: line 2: session 's' holds, at version 3,"), "\(other)")
        #expect(other.stderr.contains("this trace differs from it from this line on"), "\(other)")
        #expect(try sandbox.databaseBytes() == unchanged)
        // The session moved on after the imported part: what the trace adds is refused; the
        // part imported before still imports as nothing.
        try sandbox.ok(["push", "s", "D", "--title", "Draft"])
        let popC = #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}}]}"#
        let moved = try importing(Self.untimed + [pushC, popC])
        #expect(moved.status == 65, "\(moved)")
        #expect(moved.stderr.hasPrefix("Error: line 7: session 's' holds, at version 6,"), "\(moved)")
        #expect(try importing(Self.untimed + [pushC]).object()["imported"] as? Int == 0)
        // Into a session started elsewhere (the anchor is the trace's first event, not the start).
        try sandbox.ok(["session", "start", "e"])
        let into = try importing(Self.untimed, "e").object()
        #expect(into["imported"] as? Int == 3 && into["created"] as? Bool == false, "\(into)")
        let intoAgain = try importing(Self.untimed, "e").object()
        #expect(intoAgain["imported"] as? Int == 0 && intoAgain["skipped"] as? Int == 3, "\(intoAgain)")
        // The same trace into another session is another trace there.
        let elsewhere = try importing(Self.untimed, "t").object()
        #expect(elsewhere["imported"] as? Int == 4, "\(elsewhere)")
        #expect(try sandbox.ok(["check"]).status == 0)
    }

    @Test(
        "a line that makes no event is part of the trace: a trace that differs there is refused, before and after a longer import",
        arguments: CommandBackend.all)
    func lineWithoutEvent(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        var files = 0
        func importing(_ lines: [String]) throws -> CommandResult {
            files += 1
            let file = try sandbox.write("t-\(files).ndjson", lines.joined(separator: "\n") + "\n")
            return try sandbox.run(["--json", "import", "--format", "uikit-trace", file, "--session", "s"])
        }
        let shownA = #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}}]}"#
        let push = #"{"callback":"programmatic","call":"pushViewController"}"#
        let replace = #"{"callback":"programmatic","call":"setViewControllers"}"#
        let shownAB = #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"B"}]}"#
        // The hostile probe's case: [A, push] then [A, setViewControllers, A B] was taken (exit 0).
        #expect(try importing([shownA, push]).object()["imported"] as? Int == 2)
        let unchanged = try sandbox.databaseBytes()
        let other = try importing([shownA, replace, shownAB])
        #expect(other.status == 65, "\(other)")
        #expect(
            other.stderr.hasPrefix(
                "Error: line 2: this trace's first 2 lines (blank lines aside) are not the 2 lines of the trace imported into session 's' before"
            ), "\(other)")
        #expect(other.stderr.contains("they differ after line 1, in a line that makes no event"), "\(other)")
        #expect(try sandbox.databaseBytes() == unchanged, "a refused import writes nothing")
        // The true extension still imports, and then is the trace imported before.
        let longer = try importing([shownA, push, shownAB]).object()
        #expect(longer["imported"] as? Int == 1 && longer["skipped"] as? Int == 2, "\(longer)")
        let source = try sandbox.ok(["--json", "history", "s"]).stdout
        // After pushViewController the new top is a push (after setViewControllers, a replacement).
        #expect(source.contains(#""type":"entry.pushed","version":3"#), "\(source)")
        #expect(try importing([shownA, push, shownAB]).object()["skipped"] as? Int == 3)
        // A trace as long as the longest import, differing in its last line that makes no event.
        let pending = [shownA, push, shownAB, push]
        #expect(try importing(pending).object()["imported"] as? Int == 0)
        let differs = try importing([shownA, push, shownAB, replace])
        #expect(differs.status == 65, "\(differs)")
        #expect(differs.stderr.contains("they differ after line 3, in a line that makes no event"), "\(differs)")
        // A line that makes no event differs, and the line after it makes one: named from there.
        let shownABC =
            #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"B"},{"id":"C"}]}"#
        #expect(try importing([shownA, push, shownAB, push, shownABC]).object()["imported"] as? Int == 1)
        let later = try importing([shownA, push, shownAB, replace, shownABC])
        #expect(later.status == 65, "\(later)")
        #expect(later.stderr.hasPrefix("Error: line 5: session 's' holds, at version 4, an entry.pushed event that is not this trace's"), "\(later)")
        #expect(
            later.stderr.contains(
                "this trace differs from it after line 3 (at this line, or in a line before it that makes no event)"),
            "\(later)")
        #expect(try sandbox.ok(["check"]).status == 0)
    }

    @Test("another key order, spacing, a byte order mark or escape of the same line is the same line")
    func sameLineOtherwiseWritten() throws {
        let sandbox = try Sandbox()
        let first = try sandbox.write("first.ndjson", Self.untimed.joined(separator: "\n"))
        #expect(try sandbox.ok(["--json", "import", "--format", "uikit-trace", first, "--session", "s"]).object()["imported"] as? Int == 4)
        let before = try sandbox.databaseBytes()
        let rewritten = [
            "\u{FEFF}" + #"{ "stack" : [ { "item" : { "title" : "Inb\u006fx" }, "id" : "A" } ], "callback" : "didShow" }   "#,
            #"{"stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"B"}],"callback":"didShow"}"# + "\t",
            "\t" + #"{"answer":true,"id":"B","callback":"shouldPop"}"#,
            #"{"callback":"did\u0053how","stack":[{"id":"A","item":{"title":"Inbox"}}]}"#,
        ]
        // A byte order mark at the start of the file, before a blank line: no part of any line.
        let file = try sandbox.write("rewritten.ndjson", "\u{FEFF}\r\n" + rewritten.joined(separator: "\r\n"))
        let again = try sandbox.ok(["--json", "import", "--format", "uikit-trace", file, "--session", "s"]).object()
        #expect(again["imported"] as? Int == 0 && again["skipped"] as? Int == 4, "\(again)")
        #expect(try sandbox.databaseBytes() == before, "the same trace, written otherwise, writes nothing")
        // A value that differs is another line: the trace differs from line 1 on.
        let retitled = try sandbox.write(
            "retitled.ndjson", #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox "}}]}"#)
        let other = try sandbox.ok(["--json", "import", "--format", "uikit-trace", retitled, "--session", "s"]).object()
        #expect(other["skipped"] as? Int == 0, "\(other)")
    }

    @Test("a trace line's at more than 24 hours ahead of the clock is refused unless --allow-future-time, as --time is")
    func futureTimes() throws {
        let ahead = Timestamp.now() + Timestamp.futureLimit + 60_000
        for (format, line) in [
            ("uikit-trace", #"{"callback":"didShow","at":\#(ahead),"stack":[{"id":"A"}]}"#),
            ("swiftui-path", #"{"path":[{"id":"A"}],"at":\#(ahead)}"#),
        ] {
            let sandbox = try Sandbox()
            try sandbox.ok(["session", "start", "s"])
            let before = try sandbox.databaseBytes()
            let file = try sandbox.write("future.ndjson", line)
            let refused = try sandbox.run(["import", "--format", format, file, "--session", "s"])
            #expect(refused.status == 65, "\(format): \(refused)")
            #expect(
                refused.stderr.hasPrefix("Error: line 1: at \(Timestamp.format(ahead)) (\(ahead)) is more than 24 hours ahead of the clock"),
                "\(format): \(refused)")
            #expect(refused.stderr.contains("--allow-future-time"), "\(refused)")
            #expect(try sandbox.databaseBytes() == before)
            let allowed = try sandbox.ok(["--json", "import", "--format", format, file, "--session", "s", "--allow-future-time"])
            #expect(try allowed.object()["imported"] as? Int == 1, "\(format): \(allowed)")
        }
        // Within 24 hours ahead, and long ago, are times like any other.
        let sandbox = try Sandbox()
        let soon = Timestamp.now() + Timestamp.futureLimit - 60_000
        let file = try sandbox.write(
            "ok.ndjson",
            #"{"callback":"didShow","at":-5,"stack":[{"id":"A"}]}"# + "\n"
                + #"{"callback":"didShow","at":\#(soon),"stack":[{"id":"A"},{"id":"B"}]}"#)
        #expect(try sandbox.ok(["--json", "import", "--format", "uikit-trace", file, "--session", "s"]).object()["imported"] as? Int == 3)
    }

    @Test("a line with an \"at\" after one without is refused naming the import's clock, not as the trace's time")
    func mixedTimes() throws {
        try Self.refuse(
            [
                #"{"callback":"didShow","stack":[{"id":"A"}]}"#,
                #"{"callback":"didShow","at":3000,"stack":[{"id":"A"},{"id":"B"}]}"#,
            ],
            line: 2,
            words:
                "at 1970-01-01T00:00:03.000Z (3000) is earlier than the line before it, which has no \"at\" and was stamped with this import's clock"
        )
    }

    static func refuse(_ lines: [String], line number: Int, words: String) throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s", "--time", "1970-01-01T00:00:00.500Z"])
        let before = try sandbox.databaseBytes()
        let file = try sandbox.write("bad.ndjson", lines.joined(separator: "\n"))
        let result = try sandbox.run(["import", "--format", "uikit-trace", file, "--session", "s"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix("Error: line \(number): "), "\(result)")
        #expect(result.stderr.contains(words), "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(try sandbox.databaseBytes() == before)
        // Into a database that does not exist: none is created.
        let fresh = try Sandbox()
        let missing = try fresh.run(
            ["import", "--format", "uikit-trace", "-", "--session", "s"],
            stdin: try String(contentsOfFile: file, encoding: .utf8))
        #expect(missing.status == 65, "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: fresh.database.path))
    }

    @Test("a trace before the session's last event is refused; --platform must match an existing session")
    func timesAndPlatforms() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s", "--time", "2026-01-01T00:00:00Z"])
        let file = try sandbox.write("t.ndjson", Self.start + "\n")
        let early = try sandbox.run(["import", "--format", "uikit-trace", file, "--session", "s"])
        #expect(
            early.status == 65 && early.stderr.contains("earlier than the previous event of session 's'"), "\(early)")
        let mismatch = try sandbox.run([
            "import", "--format", "uikit-trace", file, "--session", "s", "--platform", "ios26",
        ])
        #expect(mismatch.status == 65 && mismatch.stderr.contains("follows ios14 rules"), "\(mismatch)")
        // A new session gets the platform; stdin works; a line without "at" is timed now.
        try sandbox.ok(
            ["import", "--format", "uikit-trace", "-", "--session", "n", "--platform", "ios26"],
            stdin: #"{"callback":"didShow","stack":[{"id":"A"}]}"#)
        let stack = try sandbox.ok(["--json", "stack", "n"]).object()
        #expect(stack["platform"] as? String == "ios26")
    }

    @Test(
        "usage: uikit-trace needs --session, --session and --platform need uikit-trace (exit 64)",
        arguments: [
            (["import", "--format", "uikit-trace", "f"], "--format uikit-trace needs --session KEY"),
            (["import", "f", "--session", "s"], "--session only applies with --format uikit-trace"),
            (["import", "f", "--platform", "ios26"], "--platform only applies with --format uikit-trace"),
            (["import", "--format", "uikit-trace", "f", "--session", ""], "the session key '' is empty"),
        ])
    func usage(arguments: [String], words: String) throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(words), "\(result)")
    }

    @Test("the observed mark shows in history, replay, export, the report and lint; check and import accept it")
    func observedMark() throws {
        let sandbox = try Sandbox()
        let trace = [
            Self.start, Self.push, #"{"callback":"interactivePop","at":3000,"phase":"began"}"#,
            #"{"callback":"interactivePop","at":3100,"phase":"finished"}"#,
            #"{"callback":"didShow","at":3200,"stack":[{"id":"A","item":{"title":"Inbox"}}]}"#,
        ].joined(separator: "\n")
        try sandbox.ok(["import", "--format", "uikit-trace", "-", "--session", "s"], stdin: trace)
        let history = try sandbox.ok(["history", "s"]).stdout
        #expect(
            history.contains(
                "set stack [A {title=Inbox}] (observed; the rules refused it: cannot pop with source gesture: 'B' shows no back button (hidesBackButton is set) (stack: [A, B]))"
            ), "\(history)")
        #expect(try sandbox.ok(["replay", "s"]).stdout.contains("(observed; the rules refused it:"))
        let export = try sandbox.ok(["export", "s"]).stdout
        #expect(export.contains(#""observed":{"reason":"cannot pop with source gesture"#), "\(export)")
        try sandbox.ok(["report", "s", "-o", "r.html"])
        let page = try String(contentsOf: sandbox.directory.appendingPathComponent("r.html"), encoding: .utf8)
        #expect(page.contains("observed; the rules refused it"))
        let lint = try sandbox.run(["lint", "s"])
        #expect(lint.stdout.contains("s v4: warning: UIKit was observed to change layer 0 (entries 'B')"), "\(lint)")
        #expect(lint.stdout.contains("[model-divergence]"))
        #expect(try sandbox.ok(["check"]).status == 0)
        // The export imports into another database with the same events.
        let other = try Sandbox()
        try other.ok(["import", "-"], stdin: export)
        #expect(try other.ok(["history", "s"]).stdout == history)
        // The redacted export hashes the reason with the titles.
        let redacted = try sandbox.ok(["export", "s", "--redact"]).stdout
        #expect(
            !redacted.contains("shows no back button") && redacted.contains(#""observed":{"reason":"h:"#), "\(redacted)"
        )
    }
}

/// `navdb import --format swiftui-path FILE|- --session KEY [--platform P]` (<doc:SwiftUI>), with
/// every SwiftUI path trace and bad lines.
@Suite("navdb import --format swiftui-path")
struct SwiftUIPathImportTests {
    @Test(
        "every SwiftUI path trace: events (pop sources user, back-menu, programmatic), stack, back button and menu",
        arguments: CommandBackend.all)
    func traces(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let traces = try TraceCase.swiftUI()
        #expect(traces.count >= 4)
        let validator = try JSONSchemaValidator(folder: JSONSchemaTests.folder)
        for trace in traces {
            // Every line is a line of the format's schema.
            for line in trace.ndjson.split(separator: "\n") {
                let value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
                let problems = validator.problems(value, against: "swiftui-path-line.schema.json")
                #expect(problems.isEmpty, "\(trace): \(line): \(problems)")
            }
            try UIKitTraceImportTests.importAndCheck(trace, format: "swiftui-path", key: "p-\(trace.id)", in: sandbox)
            // What a restart brings back is the last path (<doc:SwiftUI>), as restore prints it.
            let restore = try sandbox.ok(["--json", "restore", "p-\(trace.id)", "--dry-run"]).object()
            let layers = try #require(restore["layers"] as? [[String: Any]])
            let restored = layers.map { ($0["entries"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String } }
            if let expected = trace.stack { #expect(restored == expected, "\(trace): \(restore)") }
        }
    }

    @Test(
        "a trace line whose event is past 16 MiB is refused (65) with its line number, in either format; nothing written",
        arguments: ["uikit-trace", "swiftui-path"])
    func oversizeEventLine(format: String) throws {
        let sandbox = try Sandbox()
        let title = String(repeating: "x", count: (16 << 20) + 1)
        let lines =
            format == "uikit-trace"
            ? [
                #"{"callback": "didShow", "stack": [{"id": "A"}]}"#,
                #"{"callback": "didShow", "stack": [{"id": "A"}, {"id": "B", "item": {"title": "\#(title)"}}]}"#,
            ]
            : [#"{"path": [{"id": "A"}]}"#, #"{"path": [{"id": "A"}, {"id": "B", "item": {"title": "\#(title)"}}]}"#]
        let file = try sandbox.write("big.ndjson", lines.joined(separator: "\n") + "\n")
        try expectRefused(
            sandbox, ["import", "--format", format, file, "--session", "s"], status: 65,
            message: "line 2: the entry.pushed event would be ")
        let result = try sandbox.run(["import", "--format", format, file, "--session", "s"])
        #expect(result.stderr.contains("an event holds at most 16777216 bytes (16 MiB)"), "\(result.stderr.prefix(300))")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
    }

    @Test("bad lines: exit 65 with the line number and the reason, nothing written; --session is required")
    func badLines() throws {
        let sandbox = try Sandbox()
        let cases: [(String, String)] = [
            (#"{"by": "user"}"#, #"needs "path""#),
            (#"{"path": [], "sheet": null}"#, "not both"),
            (#"{"path": [{"id": "R"}], "by": "robot"}"#, "'robot'"),
            (#"{"path": [{"id": "R"}], "layer": -1}"#, "layer"),
            (#"{"path": [{"id": "R"}], "stack": []}"#, "unknown key 'stack'"),
            (#"{"path": []}"#, #""path" is empty"#),
            (#"{"sheet": []}"#, #""sheet" is empty"#),
            (#"{"path": [{"id": "R"}, {"id": "A"}], "layer": 1}"#, "the session has no layer 1"),
            ("not json", "not JSON"),
        ]
        for (line, fragment) in cases {
            let file = try sandbox.write("bad.ndjson", #"{"path": [{"id": "R"}]}"# + "\n" + line + "\n")
            let result = try sandbox.run(["import", "--format", "swiftui-path", file, "--session", "s"])
            #expect(result.status == 65, "\(line): \(result)")
            #expect(result.stderr.contains("line 2") && result.stderr.contains(fragment), "\(line): \(result)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
        }
        let missing = try sandbox.run(["import", "--format", "swiftui-path", "-"], stdin: "")
        #expect(missing.status == 64 && missing.stderr.contains("--session"), "\(missing)")
    }

    @Test("a sheet presented, swiped down, a modal sheet dismissed by the app; a user pop with no way back is observed")
    func sheetsAndRefusals() throws {
        let sandbox = try Sandbox()
        let lines = [
            #"{"path": [{"id": "R", "item": {"title": "Library"}}, {"id": "A", "item": {"title": "Books"}}]}"#,
            #"{"sheet": [{"id": "S", "item": {"title": "Share"}}]}"#,
            #"{"sheet": null}"#,
            #"{"sheet": [{"id": "E", "item": {"title": "Edit"}}], "by": "app", "modalInPresentation": true}"#,
            #"{"sheet": [{"id": "E", "item": {"title": "Edit"}}, {"id": "F", "item": {"title": "Field"}}], "by": "user"}"#,
            #"{"sheet": null, "by": "app"}"#,
            #"{"path": [{"id": "R", "item": {"title": "Library"}}, {"id": "B", "item": {"title": "Hidden", "hidesBackButton": true}}], "by": "app"}"#,
            #"{"path": [{"id": "R", "item": {"title": "Library"}}], "by": "user"}"#,
        ]
        let file = try sandbox.write("sheets.ndjson", lines.joined(separator: "\n") + "\n")
        try sandbox.ok(["import", "--format", "swiftui-path", file, "--session", "s"])
        let types = try UIKitTraceImportTests.bodies(sandbox, "s").map(\.type)
        #expect(
            types == [
                "entry.pushed", "entry.pushed", "layer.presented", "layer.dismissed", "layer.presented", "entry.pushed",
                "layer.dismissed", "stack.replaced", "stack.replaced",
            ], "\(types)")
        let bodies = try UIKitTraceImportTests.bodies(sandbox, "s")
        #expect(bodies[3] == .layerDismissed(source: .gesture, ids: ["S"]))
        #expect(bodies[4] == .layerPresented(Entry(id: "E", item: NavigationItem(title: "Edit")), modalInPresentation: true))
        #expect(bodies[6] == .layerDismissed(source: .programmatic, ids: ["E", "F"]))
        // B hides its back button: the user could not have popped it, so the stack seen is kept
        // as an observed replacement (lint: model-divergence), and the log ends at the path.
        guard case .stackReplaced(let entries, let observed?) = bodies[8] else {
            Issue.record("\(bodies[8])")
            return
        }
        #expect(entries.map(\.id) == ["R"] && observed.reason.contains("B"), "\(observed)")
        let stack = try sandbox.ok(["--json", "stack", "s"]).object()
        let layers = try #require(stack["layers"] as? [[String: Any]])
        #expect(layers.count == 1)
    }
}
