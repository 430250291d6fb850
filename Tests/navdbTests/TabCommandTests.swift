import Foundation
import NavStore
import NavStoreTools
import Testing

/// The command line of <doc:TabBars>: `tabs`, `select-tab` and `--tab`, their bad input, and how
/// `stack`, `show`, `history` and `restore` show a tab bar.
@Suite struct TabCommandTests {
    /// Session `s`: tabs Mail (A, B) and Calendar (@guarded, empty), Mail selected.
    static func session(_ sandbox: Sandbox) throws {
        try sandbox.ok(["session", "start", "s", "--time", "2026-11-30T09:00:00Z"])
        try sandbox.ok(["tabs", "s", "mail:Mail", "cal:Calendar@guarded", "--time", "2026-11-30T09:00:01Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--time", "2026-11-30T09:00:02Z"])
        try sandbox.ok(["push", "s", "B", "--pop-guard", "Discard?", "--time", "2026-11-30T09:00:03Z"])
    }

    @Test("bad input: a usage error (64) or a refusal (1) naming the value and what is accepted; nothing changes", arguments: CommandBackend.all)
    func badInput(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        try expectRefused(usage: "tabs", sandbox, ["tabs", "s"], status: 64, message: "No tabs: give at least one tab")
        try expectRefused(
            usage: "tabs", sandbox, ["tabs", "s", "a@bogus"], status: 64,
            message: "'bogus' after the last '@' is no reselect (accepted: popToRoot, none, guarded)")
        try expectRefused(usage: "tabs", sandbox, ["tabs", "s", ":Title"], status: 64, message: "its id (before the first ':') is empty")
        try expectRefused(usage: "tabs", sandbox, ["tabs", "s", "a", "b", "a:Again"], status: 64, message: "Tab 'a' is given twice")
        try expectRefused(usage: "select-tab", sandbox, ["select-tab", "s"], status: 64, message: "<tab>")
        try expectRefused(usage: "select-tab", sandbox, ["select-tab", "s", ""], status: 64, message: "a tab id")
        try expectRefused(
            usage: "select-tab", sandbox, ["select-tab", "s", "cal", "--source", "swipe"], status: 64,
            message: "'swipe'")
        try expectRefused(sandbox, ["select-tab", "s", "set"], status: 1, message: "the tab bar has no tab 'set' (tabs: mail, cal)")
        try expectRefused(sandbox, ["push", "s", "X", "--tab", "set"], status: 1, message: "the tab bar has no tab 'set'")
        try expectRefused(sandbox, ["push", "s", "A", "--tab", "cal"], status: 1, message: "entry 'A' is already live")
        try expectRefused(sandbox, ["back-menu", "s", "--tab", "set"], status: 1, message: "no tab 'set'")
        try sandbox.ok(["select-tab", "s", "cal"])
        try expectRefused(
            sandbox, ["pop", "s", "--tab", "mail"], status: 1,
            message: "a back-button pop acts on the screen on show; a tab off screen takes push, programmatic pops")
        try expectRefused(sandbox, ["present", "s", "M", "--tab", "mail"], status: 1, message: "cannot act on tab 'mail'")
        try expectRefused(
            sandbox, ["update", "s", "A", "--title", "X", "--tab", "cal"], status: 1,
            message: "entry 'A' is in tab 'mail', which is not on screen: name that tab (--tab mail)")
        try expectRefused(
            sandbox, ["update", "s", "A", "--title", "X"], status: 1, message: "entry 'A' is in tab 'mail'")
        try expectRefused(sandbox, ["push", "s", "X", "--tab", ""], status: 64, message: "--tab")
        try expectRefused(sandbox, ["select-tab", "s", "cal", "--expect-version", "2"], status: 4, message: "version")
        // A session without a tab bar.
        try sandbox.ok(["session", "start", "plain"])
        try sandbox.ok(["push", "plain", "P"])
        try expectRefused(sandbox, ["select-tab", "plain", "mail"], status: 1, message: "the session has no tab bar")
        try expectRefused(sandbox, ["push", "plain", "Q", "--tab", "mail"], status: 1, message: "no tab bar")
        try expectRefused(sandbox, ["show", "plain", "--tab", "mail"], status: 1, message: "no tab bar")
        try expectRefused(
            sandbox, ["tabs", "plain", "mail"], status: 1, message: "the base stack already holds entries without one")
    }

