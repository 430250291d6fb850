import Foundation
import Testing

/// `navdb restore`: crash-loop protection as the CLI shows it (DESIGN §5, README "Restoring after
/// a restart").
@Suite struct RestoreCommandTests {
    /// A sandbox with session `s` at version 3 (A, B).
    func populated() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try sandbox.ok(["push", "s", "B", "--title", "Draft"])
        return sandbox
    }

    @Test func acknowledgingTheBaseRootSaysSo() throws {
        let sandbox = try populated()
        for _ in 0..<2 { try sandbox.ok(["restore", "s", "--mark"]) }
        let root = try sandbox.ok(["restore", "s", "--mark"])
        #expect(root.lines.first == "session s  version 6  restoring the base root alone  attempt 1")
        #expect(root.lines.dropFirst().first
            == "fallback: version 3 went unacknowledged 2 times in a row and no earlier state was acknowledged; returning the base root 'A' alone")
        // The app shows the base root now: the log is brought in line (session.restored at 7,
        // stack.replaced at 8), so what is recorded next continues from it.
        #expect(try sandbox.ok(["restore", "s", "--ack"]).stdout
            == "acknowledged the base root alone (the last fallback after repeated unacknowledged restores); the log now holds that state at version 8, so navigation continues from what the app shows\n")
        #expect(try sandbox.ok(["--json", "stack", "s"]).object()["version"] as? Int == 8)
        let json = try sandbox.ok(["--json", "restore", "s", "--ack"]).object()
        #expect(json as NSDictionary == ["session": "s", "acknowledgedVersion": 8, "baseRootOnly": false,
                                         "newestAcknowledgedVersion": 8, "alignedVersion": NSNull()] as NSDictionary)
    }

    @Test func acknowledgingAVersionNamesIt() throws {
        let sandbox = try populated()
        let marked = try sandbox.ok(["restore", "s", "--mark"])
        #expect(marked.lines.first == "session s  version 4  restoring version 3  attempt 1")
        #expect(try sandbox.ok(["restore", "s", "--ack"]).stdout == "acknowledged version 3\n")
        let json = try sandbox.ok(["--json", "restore", "s", "--ack"]).object()
        #expect(json as NSDictionary == ["session": "s", "acknowledgedVersion": 3, "baseRootOnly": false,
                                         "newestAcknowledgedVersion": 3, "alignedVersion": NSNull()] as NSDictionary)
    }
}
