import Foundation
import NavStore
import NavStoreTools
import Testing

/// The reliability contract (README "Reliability"): "titles with any Unicode (emoji, combining marks, right-to-left,
/// newlines,
/// 10k characters, SQL fragments) round-trip exactly", "Human output ... escapes control
/// characters in titles", "Every query binds its values", and bad option values, JSON and NDJSON
/// get a clear error and change nothing.
@Suite("Reliability: hostile and odd input")
struct ReliabilityHostileInputTests {
    /// Text that breaks naive SQL, JSON, terminals or Unicode handling. NUL is missing: it
    /// cannot be passed in argv, so it goes through JSON files and the library below.
    static let hostile: [(label: String, text: String)] = [
        ("an SQL fragment", "'); DROP TABLE events;--"),
        ("SQL quotes", "Robert'); DELETE FROM sessions WHERE ('1'='1"),
        ("quotes and backslashes", #""double" 'single' `back` \ \\ \u0041 \n %s %n {}"#),
        ("newlines", "line 1\nline 2\r\nline 3\r"),
        ("terminal escapes", "\u{1B}[31mred\u{1B}[0m \u{1B}]0;owned\u{07} \u{1B}[2J\u{1B}[H"),
        ("C0 and C1 controls", "\u{01}\u{08}\t\u{0B}\u{0C}\u{7F}\u{85}\u{9B}end"),
        ("emoji", "👩‍👩‍👧‍👦 🇫🇷 👍🏽 ❤️ 🫠"),
        ("combining marks", "e\u{301}\u{302} Z\u{336}\u{337}a\u{33E}\u{35C}l\u{489}g\u{352}o"),
        ("right-to-left text", "שלום עולם مرحبا بالعالم"),
        ("bidirectional controls", "\u{202E}evil\u{202C} \u{2066}iso\u{2069} \u{200F}rlm"),
        ("line and paragraph separators", "a\u{2028}b\u{2029}c"),
        ("invisible format characters", "in\u{200B}box \u{200E}lrm so\u{00AD}ft wo\u{2060}rd \u{061C}alm"),
        ("invisible fillers and joiners", "x\u{206A}y \u{3164} a\u{200D}b c\u{200C}d \u{FFA0} e\u{34F}f 👩\u{200D}👩"),
        ("leading and trailing spaces", "  spaced  "),
        ("a dash-dash word", "--title"),
        ("BOM, replacement and private-use", "\u{FEFF}bom \u{FFFD} \u{E000} \u{10FFFD}"),
        ("the empty string", ""),
        ("100,000 characters", String(repeating: "0123456789", count: 10_000)),
    ]

    /// Item and entry options carrying `text` (inline `--opt=value` so that any value is one).
    static func itemOptions(_ text: String) -> [String] {
        [
            "--title=" + text, "--back-button-title=" + text, "--menu-title=" + text, "--pop-guard=" + text,
            "--route=" + text, "--param=k=" + text,
        ]
    }

    /// The UTF-8 bytes of a JSON string (compared as bytes, not by Swift's canonical
    /// equivalence, so that e + U+0301 cannot pass for é).
    static func utf8(_ value: JSONValue?) -> [UInt8]? { value?.text.map { Array($0.utf8) } }

    @Test(
        "titles, ids and keys of every kind round-trip exactly through push, stack, history, export and import",
        arguments: Reliability.backends)
    func roundTrip(backend: CommandBackend) async throws {
        let scratch = try Scratch("hostile", backend: backend)
        let db = scratch.database
        #expect(
            try await scratch.navdb(["--db", db, "session", "start", "hostile", "--name=" + Self.hostile[4].text])
                .status == 0)
        var runs = 1
        for (index, (label, text)) in Self.hostile.enumerated() {
            let result = try await scratch.navdb(
                ["--db", db, "push", "hostile"] + Self.itemOptions(text) + ["--", "id-\(index)-" + text])
            runs += 1
            #expect(result.status == 0, "\(label): \(result)")
            #expect(result.stdout == "version \(index + 2)\n", "\(label): \(result)")
        }

        // stack --json: every field exactly as given (compared as UTF-8 bytes, not by Swift's
        // canonical equivalence, so that e + U+0301 cannot pass for é).
        let stack = try await scratch.navdb(["--db", db, "--json", "stack", "hostile"])
        runs += 1
        let entries = try stack.json()["layers"]?.elements.first?["entries"]?.elements ?? []
        #expect(entries.count == Self.hostile.count)
        for ((label, text), entry) in zip(Self.hostile, entries) {
            let item = entry["item"]
            let index = Self.hostile.firstIndex { $0.label == label }!
            #expect(Self.utf8(entry["id"]) == Array(("id-\(index)-" + text).utf8), "\(label): id")
            #expect(Self.utf8(entry["route"]) == Array(text.utf8), "\(label): route")
            #expect(Self.utf8(entry["params"]?["k"]) == Array(text.utf8), "\(label): params")
            for field in ["title", "backButtonTitle", "menuTitle"] {
                #expect(Self.utf8(item?[field]) == Array(text.utf8), "\(label): \(field)")
            }
            #expect(Self.utf8(item?["popGuard"]?["prompt"]) == Array(text.utf8), "\(label): popGuard")
        }

        // history --json: the pushed payloads hold the same text; its times agree with export's.
        let history = try await scratch.navdb(["--db", db, "--json", "history", "hostile"])
        runs += 1
        let events = try history.lines.map { try JSONValue.parse($0) }
        #expect(events.count == Self.hostile.count + 1)
        for ((label, text), event) in zip(Self.hostile, events.dropFirst()) {
            #expect(
                Self.utf8(event["payload"]?["entry"]?["item"]?["title"]) == Array(text.utf8), "\(label): history title")
        }

