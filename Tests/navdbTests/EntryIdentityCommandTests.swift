import Foundation
import Testing

/// One identity for every id and key, through the command line: the exact
/// Unicode scalars, as given and as SQLite compares them.
@Suite struct EntryIdentityCommandTests {
    static let nfc = "\u{E9}"
    static let nfd = "e\u{301}"

    @Test(
        "update with the NFD spelling of an NFC id is 'not live' (exit 1), and nothing changes",
        arguments: CommandBackend.all)
    func updateLookalikeRefused(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "root"])
        try sandbox.ok(["push", "s", Self.nfc, "--title", "Café"])
        let before = try sandbox.databaseBytes()
        for command in [["update", "s", Self.nfd, "--title", "x"], ["pop-to", "s", Self.nfd]] {
            let refused = try sandbox.run(command)
            #expect(refused.status == 1, "\(command): \(refused)")
            #expect(refused.stderr.hasPrefix("Error: "), "\(refused.stderr)")
            // The two print alike: the message tells them apart by their code points.
            #expect(
                refused.stderr.contains(
                    "'\(Self.nfd)' is U+0065 U+0301, the live '\(Self.nfc)' is U+00E9: one text in two Unicode spellings"
                ),
                "\(refused.stderr)")
        }
        #expect(try sandbox.databaseBytes() == before)
        for (id, width) in [("A", "\u{FF21}"), ("ab", "a\u{200D}b")] {
            try sandbox.ok(["push", "s", id])
            #expect(try sandbox.run(["update", "s", width, "--title", "x"]).status == 1)
        }
    }

    @Test(
        "NFC and NFD ids are two entries everywhere: stack, history --entry, redacted export and import",
        arguments: CommandBackend.all)
    func lookalikesAreTwoEntries(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", Self.nfc, "--title", "NFC"])
        try sandbox.ok(["push", "s", Self.nfd, "--title", "NFD"])
        try sandbox.ok(["update", "s", Self.nfd, "--title", "NFD 2"])
        let layers = try sandbox.ok(["--json", "stack", "s"]).object()["layers"] as! [[String: Any]]
        let ids = (layers[0]["entries"] as! [[String: Any]]).map { $0["id"] as! String }
        #expect(
            ids.count == 2 && ids[0].unicodeScalars.elementsEqual(Self.nfc.unicodeScalars)
                && ids[1].unicodeScalars.elementsEqual(Self.nfd.unicodeScalars))
        func versions(entry: String) throws -> [Int] {
            try sandbox.ok(["--json", "history", "s", "--entry", entry]).stdout.split(separator: "\n").map {
                (try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["version"] as! Int
            }
        }
        #expect(try versions(entry: Self.nfc) == [2])
        #expect(try versions(entry: Self.nfd) == [3, 4])
        // A redacted export imports elsewhere: the update names the entry it updated.
        for arguments in [["export", "s", "--redact"], ["export", "s"]] {
            let export = try sandbox.ok(arguments).stdout
            let copy = try Sandbox(backend: backend)
            let file = try copy.write("events.ndjson", export)
            let imported = try copy.run(["import", file])
            #expect(imported.status == 0, "\(arguments): \(imported)")
            // A redacted export hashes the session key too.
            let key = try #require(
                copy.ok(["--json", "sessions"]).stdout.split(separator: "\"").drop { $0 != "key" }.dropFirst(2).first
                    .map(String.init))
            let copied = try copy.ok(["--json", "stack", key]).object()["layers"] as! [[String: Any]]
            #expect((copied[0]["entries"] as! [[String: Any]]).count == 2)
        }
    }

    @Test(
        "session keys: NFC and NFD spellings are two sessions, each found only by its own spelling",
        arguments: CommandBackend.all)
    func sessionKeys(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "caf" + Self.nfc])
        let nfdKey = "caf" + Self.nfd
        #expect(try sandbox.run(["push", nfdKey, "A"]).status == 1, "not found: another key")
        try sandbox.ok(["session", "start", nfdKey])
        try sandbox.ok(["push", nfdKey, "A"])
        let sessions = try sandbox.ok(["--json", "sessions"]).stdout
        #expect(sessions.contains("\"version\":2") && sessions.contains("\"version\":1"), "\(sessions)")
    }

    @Test("a --param value may start with a combining mark: split at the first '=' scalar")
    func paramValueStartingWithMark() throws {
        let sandbox = try Sandbox(backend: .sqlite)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--param", "k=\u{301}v"])
        // An empty key is still refused, whatever follows the '='.
        #expect(try sandbox.run(["push", "s", "B", "--param", "=\u{301}x"]).status == 64)
        let layers = try sandbox.ok(["--json", "stack", "s"]).object()["layers"] as! [[String: Any]]
        let params = (layers[0]["entries"] as! [[String: Any]])[0]["params"] as! [String: String]
        #expect(params.count == 1 && params["k"].map { Array($0.unicodeScalars) } == Array("\u{301}v".unicodeScalars))
    }
}
