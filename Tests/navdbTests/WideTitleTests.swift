import Foundation
import NavStore
import NavStoreTools
import Testing

/// Labels fitted in terminal columns (rule 5 of NavStore.docc/Rules.md). A generated label is
/// drawn whole or replaced by its next fallback; only a custom item's title is cut, between
/// grapheme clusters; tables align East Asian wide text and joined emoji sequences.
@Suite struct WideTitleTests {
    /// `session start s; push s A <back options>; push s B --title Detail`.
    func session(_ sandbox: Sandbox, _ back: [String]) throws {
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A"] + back)
        try sandbox.ok(["push", "s", "B", "--title", "Detail"])
    }

    /// The bar's middle line of `show s --width N`.
    func bar(_ sandbox: Sandbox, width: Int) throws -> String {
        try sandbox.ok(["show", "s", "--bar-width", String(width)]).lines[2]
    }

    @Test(
        "show draws a wide title whole or its fallback, never a fragment",
        arguments: CommandBackend.each(
            [
                // At 22 the room left of the centred title is 3 columns, so 首页 (4)
                // and Back (4) do not fit and the empty label shows, as for "Settings".
                ("首页", 22, "│ ‹     Detail       │"),
                ("首页", 20, "│ ‹    Detail      │"),
                ("首页", 26, "│ ‹ 首页  Detail         │"),
                ("首页首页", 26, "│ ‹ Back  Detail         │"),
                ("Ω😀x", 22, "│ ‹     Detail       │"),
                ("Ω😀x", 26, "│ ‹ Ω😀x  Detail         │"),
                ("Settings", 22, "│ ‹     Detail       │"),
            ] as [(String, Int, String)]))
    func generatedLabels(title: String, width: Int, line: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox, ["--title", title])
        let drawn = try bar(sandbox, width: width)
        #expect(drawn == line)
        #expect(TerminalWidth.columns(drawn) == width)
    }

    @Test(
        "show cuts only a custom back item's title, between clusters, to the bar's room", arguments: CommandBackend.all)
    func customTitleIsCut(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox, ["--title", "Home", "--back-bar-button-title", "首页首页首页"])
        #expect(try bar(sandbox, width: 22) == "│ ‹ 首… Detail       │")
        #expect(try bar(sandbox, width: 40) == "│ ‹ 首页首页首页 Detail                │")
        #expect(
            try sandbox.ok(["back-menu", "s", "--width", "3"]).stdout.contains(
                "back button  ‹ 首…  (in 3 columns, cut: a custom item's title has no fallbacks; preferred 首页首页首页, 12 columns; no fallbacks)"
            ))
    }

    @Test("back-menu --width counts columns: 首页 (4 columns) does not fit 2", arguments: CommandBackend.all)
    func backMenuWidth(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox, ["--title", "首页"])
        let text = try sandbox.ok(["back-menu", "s", "--width", "2"]).stdout
        #expect(text.contains("back button  ‹ \"\"  (in 2 columns; preferred 首页, 4 columns; fallbacks: Back, \"\")"))
        #expect(text.contains("  1  首页  → A\n"), "the back menu is never shortened")
        #expect(
            try sandbox.ok(["back-menu", "s", "--width", "4"]).stdout.contains("back button  ‹ 首页  (in 4 columns;"))
        #expect(try sandbox.ok(["--json", "back-menu", "s", "--width", "3"]).object()["fittingLabel"] as? String == "")
        #expect(
            try sandbox.ok(["--json", "back-menu", "s", "--width", "4"]).object()["fittingLabel"] as? String == "首页")
    }

    @Test("tables align columns after wide titles and joined emoji sequences", arguments: CommandBackend.all)
    func tableAlignment(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        for (id, title) in [("A", "👨‍👩‍👧‍👦"), ("B", "🏳️‍🌈 flag"), ("C", "首页"), ("D", "e\u{301}"), ("E", "1️⃣☝🏽")] {
            try sandbox.ok(["push", "s", id, "--title", title, "--route", "r" + id])
        }
        let lines = try sandbox.ok(["stack", "s"]).lines.filter { $0.hasPrefix("  ") }
        #expect(lines.count == 6)
        // The route column starts at the same terminal column on every line.
        let starts = lines.map { line -> Int in
            let prefix = line.range(of: "route") ?? line.range(of: " r")!
            let offset = line[..<prefix.lowerBound]
            return TerminalWidth.columns(offset) + (line.range(of: "route") == nil ? 1 : 0)
        }
        #expect(Set(starts).count == 1, "\(lines.joined(separator: "\n"))")
    }
}
