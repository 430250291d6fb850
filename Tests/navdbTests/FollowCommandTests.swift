import Foundation
import NavStore
import NavStorePostgreSQL
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A `navdb follow` process whose stdout is read line by line as it comes, each line with the
/// time it arrived.
final class FollowerProcess: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var received: [(line: String, at: ContinuousClock.Instant)] = []
    private var partial = Data()
    private var errorText = Data()

    init(_ sandbox: Sandbox, _ arguments: [String], database: String? = nil) throws {
        process.executableURL = try Navdb.binary()
        process.arguments = ["--db", database ?? sandbox.databaseArgument] + arguments
        process.currentDirectoryURL = sandbox.directory
        var environment = ProcessInfo.processInfo.environment
        environment["NAVDB_PATH"] = nil
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            let now = ContinuousClock.now
            self.lock.withLock {
                self.partial.append(data)
                while let newline = self.partial.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: self.partial[self.partial.startIndex..<newline], as: UTF8.self)
                    self.partial.removeSubrange(self.partial.startIndex...newline)
                    self.received.append((line, now))
                }
            }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.errorText.append(data) }
        }
        try process.run()
    }

    /// The lines read so far.
    var lines: [String] { lock.withLock { received.map(\.line) } }
    /// The lines read so far, with the time each arrived.
    var timedLines: [(line: String, at: ContinuousClock.Instant)] { lock.withLock { received } }
    /// What the follower wrote to stderr so far.
    var stderr: String { lock.withLock { String(decoding: errorText, as: UTF8.self) } }

    /// Waits until `predicate` holds for the lines read, at most `timeout`.
    @discardableResult
    func wait(upTo timeout: Duration = .seconds(60), until predicate: ([String]) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(lines) { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return predicate(lines)
    }

    /// The JSON objects of the lines read so far.
    var objects: [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// Sends `signal` and waits for the exit, at most `timeout`; the exit status, or `nil` when
    /// it did not end (it is then killed).
    func stop(_ signal: Int32 = SIGTERM, timeout: Duration = .seconds(20)) -> Int32? {
        kill(process.processIdentifier, signal)
        return waitForExit(timeout)
    }

    /// Waits for the exit, at most `timeout`; the status, or `nil` (the process is then killed).
    func waitForExit(_ timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        // Let the readability handlers take the last bytes.
        Thread.sleep(forTimeInterval: 0.05)
        return process.terminationStatus
    }

    /// Closes the read end of the follower's stdout, as `| head` does when it has enough.
    func closeOutput() {
        output.fileHandleForReading.readabilityHandler = nil
        try? output.fileHandleForReading.close()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// `navdb follow` (README, "Reading the past"): every committed event once, in order, from any writer; notes of
/// deletions; the end on SIGINT, SIGTERM and a closed stdout. On SQLite and PostgreSQL.
@Suite("navdb follow")
struct FollowCommandTests {
    /// `(session, version)` of each event line of `--json` output, in order.
    static func events(_ objects: [[String: Any]]) -> [(String, Int)] {
        objects.compactMap { object in
            guard let event = object["event"] as? [String: Any], let session = event["session"] as? String,
                let version = event["version"] as? Int
            else { return nil }
            return (session, version)
        }
    }

    /// Whether the events of each session are its versions `1...n` in order, each once.
    static func inOrderOnce(_ events: [(String, Int)], first: [String: Int] = [:]) -> Bool {
        var next: [String: Int] = [:]
        for (session, version) in events {
            let expected = next[session] ?? first[session] ?? 1
            guard version == expected else { return false }
            next[session] = version + 1
        }
        return true
    }

    @Test(
        "started before the writes: 30 pushes from other processes and an import of 20 events, each printed once, in order, with the bar; SIGTERM ends it (0)",
        arguments: CommandBackend.all)
    func followsOtherWriters(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        // The import's source: a session of 20 events in another database.
        let source = try Sandbox()
        try source.ok(["session", "start", "imp"])
        for index in 1...19 { try source.ok(["push", "imp", "I\(index)", "--title", "Import \(index)"]) }
        let export = try source.ok(["export", "imp"]).stdout

        let follower = try FollowerProcess(sandbox, ["--json", "follow"])
        // The follower is running once its first look is done: a write now is after its start.
        Thread.sleep(forTimeInterval: 0.5)
        for index in 1...30 { try sandbox.ok(["push", "s", "P\(index)", "--title", "Screen \(index)"]) }
        try sandbox.ok(["import", "-"], stdin: export)

        let done = follower.wait { Self.events($0.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }).count >= 50 }
        #expect(done, "lines: \(follower.lines.count), stderr: \(follower.stderr)")
        // A moment more: nothing is printed twice.
        Thread.sleep(forTimeInterval: 0.3)
        let events = Self.events(follower.objects)
        #expect(events.count == 50, "\(events)")
        #expect(events.filter { $0.0 == "s" }.map(\.1) == Array(2...31))
        #expect(events.filter { $0.0 == "imp" }.map(\.1) == Array(1...20))
        // The bar after each: the push of P2 shows the back button to "Screen 1".
        let second = follower.objects.first { ($0["event"] as? [String: Any])?["version"] as? Int == 3 }
        #expect((second?["backButton"] as? [String: Any])?["label"] as? String == "Screen 1")
        #expect((second?["stack"] as? [[String]]) == [["P1", "P2"]])
        #expect(follower.stop(SIGTERM) == 0, "\(follower.stderr)")

        // Every line is a follow line of the schema.
        let validator = try JSONSchemaValidator(folder: JSONSchemaTests.folder)
        for line in follower.lines {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            let problems = validator.problems(value, against: "follow-line.schema.json")
            #expect(problems.isEmpty, "\(line): \(problems)")
        }
    }

    @Test(
        "two session keys in canonically equivalent spellings (café as U+00E9 and as e + U+0301) are two sessions to follow, each with its own state",
        arguments: CommandBackend.all)
    func canonicallyEquivalentKeys(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        try sandbox.ok(["session", "start", composed])
        try sandbox.ok(["session", "start", decomposed])
        try sandbox.ok(["push", composed, "A", "--title", "Inbox"])
        try sandbox.ok(["push", decomposed, "X", "--title", "Other"])
        // Version 3 of the composed key comes right after version 2 of the decomposed one: one
        // state for both keys would put B over X.
        try sandbox.ok(["push", composed, "B", "--title", "Mail"])
        let follower = try FollowerProcess(sandbox, ["--json", "follow", "--from", "1"])
        #expect(follower.wait { $0.count >= 5 }, "\(follower.stderr)")
        #expect(follower.stop(SIGINT) == 0, "\(follower.stderr)")
        let last = try #require(follower.lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect((last["stack"] as? [[String]]) == [["A", "B"]], "\(follower.lines)")
        #expect((last["backButton"] as? [String: Any])?["label"] as? String == "Inbox", "\(follower.lines)")
    }

    @Test("--from 1 prints the whole history first, then follows; SIGINT ends it (0)", arguments: CommandBackend.all)
    func fromPrintsHistory(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "A", "--title", "Inbox"])
        try sandbox.ok(["push", "s", "B", "--title", "Mail"])
        let follower = try FollowerProcess(sandbox, ["follow", "s", "--from", "1"])
        #expect(follower.wait { $0.contains { $0.contains("push Mail [B]") } }, "\(follower.stderr)")
        try sandbox.ok(["pop", "s"])
        #expect(follower.wait { $0.contains { $0.contains("entries.popped") } }, "\(follower.stderr)")
        #expect(follower.stop(SIGINT) == 0, "\(follower.stderr)")
        let text = follower.lines.joined(separator: "\n")
        // The replay lines, each with the session's key first, and the bar after each.
        #expect(follower.lines.first?.hasPrefix("s  ") == true, "\(text)")
        #expect(text.contains("back button  ‹ Inbox"), "\(text)")
        #expect(follower.lines.filter { $0.hasPrefix("s  ") }.count == 4, "\(text)")
    }

    @Test(
        "a session deleted while followed is said once and followed on; a key started again is a new session",
        arguments: CommandBackend.all)
    func deletionWhileFollowing(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let follower = try FollowerProcess(sandbox, ["--json", "follow", "s"])
        Thread.sleep(forTimeInterval: 0.5)
        try sandbox.ok(["push", "s", "A"])
        try sandbox.ok(["push", "s", "A2"])
        #expect(follower.wait { $0.count >= 2 }, "\(follower.stderr)")
        // A truncation is said once, with the new base; the session is followed on.
        try sandbox.ok(["session", "truncate", "s", "--before", "3"])
        #expect(follower.wait { $0.contains { $0.contains(#""kind":"truncated""#) } }, "\(follower.stderr)")
        try sandbox.ok(["session", "delete", "s"])
        #expect(follower.wait { $0.contains { $0.contains(#""kind":"deleted""#) } }, "\(follower.stderr)")
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "B"])
        #expect(follower.wait { _ in Self.events(follower.objects).count >= 4 }, "\(follower.stderr)")
        #expect(follower.stop() == 0)
        let notes = follower.objects.compactMap { $0["note"] as? [String: Any] }
        #expect(notes.count == 2, "\(notes)")
        #expect(notes.first?["kind"] as? String == "truncated" && notes.first?["baseVersion"] as? Int == 2)
        #expect(notes.last?["session"] as? String == "s" && notes.last?["kind"] as? String == "deleted")
        #expect(Self.events(follower.objects).map(\.1) == [2, 3, 1, 2])
        // The new session's push shows no back button: its stack is [B] alone.
        #expect(follower.objects.last?["stack"] as? [[String]] == [["B"]])
    }

    @Test("a follower started in the same instant as a writer misses nothing (--from 1)", arguments: CommandBackend.all)
    func startedWithWriter(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let follower = try FollowerProcess(sandbox, ["--json", "follow", "--from", "1"])
        // The writes begin at once, while the follower is still starting (its first look not
        // made yet), from this thread: each a navdb process run to its end.
        var failed: [String] = []
        for index in 1...20 {
            let result = try sandbox.run(["push", "s", "W\(index)"])
            if result.status != 0 { failed.append("W\(index): \(result)") }
        }
        #expect(failed.isEmpty, "\(failed)")
        #expect(follower.wait { Self.events($0.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }).count >= 21 }, "\(follower.stderr)")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(follower.stop() == 0)
        let events = Self.events(follower.objects)
        #expect(events.map(\.1) == Array(1...21), "\(events)")
    }

    @Test("two followers at once print the same lines", arguments: CommandBackend.all)
    func twoFollowers(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let one = try FollowerProcess(sandbox, ["--json", "follow"])
        let two = try FollowerProcess(sandbox, ["--json", "follow", "s"])
        Thread.sleep(forTimeInterval: 0.5)
        for index in 1...10 { try sandbox.ok(["push", "s", "X\(index)"]) }
        #expect(one.wait { $0.count >= 10 } && two.wait { $0.count >= 10 }, "\(one.stderr + two.stderr)")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(one.stop() == 0 && two.stop() == 0)
        #expect(one.lines == two.lines)
        #expect(Self.events(one.objects).map(\.1) == Array(2...11))
    }

    @Test(
        "PostgreSQL: a dropped connection is said once on stderr, made again, and nothing is missed",
        .enabled(if: CommandBackend.server != nil, CommandBackend.skipReason))
    func reconnects() throws {
        let sandbox = try Sandbox(backend: .postgresql)
        try sandbox.ok(["session", "start", "s"])
        let name = "follow_" + UUID().uuidString.prefix(8).lowercased()
        let uri = try #require(sandbox.databaseURI) + "&application_name=\(name)"
        let follower = try FollowerProcess(sandbox, ["--json", "follow", "s"], database: uri)
        Thread.sleep(forTimeInterval: 0.5)
        try sandbox.ok(["push", "s", "A"])
        #expect(follower.wait { $0.count >= 1 }, "\(follower.stderr)")
        // The server ends the follower's connection (as a restart or a network cut would).
        let admin = try PostgreSQLConnection(uri: try #require(CommandBackend.server))
        let ended = try admin.query(
            sql: "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'"
        ).rows.count
        #expect(ended == 1)
        try sandbox.ok(["push", "s", "B"])
        try sandbox.ok(["push", "s", "C"])
        #expect(follower.wait { $0.count >= 3 }, "\(follower.stderr)")
        #expect(follower.stop() == 0)
        #expect(Self.events(follower.objects).map(\.1) == [2, 3, 4])
        #expect(follower.stderr.contains("lost the database") && follower.stderr.contains("reconnected"), "\(follower.stderr)")
    }

    @Test("a follower that is behind when its session is truncated shows the stacks of the log, not of its own cache")
    func behindATruncation() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "t"])
        let follower = try FollowerProcess(sandbox, ["--json", "follow"])
        Thread.sleep(forTimeInterval: 0.4)
        try sandbox.ok(["push", "t", "a"])
        #expect(follower.wait { $0.count >= 1 }, "\(follower.stderr)")
        kill(follower.process.processIdentifier, SIGSTOP)
        for index in 1...4 { try sandbox.ok(["push", "t", "b\(index)"]) }
        try sandbox.ok(["session", "truncate", "t", "--before", "5"])
        try sandbox.ok(["push", "t", "c"])
        kill(follower.process.processIdentifier, SIGCONT)
        #expect(follower.wait { _ in Self.events(follower.objects).count >= 4 }, "\(follower.stderr)")
        #expect(follower.stop() == 0)
        let stacks = follower.objects.compactMap { object -> [[String]]? in
            object["event"] == nil || object["event"] is NSNull ? nil : object["stack"] as? [[String]]
        }
        // v2 [a]; v5 and v6 as `stack --at` gives them.
        #expect(stacks.first == [["a"]])
        #expect(stacks.suffix(2) == [[["a", "b1", "b2", "b3", "b4"]], [["a", "b1", "b2", "b3", "b4", "c"]]], "\(stacks)")
    }

    @Test("a closed stdout ends the follower with exit 73, while it waits and while it prints")
    func closedStdout() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s"])
        // Started with stdout closed (`>&-`): at once.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "exec \"$0\" --db \"$1\" follow >&- 2>/dev/null", try Navdb.binary().path, sandbox.database.path]
        try shell.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while shell.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if shell.isRunning { kill(shell.processIdentifier, SIGKILL) }
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 73)
        // While it waits: the next look sees the reader gone.
        let idle = try FollowerProcess(sandbox, ["follow"])
        Thread.sleep(forTimeInterval: 0.3)
        idle.closeOutput()
        #expect(idle.waitForExit(.seconds(10)) == 73, "\(idle.stderr)")
        #expect(idle.stderr.contains("cannot write the output"), "\(idle.stderr)")
        // While it prints: the write fails.
        for index in 1...50 { try sandbox.ok(["push", "s", "E\(index)"]) }
        let busy = try FollowerProcess(sandbox, ["follow", "--from", "1"])
        busy.closeOutput()
        #expect(busy.waitForExit(.seconds(10)) == 73, "\(busy.stderr)")
    }

    @Test("a database file removed while followed is said (exit 74), not waited on")
    func removedDatabase() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s"])
        let follower = try FollowerProcess(sandbox, ["follow"])
        Thread.sleep(forTimeInterval: 0.4)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sandbox.database.path + suffix) }
        #expect(follower.waitForExit(.seconds(10)) == 74, "\(follower.stderr)")
        #expect(follower.stderr.contains("removed or replaced while it was followed"), "\(follower.stderr)")
    }

    @Test("a key no session has yet is said once on stderr, with the nearest key, and waited for")
    func missingKeyNoted() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "demo"])
        let follower = try FollowerProcess(sandbox, ["follow", "dmeo"])
        Thread.sleep(forTimeInterval: 0.5)
        try sandbox.ok(["session", "start", "dmeo"])
        #expect(follower.wait { $0.contains { $0.contains("session.started") } }, "\(follower.stderr)")
        #expect(follower.stop(SIGINT) == 0)
        #expect(
            follower.stderr
                == "navdb: follow: session 'dmeo' does not exist yet; waiting for it to start (did you mean 'demo'?)\n")
    }

    @Test("a write-ahead log removed while followed is said in one line naming it (exit 74), not SQLite's error and SQL")
    func removedLog() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "s"])
        let follower = try FollowerProcess(sandbox, ["follow", "s"])
        Thread.sleep(forTimeInterval: 0.4)
        try FileManager.default.removeItem(atPath: sandbox.database.path + "-wal")
        Thread.sleep(forTimeInterval: 0.2)
        _ = try sandbox.run(["push", "s", "A"])
        #expect(follower.waitForExit(.seconds(10)) == 74, "\(follower.stderr)")
        let lines = follower.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(follower.stderr)")
        #expect(follower.stderr.contains("-wal' was removed while it was followed"), "\(follower.stderr)")
        #expect(!follower.stderr.contains("SELECT"), "\(follower.stderr)")
    }

    @Test("bad input: an empty key or --from 0 is a usage error (64); a missing database is exit 1")
    func badInput() throws {
        let sandbox = try Sandbox()
        let empty = try sandbox.run(["follow", ""])
        #expect(empty.status == 64 && empty.stderr.contains("''"), "\(empty)")
        let zero = try sandbox.run(["follow", "--from", "0"])
        #expect(zero.status == 64 && zero.stderr.contains("'0'"), "\(zero)")
        let missing = try sandbox.run(["follow"])
        #expect(missing.status == 1 && missing.stderr.contains("no navdb database"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
    }
}