    @Test(
        "show --tab: the brackets mark the selected tab whichever tab is drawn, and a line says which tab is drawn",
        arguments: CommandBackend.all)
    func showOtherTab(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        try sandbox.ok(["push", "s", "C", "--title", "Week", "--tab", "cal"])
        let other = try sandbox.ok(["show", "s", "--tab", "cal"]).stdout
        #expect(other.contains("drawn: tab cal, as it shows when selected (the selected tab is mail)\n"), "\(other)")
        #expect(other.hasSuffix("tabs: [mail \"Mail\"] | cal \"Calendar\" @guarded\n"), "\(other)")
        #expect(other.contains("Week") && other.contains("stack: [C]"), "\(other)")
        let selected = try sandbox.ok(["show", "s", "--tab", "mail"]).stdout
        #expect(selected.contains("drawn: tab mail, the selected tab\n"), "\(selected)")
        let plain = try sandbox.ok(["show", "s"]).stdout
        #expect(!plain.contains("drawn:"), "\(plain)")
        #expect(plain.hasSuffix("tabs: [mail \"Mail\"] | cal \"Calendar\" @guarded\n"), "\(plain)")
    }

    @Test("a reselect tap past a guard exits 3 on a guarded tab, pops to the root on UIKit's default; stack, show and history say so", arguments: CommandBackend.all)
    func reselect(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        // Mail (UIKit's default): the tap pops past B's guard.
        #expect(try sandbox.ok(["select-tab", "s", "mail"]).stdout == "version 5\n")
        #expect(try sandbox.ok(["history", "s"]).stdout.contains("popped B (tab-reselect)"))
        // Calendar is @guarded: a tap on it while selected asks the guard.
        try sandbox.ok(["select-tab", "s", "cal"])
        try sandbox.ok(["push", "s", "C"])
        try sandbox.ok(["push", "s", "D", "--pop-guard", "Discard event?"])
        let veto = try sandbox.run(["select-tab", "s", "cal"])
        #expect(veto.status == 3, "\(veto)")
        #expect(try sandbox.ok(["--json", "stack", "s"]).object()["selectedTab"] as? String == "cal")
        let stack = try sandbox.ok(["stack", "s"]).stdout
        #expect(stack.contains(#"tabs: mail "Mail" | [cal "Calendar" @guarded]"#), "\(stack)")
        #expect(stack.contains("tab mail (not on screen)"), "\(stack)")
        #expect(try sandbox.ok(["show", "s"]).stdout.contains(#"tabs: mail "Mail" | [cal "Calendar" @guarded]"# + "\n"))
        // The mail tab's back button, read without switching to it: A alone, no back button.
        let menu = try sandbox.ok(["--json", "back-menu", "s", "--tab", "mail"]).object()
        #expect(menu["backButton"] is NSNull)
        // Selecting the selected tab programmatically appends nothing.
        #expect(try sandbox.ok(["select-tab", "s", "cal", "--source", "programmatic"]).stdout.contains("already the selected tab"))
        // Lint reports the reselect past B's guard.
        let lint = try sandbox.run(["lint", "s"])
        #expect(lint.status == 2 && lint.stdout.contains("a tap on the selected tab (entries.popped, source tab-reselect)"), "\(lint)")
    }

