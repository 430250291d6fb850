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
        #expect(try sandbox.ok(["restore", "s", "--ack"]).stdout
            == "acknowledged the base root alone (the last fallback after repeated unacknowledged restores); no version's state has been acknowledged\n")
        let json = try sandbox.ok(["--json", "restore", "s", "--ack"]).object()
        #expect(json as NSDictionary == ["session": "s", "acknowledgedVersion": 0, "baseRootOnly": true,
                                         "newestAcknowledgedVersion": NSNull()] as NSDictionary)
    }

    @Test func acknowledgingAVersionNamesIt() throws {
        let sandbox = try populated()
        let marked = try sandbox.ok(["restore", "s", "--mark"])
        #expect(marked.lines.first == "session s  version 4  restoring version 3  attempt 1")
        #expect(try sandbox.ok(["restore", "s", "--ack"]).stdout == "acknowledged version 3\n")
        let json = try sandbox.ok(["--json", "restore", "s", "--ack"]).object()
        #expect(json as NSDictionary == ["session": "s", "acknowledgedVersion": 3, "baseRootOnly": false,
                                         "newestAcknowledgedVersion": 3] as NSDictionary)
    }
}
