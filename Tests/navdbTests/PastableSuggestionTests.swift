import Foundation
import Testing

/// The commands an error suggests (`create it with 'navdb session start KEY'`) run as printed when
/// pasted into a shell, for keys that start with `-`, hold quotes, spaces or control characters.
@Suite("navdb errors: suggested commands can be pasted")
struct PastableSuggestionTests {
    @Test(
        "a missing session's 'create it with' suggestion creates exactly that session",
        arguments: CommandBackend.all, ["-x", "--all", "it's here", "a b", "-1", "plain", "émoji 📬"])
    func createSuggestionRuns(backend: CommandBackend, key: String) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "other"])
        let refused = try sandbox.run(["push", "--", key, "A"])
        #expect(refused.status == 1, "\(refused)")
        let suggestion = try #require(
            refused.stderr.firstRange(of: "create it with '").map { refused.stderr[$0.upperBound...] }
                .flatMap { rest in rest.range(of: "')", options: .backwards).map { String(rest[..<$0.lowerBound]) } },
            "\(refused)")
        #expect(suggestion.hasPrefix("navdb session start "), "\(suggestion)")
        #expect(!suggestion.contains("\\u{"), "no Swift escapes: \(suggestion)")
        #expect(!suggestion.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(suggestion)")
        let pasted = try shell(sandbox, #"navdb() { "$NAVDB" --db "$DB" "$@"; }; "# + suggestion)
        #expect(pasted.status == 0, "\(suggestion): \(pasted.stderr)")
        let keys = try sandbox.ok(["--json", "sessions"]).json() as? [[String: Any]]
        #expect(Set(keys?.compactMap { $0["key"] as? String } ?? []) == ["other", key], "\(suggestion)")
    }

    @Test("a mistyped session key is answered with the nearest existing key first (a swap of two letters is one edit)")
    func nearKeyFirst() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "demo"])
        for typo in ["demoo", "dmeo", "Demo"] {
            let refused = try sandbox.run(["push", typo, "A"])
            #expect(refused.status == 1, "\(refused)")
            #expect(
                refused.stderr.hasPrefix("Error: session '\(typo)' not found; did you mean 'demo'? (list them with"),
                "\(refused)")
        }
        let far = try sandbox.run(["push", "inventory", "A"])
        #expect(!far.stderr.contains("did you mean"), "\(far)")
    }

    @Test(
        "a key the error line shows escaped gets no suggestion that would paste wrong, but a note to type it",
        arguments: CommandBackend.all, ["a\u{1B}[31mb", "line\nbreak", "\u{202E}rtl", "back\\slash"])
    func noSuggestionForEscapedKeys(backend: CommandBackend, key: String) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "other"])
        try expectRefused(
            sandbox, ["push", "--", key, "A"], status: 1,
            message: "create it with 'navdb session start KEY' (typing the key: this line shows it escaped))")
    }
}