    @Test("a ':' or '@' of a tab id or title is escaped with '\\', so a redacted export's tab ids can be named again", arguments: CommandBackend.all)
    func escapes(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.session(sandbox)
        let redacted = try sandbox.ok(["export", "s", "--redact"]).stdout
        try sandbox.ok(["--db", "red.sqlite", "import", "-"], stdin: redacted)
        let state = try sandbox.ok(["--db", "red.sqlite", "--json", "stack", "--", try #require(Self.redactedKey(redacted))]).object()
        let ids = try #require((state["tabs"] as? [[String: Any]])?.compactMap { $0["id"] as? String })
        #expect(ids.count == 2 && ids.allSatisfy { $0.hasPrefix("h:") })
        let key = try #require(state["session"] as? String)
        // The same tab ids named with escapes (their hashed titles left out): replaced, stacks kept.
        let words = ids.map { $0.replacingOccurrences(of: ":", with: "\\:") }
        #expect(try sandbox.ok(["--db", "red.sqlite", "tabs", key] + words + ["--time", "2026-12-01T00:00:00Z"]).stdout.contains("already has these tabs") == false)
        try sandbox.ok(["--db", "red.sqlite", "select-tab", key, words[1].replacingOccurrences(of: "\\:", with: ":"), "--source", "programmatic"])
        let after = try sandbox.ok(["--db", "red.sqlite", "--json", "stack", key]).object()
        #expect((after["tabs"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids)
        #expect(after["selectedTab"] as? String == ids[1])
        // Plain words with escapes.
        try sandbox.ok(["session", "start", "e"])
        try sandbox.ok(["tabs", "e", #"h\:1f:Title\@x@none"#, #"a\\b"#])
        let tabs = try #require(try sandbox.ok(["--json", "stack", "e"]).object()["tabs"] as? [[String: Any]])
        #expect(tabs.map { $0["id"] as? String } == ["h:1f", #"a\b"#])
        #expect(tabs.first?["title"] as? String == "Title@x" && tabs.first?["reselect"] as? String == "none")
        try expectRefused(usage: "tabs", sandbox, ["tabs", "e", #"bad\"#], status: 64, message: "lone")
    }

    @Test(
        "a tab's error says once what the word should be: '\\@' and '\\' are written as typed, the quoted word escaped once",
        arguments: CommandBackend.all)
    func messagesEscapeOnce(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "e"])
        try expectRefused(
            usage: "tabs", sandbox, ["tabs", "e", "a@bogus"], status: 64,
            message:
                #"Invalid tab 'a@bogus': 'bogus' after the last '@' is no reselect (accepted: popToRoot, none, guarded); write an '@' of an id or a title as \@"#
        )
        let advice = try sandbox.run(["tabs", "e", "a@bogus"]).stderr
        #expect(!advice.contains(#"\\@"#), "\(advice)")
        // A word holding a '\' is quoted with it escaped once ('\\'), the advice as written ('\').
        let lone = try sandbox.run(["tabs", "e", #"a\:b@x\"#]).stderr
        #expect(lone.hasPrefix(#"Error: Invalid tab 'a\\:b@x\\': a '\' before a character: the word ends in a lone '\'"#), "\(lone)")
        try expectRefused(
            usage: "tabs", sandbox, ["tabs", "e", #"a\:b"#, #"a\:b:Again"#], status: 64,
            message: #"Tab 'a:b' is given twice"#)
    }

    @Test(
        "a ':' or '@' followed by a combining mark separates: the word is read by Unicode scalar",
        arguments: CommandBackend.all)
    func separatorsBeforeCombiningMarks(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "e"])
        // ':' U+0301 is one Character to Swift; the ':' is still the separator, the mark starts the title.
        try sandbox.ok(["tabs", "e", "a:\u{301}b", "c@none"])
        let tabs = try #require(try sandbox.ok(["--json", "stack", "e"]).object()["tabs"] as? [[String: Any]])
        let ids = tabs.compactMap { $0["id"] as? String }
        #expect(ids.map { Array($0.unicodeScalars) } == [["a"], ["c"]], "\(ids)")
        let title = try #require(tabs.first?["title"] as? String)
        #expect(Array(title.unicodeScalars) == ["\u{301}", "b"])
        #expect(tabs.last?["reselect"] as? String == "none")
        // '@' U+0301 separates too: what follows it names no reselect.
        try expectRefused(
            usage: "tabs", sandbox, ["tabs", "e", "d@\u{301}none"], status: 64,
            message: #"'\u{301}none' after the last '@' is no reselect (accepted: popToRoot, none, guarded)"#)
        // An escaped ':' before a mark is part of the id.
        try sandbox.ok(["tabs", "e", "f\\:\u{301}g"])
        let escaped = try #require(try sandbox.ok(["--json", "stack", "e"]).object()["tabs"] as? [[String: Any]])
        #expect(escaped.first.flatMap { $0["id"] as? String }.map { Array($0.unicodeScalars) } == ["f", ":", "\u{301}", "g"])
        #expect(escaped.first?["title"] is NSNull)
    }

    /// The session key of a redacted export's first line.
    static func redactedKey(_ export: String) -> String? {
        guard let line = export.split(separator: "\n").first,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { return nil }
        return object["session"] as? String
    }
}
