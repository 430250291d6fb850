import Foundation
import NavStore
import NavStoreTools
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#endif

/// README "Reliability": "Killing a writer at any instant loses no acknowledged event and leaves a log,
/// projections and snapshots that `check` accepts."
///
/// The child is `navdb-bench __writer-loop` (Sources/navdb-bench/WriterLoop.swift): it opens the
/// store and appends to one session in a loop through `NavigationStore.execute`, printing each
/// version on stdout, flushed, only after the call returned, that is after the commit. A line
/// the parent reads is therefore an acknowledged event.
@Suite("Reliability: kill at any instant")
struct ReliabilityKillTests {
    /// Starts a writer on `path`, waits for its first acknowledgement (it has opened, maybe
    /// created, the file and committed once), waits `delay` microseconds more, kills it with
    /// SIGKILL and returns the versions it acknowledged.
    ///
    /// The timing runs on a thread of its own with blocking sleeps: on the test runner's
    /// cooperative pool (two threads on two cores, shared with the other suites) a `Task.sleep`
    /// of a few milliseconds can stretch to tens.
    static func killedWriter(
        bench: String, path: String, interval: Int?, delay: Int, scratch: Scratch,
        random: inout SeededGenerator
    ) async throws -> [Int] {
        var arguments = ["__writer-loop", path, "s", "--seed", String(random.next())]
        if let interval { arguments += ["--snapshot-interval", String(interval)] }
        let child = try Child(bench, arguments, directory: scratch.path, io: scratch.ioFiles())
        let acknowledged = try await onThread { () throws -> Bool in
            let deadline = Date().addingTimeInterval(60)
            while !child.stdoutSoFar().contains("\n") {
                if try child.poll() != nil { return false }
                if Date() > deadline { break }
                usleep(200)
            }
            usleep(useconds_t(delay))
            child.kill()
            return true
        }
        let result = try await child.wait()
        guard acknowledged, result.signal == SIGKILL else {
            throw Reliability.Failure("the writer was to acknowledge an event and die of SIGKILL: \(result)")
        }
        // Only whole lines count: a version whose newline was not written was not acknowledged.
        return result.lines.compactMap { Int($0) }
    }

