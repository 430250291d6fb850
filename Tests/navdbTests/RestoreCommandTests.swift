import Foundation
import Testing

/// `navdb restore`: crash-loop protection as the CLI shows it (NavStore.docc/StorageLayout.md, README "Restoring after
/// a restart").
@Suite struct RestoreCommandTests {
    /// A sandbox with session `s` at version 3 (A, B).
    func populated(_ backend: CommandBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try sandbox.ok(["push", "s", "B", "--title", "Draft"])
        return sandbox
    }

    @Test(
        "restore's text draws an iOS 26 session's bar under iOS 26's rules, as back-menu and restore --json say",
        arguments: CommandBackend.all)
    func ios26BarInRestoreText(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--platform", "ios26"])
        try sandbox.ok(["push", "s", "A", "--title", "Invoice"])
        try sandbox.ok(["push", "s", "B", "--title", "Line item"])
        // iOS 26 shows no title beside the chevron (NavStore.docc/PlatformGenerations.md).
        let menu = try sandbox.ok(["back-menu", "s"]).lines
        #expect(menu.contains("back button  ‹ \"\"  (no fallbacks)"), "\(menu)")
        let json = try sandbox.ok(["--json", "restore", "s", "--dry-run"]).object()
        #expect((json["backButton"] as? [String: Any])?["label"] as? String == "")
        // What back-menu prints from its "back button" line on is what restore prints after the stack.
        let shown = Array(menu.drop { !$0.hasPrefix("back button") })
        for arguments in [["restore", "s", "--dry-run"], ["restore", "s", "--at", "3"], ["restore", "s", "--at", "3", "--dry-run"]] {
            let lines = try sandbox.ok(arguments).lines
            #expect(Array(lines.drop { !$0.hasPrefix("back button") }) == shown, "\(arguments): \(lines)")
        }
    }

