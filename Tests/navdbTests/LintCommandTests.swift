import Foundation
import Testing

/// `navdb lint` end to end (NavStore.docc/Lint.md): the built binary's stdout, stderr and exit status.
@Suite struct LintCommandTests {
    /// Session "mail": a blank back-menu row (inbox's empty back title) at v4-v5 and a guard
    /// bypassed through the back menu at v6. Session "alpha": an untitled row from v3 on.
    func withDefects(_ backend: CommandBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        for arguments in [
            ["session", "start", "mail", "--time", "2026-11-30T09:00:00Z"],
            ["push", "mail", "mailboxes", "--title", "Mailboxes"],
            ["push", "mail", "inbox", "--title", "Inbox", "--back-button-title", ""],
            ["push", "mail", "message", "--title", "Message"],
            ["push", "mail", "reply", "--title", "Reply", "--pop-guard", "Discard reply?"],
            ["pop-to", "mail", "inbox", "--source", "back-menu"],
            ["session", "start", "alpha"], ["push", "alpha", "A"], ["push", "alpha", "B", "--title", "B"],
        ] {
            try sandbox.ok(arguments)
        }
        return sandbox
    }

    static let expectedText = """
        alpha v3: warning: back-menu row says "Back": entry 'A' has no menuTitle, backBarButtonItem title, backButtonTitle or title [untitled-menu-row] (current)
          fix: give the screen a title
        mail v4-v5: warning: blank back-menu row: backButtonTitle "" on entry 'inbox' [blank-menu-row]
          fix: set backButtonDisplayMode = .minimal (or a menuTitle) instead of an empty back title
        mail v6: error: a back-menu selection (entries.popped, source back-menu) removed 'reply' (popGuard "Discard reply?") without consulting the guard [guard-bypassed] (current)
          fix: save or confirm outside navigationBar(_:shouldPop:) (the back menu, the swipe and a tab reselect never call it), or use a custom back item without a menu
        linted 2 session(s), 9 event(s): 1 error(s), 2 warning(s), 0 info(s)

        """

