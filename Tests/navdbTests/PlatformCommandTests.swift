import Foundation
import Testing

/// NavStore.docc/PlatformGenerations.md through the binary: `session start --platform`, what-if reads, the content
/// swipe,
/// and the bad input around them (exit 64 or 1, the database unchanged).
@Suite struct PlatformCommandTests {
    /// A session `key` of `platform` with Inbox below Mail.
    func session(_ sandbox: Sandbox, _ key: String, _ platform: String?) throws {
        try sandbox.ok(["session", "start", key] + (platform.map { ["--platform", $0] } ?? []))
        try sandbox.ok(["push", key, "A", "--title", "Inbox"])
        try sandbox.ok(["push", key, "B", "--title", "Mail"])
    }

    @Test("session start records the generation, and reads resolve under it", arguments: CommandBackend.all)
    func sessionStartRecordsTheGenerationAndReadsResolveUnderIt(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox, "new", "ios26")
        try session(sandbox, "old", nil)
        #expect(try sandbox.ok(["back-menu", "new"]).stdout.contains("platform ios26"))
        #expect(try sandbox.ok(["--json", "back-menu", "new"]).stdout.contains(#""label":"""#))
        #expect(try sandbox.ok(["--json", "back-menu", "old"]).stdout.contains(#""label":"Inbox""#))
        #expect(try sandbox.ok(["stack", "old"]).stdout.contains("platform ios14"))
        #expect(try sandbox.ok(["--json", "history", "new"]).stdout.contains(#""platform":"ios26""#))
        #expect(try sandbox.ok(["history", "new"]).stdout.contains("(platform ios26)"))
        let listed = try sandbox.ok(["sessions"]).stdout
        #expect(listed.contains("platform") && listed.contains("ios26") && listed.contains("ios14"), "\(listed)")
        let sessions = try sandbox.ok(["--json", "sessions"]).stdout
        #expect(sessions.contains(#""platform":"ios26""#), "\(sessions)")
        #expect(sessions.contains(#""platform":"ios14""#), "\(sessions)")
    }

    @Test("what-if reads under another generation change nothing", arguments: CommandBackend.all)
    func whatIfReadsChangeNothing(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox, "s", nil)
        let before = try sandbox.databaseBytes()
        let modern = try sandbox.ok(["back-menu", "s", "--platform", "ios26"]).stdout
        #expect(modern.contains("platform ios26 (what-if; the session records ios14)"), "\(modern)")
        #expect(try sandbox.ok(["--json", "back-menu", "s", "--platform", "ios26"]).stdout.contains(#""label":"""#))
        #expect(try sandbox.ok(["show", "s", "--platform", "ios26"]).status == 0)
        let replayed = try sandbox.ok(["--json", "replay", "s", "--platform", "ios26"]).lines
        #expect(replayed.last?.contains(#""label":"""#) == true, "\(replayed)")
        let classic = try sandbox.ok(["--json", "replay", "s"]).lines
        #expect(classic.last?.contains(#""label":"Inbox""#) == true, "\(classic)")
        #expect(try sandbox.ok(["stack", "s", "--platform=ios26", "--at", "2"]).stdout.contains("what-if"))
        #expect(try sandbox.databaseBytes() == before)
        #expect(try sandbox.ok(["--json", "back-menu", "s"]).stdout.contains(#""label":"Inbox""#))
    }

    @Test("a content-gesture pop works under ios26 and is refused under ios14", arguments: CommandBackend.all)
    func contentGesturePopsOnIos26AndIsRefusedOnIos14(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox, "new", "ios26")
        try session(sandbox, "old", "ios14")
        try sandbox.ok(["update", "new", "B", "--pop-guard", "Discard?"])
        try sandbox.ok(["pop", "new", "--source", "content-gesture"])
        #expect(try sandbox.ok(["--json", "history", "new"]).stdout.contains(#""source":"content-gesture""#))
        try expectRefused(sandbox, ["pop", "old", "--source", "content-gesture"], status: 1, message: "ios14")
    }

    @Test("a bad --platform value, or --platform on a write, is a usage error", arguments: CommandBackend.all)
    func badPlatformValuesAndWritesWithPlatformAreUsageErrors(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox, "s", nil)
        try expectRefused(
            sandbox, ["session", "start", "t", "--platform", "ios18"], status: 64,
            message: "expected one of ios14, ios26")
        try expectRefused(sandbox, ["session", "start", "t", "--platform", ""], status: 64, message: "ios14, ios26")
        try expectRefused(sandbox, ["stack", "s", "--platform", "iOS26"], status: 64, message: "ios14, ios26")
        for write in [["push", "s", "C"], ["pop", "s"], ["update", "s", "B", "--title", "x"], ["back", "s"]] {
            try expectRefused(
                sandbox, write + ["--platform", "ios26"], status: 64,
                message: "the generation of a session is fixed when it starts")
        }
    }
}
