import Foundation
import NavStore
import NavStoreTools
import Testing

/// `navdb report --platform` (NavStore.docc/PlatformGenerations.md): a what-if page, and its bad input.
@Suite("navdb report --platform")
struct ReportPlatformCommandTests {
    @Test(
        "--platform ios26 embeds the what-if labels; an unknown generation is a usage error",
        arguments: CommandBackend.all)
    func whatIf(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok(["push", "s", "B", "--title", "Mail", "--time", "2026-11-30T09:00:02Z"])
        let recorded = try sandbox.ok(["report", "s"]).stdout
        #expect(recorded.contains("\"platform\":\"ios14\"") && recorded.contains("\"label\":\"Inbox\""))
        let whatIf = try sandbox.ok(["report", "s", "--platform", "ios26"]).stdout
        #expect(whatIf.contains("\"platform\":\"ios26\"") && whatIf.contains("\"recordedPlatform\":\"ios14\""))
        #expect(!whatIf.contains("\"label\":\"Inbox\""))
        if Chromium.available {
            try sandbox.ok(["report", "s", "--platform", "ios26", "-o", "ios26.html"])
            let page = RenderedPage(
                dom: try Chromium.dumpDOM(sandbox.directory.appendingPathComponent("ios26.html").path))
            #expect(page.text(labelled: "Back button") == "", "iOS 26: a chevron only")
            #expect(page.items(labelled: "Back menu") == ["Inbox"], "the menu is unchanged")
            #expect(page.html.contains("what if: ios26 rules (the session records ios14"))
        }
        let before = try sandbox.databaseBytes()
        let bad = try sandbox.run(["report", "s", "--platform", "ios99", "-o", "x.html"])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.hasPrefix(
                "Error: The value 'ios99' is invalid for '--platform <generation>': expected one of ios14, ios26"),
            "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("x.html").path))
        #expect(try sandbox.databaseBytes() == before)
    }
}
