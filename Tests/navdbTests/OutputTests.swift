import Foundation
import Testing

/// Output shapes: `--json` documents, human text with escaped titles, `nil` versus `""`,
/// history and replay lines, exit 3 after a recorded veto.
@Suite struct OutputTests {
    func session(_ sandbox: Sandbox) throws {
        try sandbox.ok(["session", "start", "s", "--name", "Mail", "--time", "2024-05-01T10:00:00Z"])
        try sandbox.ok([
            "push", "s", "A", "--title", "Inbox", "--route", "mail://inbox", "--param", "folder=in", "--param", "n=1",
            "--time", "2024-05-01T10:00:01.123Z",
        ])
        try sandbox.ok(["push", "s", "B", "--title", "", "--time", "2024-05-01T10:00:02.007Z"])
        try sandbox.ok([
            "push", "s", "C", "--title", "Draft", "--pop-guard", "Discard draft?", "--time", "2024-05-01T10:00:03Z",
        ])
    }

    @Test("writing commands print the session's version", arguments: CommandBackend.all)
    func writingCommandsPrintTheVersion(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        #expect(try sandbox.ok(["session", "start", "s"]).stdout == "version 1\n")
        #expect(try sandbox.ok(["push", "s", "A"]).stdout == "version 2\n")
        let json = try sandbox.ok(["--json", "push", "s", "B"]).object()
        #expect(
            json as NSDictionary == [
                "session": "s", "version": 3, "outcome": "ok", "prompt": NSNull(), "unchanged": NSNull(),
            ] as NSDictionary)
        // Popping to the top entry appends nothing: the version is unchanged, and the JSON says why.
        #expect(try sandbox.ok(["pop-to", "s", "B"]).stdout.hasPrefix("version 3"))
        let unchanged = try sandbox.ok(["--json", "pop-to", "s", "B"]).object()
        #expect(
            unchanged as NSDictionary == [
                "session": "s", "version": 3, "outcome": "ok", "prompt": NSNull(),
                "unchanged": "'B' is already the top entry; nothing popped",
            ] as NSDictionary)
        let atRoot = try sandbox.ok(["--json", "pop-to-root", "s"]).object()
        #expect(atRoot["unchanged"] as? String == nil)
        let again = try sandbox.ok(["--json", "pop-to-root", "s"]).object()
        #expect(again["unchanged"] as? String == "already at the root; nothing popped", "\(again)")
    }

    @Test("a veto exits 3 after the normal output", arguments: CommandBackend.all)
    func vetoExitsThreeAfterTheNormalOutput(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let human = try sandbox.run(["pop", "s"])
        #expect(human.status == 3)
        #expect(human.stdout == "vetoed: Discard draft? (version 5)\n")
        #expect(human.stderr.isEmpty)
        let json = try sandbox.run(["--json", "pop", "s"])
        #expect(json.status == 3)
        #expect(
            try json.object() as NSDictionary == [
                "session": "s", "version": 6, "outcome": "vetoed", "prompt": "Discard draft?", "unchanged": NSNull(),
            ] as NSDictionary)
        #expect(try sandbox.ok(["pop", "s", "--confirm"]).stdout == "version 7\n")
        let types = try sandbox.ok(["--json", "history", "s"]).lines.map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
        }
        #expect(types.suffix(3) == ["pop.vetoed", "pop.vetoed", "entries.popped"])
    }

    @Test("stack --json has every field", arguments: CommandBackend.all)
    func stackJSONHasEveryField(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let stack = try sandbox.ok(["--json", "stack", "s"]).object()
        #expect(Set(stack.keys) == ["session", "version", "platform", "recordedPlatform", "layers", "tabs", "selectedTab"])
        // A session without a tab bar (<doc:TabBars>): both null.
        #expect(stack["tabs"] is NSNull)
        #expect(stack["selectedTab"] is NSNull)
        let layer = try #require((stack["layers"] as? [[String: Any]])?.first)
        #expect(Set(layer.keys) == ["modalInPresentation", "navigationBarHidden", "entries"])
        #expect(layer["navigationBarHidden"] as? Bool == false)
        let entries = try #require(layer["entries"] as? [[String: Any]])
        try #require(entries.count == 3)
        #expect(Set(entries[0].keys) == ["id", "route", "params", "item"])
        #expect(entries[0]["params"] as? [String: String] == ["folder": "in", "n": "1"])
        #expect(entries[1]["route"] is NSNull)
        let item = try #require(entries[1]["item"] as? [String: Any])
        #expect(
            Set(item.keys) == [
                "title", "backButtonTitle", "backBarButtonItem", "backButtonDisplayMode", "hidesBackButton",
                "leftBarButtonItems", "leftItemsSupplementBackButton", "style", "menuTitle", "popGuard",
                "interactivePopDisabled", "contentPopDisabled",
            ])
        #expect(item["title"] as? String == "")
        #expect(item["backButtonTitle"] is NSNull)
        // Keys are sorted, output is one line.
        let text = try sandbox.ok(["--json", "stack", "s"]).stdout
        #expect(text.hasPrefix("{\"layers\":[{\"entries\":[{\"id\":\"A\",\"item\":{\"backBarButtonItem\":null,"))
        #expect(text.filter { $0 == "\n" }.count == 1)
    }

    @Test("back-menu --json shows the button and the rows", arguments: CommandBackend.all)
    func backMenuJSON(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let menu = try sandbox.ok(["--json", "back-menu", "s"]).object()
        #expect(menu["backButton"] as? NSDictionary == ["label": "", "fallbacks": [], "image": false] as NSDictionary)
        let rows = try #require(menu["backMenu"] as? [NSDictionary])
        #expect(
            rows == [["row": 1, "entry": "B", "title": ""], ["row": 2, "entry": "A", "title": "Inbox"]]
                as [NSDictionary])
        // At version 3 (A, B): the label comes from A.
        let earlier = try sandbox.ok(["--json", "back-menu", "s", "--at", "3", "--width", "3"]).object()
        #expect(
            earlier["backButton"] as? NSDictionary == ["label": "Inbox", "fallbacks": ["Back", ""], "image": false]
                as NSDictionary)
        #expect(earlier["fittingLabel"] as? String == "")
        #expect(earlier["version"] as? Int == 3)
        // At version 2 (A alone): no back button, no menu.
        let root = try sandbox.ok(["--json", "back-menu", "s", "--at", "2024-05-01T10:00:01.500Z"]).object()
        #expect(root["backButton"] is NSNull)
        #expect(root["backMenu"] is NSNull)
        #expect(root["version"] as? Int == 2)
    }

    @Test("back-menu prints the button and the rows as text", arguments: CommandBackend.all)
    func backMenuHumanText(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let text = try sandbox.ok(["back-menu", "s", "--at", "3", "--width", "4"]).stdout
        #expect(text.contains("back button  ‹ Back  (in 4 columns; preferred Inbox, 5 columns; fallbacks: Back, \"\")"))
        let now = try sandbox.ok(["back-menu", "s"]).stdout
        #expect(now.contains("  1  \"\"     → B\n"))
        #expect(now.contains("  2  Inbox  → A\n"))
    }

    @Test("human output escapes control characters and keeps Unicode", arguments: CommandBackend.all)
    func humanOutputEscapesControlCharactersAndKeepsUnicode(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let title = "Line\nbreak\ttab\u{1B}[31mred 🎉 שלום e\u{301}"
        try sandbox.ok(["push", "s", "A", "--title", title])
        try sandbox.ok(["push", "s", "B"])
        let stack = try sandbox.ok(["stack", "s"]).stdout
        #expect(stack.contains("Line\\nbreak\\ttab\\u{1B}[31mred 🎉 שלום e\u{301}"))
        #expect(!stack.contains("\u{1B}"))
        // nil shows as -, "" as "".
        #expect(stack.contains("  2  B   -"))
        let menu = try sandbox.ok(["back-menu", "s"]).stdout
        #expect(menu.contains("Line\\nbreak"))
        // JSON keeps the exact text.
        let json = try sandbox.ok(["--json", "back-menu", "s"]).object()
        #expect((json["backButton"] as? [String: Any])?["label"] as? String == title)
    }

    @Test(
        "titles round-trip exactly through push and stack --json",
        arguments: [
            String(repeating: "long title ", count: 1_000),
            "'); DROP TABLE events; --",
            "e\u{301}\u{302} 👩‍👩‍👧 مرحبا \u{202E}evil",
            "tab\there\r\nnew line \u{7F}del \u{1B}[2J",
            " padded ",
        ], CommandBackend.all)
    func titlesRoundTripExactly(_ title: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", title, "--back-button-title", title])
        try sandbox.ok(["push", "s", "B"])
        let menu = try sandbox.ok(["--json", "back-menu", "s"]).object()
        #expect((menu["backButton"] as? [String: Any])?["label"] as? String == title)
        #expect((menu["backMenu"] as? [[String: Any]])?.first?["title"] as? String == title)
        // Human output stays on its lines: no raw control characters.
        let text = try sandbox.ok(["stack", "s"]).stdout
        #expect(text.split(separator: "\n").count == 5)
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
    }

    @Test("history prints one line per event and filters them", arguments: CommandBackend.all)
    func historyLinesAndFilters(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        try sandbox.run(["pop", "s", "--time", "2024-05-01T10:00:04Z"])
        try sandbox.ok(["pop-to-root", "s", "--time", "2024-05-01T10:00:05Z"])
        let lines = try sandbox.ok(["history", "s"]).lines
        try #require(lines.count == 7, "\(lines)")
        #expect(lines[0].hasPrefix("version   time"))
        #expect(lines[1] == "      1   2024-05-01T10:00:00.000Z  session.started   started \"Mail\" (platform ios14)")
        #expect(lines[2] == "      2   2024-05-01T10:00:01.123Z  entry.pushed      push Inbox [A] → mail://inbox")
        #expect(lines[3] == "      3   2024-05-01T10:00:02.007Z  entry.pushed      push \"\" [B]")
        #expect(lines[5].hasSuffix("pop.vetoed        vetoed pop of C: \"Discard draft?\""))
        #expect(lines[6] == "      6   2024-05-01T10:00:05.000Z  entries.popped    popped C, B (programmatic)")

        let json = try sandbox.ok(["--json", "history", "s", "--type", "entry.pushed", "--reverse", "--limit", "2"])
            .lines
        try #require(json.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(json[0].utf8)) as? [String: Any])
        #expect(Set(first.keys) == ["seq", "session", "version", "type", "at", "time", "eventID", "payload"])
        #expect(first["version"] as? Int == 4)
        #expect(first["at"] as? Int == 1_714_557_603_000)
        #expect(first["time"] as? String == "2024-05-01T10:00:03.000Z")
        #expect(json[0].hasPrefix("{\"at\":1714557603000,\"eventID\":"))

        let byEntry = try sandbox.ok(["--json", "history", "s", "--entry", "B"]).lines
        #expect(byEntry.count == 2)
        let since = try sandbox.ok([
            "--json", "history", "s", "--since", "2024-05-01T10:00:02Z", "--until", "2024-05-01T10:00:03Z",
        ]).lines
        #expect(since.count == 2)
    }

    @Test("replay shows the bar after each event", arguments: CommandBackend.all)
    func replayShowsTheBarAfterEachEvent(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let lines = try sandbox.ok(["--json", "replay", "s", "--from", "3"]).lines
        try #require(lines.count == 2)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(Set(last.keys) == ["event", "backButton", "backMenu", "stack"])
        #expect(last["stack"] as? [[String]] == [["A", "B", "C"]])
        #expect((last["event"] as? [String: Any])?["version"] as? Int == 4)
        let text = try sandbox.ok(["replay", "s", "--to", "3"]).stdout
        #expect(text.contains("back button  none (it is the root of its layer)"))
        #expect(text.contains("back button  ‹ Inbox  (fallbacks: Back, \"\")"))
    }

    /// Every command that takes a version refuses one the session does not have in the same
    /// words, with exit 1: `replay --from 6` on a 4-version session once answered "no events in
    /// that range" with exit 0 while `stack --at 6` exited 1.
    @Test(
        "a version past the session's newest is refused alike by every command that takes one",
        arguments: [
            ["stack", "s", "--at", "6"], ["back-menu", "s", "--at", "6"], ["show", "s", "--at", "6"],
            ["restore", "s", "--at", "6"], ["replay", "s", "--from", "6"], ["replay", "s", "--to", "6"],
            ["replay", "s", "--from", "2", "--to", "6"], ["--json", "replay", "s", "--from", "6"],
        ], CommandBackend.all)
    func versionPastTheEnd(_ arguments: [String], backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let before = try sandbox.databaseBytes()
        let result = try sandbox.run(arguments)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "", "\(result)")
        #expect(result.stderr == "Error: version 6 is outside session 's' (accepted: versions 1...4)\n", "\(result)")
        #expect(try sandbox.databaseBytes() == before)
        // The last version itself is fine.
        let last = arguments.map { $0 == "6" ? "4" : $0 }
        try sandbox.ok(last)
    }

    @Test("update --unset resets a field, then the given options set theirs", arguments: CommandBackend.all)
    func updateUnsetsThenSets(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        try sandbox.ok(["update", "s", "A", "--back-bar-button-title", "Mail", "--menu-suppressed"])
        try sandbox.ok([
            "update", "s", "A", "--unset", "back-bar-button-item", "--unset", "title", "--back-button-title", "Boxes",
        ])
        let stack = try sandbox.ok(["--json", "stack", "s"]).object()
        let item = try #require(
            ((stack["layers"] as? [[String: Any]])?[0]["entries"] as? [[String: Any]])?[0]["item"] as? [String: Any])
        #expect(item["title"] is NSNull)
        #expect(item["backBarButtonItem"] is NSNull)
        #expect(item["backButtonTitle"] as? String == "Boxes")
        let history = try sandbox.ok(["history", "s", "--type", "item.updated"]).lines
        #expect(history.last?.hasSuffix("update A: title=-, backButtonTitle=Boxes, backBarButtonItem=-") == true)
    }

    @Test("show draws the bar and the menu", arguments: CommandBackend.all)
    func showDrawsTheBarAndTheMenu(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        try sandbox.ok(["present", "s", "M", "--title", "Compose", "--modal-in-presentation"])
        try sandbox.ok(["push", "s", "N", "--title", "Contacts"])
        let text = try sandbox.ok(["show", "s", "--bar-width", "44"]).stdout
        let lines = text.split(separator: "\n").map(String.init)
        try #require(lines.count >= 6, "\(text)")
        #expect(lines[1] == "╭─[modal layer 1, modalInPresentation]─────╮")
        #expect(lines[2] == "│ ‹ Compose       Contacts                 │")
        #expect(lines[3] == "╰" + String(repeating: "─", count: 42) + "╯")
        #expect(lines[5] == "  │ Compose  │  → M")
        #expect(lines.last == "stack: [A, B, C] | [M, N]")
        #expect(!text.contains("\u{1B}"), "no colour when stdout is not a terminal")
        // A narrow bar falls back to a shorter label.
        let narrow = try sandbox.ok(["show", "s", "--bar-width", "26"]).stdout.split(separator: "\n").map(String.init)
        try #require(narrow.count >= 3)
        #expect(narrow[2] == "│ ‹ Back Contacts        │")
        let narrower = try sandbox.ok(["show", "s", "--bar-width", "20"]).stdout.split(separator: "\n").map(String.init)
        try #require(narrower.count >= 3)
        #expect(narrower[2] == "│ ‹   Contacts     │")
    }

    @Test(
        "show and back-menu agree on the back label: a note names the label the bar falls back to, and --width is refused",
        arguments: CommandBackend.all)
    func showNotesAShorterBackLabel(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Settings"])
        try sandbox.ok(["push", "s", "B", "--title", "Apple Account"])
        try sandbox.ok(["push", "s", "C", "--title", "Sign-In & Security Options"])
        // The default 40-column bar leaves 2 columns left of the title: the chevron alone.
        let narrow = try sandbox.ok(["show", "s"])
        #expect(narrow.lines[2] == "│ ‹    Sign-In & Security Options      │")
        #expect(
            narrow.stderr
                == "note: the back label \"Apple Account\" (13 columns) does not fit the 2 columns left of the title in a 40-column bar; UIKit shows the chevron alone (\"\") ('back-menu --width 2' shows the same)\n"
        )
        #expect(try sandbox.ok(["--json", "show", "s"]).object()["fittingLabel"] as? String == "")
        #expect(try sandbox.ok(["--json", "back-menu", "s", "--width", "2"]).object()["fittingLabel"] as? String == "")
        // 60 columns leave 12: "Back", as back-menu says in 12 columns.
        let wider = try sandbox.ok(["show", "s", "--bar-width", "60"])
        #expect(wider.lines[2].hasPrefix("│ ‹ Back         Sign-In & Security Options"))
        #expect(
            wider.stderr
                == "note: the back label \"Apple Account\" (13 columns) does not fit the 12 columns left of the title in a 60-column bar; UIKit shows \"Back\" ('back-menu --width 12' shows the same)\n"
        )
        #expect(try sandbox.ok(["back-menu", "s", "--width", "12"]).lines[1].hasPrefix("back button  ‹ Back  (in 12 columns;"))
        #expect(try sandbox.ok(["--json", "show", "s", "--bar-width", "60"]).object()["fittingLabel"] as? String == "Back")
        // Room for the preferred label: no note.
        let wide = try sandbox.ok(["show", "s", "--bar-width", "80"])
        #expect(wide.lines[2].hasPrefix("│ ‹ Apple Account "))
        #expect(wide.stderr.isEmpty)
        // A custom item's title has no fallbacks: it is cut, and the note says so.
        try sandbox.ok(["session", "start", "c"])
        try sandbox.ok(["push", "c", "A", "--title", "Settings", "--back-bar-button-title", "All the account settings"])
        try sandbox.ok(["push", "c", "B", "--title", "Sign-In & Security"])
        let cut = try sandbox.ok(["show", "c"])
        #expect(cut.lines[2].hasPrefix("│ ‹ All t… Sign-In & Security"))
        #expect(
            cut.stderr
                == "note: the back label \"All the account settings\" (24 columns) does not fit the 6 columns left of the title in a 40-column bar; a custom backBarButtonItem title has no fallbacks, so it is cut to \"All t…\"\n"
        )
        // --width is the back label's room everywhere else: show refuses it and names --bar-width.
        let before = try sandbox.databaseBytes()
        for words in [["--width", "60"], ["--width=60"]] {
            let refused = try sandbox.run(["show", "s"] + words)
            #expect(refused.status == 64)
            #expect(refused.stdout.isEmpty)
            #expect(
                refused.stderr.hasPrefix(
                    "Error: The option '--width' is not accepted by 'show': the bar's width is --bar-width <n> (an integer from 16 to 10000, default 40); --width is the room for the back label, in back-menu, lint and report\nUsage: navdb show "
                ), "\(refused)")
        }
        #expect(try sandbox.databaseBytes() == before)
    }

    @Test("sessions lists every session with depth and last activity", arguments: CommandBackend.all)
    func sessionsList(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let json = try #require(try sandbox.ok(["--json", "sessions"]).json() as? [[String: Any]])
        try #require(json.count == 1)
        #expect(
            json[0] as NSDictionary == [
                "key": "s", "name": "Mail", "version": 4, "layers": 1, "depth": 3, "platform": "ios14",
                "createdAt": 1_714_557_600_000, "createdTime": "2024-05-01T10:00:00.000Z",
                "updatedAt": 1_714_557_603_000, "updatedTime": "2024-05-01T10:00:03.000Z",
            ] as NSDictionary)
        let text = try sandbox.ok(["sessions"]).lines
        try #require(text.count == 2)
        #expect(text[0].hasPrefix("key  name  version  layers  depth  platform"))
        #expect(text[1].hasPrefix("s    Mail        4       1      3  ios14     2024-05-01T10:00:00.000Z"))
    }

    @Test("set-stack reads the shape stack --json prints", arguments: CommandBackend.all)
    func setStackFromStackJSON(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        // The entries of `stack --json` are accepted as they are.
        let stack = try sandbox.ok(["--json", "stack", "s", "--at", "3"]).object()
        let entries = try #require((stack["layers"] as? [[String: Any]])?[0]["entries"])
        let data = try JSONSerialization.data(withJSONObject: entries)
        try sandbox.ok(["set-stack", "s", "--json-file", "-"], stdin: String(decoding: data, as: UTF8.self))
        let after = try sandbox.ok(["--json", "stack", "s"]).object()
        let layers = try #require(after["layers"] as? [[String: Any]])
        try #require(layers.count == 1)
        #expect(NSArray(array: layers[0]["entries"] as? [Any] ?? []) == NSArray(array: entries as? [Any] ?? []))
    }

    @Test("restore prints the payload an app rebuilds from", arguments: CommandBackend.all)
    func restorePayload(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let payload = try sandbox.ok(["--json", "restore", "s"]).object()
        #expect(
            Set(payload.keys) == [
                "session", "version", "restoredVersion", "layers", "tabs", "selectedTab", "backButton", "backMenu",
                "attempts", "fallback",
            ])
        // No tab bar (<doc:TabBars>): both null.
        #expect(payload["tabs"] is NSNull && payload["selectedTab"] is NSNull)
        #expect(payload["attempts"] as? Int == 1)
        #expect(try sandbox.ok(["restore", "s", "--ack"]).stdout == "acknowledged version 4\n")
        let past = try sandbox.ok(["--json", "restore", "s", "--at", "2"]).object()
        #expect(past["version"] as? Int == 2)
        #expect(past["backButton"] is NSNull)
        let marked = try sandbox.ok(["--json", "restore", "s", "--mark"]).object()
        #expect(marked["version"] as? Int == 5)
        #expect(
            try sandbox.ok(["history", "s", "--reverse", "--limit", "1"]).lines.last?.hasSuffix(
                "session.restored  restored version 4 (attempt 1)") == true)
    }

    @Test("export --redact replaces titles and params with stable hashes", arguments: CommandBackend.all)
    func exportRedacts(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        try sandbox.ok(["push", "s", "D", "--title", "Inbox"])
        let plain = try sandbox.ok(["export", "s"]).lines
        #expect(plain.count == 5)
        let redacted = try sandbox.ok(["export", "s", "--redact"]).stdout
        for secret in ["Inbox", "Draft", "Discard", "mail://", "Mail", "\"folder\":\"in\""] {
            #expect(!redacted.contains(secret), "\(secret) leaked")
        }
        #expect(redacted.contains("\"title\":\"\""), "\"\" stays \"\"")
        // Equal titles hash equally within one export.
        let titles = redacted.split(separator: "\n").compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let entry = (object["payload"] as? [String: Any])?["entry"] as? [String: Any]
            else { return nil }
            return (entry["item"] as? [String: Any])?["title"] as? String
        }
        try #require(titles.count == 4)
        #expect(titles[0] == titles[3] && titles[0] != titles[2] && titles[0].hasPrefix("h:"))
        let kept = try sandbox.ok(["export", "--all", "--redact", "--keep-ids"]).stdout
        #expect(kept.contains("\"id\":\"A\"") && kept.contains("\"session\":\"s\""))
    }

    @Test("check says ok and rebuild --verify finds no difference", arguments: CommandBackend.all)
    func rebuildAndCheck(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try session(sandbox)
        let check = try sandbox.ok(["check"])
        #expect(check.stdout.hasSuffix("ok\n"))
        let rebuild = try sandbox.ok(["--json", "rebuild", "--verify"]).object()
        #expect(rebuild["differences"] as? [String] == [])
        #expect(rebuild["events"] as? Int == 4)
    }
}
