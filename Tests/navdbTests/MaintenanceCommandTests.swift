import Foundation
import NavStore
import NavStoreTools
import Testing

/// `navdb check` and `navdb rebuild --verify` on a projection changed behind navdb's back.
@Suite struct MaintenanceCommandTests {
    @Test("check and rebuild name the difference between log and projection", arguments: CommandBackend.all)
    func checkAndRebuildNameTheDifference(backend: CommandBackend)
        throws
    {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try sandbox.ok(["push", "s", "B", "--title", "Mail"])
        // Plain SQL, as any tool could: the projection tables are not append-only.
        try sandbox.executeSQL(#"UPDATE entries SET item = '{"title":"Spam"}' WHERE entry_id = 'B'"#)
        let difference = "layer 0, position 1, entry 'B': item fields title differ"
        let check = try sandbox.run(["check"])
        #expect(check.status == 74)
        #expect(
            check.stdout.contains("  session 's': projection differs from the fold of the log: \(difference)\n"),
            "\(check)")
        let rebuild = try sandbox.run(["rebuild", "--verify"])
        #expect(rebuild.status == 1)
        #expect(
            rebuild.stdout.contains("  session 's': projection differed from the fold of the log: \(difference)\n"),
            "\(rebuild)")
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
    }

    @Test("an unreadable projection row is a problem check reports, not a crash", arguments: CommandBackend.all)
    func unreadableProjectionRowIsAProblemNotACrash(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try sandbox.ok(["push", "s", "B", "--title", "Mail"])
        try sandbox.executeSQL("UPDATE entries SET item = 'not json' WHERE entry_id = 'B'")
        let problem =
            "session 's': projection row at layer 0, position 1, entry 'B' cannot be read: item 'not json' is not a navigation item (not JSON)"
        let check = try sandbox.run(["check"])
        #expect(check.status == 74)
        #expect(check.stdout.contains("  \(problem); a rebuild rewrites it from the log\n"), "\(check)")
        #expect(!check.stderr.contains("DecodingError"), "\(check)")
        let stack = try sandbox.run(["stack", "s"])
        #expect(stack.status == 74)
        #expect(
            stack.stderr.contains(problem) && stack.stderr.contains("'navdb rebuild' rewrites it from the log"),
            "\(stack)")
        let rebuild = try sandbox.run(["rebuild", "--verify"])
        #expect(rebuild.status == 1)
        #expect(rebuild.stdout.contains("  \(problem)\n"), "\(rebuild)")
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
    }
}
