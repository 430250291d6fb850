import Foundation
import Testing

/// Entries read from a file (`set-stack`, `import`) follow the rules of entries given on the
/// command line: an empty id `""` is refused as `push` refuses it, and a misspelt key
/// (`"titel"`) is refused by name instead of being dropped. Exit 65 (bad input data), one line
/// naming the value and what is accepted, the database unchanged.
extension BadInputTests {
    /// Session `s` with A pushed, and the export of a session `t` holding one push of `X`.
    func sandboxAndForeignExport(_ backend: CommandBackend) throws -> (Sandbox, [String]) {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2024-05-01T10:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox", "--time", "2024-05-01T10:00:01Z"])
        let source = try Sandbox()
        try source.ok(["session", "start", "t", "--time", "2024-05-01T10:00:00Z"])
        try source.ok(["push", "t", "X", "--title", "Mail", "--time", "2024-05-01T10:00:01Z"])
        return (sandbox, try source.ok(["export", "t"]).lines)
    }

    @Test("an empty entry id is refused by push (64), set-stack (65) and import (65)", arguments: CommandBackend.all)
    func emptyEntryID(backend: CommandBackend) throws {
        let (sandbox, lines) = try sandboxAndForeignExport(backend)
        let push = try sandbox.run(["push", "s", ""])
        #expect(push.status == 64, "\(push)")
        #expect(push.stderr.contains("The value '' is invalid for '<id>'"))
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "-"], stdin: #"[{"id": "A"}, {"id": ""}]"#, status: 65,
            message: "the entry id '' is empty: an entry id has at least one character")
        let emptied = lines.map { $0.replacingOccurrences(of: #""id":"X""#, with: #""id":"""#) }
        #expect(emptied != lines)
        try expectRefused(
            sandbox, ["import", "-"], stdin: emptied.joined(separator: "\n") + "\n", status: 65,
            message: "the entry id '' is empty: an entry id has at least one character")
    }

    @Test(
        "an unknown key of an item, an entry or a custom back item is refused by name, with the known keys",
        arguments: CommandBackend.all)
    func unknownKeys(backend: CommandBackend) throws {
        let (sandbox, lines) = try sandboxAndForeignExport(backend)
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "-"], stdin: #"[{"id": "A", "item": {"titel": "Inbox"}}]"#,
            status: 65,
            message:
                "unknown navigation item field 'titel' (known: title, backButtonTitle, backBarButtonItem, backButtonDisplayMode, hidesBackButton, leftBarButtonItems, leftItemsSupplementBackButton, style, menuTitle, popGuard, interactivePopDisabled, contentPopDisabled) at [0].item.titel"
        )
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "-"], stdin: #"[{"id": "A", "rout": "/inbox"}]"#, status: 65,
            message: "unknown entry key 'rout' (known: id, route, params, item)")
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "-"],
            stdin: #"[{"id": "A", "item": {"backBarButtonItem": {"image": true, "menu": false}}}]"#, status: 65,
            message: "unknown backBarButtonItem key 'menu' (known: title, image, menuSuppressed)")
        let misspelt = lines.map { $0.replacingOccurrences(of: #""title":"Mail""#, with: #""titel":"Mail""#) }
        #expect(misspelt != lines)
        try expectRefused(
            sandbox, ["import", "-"], stdin: misspelt.joined(separator: "\n") + "\n", status: 65,
            message: "unknown navigation item field 'titel'")
    }

    @Test(
        "a style or back button display mode that is no case is refused naming the accepted values",
        arguments: CommandBackend.all)
    func unknownEnumValues(backend: CommandBackend) throws {
        let (sandbox, lines) = try sandboxAndForeignExport(backend)
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "-"], stdin: #"[{"id": "A", "item": {"style": "weird"}}]"#,
            status: 65, message: "unknown style 'weird' (known: navigator, browser, editor) at [0].item.style")
        try expectRefused(
            sandbox, ["set-stack", "s", "--json-file", "-"],
            stdin: #"[{"id": "A", "item": {"backButtonDisplayMode": "tiny"}}]"#, status: 65,
            message:
                "unknown backButtonDisplayMode 'tiny' (known: default, generic, minimal) at [0].item.backButtonDisplayMode"
        )
        let odd = lines.map {
            $0.replacingOccurrences(of: #""title":"Mail""#, with: #""title":"Mail","backButtonDisplayMode":"Minimal""#)
        }
        #expect(odd != lines)
        try expectRefused(
            sandbox, ["import", "-"], stdin: odd.joined(separator: "\n") + "\n", status: 65,
            message: "unknown backButtonDisplayMode 'Minimal' (known: default, generic, minimal)")
    }

    @Test(
        "U+0000 in a session key, entry id or route: stored exactly by SQLite, refused on PostgreSQL (65) before the server, database unchanged",
        arguments: CommandBackend.all)
    func nulInKeys(backend: CommandBackend) throws {
        func exported(_ lines: [String], _ from: String, _ to: String) -> String {
            lines.map { $0.replacingOccurrences(of: from, with: to) }.joined(separator: "\n") + "\n"
        }
        // PostgreSQL's refusal: `set-stack` names the text; `import` also the line and the field.
        let rule =
            "contains U+0000 (NUL), which PostgreSQL text cannot hold: on PostgreSQL session keys and names, entry ids and routes are text without U+0000 (titles and params may contain it)"
        let cases: [(arguments: [String], stdin: ([String]) -> String, message: String)] = [
            (
                ["set-stack", "s", "--json-file", "-"], { _ in #"[{"id": "A\u0000B"}]"# },
                #"the text 'A\u{0}B' "# + rule + "; nothing was written"
            ),
            (
                ["set-stack", "s", "--json-file", "-"], { _ in #"[{"id": "A", "route": "app://\u0000"}]"# },
                #"the text 'app://\u{0}' "# + rule + "; nothing was written"
            ),
            (
                ["import", "-"], { exported($0, #""session":"t""#, #""session":"t\u0000x""#) },
                #"line 1: the session key 't\u{0}x' "# + rule + "; nothing was imported"
            ),
            (
                ["import", "-"], { exported($0, #""id":"X""#, #""id":"\u0000""#) },
                #"line 2: version 2 of session 't': the entry id '\u{0}' contains U+0000 (NUL), which PostgreSQL text cannot hold, and the entry is still on a stack at the end of the import: on PostgreSQL"#
            ),
        ]
        for (arguments, stdin, message) in cases {
            let (sandbox, lines) = try sandboxAndForeignExport(backend)
            guard backend == .postgresql else {
                let stored = try sandbox.run(arguments, stdin: stdin(lines))
                #expect(stored.status == 0, "\(arguments): \(stored)")
                continue
            }
            try expectRefused(sandbox, arguments, stdin: stdin(lines), status: 65, message: message)
        }
        let (sandbox, _) = try sandboxAndForeignExport(backend)
        // Titles and params are JSON in the database: U+0000 is stored there on both backends.
        try sandbox.ok(
            ["set-stack", "s", "--json-file", "-"],
            stdin: #"[{"id": "A", "params": {"k\u0000": "v\u0000"}, "item": {"title": "a\u0000b"}}]"#)
        #expect(try sandbox.ok(["--json", "stack", "s"]).stdout.contains(#""title":"a\u0000b""#))
    }
}