    @Test("acknowledging a restore of the base root says so", arguments: CommandBackend.all)
    func acknowledgingTheBaseRootSaysSo(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        for _ in 0..<2 { try sandbox.ok(["restore", "s", "--mark"]) }
        let root = try sandbox.ok(["restore", "s", "--mark"])
        #expect(root.lines.first == "session s  version 6  restoring the base root alone  attempt 1")
        #expect(
            root.lines.dropFirst().first
                == "fallback: version 3 went unacknowledged 2 times in a row and no state was ever acknowledged; returning the base root 'A' alone"
        )
        // The app shows the base root now: the log is brought in line (session.restored at 7,
        // stack.replaced at 8), so what is recorded next continues from it.
        #expect(
            try sandbox.ok(["restore", "s", "--ack"]).stdout
                == "acknowledged the base root alone (the last fallback after repeated unacknowledged restores); the log now holds that state at version 8, so navigation continues from what the app shows\n"
        )
        #expect(try sandbox.ok(["--json", "stack", "s"]).object()["version"] as? Int == 8)
        let json = try sandbox.ok(["--json", "restore", "s", "--ack"]).object()
        // Nothing is pending after that: the second --ack says so and changes nothing.
        #expect(
            json as NSDictionary == [
                "session": "s", "pending": false, "acknowledgedVersion": NSNull(), "baseRootOnly": false,
                "newestAcknowledgedVersion": 8, "alignedVersion": NSNull(),
            ] as NSDictionary)
    }

    @Test("acknowledging a restore names the version", arguments: CommandBackend.all)
    func acknowledgingAVersionNamesIt(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        let marked = try sandbox.ok(["restore", "s", "--mark"])
        #expect(marked.lines.first == "session s  version 4  restoring version 3  attempt 1")
        #expect(try sandbox.ok(["restore", "s", "--ack"]).stdout == "acknowledged version 3\n")
        try sandbox.ok(["restore", "s"])
        let json = try sandbox.ok(["--json", "restore", "s", "--ack"]).object()
        #expect(
            json as NSDictionary == [
                "session": "s", "pending": true, "acknowledgedVersion": 3, "baseRootOnly": false,
                "newestAcknowledgedVersion": 3, "alignedVersion": NSNull(),
            ] as NSDictionary)
    }

    @Test(
        "--dry-run shows what the launch call would get, counts nothing and changes no byte",
        arguments: CommandBackend.all)
    func dryRunChangesNothing(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try sandbox.ok(["restore", "s"])
        let before = try sandbox.databaseBytes()
        for _ in 0..<3 {
            let look = try sandbox.ok(["restore", "s", "--dry-run"])
            #expect(
                look.lines.first == "session s  version 3  would be attempt 2 (dry run: nothing counted or written)")
            #expect(look.stderr.isEmpty)
        }
        #expect(try sandbox.databaseBytes() == before)
        // The real call gets what the look said, and now the next one will fall back: stderr says so.
        let launch = try sandbox.ok(["restore", "s"])
        #expect(launch.lines.first == "session s  version 3  attempt 2")
        #expect(
            launch.stderr
                == "note: unless this restore is acknowledged ('navdb restore s --ack'), the next one falls back: version 3 went unacknowledged 2 times in a row and no state was ever acknowledged; returning the base root 'A' alone\n"
        )
        let look = try sandbox.ok(["restore", "s", "--dry-run"])
        #expect(
            look.lines.first
                == "session s  version 3  restoring the base root alone  would be attempt 1 (dry run: nothing counted or written)"
        )
        #expect(
            look.stderr.hasPrefix("note: a plain restore of 's' now would fall back: version 3 went unacknowledged"))
        let json = try sandbox.ok(["--json", "restore", "s", "--dry-run"]).object()
        #expect(json["restoredVersion"] as? Int == 0 && json["attempts"] as? Int == 1)
        let usage = try sandbox.run(["restore", "s", "--dry-run", "--ack"])
        #expect(usage.status == 64 && usage.stderr.hasPrefix("Error: --dry-run cannot be combined with --ack"))
        // --at with --dry-run: the past point, nothing counted (the same as --at alone).
        let bytes = try sandbox.databaseBytes()
        #expect(
            try sandbox.ok(["restore", "s", "--at", "2", "--dry-run"]).stdout
                == (try sandbox.ok(["restore", "s", "--at", "2"]).stdout))
        #expect(try sandbox.databaseBytes() == bytes)
    }

    @Test("help says which call an app makes at launch and which a person uses to look")
    func helpNamesTheCalls() throws {
        let help = try Sandbox().ok(["restore", "--help"]).stdout
        #expect(help.contains("At launch an app calls 'navdb restore KEY' once"))
        #expect(help.contains("a person uses --dry-run"))
        #expect(help.contains("--dry-run"))
    }

    @Test(
        "a payload that cannot be written (full disk, closed stdout) exits 73 and counts no attempt",
        arguments: CommandBackend.all)
    func undeliveredPayloadCountsNothing(backend: CommandBackend) throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let sandbox = try populated(backend)
        let before = try sandbox.databaseBytes()
        for redirect in [">/dev/full", ">&-", ">/dev/full", ">&-"] {
            for mark in ["", " --mark"] {
                let result = try shell(sandbox, "\"$NAVDB\" --db \"$DB\" --json restore s\(mark) \(redirect)")
                #expect(result.status == 73, "\(redirect): \(result)")
                #expect(result.stderr.hasPrefix("Error: cannot write the restore payload: "), "\(result.stderr)")
                #expect(
                    result.stderr.hasSuffix("; no attempt was counted and nothing was appended\n"), "\(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "one error line: \(result.stderr)")
            }
        }
        #expect(try sandbox.databaseBytes() == before)
        let delivered = try sandbox.ok(["--json", "restore", "s"]).object()
        #expect(delivered["attempts"] as? Int == 1 && delivered["restoredVersion"] as? Int == 3)
    }

    @Test("--ack with nothing pending says so, exits 0 and changes nothing", arguments: CommandBackend.all)
    func acknowledgeNothingPending(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        let before = try sandbox.databaseBytes()
        let never = try sandbox.ok(["restore", "s", "--ack"])
        #expect(
            never.stdout
                == "nothing to acknowledge: no restore of session s is pending (none since the last --ack); no state has been acknowledged\n"
        )
        #expect(try sandbox.databaseBytes() == before)
        try sandbox.ok(["restore", "s"])
        #expect(try sandbox.ok(["restore", "s", "--ack"]).stdout == "acknowledged version 3\n")
        let again = try sandbox.ok(["restore", "s", "--ack"])
        #expect(
            again.stdout
                == "nothing to acknowledge: no restore of session s is pending (none since the last --ack); version 3 stays the newest acknowledged state\n"
        )
    }

    @Test(
        "--ack after navigation was recorded since a fallback is refused (exit 1), the database unchanged",
        arguments: CommandBackend.all)
    func acknowledgeAfterMovingOn(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        try sandbox.ok(["restore", "s"])
        try sandbox.ok(["restore", "s", "--ack"])
        try sandbox.ok(["push", "s", "C"])
        for _ in 0..<3 { try sandbox.ok(["restore", "s"]) }
        try sandbox.ok(["push", "s", "D"])
        let before = try sandbox.databaseBytes()
        let refused = try sandbox.run(["restore", "s", "--ack"])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "Error: session 's' moved on since its last restore, which handed out version 3 in place of version 4 (a fallback): navigation was recorded after it (the session is at version 5), so acknowledging that restore would throw it away; nothing was changed. Restore again ('navdb restore s') and acknowledge what it hands out\n"
        )
        #expect(try sandbox.databaseBytes() == before)
    }

    @Test(
        "history shows what each restart marker handed out; stack at a fallback marker says the app got another state",
        arguments: CommandBackend.all)
    func markersInHistoryAndStack(backend: CommandBackend) throws {
        let sandbox = try populated(backend)
        for _ in 0..<3 { try sandbox.ok(["restore", "s", "--mark"]) }
        let history = try sandbox.ok(["history", "s"]).lines.suffix(3).map {
            $0.split(separator: "  ").last.map(String.init) ?? ""
        }
        #expect(
            history == [
                "restored version 3 (attempt 1)", "restored version 3 (attempt 2)",
                "restored the base root alone (fallback: version 3 went unacknowledged; attempt 1)",
            ])
        let stack = try sandbox.ok(["stack", "s", "--at", "6"])
        #expect(
            stack.lines.dropFirst().first
                == "restart marker: the app was handed the base root alone here, not the state below (restored the base root alone (fallback: version 3 went unacknowledged; attempt 1)); the log holds what the app shows only after 'navdb restore s --ack'"
        )
        #expect(
            try sandbox.ok(["stack", "s", "--at", "5"]).lines.dropFirst().first?.hasPrefix("restart marker") == false)
        try sandbox.ok(["restore", "s", "--ack"])
        #expect(
            try sandbox.ok(["history", "s"]).stdout.contains(
                "session.restored  acknowledged the restore of the base root alone; the events after this bring the log in line"
            ))
        let json = try sandbox.ok(["--json", "history", "s", "--type", "session.restored", "--limit", "1", "--reverse"])
            .stdout
        #expect(json.contains(#""payload":{"acknowledged":true,"failedVersions":[3],"restoredVersion":0}"#), "\(json)")
    }
}
