import Foundation
import NavStore
import NavStoreTools
import Testing

/// README "Reliability": "Concurrent writers (processes) on one file: no lost update, no `database is
/// locked` escaping as a crash; a stale `--expect-version` is a clean conflict." Each test runs on
/// a file and on a PostgreSQL schema (a new, empty one where the file would be new).
@Suite("Reliability: concurrent writers")
struct ReliabilityConcurrentWriterTests {
    /// Lines of a writer's stderr that are not the refusals it retries.
    static func unexpectedErrors(_ result: ChildResult) -> [String] {
        result.stderr.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("refused: ") }
    }

    @Test(
        "writer processes on one new file, same session and own sessions: no lost update, no gap, no lock error",
        arguments: Reliability.backends)
    func writerLoops(backend: CommandBackend) async throws {
        let perWriter = Reliability.count(40, long: 400)
        let bench = try Reliability.benchBinary()
        let scratch = try Scratch("writers", backend: backend)
        var random = Reliability.random(3)
        // The file does not exist yet (the schema is empty): the writers also race to create it.
        let path = try scratch.newDatabase("writers.sqlite")
        let writers = [("shared", "a"), ("shared", "b"), ("own-c", "c"), ("own-d", "d")]
        let children = try writers.map { session, tag in
            try Child(
                bench,
                [
                    "__writer-loop", path, session, "--count", String(perWriter), "--snapshot-interval", "4",
                    "--tag", tag, "--seed", String(random.next()),
                ],
                directory: scratch.path, io: scratch.ioFiles())
        }
        var results: [ChildResult] = []
        for child in children { results.append(try await child.wait(timeout: 600)) }

        var acknowledged: [String: [Int]] = [:]
        var refusals = 0
        for ((session, tag), result) in zip(writers, results) {
            #expect(result.status == 0, "writer \(tag): \(result)")
            #expect(Self.unexpectedErrors(result).isEmpty, "writer \(tag): \(result.stderr)")
            #expect(!result.stderr.contains("locked"), "writer \(tag): \(result.stderr)")
            let versions = result.lines.compactMap { Int($0) }
            #expect(versions.count == perWriter, "writer \(tag) acknowledged \(versions.count) of \(perWriter)")
            acknowledged[session, default: []] += versions
            refusals += result.stderr.split(separator: "\n").count
        }
        let store = try NavigationStore(path: path, create: false)
        var duplicates = 0
        var lost = 0
        for (session, versions) in acknowledged {
            let version = try await store.sessionInfo(session).version
            duplicates += versions.count - Set(versions).count
            lost += versions.filter { $0 > version }.count
            // Every event but session.started (which no writer prints) was acknowledged exactly once.
            #expect(
                Set(versions).union([1]) == Set(1...version),
                "session \(session): acknowledged \(versions.sorted()), log at \(version)")
            #expect(version == versions.count + 1)
        }
        let events = try StoreProbe.allEvents(store)
        #expect(events.count == writers.count * perWriter + acknowledged.count)
        #expect(duplicates == 0)
        #expect(lost == 0)
        let problems = try StoreProbe.problems(store, probes: 3, random: &random)
        #expect(problems.isEmpty, "\(problems)")
        Reliability.summary(
            "concurrent writer loops (\(backend))",
            """
            \(writers.count) processes (2 on one session, 2 on their own) x \(perWriter) events racing on one new file: \
            \(acknowledged.values.map(\.count).reduce(0, +)) acknowledged, \(events.count) events in the log \
            (with \(acknowledged.count) session.started), \(lost) lost, \(duplicates) versions given twice, \
            \(refusals) refusals retried (a command raced by the other writer), every exit 0, no lock error, check clean
            """)
    }

    @Test(
        "navdb processes pushing at once: every write lands once, exit 0, no lock error",
        arguments: Reliability.backends)
    func navdbProcesses(backend: CommandBackend) async throws {
        let perProcess = Reliability.count(12, long: 100)
        let scratch = try Scratch("navdb-writers", backend: backend)
        var random = Reliability.random(4)
        let db = scratch.database
        let start = try await scratch.navdb(["--db", db, "session", "start", "shared"])
        #expect(start.status == 0, "\(start)")
        let processes = 4
        let outcomes = try await withThrowingTaskGroup(of: (Int, [ChildResult]).self) { group in
            for index in 0..<processes {
                group.addTask {
                    var results: [ChildResult] = []
                    let session = index < 2 ? "shared" : "own-\(index)"
                    if index >= 2 {
                        results.append(try await scratch.navdb(["--db", db, "session", "start", session]))
                    }
                    for n in 0..<perProcess {
                        let json = n % 2 == 0 ? ["--json"] : []
                        results.append(
                            try await scratch.navdb(
                                ["--db", db] + json + ["push", session, "p\(index)-\(n)", "--title", "P \(index) \(n)"])
                        )
                    }
                    return (index, results)
                }
            }
            var all: [(Int, [ChildResult])] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        var versions: [String: [Int]] = ["shared": [1]]
        var runs = 1
        for (index, results) in outcomes {
            let session = index < 2 ? "shared" : "own-\(index)"
            for result in results {
                runs += 1
                #expect(result.status == 0, "process \(index): \(result)")
                #expect(result.stderr.isEmpty, "process \(index): \(result.stderr)")
                let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                if let version = (try? result.json())?["version"]?.int {
                    versions[session, default: []].append(version)
                } else if text.hasPrefix("version "), let version = Int(text.dropFirst(8)) {
                    versions[session, default: []].append(version)
                }
            }
        }
        let store = try NavigationStore(path: db, create: false)
        for (session, list) in versions {
            let version = try await store.sessionInfo(session).version
            // Session starts print version 1; pushes take 2...N, each exactly once.
            #expect(list.sorted() == Array(1...version), "session \(session): \(list.sorted()) for a log at \(version)")
        }
        // One session.started per session, then one event per push.
        #expect(try StoreProbe.allEvents(store).count == 1 + (processes - 2) + processes * perProcess)
        let problems = try StoreProbe.problems(store, probes: 2, random: &random)
        #expect(problems.isEmpty, "\(problems)")
        Reliability.summary(
            "concurrent navdb processes (\(backend))",
            """
            \(processes) concurrent sequences x \(perProcess) 'navdb push' (2 on one session, 2 on their own): \
            \(runs) processes, every exit 0, every version given once, no lock error, 0 lost, check clean
            """)
    }

    @Test("first writes racing to create the database file all succeed", arguments: Reliability.backends)
    func racingCreation(backend: CommandBackend) async throws {
        let rounds = Reliability.count(8, long: 50)
        let scratch = try Scratch("creation", backend: backend)
        var failures: [String] = []
        for round in 0..<rounds {
            let db = try scratch.newDatabase("created-\(round).sqlite")
            let children = try (0..<4).map { index in
                try Child(
                    try Navdb.binary().path, ["--db", db, "session", "start", "k\(index)"], directory: scratch.path,
                    io: scratch.ioFiles())
            }
            for child in children {
                let result = try await child.wait()
                if result.status != 0 { failures.append("round \(round): \(result)") }
            }
            let store = try NavigationStore(path: db, create: false)
            #expect(try await store.sessions().map(\.key) == ["k0", "k1", "k2", "k3"])
        }
        #expect(failures.isEmpty, "\(failures)")
        Reliability.summary(
            "racing creation (\(backend))",
            "\(rounds) rounds of 4 'session start' racing to create a new database: \(rounds * 4 - failures.count) of \(rounds * 4) succeeded"
        )
    }

    @Test(
        "two pushes racing with the same --expect-version: exactly one exits 0, the other 4",
        arguments: Reliability.backends)
    func expectVersionRace(backend: CommandBackend) async throws {
        let rounds = Reliability.count(20, long: 200)
        let scratch = try Scratch("expect-version", backend: backend)
        let db = scratch.database
        #expect(try await scratch.navdb(["--db", db, "session", "start", "s"]).status == 0)
        let binary = try Navdb.binary().path
        var version = 1
        var winners = 0
        var conflicts = 0
        for round in 0..<rounds {
            let children = try ["a", "b"].map { side in
                try Child(
                    binary, ["--db", db, "push", "s", "r\(round)\(side)", "--expect-version", String(version)],
                    directory: scratch.path, io: scratch.ioFiles())
            }
            var results: [ChildResult] = []
            for child in children { results.append(try await child.wait()) }
            #expect(results.map(\.status).sorted() == [0, 4], "round \(round): \(results)")
            for result in results where result.status == 0 {
                winners += 1
                #expect(result.stdout == "version \(version + 1)\n")
            }
            for result in results where result.status == 4 {
                conflicts += 1
                #expect(
                    result.stderr
                        == "Error: version conflict on session 's': expected version \(version), found \(version + 1)\n",
                    "\(result)")
                #expect(result.stdout.isEmpty)
            }
            version += 1
        }
        let store = try NavigationStore(path: db, create: false)
        #expect(try await store.sessionInfo("s").version == 1 + rounds)
        #expect(try store.check().isClean)
        Reliability.summary(
            "expect-version race (\(backend))",
            "\(rounds) races of two 'push --expect-version V': \(winners) exit 0, \(conflicts) exit 4, log gapless at version \(1 + rounds)"
        )
    }

    @Test(
        "a truncate or delete with --expect-version racing a push: all or nothing; a stale one exits 4, a push after a delete 1",
        arguments: Reliability.backends)
    func retentionRace(backend: CommandBackend) async throws {
        let rounds = Reliability.count(10, long: 100)
        let scratch = try Scratch("retention-race", backend: backend)
        let db = scratch.database
        let binary = try Navdb.binary().path
        var pushWon = 0
        var retentionWon = 0
        for round in 0..<rounds {
            let key = "s\(round)"
            #expect(try await scratch.navdb(["--db", db, "session", "start", key]).status == 0)
            for index in 0..<4 { #expect(try await scratch.navdb(["--db", db, "push", key, "E\(index)"]).status == 0) }
            let deleting = round % 2 == 0
            let retention =
                deleting
                ? ["session", "delete", key, "--expect-version", "5"]
                : ["session", "truncate", key, "--before", "4", "--expect-version", "5"]
            let children = try [["push", key, "X", "--expect-version", "5"], retention].map {
                try Child(binary, ["--db", db] + $0, directory: scratch.path, io: scratch.ioFiles())
            }
            var results: [ChildResult] = []
            for child in children { results.append(try await child.wait()) }
            let (push, removal) = (results[0], results[1])
            let store = try NavigationStore(path: db, create: false)
            if deleting {
                // Delete first: the push finds no session (1). Push first: the delete is stale (4).
                #expect(
                    [push.status, removal.status].sorted() == (push.status == 0 ? [0, 4] : [0, 1]),
                    "round \(round): \(push) \(removal)")
                if removal.status == 0 {
                    retentionWon += 1
                    #expect(try await !store.sessions().contains { $0.key == key })
                } else {
                    pushWon += 1
                    #expect(try await store.sessionInfo(key).version == 6)
                }
            } else {
                // A truncation appends nothing and keeps the version: the push always goes
                // through; the truncation is stale (4) when the push went first.
                #expect(push.status == 0, "round \(round): \(push)")
                #expect(removal.status == 0 || removal.status == 4, "round \(round): \(removal)")
                #expect(try await store.sessionInfo(key).version == 6)
                #expect(try store.base(session: key)?.version == (removal.status == 0 ? 3 : nil))
                if removal.status == 0 { retentionWon += 1 } else { pushWon += 1 }
            }
            #expect(try store.check().isClean, "round \(round)")
        }
        Reliability.summary(
            "retention race (\(backend))",
            "\(rounds) races of 'push --expect-version 5' against 'session delete/truncate --expect-version 5': push first \(pushWon), retention first \(retentionWon), never a partial result"
        )
    }

    // SQLite only: on PostgreSQL a writer waits for a session row another transaction holds
    // without a limit (no `lock_timeout` is set), so there is no busy timeout to reach.
    @Test("a writer blocked past the busy timeout gets one clear exit-74 line; readers are not blocked")
    func busyTimeout() async throws {
        let scratch = try Scratch("busy")
        let db = scratch.file("navdb.sqlite")
        let store = try NavigationStore(path: db)
        try store.startSession("s")
        // Hold the write lock from this process: an import's BEGIN IMMEDIATE stays open while
        // its input, a sequence that blocks until released, has not ended.
        let gate = Gate()
        let holder = Thread {
            _ = try? store.importNDJSON(lines: BlockingLines(gate: gate))
            gate.finish()
        }
        holder.start()
        while !gate.isLocked { try await Task.sleep(nanoseconds: 1_000_000) }

        let reader = try await scratch.navdb(["--db", db, "--json", "stack", "s"])
        // The write lock is held until after the writer below has given up, so a reader that the
        // lock blocked would give up too (exit 74 after the 10 s busy timeout): exit 0 is the
        // proof, whatever the machine's load; no clock is asked.
        #expect(reader.status == 0, "\(reader)")
        #expect(gate.isLocked && !gate.isFinished, "the write lock was held while the reader read")
        let writer = try await scratch.navdb(["--db", db, "push", "s", "A"], timeout: 60)
        gate.release()
        while !gate.isFinished { try await Task.sleep(nanoseconds: 1_000_000) }

        #expect(writer.status == 74, "\(writer)")
        #expect(
            writer.stderr == "Error: database '\(db)' stayed locked by another writer for 10000 ms; try again\n",
            "\(writer)")
        #expect(!writer.stderr.contains("database is locked"))
        #expect(writer.seconds >= 9.5, "gave up after \(writer.seconds) s")
        #expect(try await store.sessionInfo("s").version == 1)
        Reliability.summary(
            "busy timeout",
            "a push behind a held write lock waited \(String(format: "%.1f", writer.seconds)) s, then exit 74 with one clear line; a reader meanwhile answered in \(String(format: "%.2f", reader.seconds)) s"
        )
    }
}

/// A flag pair shared between the test and the thread holding the write lock.
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var locked = false
    private var released = false
    private var finished = false

    var isLocked: Bool {
        condition.lock()
        defer { condition.unlock() }
        return locked
    }
    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finished
    }

    /// Called inside the transaction: marks the lock as held and waits for ``release()``.
    func holdUntilReleased() {
        condition.lock()
        locked = true
        while !released { condition.wait() }
        condition.unlock()
    }

    func release() {
        condition.lock()
        released = true
        condition.broadcast()
        condition.unlock()
    }
    func finish() {
        condition.lock()
        finished = true
        condition.unlock()
    }
}

/// An input of no lines that blocks, inside the import's transaction, until its gate is released.
struct BlockingLines: Sequence, IteratorProtocol {
    let gate: Gate
    mutating func next() -> String? {
        gate.holdUntilReleased()
        return nil
    }
}
