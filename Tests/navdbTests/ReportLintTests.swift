import Foundation
import NavStore
import NavStoreTools
import Testing

/// The report's lint findings in a real browser (NavStore.docc/Lint.md and Reports.md): the findings that hold at the
/// selected version, linked to their rule's explanation, and the timeline's markers.
@Suite(
    "navdb report: lint findings in a browser", .enabled(if: Chromium.available, Comment(rawValue: Chromium.missing)))
struct ReportLintBrowserTests {
    @Test(
        "findings that hold at the selected version, linked to their rule; markers where they start; counts in the index",
        arguments: CommandBackend.all)
    func findings(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["push", "s", "root", "--title", "Mailboxes", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok([
            "push", "s", "inbox", "--title", "Inbox", "--back-button-title", "", "--pop-guard", "Discard?", "--time",
            "2026-11-30T09:00:02Z",
        ])
        try sandbox.ok(["push", "s", "msg", "--title", "Message", "--time", "2026-11-30T09:00:03Z"])
        try sandbox.ok(["push", "s", "msg2", "--time", "2026-11-30T09:00:04Z"])
        try sandbox.ok(["menu-select", "s", "3", "--time", "2026-11-30T09:00:05Z"])
        try sandbox.ok(["report", "-o", "out"])
        let file = sandbox.directory.appendingPathComponent("out/" + ReportIndex.fileName(for: "s")).path
        let four = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=4"))
        let findings = try #require(four.text(labelled: "Lint findings"))
        #expect(findings.contains("blank-menu-row"))
        #expect(findings.contains("blank back-menu row: backButtonTitle \"\" on entry 'inbox'"))
        #expect(!findings.contains("guard-bypassed"), "that finding holds at version 6 only")
        #expect(
            four.html.contains("<a href=\"#rule-blank-menu-row\">blank-menu-row</a>"),
            "linked to the rule's explanation")
        #expect(four.html.contains("<dt id=\"rule-blank-menu-row\">"), "which is in the page")
        #expect(four.html.contains("<dt id=\"rule-guard-bypassed\">"))
        #expect(
            four.html.contains("entry.pushed</span><span class=\"mark sev-warning\">warning</span>"),
            "the timeline marks v4")
        let six = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=6"))
        let atSix = try #require(six.text(labelled: "Lint findings"))
        #expect(atSix.contains("guard-bypassed") && !atSix.contains("blank-menu-row"))
        let two = RenderedPage(dom: try Chromium.dumpDOM(file, fragment: "v=2"))
        #expect(two.text(labelled: "Lint findings")?.contains("No lint finding holds at this version.") == true)
        let index = RenderedPage(
            dom: try Chromium.dumpDOM(sandbox.directory.appendingPathComponent("out/index.html").path))
        #expect(
            index.html.contains(
                "<span class=\"mark sev-error\">1 error</span><span class=\"mark sev-warning\">1 warning</span>"))
    }
}