        // export, then import into an empty database: the same lines and the same stack back.
        let export = try await scratch.navdb(["--db", db, "export", "hostile"])
        runs += 1
        #expect(export.status == 0)
        let exportedTimes = try export.lines.map { try JSONValue.parse($0)["time"]?.text }
        #expect(
            exportedTimes == events.map { $0["time"]?.text },
            "export and history print different times for the same events")
        let file = try scratch.write("hostile.ndjson", text: export.stdout)
        let copy = try scratch.newDatabase("copy.sqlite")
        let imported = try await scratch.navdb(["--db", copy, "import", file])
        runs += 1
        #expect(imported.status == 0, "\(imported)")
        #expect(try await scratch.navdb(["--db", copy, "export", "hostile"]).stdout == export.stdout)
        #expect(try await scratch.navdb(["--db", copy, "--json", "stack", "hostile"]).stdout == stack.stdout)
        runs += 2

        // Session keys and names.
        let keys = Self.hostile.filter { !$0.text.isEmpty && $0.text.utf8.count < 1_000 }
        for (label, text) in keys {
            let result = try await scratch.navdb([
                "--db", db, "session", "start", "--name=" + text, "--", "key " + text,
            ])
            runs += 1
            #expect(result.status == 0, "\(label): \(result)")
        }
        let sessions = try await scratch.navdb(["--db", db, "--json", "sessions"])
        runs += 1
        let listed = try sessions.json().elements
        for (label, text) in keys {
            let match = listed.first { Self.utf8($0["key"]) == Array(("key " + text).utf8) }
            #expect(Self.utf8(match?["name"]) == Array(text.utf8), "\(label): session key or name")
        }
        #expect(try await scratch.navdb(["--db", db, "check"]).status == 0)
        Reliability.summary(
            "hostile round trip (\(backend))",
            "\(Self.hostile.count) hostile texts as ids, titles, back titles, menu titles, prompts, routes, params, \(keys.count) as session keys and names: \(runs) navdb runs, every value back byte for byte from stack --json, history --json, export, import"
        )
    }

    @Test("human output escapes every control character; errors stay one escaped line", arguments: Reliability.backends)
    func humanOutputIsEscaped(backend: CommandBackend) async throws {
        let scratch = try Scratch("escapes", backend: backend)
        let db = scratch.database
        let nasty = Self.hostile.filter { !rawControlCharacters(in: $0.text).isEmpty }.map(\.text)
        let key = "k\u{1B}[31m\nx"
        #expect(try await scratch.navdb(["--db", db, "session", "start", "--name=" + nasty[0], "--", key]).status == 0)
        for (index, text) in nasty.enumerated() {
            let result = try await scratch.navdb(
                ["--db", db, "push"] + Self.itemOptions(text)
                    + ["--back-bar-button-title=" + text, "--", key, "id\(index)\u{1B}\n" + text])
            #expect(result.status == 0, "\(result)")
        }
        #expect(
            try await scratch.navdb(["--db", db, "present", "--title=" + nasty[1], "--", key, "modal\u{7}"]).status == 0
        )
        #expect(
            try await scratch.navdb([
                "--db", db, "push", "--title=" + nasty[2], "--pop-guard=" + nasty[3], "--", key, "top\u{1B}",
            ]).status == 0)
        #expect(try await scratch.navdb(["--db", db, "pop", "--source", "back-button", "--", key]).status == 3)
        var outputs = 0
        for command in [
            ["stack"], ["show"], ["back-menu"], ["history"], ["replay"], ["restore"], ["stack", "--at", "3"],
            ["show", "--at", "4"],
        ] {
            let result = try await scratch.navdb(["--db", db, command[0]] + command.dropFirst() + ["--", key])
            outputs += 1
            #expect(result.status == 0, "\(command): \(result)")
            #expect(
                rawControlCharacters(in: result.stdout).isEmpty,
                "\(command) printed raw \(rawControlCharacters(in: result.stdout))")
            if !["history", "replay"].contains(command[0]) {
                #expect(result.stdout.contains(#"k\u{1B}[31m\nx"#), "\(command): the key is not shown escaped")
            }
        }
        let sessions = try await scratch.navdb(["--db", db, "sessions"])
        #expect(
            rawControlCharacters(in: sessions.stdout).isEmpty,
            "sessions printed raw \(rawControlCharacters(in: sessions.stdout))")
        let stack = try await scratch.navdb(["--db", db, "stack", "--", key])
        #expect(stack.stdout.contains(#"line 1\nline 2\r\nline 3\r"#), "\(stack.stdout)")
        #expect(stack.stdout.contains(#"\u{1B}[31mred\u{1B}[0m"#), "\(stack.stdout)")
        outputs += 2

        // Errors quote what they refuse: escaped, on one line, whatever the user typed.
        let errors: [[String]] = [
            ["push", "nosuch\u{1B}[2J\nkey", "X"], ["push", key, "X", "--ti\u{1B}[2Jtle\nmore"], ["pu\u{1B}sh"],
            ["push", key, "X", "--display-mode", "a\u{1B}\nb"], ["stack", key, "--at", "\u{1B}[31m"],
            ["update", "--title", "x", "--", key, "no\u{1B}such"],
            ["set-stack", key, "--json-file", "missing\u{1B}\n.json"],
        ]
        for arguments in errors {
            let result = try await scratch.navdb(["--db", db] + arguments)
            outputs += 1
            #expect(result.status != 0, "\(arguments): \(result)")
            #expect(
                rawControlCharacters(in: result.stderr).isEmpty,
                "\(arguments): raw \(rawControlCharacters(in: result.stderr)) in \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: "), "\(arguments): \(result.stderr)")
            if result.status != 64 {
                #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.stderr)")
            }
        }
        Reliability.summary(
            "escaping (\(backend))",
            "\(nasty.count) texts with control characters in keys, ids, titles, prompts: \(outputs) human outputs and error messages, 0 raw control characters"
        )
    }

    /// PostgreSQL text cannot hold U+0000 (README "What differs"): there a session key or name,
    /// entry id or route with it is refused (65, or ``StoreError/unsupportedValue(reason:)``) before
    /// anything is written, and the rest of the test uses them without it; in titles and params
    /// NUL is JSON-escaped and round-trips on both backends.
    @Test(
        "NUL and 100,000-character emoji titles round-trip through set-stack JSON, the store and export",
        arguments: Reliability.backends)
    func nulAndHugeText(backend: CommandBackend) async throws {
        let scratch = try Scratch("nul", backend: backend)
        let db = scratch.database
        let nul = backend == .sqlite ? "\u{0}" : "-"
        #expect(try await scratch.navdb(["--db", db, "session", "start", "nul"]).status == 0)
        let file = scratch.file("entries.json")
        if backend == .postgresql {
            for entry in [["id": "nul\u{0}id"], ["id": "nul", "route": "r\u{0}"]] {
                try JSONSerialization.data(withJSONObject: [entry]).write(to: URL(fileURLWithPath: file))
                let before = try scratch.databaseContents()
                let refused = try await scratch.navdb(["--db", db, "set-stack", "nul", "--json-file", file])
                #expect(
                    refused.status == 65
                        && refused.stderr.contains("contains U+0000 (NUL), which PostgreSQL text cannot hold"),
                    "\(refused)")
                #expect(try scratch.databaseContents() == before)
            }
        }
        let emoji = String(repeating: "👩‍👩‍👧‍👦", count: 100_000)
        let entries: [[String: Any]] = [
            [
                "id": "nul\(nul)id", "route": "r\(nul)", "params": ["k\u{0}": "v\u{0}"],
                "item": ["title": "a\u{0}b", "menuTitle": "\u{0}"],
            ],
            ["id": "emoji", "item": ["title": emoji, "backButtonTitle": "\u{0}\u{0}"]],
        ]
        try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: file))
        let set = try await scratch.navdb(["--db", db, "set-stack", "nul", "--json-file", file])
        #expect(set.status == 0, "\(set)")
        let stack = try await scratch.navdb(["--db", db, "--json", "stack", "nul"])
        let listed = try stack.json()["layers"]?.elements.first?["entries"]?.elements ?? []
        #expect(listed.count == 2, "\(stack)")
        #expect(Self.utf8(listed.first?["id"]) == Array("nul\(nul)id".utf8))
        #expect(Self.utf8(listed.first?["route"]) == Array("r\(nul)".utf8))
        #expect(Self.utf8(listed.first?["params"]?["k\u{0}"]) == Array("v\u{0}".utf8))
        #expect(Self.utf8(listed.first?["item"]?["title"]) == Array("a\u{0}b".utf8))
        #expect(Self.utf8(listed.first?["item"]?["menuTitle"]) == Array("\u{0}".utf8))
        #expect(Self.utf8(listed.last?["item"]?["title"]) == Array(emoji.utf8))
        #expect(Self.utf8(listed.last?["item"]?["backButtonTitle"]) == Array("\u{0}\u{0}".utf8))
        let human = try await scratch.navdb(["--db", db, "stack", "nul"])
        #expect(!human.stdout.unicodeScalars.contains("\u{0}"))
        #expect(human.stdout.contains(#"a\u{0}b"#))
        let export = try await scratch.navdb(["--db", db, "export", "nul"])
        let copy = try scratch.newDatabase("copy.sqlite")
        #expect(try await scratch.navdb(["--db", copy, "import", "-"], stdin: export.stdout).status == 0)
        #expect(try await scratch.navdb(["--db", copy, "--json", "stack", "nul"]).stdout == stack.stdout)

        // The same through the library: NUL in keys, names, ids, titles, routes, params.
        let path = try scratch.newDatabase("library.sqlite")
        let key = "k\(nul)ey"
        let id = "i\(nul)d"
        let entry = Entry(
            id: id, route: "r\(nul)", params: ["\u{0}": .string("\u{0}")],
            item: NavigationItem(
                title: "t\u{0}", backButtonTitle: "\u{0}", menuTitle: "m\u{0}", popGuard: PopGuard(prompt: "p\u{0}")))
        var expected = SessionState()
        do {
            let store = try NavigationStore(path: path)
            if backend == .postgresql {
                #expect(throws: StoreError.self) { try store.startSession("k\u{0}ey") }
                #expect(throws: StoreError.self) { try store.startSession("key", name: "n\u{0}ame") }
                #expect(try await store.sessions().isEmpty)
            }
            try store.startSession(key, name: "n\(nul)ame")
            try store.execute(.push(entry), session: key)
            for (index, (_, text)) in Self.hostile.enumerated() {
                try store.execute(
                    .push(
                        Entry(
                            id: "\(index)\(nul)" + text, route: text, params: [text: .string(text)],
                            item: NavigationItem(title: text + "\u{0}", backButtonTitle: text))), session: key)
            }
            try store.updateItem(id, session: key) { $0.title = "\u{0}updated\u{0}" }
            expected = try await store.state(session: key).state
        }
        let reopened = try NavigationStore(path: path, create: false)
        #expect(try await reopened.sessions().map { Array($0.key.utf8) } == [Array(key.utf8)])
        #expect(try await reopened.sessions().first?.name.map { Array($0.utf8) } == Array("n\(nul)ame".utf8))
        #expect(try await reopened.state(session: key).state == expected)
        #expect(
            try await reopened.state(session: key).state.layers[0].entries[0].item.title.map { Array($0.utf8) }
                == Array("\u{0}updated\u{0}".utf8))
        var lines: [String] = []
        try reopened.exportNDJSON(session: key) { lines.append($0) }
        let other = try NavigationStore(path: try scratch.newDatabase("library-copy.sqlite"))
        #expect(try other.importNDJSON(lines: lines).imported == lines.count)
        #expect(try await other.state(session: key).state == expected)
        #expect(try other.check().isClean)
        #expect(try reopened.check().isClean)
        Reliability.summary(
            "NUL and huge text (\(backend))",
            "NUL in ids, routes, params, titles through set-stack JSON and export/import; a 100,000-emoji title (\(emoji.utf8.count) bytes) back byte for byte; NUL in a session key, name, id and \(Self.hostile.count) hostile texts through the library, reopened, exported and imported identically"
        )
    }

    /// A database with session `s` (A, B with a guard), for refusals.
    static func populated(_ scratch: Scratch) async throws -> String {
        let db = scratch.database
        for arguments in [
            ["session", "start", "s"], ["push", "s", "A", "--title", "Inbox"],
            ["push", "s", "B", "--title", "Draft", "--pop-guard", "Discard?"],
        ] {
            let result = try await scratch.navdb(["--db", db] + arguments)
            #expect(result.status == 0, "\(result)")
        }
        return db
    }

    /// Runs `arguments` and expects `status`, one `Error:` message naming `fragment`, nothing on
    /// stdout, and the database (and the scratch directory) unchanged.
    static func expectRefused(
        _ scratch: Scratch, _ arguments: [String], stdin: String? = nil, status: Int32, fragment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let before = try scratch.databaseContents()
        let result = try await scratch.navdb(arguments, stdin: stdin)
        #expect(result.status == status, "\(arguments): \(result)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.hasPrefix("Error: ") && result.stderr.contains(fragment), "\(arguments): \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(arguments): \(result)", sourceLocation: sourceLocation)
        if status != 64 {
            #expect(
                result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        #expect(
            try scratch.databaseContents() == before, "\(arguments): the database changed",
            sourceLocation: sourceLocation)
    }

    @Test(
        "option values out of range: a clear error, the right exit code, the database unchanged",
        arguments: Reliability.backends)
    func outOfRangeOptions(backend: CommandBackend) async throws {
        let scratch = try Scratch("ranges", backend: backend)
        _ = try await Self.populated(scratch)
        let huge = "99999999999999999999"
        let max = String(Int.max)
        let cases: [([String], Int32, String)] = [
            (["push", "s", "X", "--left-items", "-1"], 64, "'-1' is invalid for '--left-items <n>'"),
            (["push", "s", "X", "--left-items", huge], 64, "'\(huge)' is invalid for '--left-items <n>'"),
            (["push", "s", "X", "--left-items", "1e3"], 64, "'1e3' is invalid for '--left-items <n>'"),
            (["push", "s", "X", "--left-items="], 64, "'' is invalid for '--left-items <n>'"),
            (["back-menu", "s", "--width", "-5"], 64, "'-5' is invalid for '--width <n>'"),
            (["back-menu", "s", "--width", huge], 64, "'\(huge)' is invalid for '--width <n>'"),
            (["show", "s", "--bar-width", "0"], 64, "'0' is invalid for '--bar-width <n>'"),
            (
                ["show", "s", "--bar-width", max], 64,
                "'\(max)' is invalid for '--bar-width <n>': expected an integer from 16 to 10000"
            ),
            (["history", "s", "--limit", "-3"], 64, "'-3' is invalid for '--limit <n>'"),
            (["history", "s", "--limit", "0"], 64, "'0' is invalid for '--limit <n>'"),
            (["history", "s", "--limit", huge], 64, "'\(huge)' is invalid for '--limit <n>'"),
            (["stack", "s", "--at", "0"], 64, "'0' is invalid for '--at <point>'"),
            (
                ["stack", "s", "--at", "-1"], 64,
                "'-1' is invalid for '--at <point>': expected a version number 1 or greater, without a sign"
            ),
            (["show", "s", "--at", "+2"], 64, "'+2' is invalid for '--at <point>': expected a version number 1 or"),
            (["stack", "s", "--at", huge], 64, "'\(huge)' is invalid for '--at <point>'"),
            (["stack", "s", "--at", max], 1, "version \(max) is outside session 's' (accepted: versions 1...3)"),
            (
                ["stack", "s", "--at", "2024-02-30T10:00:00Z"], 64,
                "'2024-02-30T10:00:00Z' is invalid for '--at <point>'"
            ),
            (["menu-select", "s", "0"], 64, "'0' is invalid for '<row>'"),
            (["menu-select", "s", max], 1, "back menu row \(max) does not exist"),
            (["replay", "s", "--from", "0"], 64, "'0' is invalid for '--from <version>'"),
            (["replay", "s", "--from", max], 1, "version \(max) is outside session 's'"),
            (["replay", "s", "--from", "3", "--to", "2"], 64, "'2' is invalid for '--to <version>'"),
            (["push", "s", "X", "--expect-version", "-1"], 64, "'-1' is invalid for '--expect-version <n>'"),
            (["push", "s", "X", "--expect-version", huge], 64, "'\(huge)' is invalid for '--expect-version <n>'"),
            (["push", "s", "X", "--expect-version", max], 4, "expected version \(max), found 3"),
            (["push", "s", "X", "--time", "yesterday"], 64, "'yesterday' is invalid for '--time <iso8601>'"),
            (
                ["push", "s", "X", "--time", "2024-01-01T25:00:00Z"], 64,
                "'2024-01-01T25:00:00Z' is invalid for '--time <iso8601>'"
            ),
            (["push", "s", "X", "--time", "1970-01-01T00:00:00Z"], 1, "is earlier than the previous event"),
            (["push", "s", "X", "--display-mode", ""], 64, "'' is invalid for '--display-mode <mode>'"),
            (["push", "s", "X", "--style", "EDITOR"], 64, "'EDITOR' is invalid for '--style <style>'"),
            (["push", "s", "X", "--param", "=v"], 64, "'=v' is invalid for '--param <key=value>'"),
            (["push", "s", "X", "--param", "novalue"], 64, "'novalue' is invalid for '--param <key=value>'"),
            (["push", "s", "X", "--param", "k=1", "--param", "k=2"], 64, "'k' is given twice"),
            (["pop", "s", "--source", "sideways"], 64, "'sideways' is invalid for '--source <source>'"),
            (["history", "s", "--type", "entry.exploded"], 64, "'entry.exploded' is invalid for '--type <type>'"),
            (["history", "s", "--since", "2024-04-31"], 64, "'2024-04-31' is invalid for '--since <time>'"),
        ]
        for (arguments, status, fragment) in cases {
            try await Self.expectRefused(scratch, arguments, status: status, fragment: fragment)
        }
        Reliability.summary(
            "option ranges (\(backend))",
            "\(cases.count) out-of-range or malformed option values: each its exit code (64 usage, 1 outside the session, 4 conflict) with a message naming the value, the database unchanged"
        )
    }

    @Test(
        "malformed and truncated JSON and NDJSON: exit 65 naming the place, the database unchanged",
        arguments: Reliability.backends)
    func malformedInput(backend: CommandBackend) async throws {
        let scratch = try Scratch("malformed", backend: backend)
        var random = Reliability.random(6)
        let db = try await Self.populated(scratch)
        let inputs = try scratch.directory("inputs")
        // A valid export of another session to cut up.
        let source = scratch.file("inputs/source.sqlite")
        for arguments in [
            ["session", "start", "src"], ["push", "src", "A", "--title", "Ünïcödé 👍"],
            ["push", "src", "B", "--param", "k=v"],
            ["present", "src", "M", "--modal-in-presentation"], ["dismiss", "src", "--source", "programmatic"],
            ["pop", "src", "--source", "programmatic"],
        ] {
            #expect(try await scratch.navdb(["--db", source] + arguments).status == 0)
        }
        let export = try await scratch.navdb(["--db", source, "export", "src"]).stdout
        let lines = export.split(separator: "\n").map(String.init)
        var tried = 0

        // NDJSON cut inside a line, at random bytes.
        let bytes = Array(export.utf8)
        let lineEnds = Set(bytes.indices.filter { bytes[$0] == 0x0A }.flatMap { [$0, $0 + 1] })
        let cuts = (0..<Reliability.count(12, long: 100)).map { _ in random.int(1...(bytes.count - 2)) }.filter {
            !lineEnds.contains($0)
        }
        for cut in cuts {
            let file = inputs + "/cut-\(cut).ndjson"
            try Data(bytes.prefix(cut)).write(to: URL(fileURLWithPath: file))
            try await Self.expectRefused(scratch, ["import", file], status: 65, fragment: "line ")
            tried += 1
        }
        // Lines that are wrong in every other way.
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        func line(_ change: (inout [String: Any]) -> Void) throws -> String {
            var copy = first
            change(&copy)
            return String(
                decoding: try JSONSerialization.data(withJSONObject: copy, options: [.sortedKeys]), as: UTF8.self)
        }
        // A push of A, already live, as version 4 under a new event id.
        var repeated = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        repeated["version"] = 4
        repeated["eventID"] = "00000000-0000-7000-8000-000000000004"
        // Without what it continues, so that the rules are what refuses it.
        repeated.removeValue(forKey: "previous")
        let again = String(
            decoding: try JSONSerialization.data(withJSONObject: repeated, options: [.sortedKeys]), as: UTF8.self)
        let bad: [(String, String)] = try [
            ("not json", "line 1: not JSON"), ("{}", "line 1"), ("[]", "line 1"), ("null", "line 1"), ("42", "line 1"),
            (lines[0] + " trailing", "line 1"),
            (
                lines[0] + "\n" + lines[2],
                "line 2: session 'src' is at version 1 here, so the next version is 2, but this line is version 3"
            ),
            (lines[0] + "\n" + lines[0].replacingOccurrences(of: "session.started", with: "entry.pushed"), "line 2"),
            (line { $0["version"] = 2 }, "line 1"), (line { $0["version"] = "1" }, "line 1"),
            (line { $0["version"] = -1 }, "line 1"),
            (line { $0["type"] = "entry.exploded" }, "line 1"), (line { $0["at"] = "noon" }, "line 1"),
            (line { $0["eventID"] = "" }, "line 1"), (line { $0.removeValue(forKey: "session") }, "line 1"),
            (line { $0["session"] = "" }, "line 1"), (line { $0["payload"] = "not an object" }, "line 1"),
            (
                lines.joined(separator: "\n") + "\n"
                    + lines[1].replacingOccurrences(of: "\"version\":2", with: "\"version\":7"), "line 7"
            ),
            // The informative time left out: it would no longer agree with the changed at.
            (
                lines[0] + "\n"
                    + lines[1].replacingOccurrences(of: #""at":"#, with: #""at":-"#)
                    .replacingOccurrences(of: #","time":"[^"]*""#, with: "", options: .regularExpression),
                "line 2: version 2 of session 'src'"
            ),
            (lines[0] + "\n" + String(repeating: "x", count: 200_000), "line 2"),
            (lines[0...2].joined(separator: "\n") + "\n" + again, "line 4: version 4 of session 'src'"),
        ]
        for (index, (text, fragment)) in bad.enumerated() {
            let file = inputs + "/bad-\(index).ndjson"
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            try await Self.expectRefused(scratch, ["import", file], status: 65, fragment: fragment)
            tried += 1
        }
        // Invalid UTF-8 and a different event under a known event id.
        try Data([0xFF, 0xFE, 0x7B, 0x0A]).write(to: URL(fileURLWithPath: inputs + "/binary.ndjson"))
        try await Self.expectRefused(scratch, ["import", inputs + "/binary.ndjson"], status: 65, fragment: "line 1")
        #expect(try await scratch.navdb(["--db", db, "import", "-"], stdin: export).status == 0)
        let known = lines[1].replacingOccurrences(of: "Ünïcödé", with: "Changed")
        try await Self.expectRefused(
            scratch, ["import", "-"], stdin: known + "\n", status: 65,
            fragment: "is already stored with different content")
        tried += 3

        // set-stack JSON: cut at random bytes, and shapes that do not decode.
        let json =
            #"[{"id": "X", "route": "r", "params": {"k": [1, {"n": null}]}, "item": {"title": "T", "backBarButtonItem": {"title": "B", "image": true}}}, {"id": "Y"}]"#
        for cut in (0..<Reliability.count(10, long: 100)).map({ _ in random.int(1...(json.utf8.count - 1)) }) {
            try await Self.expectRefused(
                scratch, ["set-stack", "s", "--json-file", "-"],
                stdin: String(decoding: Array(json.utf8).prefix(cut), as: UTF8.self),
                status: 65, fragment: "invalid entries in stdin")
            tried += 1
        }
        let deep =
            #"[{"id": "D", "params": {"k": "# + String(repeating: "[", count: 100_000)
            + String(repeating: "]", count: 100_000) + "}}]"
        let badJSON: [(String, String)] = [
            ("", "invalid entries"), ("[", "invalid entries"), (#"[{"id": "\ud800"}]"#, "invalid entries"),
            (#"[{"id": 1}]"#, "at [0].id"),
            (#"[{"id": "X", "params": {"k": 1e400}}]"#, "invalid entries"),
            (#"[{"id": "X", "item": {"hidesBackButton": "yes"}}]"#, "hidesBackButton"),
            (#"[{"id": "X", "item": {"style": "zen"}}]"#, "style"), (#"{"id": "X"}"#, "invalid entries"),
            (deep, "invalid entries"),
            (#"[{"id": "X", "item": {"leftBarButtonItems": 1.5}}]"#, "leftBarButtonItems"),
        ]
        for (text, fragment) in badJSON {
            try await Self.expectRefused(
                scratch, ["set-stack", "s", "--json-file", "-"], stdin: text, status: 65, fragment: fragment)
            tried += 1
        }
        let check = try await scratch.navdb(["--db", db, "check"])
        #expect(check.status == 0, "\(check)")
        Reliability.summary(
            "malformed input (\(backend))",
            "\(tried) malformed or truncated NDJSON and JSON inputs (\(cuts.count) NDJSON cuts inside lines, 100,000-deep nesting, invalid UTF-8, lone surrogates, conflicting event ids): each exit 65 naming the line or path, the database unchanged"
        )
    }
}
