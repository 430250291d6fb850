import Foundation
import Testing

/// `prune --dry-run` and `session delete` show a truncated session's real base, as `session
/// truncate` does, not `-`.
@Suite("navdb prune and session delete: the base of a truncated session")
struct RetentionBaseColumnTests {
    /// A sandbox holding session `s` at version 11, truncated to base version 8.
    static func truncatedSession(_ backend: CommandBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        for i in 1...10 { try sandbox.ok(["push", "s", "T\(i)"]) }
        let truncate = try sandbox.ok(["session", "truncate", "s", "--before", "9"])
        #expect(truncate.stdout.contains("truncated 1 session"), "\(truncate)")
        return sandbox
    }

    @Test(
        "the table's base column and the JSON's baseVersion say 8; the summary keeps the command's verb",
        arguments: CommandBackend.each([
            (["prune", "--dry-run", "--before", "2099-01-01"], "would delete 1 session"),
            (["session", "delete", "s"], "deleted 1 session"),
        ]))
    func baseShown(arguments: [String], summary: String, backend: CommandBackend) throws {
        let result = try Self.truncatedSession(backend).ok(arguments)
        let row = result.lines.first { $0.hasPrefix("s ") } ?? ""
        #expect(row.split(separator: " ").map(String.init).prefix(5).last == "8", "\(result)")
        #expect(result.lines.last?.hasPrefix(summary) == true, "\(result)")
        let json = try Self.truncatedSession(backend).ok(["--json"] + arguments)
        let sessions = try json.object()["sessions"] as? [[String: Any]]
        #expect(sessions?.first?["baseVersion"] as? Int == 8, "\(json)")
    }
}
