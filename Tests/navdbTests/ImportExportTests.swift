import Foundation
import Testing

/// `export` and `import`: NDJSON round trips, idempotent re-imports, all-or-nothing failures.
@Suite struct ImportExportTests {
    func populated() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s", "--name", "Mail", "--time", "2024-05-01T10:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox\n📥", "--param", "folder=in"])
        try sandbox.ok(["push", "s", "B", "--title", "", "--pop-guard", "Discard?"])
        try sandbox.run(["pop", "s"])
        try sandbox.ok(["present", "s", "M", "--title", "Compose", "--modal-in-presentation"])
        try sandbox.ok(["update", "s", "A", "--menu-title", "Mailboxes"])
        return sandbox
    }

    @Test func exportImportRoundTrip() throws {
        let sandbox = try populated()
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
            #expect(try sandbox.ok(["--db", copy, "--json"] + command).stdout == (try sandbox.ok(["--json"] + command).stdout))
        }
    }

    @Test func redactedExportStillReplays() throws {
        let sandbox = try populated()
        let redacted = try sandbox.ok(["export", "--all", "--redact", "--keep-ids"]).stdout
        let copy = sandbox.directory.appendingPathComponent("copy.sqlite").path
        try sandbox.ok(["--db", copy, "import", "-"], stdin: redacted)
        let original = try sandbox.ok(["--json", "stack", "s"]).object()
        let replayed = try sandbox.ok(["--db", copy, "--json", "stack", "s"]).object()
        func ids(_ state: [String: Any]) -> [[String]] {
            (state["layers"] as? [[String: Any]] ?? []).map { ($0["entries"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" } }
        }
        #expect(ids(original) == ids(replayed))
        #expect(ids(replayed) == [["A", "B"], ["M"]])
    }

    @Test func badImportLineWritesNothing() throws {
        let sandbox = try populated()
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

    @Test func missingImportFileCreatesNothing() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["import", "nothere.ndjson"])
        #expect(result.status == 65)
        #expect(result.stderr == "Error: cannot read 'nothere.ndjson': No such file or directory\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
    }

    static let firefoxFile = Navdb.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/real-inputs/firefox-android-sessions/Fenix_83_1_0.json")

    @Test(.enabled(if: FileManager.default.fileExists(atPath: firefoxFile.path), "no shared real inputs"))
    func firefoxSessionImport() throws {
        let sandbox = try Sandbox()
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
        let entries = pages.map { #"{\"title\":\"\#($0)\",\"url\":\"https://example.com/\#($0)\"}"# }.joined(separator: ",")
        let gecko = #"{\"history\":{\"entries\":[\#(entries)],\"index\":\#(pages.count)}}"#
        return #"{"version":2,"selectedTabId":"\#(uuid)","sessionStateTuples":[{"session":{"uuid":"\#(uuid)","title":"\#(title)","url":"https://example.com/","lastAccess":\#(lastAccess)},"engineSession":{"GECKO_STATE":"\#(gecko)"}}]}"#
    }

    @Test func firefoxTabNavigatedOn() throws {
        let sandbox = try Sandbox()
        let older = try sandbox.write("older.json", Self.firefoxTab(uuid: "t1", title: "B", lastAccess: 1_000, pages: ["A", "B"]))
        let newer = try sandbox.write("newer.json", Self.firefoxTab(uuid: "t1", title: "C", lastAccess: 2_000, pages: ["A", "B", "C"]))
        try sandbox.ok(["import", older, "--format", "firefox-session"])
        #expect(try sandbox.ok(["import", newer, "--format", "firefox-session"]).stdout
            == "imported 1 event(s) of 1 session(s); 3 already stored (skipped)\n")
        #expect(try sandbox.ok(["import", newer, "--format", "firefox-session"]).stdout
            == "imported 0 event(s) of 1 session(s); 4 already stored (skipped)\n")
        #expect(try sandbox.ok(["--json", "back-menu", "t1"]).object()["backMenu"] as? [[String: Any]] != nil)
        let refused = try sandbox.run(["import", older, "--format", "firefox-session"])
        #expect(refused.status == 65)
        #expect(refused.stderr == "Error: tab 1 'B' (uuid 't1'): the tab's history in this file differs from the session imported before at version 4, and this file is older: its lastAccess 1970-01-01T00:00:01.000Z is before the session's last event at 1970-01-01T00:00:02.000Z; nothing was imported\n")
    }
}
