import Foundation
import Testing

/// `export` and `import`: NDJSON round trips, idempotent re-imports, all-or-nothing failures.
@Suite struct ImportExportTests {
    func populated(_ backend: CommandBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--name", "Mail", "--time", "2024-05-01T10:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox\n📥", "--param", "folder=in"])
        try sandbox.ok(["push", "s", "B", "--title", "", "--pop-guard", "Discard?"])
        try sandbox.run(["pop", "s"])
        try sandbox.ok(["present", "s", "M", "--title", "Compose", "--modal-in-presentation"])
        try sandbox.ok(["update", "s", "A", "--menu-title", "Mailboxes"])
        return sandbox
    }

    @Test("export then import reproduces every state", arguments: CommandBackend.all)
    func exportImportRoundTrip(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        let export = try sandbox.ok(["export", "s"]).stdout
        let file = try sandbox.write("s.ndjson", export)
        let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
        let first = try sandbox.ok(["--db", copy, "--json", "import", file]).object()
        #expect(first as NSDictionary == ["sessions": 1, "imported": 6, "skipped": 0] as NSDictionary)
        // The same events again are skipped; stdin works too.
        let again = try sandbox.ok(["--db", copy, "import", "-"], stdin: export)
        #expect(again.stdout == "imported 0 event(s) of 1 session(s); 6 already stored (skipped)\n")
        #expect(try sandbox.ok(["--db", copy, "export", "s"]).stdout == export)
        for command in [["stack", "s"], ["back-menu", "s"], ["history", "s"]] {
            #expect(
                try sandbox.ok(["--db", copy, "--json"] + command).stdout
                    == (try sandbox.ok(["--json"] + command).stdout))
        }
    }

    @Test("a redacted export still replays to the same labels and menus", arguments: CommandBackend.all)
    func redactedExportStillReplays(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        let redacted = try sandbox.ok(["export", "--all", "--redact", "--keep-ids"]).stdout
        let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
        try sandbox.ok(["--db", copy, "import", "-"], stdin: redacted)
        let original = try sandbox.ok(["--json", "stack", "s"]).object()
        let replayed = try sandbox.ok(["--db", copy, "--json", "stack", "s"]).object()
        func ids(_ state: [String: Any]) -> [[String]] {
            (state["layers"] as? [[String: Any]] ?? []).map {
                ($0["entries"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" }
            }
        }
        #expect(ids(original) == ids(replayed))
        #expect(ids(replayed) == [["A", "B"], ["M"]])
    }

    @Test("a bad import line writes nothing", arguments: CommandBackend.all)
    func badImportLineWritesNothing(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        var lines = try sandbox.ok(["export", "s"]).lines
        let before = try sandbox.databaseBytes()
        let target = sandbox.directory.appendingPathComponent("target.sqlite").path
        try sandbox.ok(["--db", target, "session", "start", "other"])
        let targetBefore = try Data(contentsOf: URL(fileURLWithPath: target))
        lines[3] = "{\"not\": \"an event\"}"
        let file = try sandbox.write("bad.ndjson", lines.joined(separator: "\n") + "\n")
        let result = try sandbox.run(["--db", target, "import", file])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix("Error: line 4: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("nothing was imported\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == targetBefore)
        #expect(try sandbox.databaseBytes() == before)
        let sessions = try #require(try sandbox.ok(["--db", target, "--json", "sessions"]).json() as? [[String: Any]])
        #expect(sessions.map { $0["key"] as? String } == ["other"])
    }

    /// A history no command could have made is refused with exit 65 and the line
    /// of its first impossible event; the database is unchanged.
    @Test(
        "an impossible history is refused with exit 65 and the line of its first impossible event",
        arguments: CommandBackend.each([
            (
                ["push", "s", "B", "--hides-back-button"], ["pop", "s", "--source", "programmatic"],
                "entries.popped: cannot pop with source gesture: 'B' shows no back button"
            ),
            (
                ["present", "s", "M", "--modal-in-presentation"], ["dismiss", "s", "--source", "programmatic"],
                "layer.dismissed: the layer rooted at 'M' is modalInPresentation: a gesture dismissal of it is vetoed (dismiss.vetoed)"
            ),
            (
                ["push", "s", "B", "--title", "Old"], ["update", "s", "B", "--title", "New"],
                "item.updated: the update of 'B' lists fields [], but the fields that change are [\"title\"]"
            ),
        ]))
    func impossibleHistoryRefused(setup: [String], last: [String], message: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2024-05-01T10:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--time", "2024-05-01T10:00:01Z"])
        try sandbox.ok(setup + ["--time", "2024-05-01T10:00:02Z"])
        try sandbox.ok(last + ["--time", "2024-05-01T10:00:03Z"])
        try sandbox.ok(["push", "s", "Z", "--time", "2024-05-01T10:00:04Z"])
        // Turn the recorded fact into one the rules would not have recorded.
        var lines = try sandbox.ok(["export", "s"]).lines
        lines[3] = lines[3]
            .replacingOccurrences(of: "\"source\":\"programmatic\"", with: "\"source\":\"gesture\"")
            .replacingOccurrences(of: "\"fields\":[\"title\"]", with: "\"fields\":[]")
        let file = try sandbox.write("bad.ndjson", lines.joined(separator: "\n") + "\n")
        let target = sandbox.directory.appendingPathComponent("target.sqlite").path
        let result = try sandbox.run(["--db", target, "import", file])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix("Error: line 4: version 4 of session 's': invalid event: \(message)"),
            "\(result.stderr)")
        #expect(result.stderr.hasSuffix("; nothing was imported\n"))
        #expect(!FileManager.default.fileExists(atPath: target), "a refused import leaves no file behind")
        // Through a symbolic link to a missing file (relative, in a chain of two): the links stay
        // as the user made them, and no database appears at their end.
        let end = sandbox.directory.appendingPathComponent("end.sqlite").path
        let inner = sandbox.directory.appendingPathComponent("inner.link").path
        let outer = sandbox.directory.appendingPathComponent("outer.link").path
        try FileManager.default.createSymbolicLink(atPath: inner, withDestinationPath: "end.sqlite")
        try FileManager.default.createSymbolicLink(atPath: outer, withDestinationPath: inner)
        #expect(try sandbox.run(["--db", outer, "import", file]).status == 65)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: outer) == inner)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: inner) == "end.sqlite")
        #expect(!FileManager.default.fileExists(atPath: end), "a refused import creates nothing at the link's end")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).allSatisfy {
                !$0.hasPrefix("end.sqlite")
            })
        // Importing into the database that holds the real history is a no-op up to the change.
        let before = try sandbox.databaseBytes()
        #expect(try sandbox.run(["import", file]).status == 65)
        #expect(try sandbox.databaseBytes() == before)
    }

    /// A file that continues another history is refused, naming both events.
    @Test("a file that continues another history is refused, naming both events", arguments: CommandBackend.all)
    func divergedContinuationRefused(backend: CommandBackend)
        throws
    {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A"])
        let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
        try sandbox.ok(["--db", copy, "import", "-"], stdin: try sandbox.ok(["export", "s"]).stdout)
        try sandbox.ok(["push", "s", "B"])
        try sandbox.ok(["--db", copy, "push", "s", "X"])
        try sandbox.ok(["push", "s", "C"])
        let ours = try sandbox.ok(["--db", copy, "--json", "history", "s"]).lines[2]
        let theirs = try sandbox.ok(["--json", "history", "s"]).lines[2]
        func id(_ line: String) throws -> String {
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["eventID"]
                as! String
        }
        let lastLine = try #require(try sandbox.ok(["export", "s"]).lines.last)
        let copyBytes = try Data(contentsOf: URL(fileURLWithPath: copy))
        let result = try sandbox.run(["--db", copy, "import", "-"], stdin: lastLine + "\n")
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "Error: line 1: version 3 of session 's' here is \(try id(ours)), the file continues \(try id(theirs)) with version 4"
            ), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == copyBytes)
        #expect(try sandbox.ok(["--db", copy, "--json", "history", "s"]).lines.count == 3)
    }

    /// `push s A --title Back; push s B` shows "Back" with the fallback "";
    /// after a redacted export and import it still does.
    @Test(
        "a title \"Back\" keeps its label and fallback through a redacted export and import",
        arguments: CommandBackend.all)
    func redactionKeepsABackTitle(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Back"])
        try sandbox.ok(["push", "s", "B", "--title", "Secret"])
        let redacted = try sandbox.ok(["export", "s", "--redact"]).stdout
        #expect(!redacted.contains("Secret"))
        let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
        try sandbox.ok(["--db", copy, "import", "-"], stdin: redacted)
        let key =
            try #require(try sandbox.ok(["--db", copy, "--json", "sessions"]).json() as? [[String: Any]]).first?["key"]
            as? String
        let original = try sandbox.ok(["--json", "back-menu", "s"]).object()
        let replayed = try sandbox.ok(["--db", copy, "--json", "back-menu", try #require(key)]).object()
        #expect(
            original["backButton"] as? NSDictionary == ["label": "Back", "fallbacks": [""], "image": false]
                as NSDictionary, "\(original)")
        #expect(replayed["backButton"] as? NSDictionary == original["backButton"] as? NSDictionary, "\(replayed)")
        #expect((replayed["backMenu"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Back"])
        // The event ids are new ones, and another redacted export shares none of them.
        let again = try sandbox.ok(["export", "s", "--redact", "--keep-ids"]).stdout
        let ids = { (text: String) in
            Set(
                text.split(separator: "\n").compactMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["eventID"] as? String
                })
        }
        let plain = ids(try sandbox.ok(["export", "s"]).stdout)
        #expect(ids(redacted).count == 3 && ids(again).count == 3)
        #expect(
            ids(redacted).isDisjoint(with: ids(again)) && ids(redacted).isDisjoint(with: plain)
                && ids(again).isDisjoint(with: plain))
    }

    @Test("a missing import file creates no database", arguments: CommandBackend.all)
    func missingImportFileCreatesNothing(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let result = try sandbox.run(["import", "nothere.ndjson"])
        #expect(result.status == 65)
        #expect(result.stderr == "Error: cannot read 'nothere.ndjson': No such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
    }

    static let firefoxFile = Navdb.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/real-inputs/firefox-android-sessions/Fenix_83_1_0.json")

    @Test(
        "a real Firefox session file imports once; a second import skips every event; other JSON is bad input",
        .enabled(if: FileManager.default.fileExists(atPath: firefoxFile.path), "no shared real inputs"),
        arguments: CommandBackend.all)
    func firefoxSessionImport(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let first = try sandbox.ok(["--json", "import", Self.firefoxFile.path, "--format", "firefox-session"]).object()
        #expect((first["imported"] as? Int ?? 0) > 0)
        let again = try sandbox.ok(["--json", "import", Self.firefoxFile.path, "--format", "firefox-session"]).object()
        #expect(again["imported"] as? Int == 0)
        #expect(again["skipped"] as? Int == first["imported"] as? Int)
        let sessions = try #require(try sandbox.ok(["--json", "sessions"]).json() as? [[String: Any]])
        #expect(sessions.count == first["sessions"] as? Int)
        let notFirefox = try sandbox.write("x.json", "{\"hello\": 1}")
        let result = try sandbox.run(["import", notFirefox, "--format", "firefox-session"])
        #expect(result.status == 65, "\(result)")
    }

    /// A Firefox for Android session file with one tab of `pages`, the last one current.
    static func firefoxTab(uuid: String, title: String, lastAccess: Int64, pages: [String]) -> String {
        let entries = pages.map { #"{\"title\":\"\#($0)\",\"url\":\"https://example.com/\#($0)\"}"# }.joined(
            separator: ",")
        let gecko = #"{\"history\":{\"entries\":[\#(entries)],\"index\":\#(pages.count)}}"#
        return
            #"{"version":2,"selectedTabId":"\#(uuid)","sessionStateTuples":[{"session":{"uuid":"\#(uuid)","title":"\#(title)","url":"https://example.com/","lastAccess":\#(lastAccess)},"engineSession":{"GECKO_STATE":"\#(gecko)"}}]}"#
    }

    @Test(
        "a Firefox tab that navigated on imports only its new pages; the older file is then refused",
        arguments: CommandBackend.all)
    func firefoxTabNavigatedOn(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let older = try sandbox.write(
            "older.json", Self.firefoxTab(uuid: "t1", title: "B", lastAccess: 1_000, pages: ["A", "B"]))
        let newer = try sandbox.write(
            "newer.json", Self.firefoxTab(uuid: "t1", title: "C", lastAccess: 2_000, pages: ["A", "B", "C"]))
        try sandbox.ok(["import", older, "--format", "firefox-session"])
        #expect(
            try sandbox.ok(["import", newer, "--format", "firefox-session"]).stdout
                == "imported 1 event(s) of 1 session(s); 3 already stored (skipped)\n")
        #expect(
            try sandbox.ok(["import", newer, "--format", "firefox-session"]).stdout
                == "imported 0 event(s) of 1 session(s); 4 already stored (skipped)\n")
        #expect(try sandbox.ok(["--json", "back-menu", "t1"]).object()["backMenu"] as? [[String: Any]] != nil)
        let refused = try sandbox.run(["import", older, "--format", "firefox-session"])
        #expect(refused.status == 65)
        #expect(
            refused.stderr
                == "Error: tab 1 'B' (uuid 't1'): the tab's history in this file differs from the session imported before at version 4, and this file is older: its lastAccess 1970-01-01T00:00:01.000Z is before the session's last event at 1970-01-01T00:00:02.000Z; nothing was imported\n"
        )
    }

    @Test("export -o FILE writes the same lines as stdout, whole, readable by its owner only; a bad path exits 73", arguments: CommandBackend.all)
    func exportToFile(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        let printed = try sandbox.ok(["export", "s"]).stdout
        let file = sandbox.directory.appendingPathComponent("out.ndjson").path
        #expect(try sandbox.ok(["export", "s", "-o", file]).stdout.isEmpty)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == printed)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let bad = try sandbox.run(["export", "s", "-o", "/nonexistent-navdb-folder/out.ndjson"])
        #expect(bad.status == 73 && bad.stderr.hasPrefix("Error: cannot write '/nonexistent-navdb-folder/out.ndjson'"), "\(bad)")
        #expect(try sandbox.run(["export", "s", "-o", ""]).status == 64)
    }
}