    @Test("every session, compiler-style, exit 2 for an error at the default --fail-on", arguments: CommandBackend.all)
    func textOutput(backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        let before = try sandbox.databaseBytes()
        let result = try sandbox.run(["lint"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout == Self.expectedText)
        #expect(result.stderr.isEmpty, "no progress off a terminal")
        #expect(try sandbox.databaseBytes() == before, "lint writes nothing")
    }

    @Test("--json prints {findings, summary} with the documented keys", arguments: CommandBackend.all)
    func jsonOutput(backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        let result = try sandbox.run(["lint", "--json"])
        #expect(result.status == 2)
        let object = try result.object()
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["sessions": 2, "events": 9, "errors": 1, "warnings": 2, "infos": 0])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 3)
        let bypass = findings[2]
        #expect(
            Set(bypass.keys) == [
                "rule", "severity", "session", "entries", "firstVersion", "lastVersion", "current", "message", "fix",
                "source",
            ])
        #expect(bypass["rule"] as? String == "guard-bypassed")
        #expect(bypass["severity"] as? String == "error")
        #expect(bypass["entries"] as? [String] == ["reply"])
        #expect(bypass["firstVersion"] as? Int == 6 && bypass["lastVersion"] as? Int == 6)
        #expect(bypass["current"] as? Bool == true)
        #expect((bypass["source"] as? String)?.contains("navigationbar(_:shouldpop:)") == true)
    }

    static let failOnCases: [([String], Int32)] = [
        (["lint", "alpha"], 0), (["lint", "alpha", "--fail-on", "warning"], 2),
        (["lint", "alpha", "--fail-on", "info"], 2),
        (["lint", "--fail-on", "never"], 0), (["lint", "--fail-on", "error"], 2),
        (["lint", "mail", "--disable", "guard-bypassed"], 0),
    ]

    @Test("--fail-on: the lowest severity that exits 2", arguments: CommandBackend.each(failOnCases))
    func failOn(arguments: [String], status: Int32, backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        let result = try sandbox.run(arguments)
        #expect(result.status == status, "\(result)")
        #expect(result.stdout.hasSuffix("info(s)\n"))
    }

    @Test("named sessions, --rule and --disable choose what is linted", arguments: CommandBackend.all)
    func selection(backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        let mail = try sandbox.run(["lint", "mail", "--rule", "blank-menu-row"])
        #expect(mail.status == 0)
        #expect(
            mail.lines == [
                "mail v4-v5: warning: blank back-menu row: backButtonTitle \"\" on entry 'inbox' [blank-menu-row]",
                "  fix: set backButtonDisplayMode = .minimal (or a menuTitle) instead of an empty back title",
                "linted 1 session(s), 6 event(s): 0 error(s), 1 warning(s), 0 info(s)",
            ])
        let disabled = try sandbox.run([
            "lint", "--disable", "untitled-menu-row", "--disable", "guard-bypassed", "--disable", "blank-menu-row",
        ])
        #expect(disabled.status == 0)
        #expect(disabled.lines == ["linted 2 session(s), 9 event(s): 0 error(s), 0 warning(s), 0 info(s)"])
    }

    @Test("--width turns on the width rules", arguments: CommandBackend.all)
    func widthRules(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Installed Languages"])
        try sandbox.ok(["push", "s", "B", "--title", "Keyboard"])
        try sandbox.ok(["update", "s", "A", "--back-bar-button-title", "All Installed Languages"])
        #expect(
            try sandbox.run(["lint"]).lines == ["linted 1 session(s), 4 event(s): 0 error(s), 0 warning(s), 0 info(s)"])
        let result = try sandbox.run(["lint", "--width", "10", "--fail-on", "info"])
        #expect(result.status == 2)
        #expect(
            result.lines.filter { !$0.hasPrefix("  fix:") } == [
                "s v3: info: back button label \"Installed Languages\" (from entry 'A') does not fit 10 columns: \"Back\" shows instead [label-falls-back]",
                "s v4: warning: custom back item title \"All Installed Languages\" on entry 'A' is wider than 10 columns and has no fallbacks: it is cut [custom-label-truncated] (current)",
                "linted 1 session(s), 4 event(s): 0 error(s), 1 warning(s), 1 info(s)",
            ])
    }

    @Test("an untitled screen on show is an info finding while it is on top; a hidden bar shows no title to miss")
    func untitledScreen() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try sandbox.ok(["push", "s", "B"])
        try sandbox.ok(["push", "s", "C", "--title", ""])
        try sandbox.ok(["update-layer", "s", "--navigation-bar-hidden"])
        let result = try sandbox.run(["lint", "--rule", "untitled-screen", "--fail-on", "info"])
        #expect(result.status == 2)
        #expect(
            result.lines.filter { !$0.hasPrefix("  fix:") } == [
                "s v3: info: entry 'B' is on screen with no title (title is nil): its navigation bar shows none [untitled-screen]",
                "s v4: info: entry 'C' is on screen with no title (title is \"\"): its navigation bar shows none [untitled-screen]",
                "linted 1 session(s), 5 event(s): 0 error(s), 0 warning(s), 2 info(s)",
            ])
    }

    @Test("on a terminal the severities are coloured, never with NO_COLOR; a pipe gets plain text")
    func colourOnATerminal() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--back-button-title", ""])
        try sandbox.ok(["push", "s", "B", "--title", "Detail"])
        let navdb = try Navdb.binary().path
        // script(1) runs the command on a pseudo-terminal and copies what it prints.
        func onTerminal(_ environment: [String: String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", "'\(navdb)' lint --fail-on never", "/dev/null"]
            process.currentDirectoryURL = sandbox.directory
            var env = ProcessInfo.processInfo.environment
            env["NAVDB_PATH"] = nil
            env["NO_COLOR"] = nil
            for (key, value) in environment { env[key] = value }
            process.environment = env
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) (bsdutils) is installed")
        let coloured = try onTerminal([:])
        #expect(coloured.contains("\u{1B}[1;33mwarning\u{1B}[0m"), "\(coloured)")
        #expect(coloured.contains("\u{1B}[2m[blank-menu-row]\u{1B}[0m"))
        let plain = try onTerminal(["NO_COLOR": "1"])
        #expect(!plain.contains("\u{1B}["), "\(plain)")
        #expect(plain.contains("warning: blank back-menu row"))
        #expect(!(try sandbox.run(["lint", "--fail-on", "never"])).stdout.contains("\u{1B}"))
    }

    /// Each finding's two lines (the finding and its fix) as one text, sorted.
    static func findingBlocks(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [String] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("  fix:") && index > 0 {
            blocks.append(lines[index - 1] + "\n" + line)
        }
        return blocks.sorted()
    }

    /// A `lint --json` document with its findings sorted by their JSON text (the summary as is).
    static func sortedFindings(_ text: String) throws -> String {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [Any]).map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }
        let summary = try JSONSerialization.data(withJSONObject: document["summary"] ?? [:], options: [.sortedKeys])
        return findings.sorted().joined(separator: "\n") + "\n" + String(decoding: summary, as: UTF8.self)
    }

    @Test(
        "--input lints an export with no database, the same as the database, from a file or stdin",
        arguments: CommandBackend.all)
    func inputExport(backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        let export = try sandbox.run(["export", "--all"])
        let file = try sandbox.write("all.ndjson", export.stdout)
        let elsewhere = sandbox.directory.appendingPathComponent("none.sqlite").path
        let fromFile = try sandbox.run(["--db", elsewhere, "lint", "--input", file])
        #expect(fromFile.status == 2)
        // The export interleaves the sessions, and findings print as they end: the same findings,
        // in another order (NavStore.docc/Lint.md).
        #expect(Self.findingBlocks(fromFile.stdout) == Self.findingBlocks(Self.expectedText))
        #expect(fromFile.lines.last == Self.expectedText.split(separator: "\n").last.map(String.init))
        #expect(!FileManager.default.fileExists(atPath: elsewhere), "no database is created")
        let fromStdin = try sandbox.run(["--db", elsewhere, "lint", "--input", "-", "--json"], stdin: export.stdout)
        let fromDatabase = try sandbox.run(["lint", "--json"])
        #expect(try Self.sortedFindings(fromStdin.stdout) == Self.sortedFindings(fromDatabase.stdout))
        let named = try sandbox.run(["lint", "--input", file, "alpha", "--fail-on", "never"])
        #expect(named.status == 0)
        #expect(named.lines.last == "linted 1 session(s), 3 event(s): 0 error(s), 1 warning(s), 0 info(s)")
    }

    @Test("an empty database and an empty export lint to nothing", arguments: CommandBackend.all)
    func empty(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        #expect(
            try sandbox.ok(["lint"]).lines == ["linted 1 session(s), 1 event(s): 0 error(s), 0 warning(s), 0 info(s)"])
        let file = try sandbox.write("empty.ndjson", "")
        #expect(
            try sandbox.ok(["lint", "--input", file, "--json"]).stdout
                == #"{"findings":[],"summary":{"errors":0,"events":0,"infos":0,"sessions":0,"warnings":0}}"# + "\n")
    }

    // MARK: Bad input

    @Test("an unknown rule id is a usage error that lists the known ids", arguments: CommandBackend.all)
    func unknownRule(backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        let known =
            "blank-menu-row, untitled-menu-row, duplicate-menu-rows, guard-bypassed, no-way-back, ignored-back-setting, label-falls-back, custom-label-truncated, label-lost-on-ios26"
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--rule", "blank-row"], status: 64,
            message: "The value 'blank-row' is invalid for '--rule <id>': expected a rule id: \(known)")
        try expectRefused(
            usage: "lint", sandbox, ["lint", "--disable", "Guard-Bypassed"], status: 64, message: "'--disable <id>'")
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--rule", "label-falls-back"], status: 64,
            message: "--rule label-falls-back needs --width <n>")
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--fail-on", "fatal"], status: 64, message: "expected one of error, warning, info, never")
    }

    @Test(
        "--platform judges every session under a generation; an unknown one is a usage error",
        arguments: CommandBackend.all)
    func platform(backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        let classic = try sandbox.run(["lint", "alpha", "--rule", "label-lost-on-ios26", "--fail-on", "info"])
        #expect(classic.status == 2)
        #expect(
            classic.lines.first
                == "alpha v3: info: back button label \"Back\" (from entry 'A') would not show on iOS 26: the chevron alone shows there [label-lost-on-ios26] (current)"
        )
        let whatIf = try sandbox.run([
            "lint", "alpha", "--rule", "label-lost-on-ios26", "--platform", "ios26", "--fail-on", "info",
        ])
        #expect(whatIf.status == 0)
        #expect(whatIf.lines == ["linted 1 session(s), 3 event(s): 0 error(s), 0 warning(s), 0 info(s)"])
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--platform", "ios27"], status: 64,
            message: "The value 'ios27' is invalid for '--platform <generation>': expected one of ios14, ios26")
    }

    @Test(
        "a --width that is not an integer from 1 to 10000 is a usage error",
        arguments: ["0", "-3", "x", "", "1.5", "10001", "99999999999999999999"], CommandBackend.all)
    func badWidth(width: String, backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--width=\(width)"], status: 64,
            message: "The value '\(width)' is invalid for '--width <n>': expected an integer from 1 to 10000")
    }

    @Test(
        "an unreadable or malformed --input is bad input data (65), naming the file and line",
        arguments: CommandBackend.all)
    func badInput(backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--input", "missing.ndjson"], status: 65,
            message: "cannot read 'missing.ndjson': No such file or directory")
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--input", sandbox.directory.path], status: 65, message: "it is a directory")
        let file = try sandbox.write("bad.ndjson", "{}\n")
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--input", file], status: 65, message: "line 1 of '\(file)': not an event record")
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--input", "-"], stdin: "\n\nnot json\n", status: 65, message: "line 3 of stdin: not JSON"
        )
        let gap =
            #"{"session":"s","version":1,"type":"session.started","at":0,"eventID":"00000000-0000-4000-8000-000000000001","payload":{}}"#
            + "\n"
            + #"{"session":"s","version":3,"type":"session.restored","at":0,"eventID":"00000000-0000-4000-8000-000000000002","payload":{}}"#
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--input", "-"], stdin: gap, status: 65,
            message: "line 2 of stdin: session 's' is at version 1 here, so the next version is 2, but this line is version 3")
        let latin1 = sandbox.directory.appendingPathComponent("latin1.ndjson")
        try Data([0x7B, 0xFF, 0x7D, 0x0A]).write(to: latin1)
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--input", latin1.path], status: 65,
            message: "line 1 of '\(latin1.path)' is not valid UTF-8 text; nothing was linted")
    }

    @Test("an unknown session is not found (1), in the database or in the input", arguments: CommandBackend.all)
    func unknownSession(backend: CommandBackend) throws {
        let sandbox = try withDefects(backend)
        try expectRefused(
            usage: "lint", sandbox, ["lint", "mail", "nosuch"], status: 1, message: "session 'nosuch' not found")
        let export = try sandbox.run(["export", "--all"]).stdout
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", "--input", "-", "nosuch"], stdin: export, status: 1,
            message: "session \"nosuch\" is not in stdin")
        try expectRefused(
            usage: "lint",
            sandbox, ["lint", ""], status: 64, message: "expected a session key of at least one character")
    }

    @Test("a missing database is not found (1) and is not created", arguments: CommandBackend.all)
    func missingDatabase(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let result = try sandbox.run(["lint"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasPrefix("Error: no navdb database"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
    }

    /// An export of session `key`: `depth` screens pushed, screen n with the back title
    /// `Back n % 13`.
    static func repeatingBackTitles(_ key: String, depth: Int) -> String {
        func line(_ version: Int, _ type: String, _ payload: String) -> String {
            #"{"at":\#(1_767_225_600_000 + version * 1_000),"eventID":"\#(UUID().uuidString.lowercased())","payload":\#(payload),"session":"\#(key)","type":"\#(type)","version":\#(version)}"#
        }
        let pushes = (0..<depth).map { n in
            line(
                n + 2, "entry.pushed",
                #"{"entry":{"id":"e\#(n)","item":{"backButtonTitle":"Back \#(n % 13)","title":"Screen \#(n)"}}}"#)
        }
        return ([line(1, "session.started", #"{"platform":"ios14"}"#)] + pushes).joined(separator: "\n") + "\n"
    }

    @Test(
        "a deep stack whose screens repeat 13 back titles: 13 findings naming each row once, output linear in the depth",
        arguments: CommandBackend.all)
    func repeatingBackTitles(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["import", "-"], stdin: Self.repeatingBackTitles("half", depth: 650))
        try sandbox.ok(["import", "-"], stdin: Self.repeatingBackTitles("full", depth: 1_300))
        var bytes: [Int] = []
        for (key, depth) in [("half", 650), ("full", 1_300)] {
            let text = try sandbox.run(["lint", key, "--fail-on", "never"])
            #expect(text.lines.filter { $0.contains("[duplicate-menu-rows]") }.count == 13)
            #expect(text.lines.allSatisfy { $0.count < 300 }, "a message lists five entries and counts the rest")
            let json = try sandbox.run(["lint", key, "--json", "--fail-on", "never"])
            let findings = try #require(try json.object()["findings"] as? [[String: Any]])
            #expect(findings.count == 13)
            #expect(findings.reduce(0) { $0 + (($1["entries"] as? [String])?.count ?? 0) } == depth - 1)
            bytes.append(json.stdout.utf8.count)
        }
        #expect(Double(bytes[1]) / Double(bytes[0]) < 2.2, "twice the depth, about twice the output: \(bytes)")
    }

    @Test("odd text: control characters and wide titles stay on one line, quoted", arguments: CommandBackend.all)
    func oddText(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s\nkey"])
        try sandbox.ok(["push", "s\nkey", "A\u{1B}[31m", "--title", "首页\n😀"])
        try sandbox.ok(["push", "s\nkey", "B", "--title", "首页\n😀"])
        try sandbox.ok(["push", "s\nkey", "C", "--title", String(repeating: "x", count: 10_000)])
        let result = try sandbox.run(["lint", "--fail-on", "never"])
        #expect(result.status == 0)
        #expect(
            result.lines.first
                == #"s\nkey v4: info: 2 back-menu rows say "首页\n😀": entries 'B' and 'A\u{1B}[31m' [duplicate-menu-rows] (current)"#
        )
        #expect(!result.stdout.contains("\u{1B}"))
    }
}

/// The bundled example the README shows (Examples/lint-session.sh) runs and finds what it says.
@Suite struct LintExampleTests {
    @Test(
        "Examples/lint-session.sh lints its shopping session and its pipeline gate fails with exit 2",
        arguments: CommandBackend.all)
    func example(backend: CommandBackend) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Navdb.packageRoot.appendingPathComponent("Examples/lint-session.sh").path]
        var environment = ProcessInfo.processInfo.environment
        environment["NAVDB"] = try Navdb.binary().path
        environment["NAVDB_PATH"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        for rule in [
            "blank-menu-row", "untitled-menu-row", "guard-bypassed", "ignored-back-setting", "no-way-back",
            "custom-label-truncated",
        ] {
            #expect(text.contains("[\(rule)]"), "\(rule) missing from:\n\(text)")
        }
        #expect(text.contains("linted 1 session(s), 11 event(s): 1 error(s), 5 warning(s), 0 info(s)\n(exit 2"))
        #expect(text.contains("gate failed with exit 2"))
    }
}
