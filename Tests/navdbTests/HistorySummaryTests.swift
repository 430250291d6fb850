import Foundation
import Testing

/// A history line shows every item setting that differs from its default, so
/// what changed the labels is visible; a restart marker says which state was restored.
@Suite struct HistorySummaryTests {
    @Test(
        "push, present and set-stack summaries list every non-default item setting compactly",
        arguments: CommandBackend.all)
    func settingsInSummaries(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok([
            "push", "s", "shop", "--title", "Shop", "--display-mode", "minimal", "--time", "2026-11-30T09:00:01Z",
        ])
        try sandbox.ok([
            "push", "s", "cat", "--title", "Categories", "--back-button-title", "Shop", "--route", "app://cat",
            "--time", "2026-11-30T09:00:02Z",
        ])
        try sandbox.ok([
            "push", "s", "address", "--title", "Address", "--pop-guard", "Discard address?", "--time",
            "2026-11-30T09:00:03Z",
        ])
        try sandbox.ok([
            "push", "s", "edit", "--title", "Edit", "--hides-back-button", "--left-items", "2",
            "--supplement-back-button",
            "--style", "editor", "--menu-title", "Editing", "--back-bar-button-title", "", "--back-bar-button-image",
            "--menu-suppressed", "--time", "2026-11-30T09:00:04Z",
        ])
        try sandbox.ok(
            ["set-stack", "s", "--json-file", "-", "--time", "2026-11-30T09:00:05Z"],
            stdin: #"[{"id": "x", "item": {"title": "X", "backButtonTitle": ""}}, {"id": "y", "route": "r"}]"#)
        try sandbox.ok([
            "present", "s", "m", "--title", "Modal", "--modal-in-presentation", "--pop-guard", "Save?", "--time",
            "2026-11-30T09:00:06Z",
        ])
        let summaries = try sandbox.ok(["history", "s"]).lines.dropFirst().map { String($0.dropFirst(54)) }
        #expect(
            summaries == [
                "started (platform ios14)",
                "push Shop [shop] {backButtonDisplayMode=minimal}",
                "push Categories [cat] {backButtonTitle=Shop} → app://cat",
                "push Address [address] {popGuard=\"Discard address?\"}",
                "push Edit [edit] {backBarButtonItem={title: \"\", image, menuSuppressed}, hidesBackButton=true, leftBarButtonItems=2, "
                    + "leftItemsSupplementBackButton=true, style=editor, menuTitle=Editing}",
                "set stack [x {title=X, backButtonTitle=\"\"}, y → r]",
                "present Modal [m] {popGuard=\"Save?\"} (modal in presentation)",
            ])
        // replay prints the same summaries.
        #expect(
            try sandbox.ok(["replay", "s", "--from", "3", "--to", "3"]).stdout.contains(
                "push Categories [cat] {backButtonTitle=Shop} → app://cat"))
    }

    @Test("a restart marker names the version restored", arguments: CommandBackend.all)
    func restoredVersion(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try sandbox.ok(["restore", "s", "--mark"])
        let last = try #require(try sandbox.ok(["history", "s"]).lines.last)
        #expect(last.hasSuffix("session.restored  restored version 2 (attempt 1)"), "\(last)")
    }
}