    /// On PostgreSQL the writer is a client: its SIGKILL closes its connection, and the server
    /// rolls back the transaction it had open (the append in flight), or has committed it.
    @Test(
        "a writer killed with SIGKILL at random moments loses no acknowledged event; check stays clean",
        arguments: CommandBackend.all)
    func killAtAnyInstant(backend: CommandBackend) async throws {
        let kills = Reliability.count(50, long: 500)
        let maxDelay = Reliability.count(30_000, long: 100_000)
        let bench = try Reliability.benchBinary()
        let scratch = try Scratch("kill", backend: backend)
        var random = Reliability.random(1)
        // Two databases: one written with small snapshot intervals (2 to 5, drawn again at every
        // restart, so snapshots of several intervals sit side by side) and one at the default 64.
        let files = [
            (path: try scratch.newDatabase("small-interval.sqlite"), intervals: Optional(2...5)),
            (path: try scratch.newDatabase("default-interval.sqlite"), intervals: nil),
        ]
        var highest = [0, 0]
        var acknowledged = 0
        var lost = 0
        var unacknowledgedCommits = 0
        var checks = 0
        var snapshots = 0
        for kill in 0..<kills {
            let index = kill % 2
            let file = files[index]
            let interval = file.intervals.map { random.int($0) }
            let versions = try await Self.killedWriter(
                bench: bench, path: file.path, interval: interval,
                delay: random.int(0...maxDelay), scratch: scratch, random: &random)
            // Acknowledged versions are consecutive and start after everything acknowledged before.
            #expect(!versions.isEmpty)
            #expect(versions == Array((versions.first ?? 0)...(versions.last ?? 0)), "kill \(kill): \(versions)")
            #expect(
                (versions.first ?? 0) > highest[index],
                "kill \(kill): restarted at \(versions.first ?? 0) after \(highest[index])")
            acknowledged += versions.count

            // Reopen as the app would after the crash.
            let store = try NavigationStore(path: file.path, create: false)
            let version = try await store.sessionInfo("s").version
            let missing = versions.filter { $0 > version }
            lost += missing.count
            #expect(
                missing.isEmpty,
                "kill \(kill): acknowledged versions \(missing) are missing; the session is at \(version)")
            // The kill may land between a commit and its print: committed, not acknowledged.
            unacknowledgedCommits += version - (versions.last ?? version)
            highest[index] = max(versions.last ?? 0, highest[index])
            let problems = try StoreProbe.problems(store, probes: 2, random: &random)
            #expect(problems.isEmpty, "kill \(kill) (\(file.path)): \(problems)")
            checks += 1
            if kill >= kills - 2 { snapshots += try store.check().snapshots }
        }
        #expect(lost == 0)
        Reliability.summary(
            "kill (\(backend))",
            """
            \(kills) SIGKILLs survived (\(kills / 2) at snapshot intervals 2-5, \(kills - kills / 2) at 64), \
            delays 0-\(maxDelay / 1_000) ms after the first acknowledgement; \(acknowledged) acknowledged events, \
            \(lost) lost; \(unacknowledgedCommits) committed but killed before their print (the commit was durable, \
            the kill came during or just after it); \(checks) reopen+check runs clean; \
            \(snapshots) snapshots checked at the end
            """)
    }

    /// A torn write-ahead log: the copy of a killed writer's database with its `-wal` cut short.
    ///
    /// A SIGKILL alone cannot tear the log (the kernel keeps every byte written); a power loss
    /// could, so the test tears it itself. Every event acknowledged before the cut point
    /// survives; events whose frames we removed are lost from the copy, and that loss is
    /// expected here only because WE truncated committed frames: the copy must still open, pass
    /// `check`, and hold exactly the first k events of the real log (a prefix, no gap, nothing
    /// altered), with k possibly below the number acknowledged.
    // SQLite only: it cuts SQLite's -wal file; a PostgreSQL server keeps its own write-ahead log.
    @Test("a torn -wal (truncated at random offsets) opens, checks clean and keeps a prefix of the log")
    func tornWriteAheadLog() async throws {
        let kills = Reliability.count(5, long: 50)
        let offsetsPerKill = Reliability.count(4, long: 10)
        let bench = try Reliability.benchBinary()
        let scratch = try Scratch("torn-wal")
        var random = Reliability.random(2)
        let path = scratch.file("torn.sqlite")
        var copies = 0
        var shorter = 0
        var cutAcknowledged = 0
        var longestWAL = 0
        var kept: [Int] = []
        for kill in 0..<kills {
            let versions = try await Self.killedWriter(
                bench: bench, path: path, interval: 3, delay: random.int(0...30_000),
                scratch: scratch, random: &random)
            // Copy before anything reopens the file (reopening would recover and checkpoint the log).
            let database = try Data(contentsOf: URL(fileURLWithPath: path))
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
            longestWAL = max(longestWAL, wal.count)
            let truth: [Event]
            do {
                let store = try NavigationStore(path: path, create: false)
                truth = try StoreProbe.allEvents(store)
                #expect(truth.count >= versions.last ?? 0)
            }
            for round in 0..<offsetsPerKill {
                // Frames are 24 + 4096 bytes after a 32-byte header: cut at random bytes and near frame edges.
                var offset = random.int(0...wal.count)
                if round % 2 == 1 && wal.count > 32 {
                    let frames = (wal.count - 32) / 4_120
                    offset = min(max(32 + random.int(0...frames) * 4_120 + random.int(-40...40), 0), wal.count)
                }
                let directory = try scratch.directory("copy-\(kill)-\(round)")
                let copy = directory + "/torn.sqlite"
                try database.write(to: URL(fileURLWithPath: copy))
                try wal.prefix(offset).write(to: URL(fileURLWithPath: copy + "-wal"))
                let store = try NavigationStore(path: copy, create: false)
                let events = try StoreProbe.allEvents(store)
                let problems = try StoreProbe.problems(store, probes: 1, random: &random)
                #expect(problems.isEmpty, "kill \(kill), -wal cut at \(offset) of \(wal.count): \(problems)")
                #expect(events.count <= truth.count)
                #expect(
                    events == Array(truth.prefix(events.count)),
                    "kill \(kill), -wal cut at \(offset): the copy is not a prefix of the log")
                copies += 1
                kept.append(events.count)
                if events.count < truth.count { shorter += 1 }
                cutAcknowledged += max(0, (versions.last ?? 0) - events.count)
            }
        }
        Reliability.summary(
            "torn WAL",
            """
            \(kills) kills x \(offsetsPerKill) cuts = \(copies) truncated -wal copies (longest log \(longestWAL) bytes), \
            all opened with check clean and a gapless prefix 1...k of the log (k from \(kept.min() ?? 0) to \(kept.max() ?? 0)); \
            \(shorter) copies shorter than the log, \(cutAcknowledged) acknowledged events cut off by our own truncation \
            (expected: we removed committed frames), 0 altered or out of order
            """)
    }

    /// NavStore.docc/Retention.md with the reliability contract: `navdb session delete` and `navdb session truncate`
    /// killed with
    /// SIGKILL at random moments (before, during and after their transaction and the checkpoint
    /// that follows it) leave either the old session or the new one, never a mix: the deleted
    /// session is wholly there or wholly gone; the truncated one has either no base and every
    /// event, or its new base and exactly the events from it on. The other session is untouched,
    /// the maintenance flag is down and `check` is clean after every kill.
    ///
    /// On PostgreSQL each kill gets a fresh schema holding an import of the model's export.
    @Test(
        "delete and truncate killed with SIGKILL at random moments leave the old or the new session, never a mix",
        arguments: CommandBackend.all)
    func killDuringRetention(backend: CommandBackend) async throws {
        let kills = Reliability.count(12, long: 120)
        let navdb = try Navdb.binary().path
        let scratch = try Scratch("kill-retention", backend: backend)
        var random = Reliability.random(3)
        // A model file: session "s" with 6,000 events (the work a kill can land in), "other" beside it.
        let model = scratch.file("model.sqlite")
        var originalEvents: [Event] = []
        var otherEvents: [Event] = []
        do {
            let store = try NavigationStore(path: model)
            try store.startSession("s", at: 0)
            try store.startSession("other", at: 0)
            try store.execute(.push(Entry(id: "root", item: NavigationItem(title: "Root"))), session: "s", at: 1)
            var version = 2
            while version < 6_000 {
                var commands: [NavigationCommand] = []
                for index in 0..<100 {
                    commands.append(
                        index % 2 == 0
                            ? .push(
                                Entry(
                                    id: "E\(version + index)", item: NavigationItem(title: "Title \(version + index)")))
                            : .pop(source: .programmatic))
                }
                try store.append(contentsOf: commands, session: "s", at: Int64(version))
                try store.execute(.markRestored, session: "other", at: Int64(version))
                version += 100
            }
            try store.vacuum()
            try store.events(session: "s") { originalEvents.append($0) }
            try store.events(session: "other") { otherEvents.append($0) }
        }
        let modelBytes = try Data(contentsOf: URL(fileURLWithPath: model))
        var modelLines: [String] = []
        try NavigationStore(path: model, create: false).exportNDJSON(session: nil) { modelLines.append($0) }
        let last = originalEvents.count
        var outcomes = ["delete old": 0, "delete new": 0, "truncate old": 0, "truncate new": 0]
        for kill in 0..<kills {
            let path = try scratch.newDatabase("copy-\(kill).sqlite")
            if backend == .sqlite {
                try modelBytes.write(to: URL(fileURLWithPath: path))
            } else {
                // The same events (ids, times, payloads); seq and the session ids are the schema's own.
                let copy = try NavigationStore(path: path)
                _ = try copy.importNDJSON(lines: modelLines)
                (originalEvents, otherEvents) = ([], [])
                try copy.events(session: "s") { originalEvents.append($0) }
                try copy.events(session: "other") { otherEvents.append($0) }
            }
            let truncating = kill % 2 == 1
            let before = random.int(2...(last - 1))
            let arguments =
                truncating
                ? ["--db", path, "session", "truncate", "s", "--before", String(before)]
                : ["--db", path, "session", "delete", "s"]
            let delay = random.int(0...120_000)
            let child = try Child(navdb, arguments, directory: scratch.path, io: scratch.ioFiles())
            try await onThread {
                usleep(useconds_t(delay))
                child.kill()
            }
            let result = try await child.wait()
            let repro =
                "kill \(kill) (\(arguments.dropFirst(2).joined(separator: " ")), after \(delay) µs; NAVSTORE_RELIABILITY_SEED=\(Reliability.seed))"
            #expect(result.signal == SIGKILL || result.status == 0, "\(repro): \(result)")

            let store = try NavigationStore(path: path, create: false)
            var events: [Event] = []
            var other: [Event] = []
            try store.events(session: "other") { other.append($0) }
            #expect(other == otherEvents, "\(repro): the other session changed")
            let exists = try await store.sessions().contains { $0.key == "s" }
            if exists { try store.events(session: "s") { events.append($0) } }
            let base = exists ? try store.base(session: "s") : nil
            if truncating {
                if base == nil && events == originalEvents {
                    outcomes["truncate old", default: 0] += 1
                } else if base?.version == before - 1, events == Array(originalEvents.dropFirst(before - 1)) {
                    outcomes["truncate new", default: 0] += 1
                    #expect(
                        try await store.state(session: "s", at: .version(before - 1)).state
                            == SessionState.fold(originalEvents.prefix(before - 1).map(\.body)), "\(repro)")
                } else {
                    Issue.record(
                        "\(repro): a mix: base \(base?.version ?? 0), \(events.count) events from version \(events.first?.version ?? 0)"
                    )
                }
            } else if !exists {
                outcomes["delete new", default: 0] += 1
            } else if events == originalEvents, base == nil {
                outcomes["delete old", default: 0] += 1
            } else {
                Issue.record("\(repro): a mix: \(events.count) of \(last) events left")
            }
            if exists {
                #expect(
                    try await store.state(session: "s").state == SessionState.fold(originalEvents.map(\.body)),
                    "\(repro): the current state changed")
            }
            #expect(try store.check().problems == [], "\(repro)")
        }
        #expect(outcomes.values.reduce(0, +) == kills)
        Reliability.summary(
            "kill during retention",
            """
            \(kills) SIGKILLs of 'session delete' and 'session truncate' on a 6,000-event session (\(backend)), 0-120 ms after the start: \
            \(outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")); no mix, check clean every time
            """)
    }
}
