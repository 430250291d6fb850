import Foundation
import NavStore
import NavStoreTools
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#endif

/// NavStore.docc/Recording.md and docs/reliability.md for the recorder: a recording process killed after
/// `flush()` returned loses nothing, killed at any other moment only the unflushed tail, and
/// leaves a file `check` accepts; recorders in several processes and `navdb` writers on one file
/// lose no update.
///
/// The child is `navdb-bench __recorder-loop` (Sources/navdb-bench/RecorderLoop.swift): it
/// records pushes `TAG-1`, `TAG-2`, ... and prints, after each `flush()` returned, how many it
/// had recorded: a line the parent reads is a count of committed pushes.
@Suite("Reliability: the recorder")
struct RecorderReliabilityTests {
    /// The ids of `session`'s pushes, in log order.
    static func pushedIDs(_ store: NavigationStore, _ session: String) throws -> [String] {
        var ids: [String] = []
        try store.events(session: session) { event in
            if case .entryPushed(let entry) = event.body { ids.append(entry.id) }
        }
        return ids
    }

    @Test(
        "a recording process killed with SIGKILL loses nothing flushed, only an unflushed tail; check stays clean",
        arguments: Reliability.backends)
    func killedRecorder(backend: CommandBackend) async throws {
        let kills = Reliability.count(16, long: 160)
        let bench = try Reliability.benchBinary()
        let scratch = try Scratch("recorder-kill", backend: backend)
        var random = Reliability.random(31)
        let path = try scratch.newDatabase("recorded.sqlite")
        var stored = 0
        var flushed = 0
        var tails = 0
        var lost = 0
        for kill in 0..<kills {
            let every = random.int(1...40)
            let delay = random.int(0...40_000)
            let child = try Child(
                bench,
                [
                    "__recorder-loop", path, "s", "--start", String(stored), "--flush-every", String(every), "--tag",
                    "p",
                ],
                directory: scratch.path, io: scratch.ioFiles())
            let acknowledgedOnce = try await onThread { () throws -> Bool in
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
            #expect(acknowledgedOnce && result.signal == SIGKILL, "kill \(kill): \(result)")
            let acknowledged = result.lines.compactMap { Int($0) }.max() ?? stored
            let store = try NavigationStore(path: path, create: false)
            let ids = try Self.pushedIDs(store, "s")
            // The log holds exactly p-1 ... p-n, in order, with no gap: a prefix of what was recorded.
            #expect(ids == (0..<ids.count).map { "p-\($0 + 1)" }, "kill \(kill): \(ids.suffix(5))")
            #expect(ids.count >= acknowledged, "kill \(kill): \(ids.count) stored, \(acknowledged) flushed")
            lost += max(0, acknowledged - ids.count)
            tails += ids.count - acknowledged
            flushed = acknowledged
            stored = ids.count
            let report = try store.check()
            #expect(report.isClean, "kill \(kill): \(report.problems)")
            #expect(!result.stderr.contains("failure:"), "kill \(kill): \(result.stderr)")
        }
        #expect(lost == 0)
        Reliability.summary(
            "recorder kill (\(backend))",
            """
            \(kills) SIGKILLs of a recording process, flushes every 1-40 pushes, kills 0-40 ms after the first flush; \
            \(stored) pushes stored, the last kill after \(flushed) flushed; \(lost) flushed pushes lost; \(tails) committed \
            beyond the last flush (the writer had already committed part of the tail); every log a gapless prefix, check clean
            """)
    }

    @Test(
        "two recording processes and navdb writers on one file, one shared session: no lost update, no gap",
        arguments: Reliability.backends)
    func recordersAndWriters(backend: CommandBackend) async throws {
        let perRecorder = Reliability.count(1_000, long: 10_000)
        let writes = Reliability.count(24, long: 200)
        let bench = try Reliability.benchBinary()
        let scratch = try Scratch("recorders", backend: backend)
        let path = try scratch.newDatabase("shared.sqlite")
        // The file exists first, so that the navdb writers below find the session.
        let store = try NavigationStore(path: path)
        try store.startSession("shared")
        try store.execute(.push(Entry(id: "root")), session: "shared")
        // The recorders record until the writers are done (then this file appears), at least
        // `perRecorder` pushes each. A push every 4 ms, a commit every 5 pushes: the write lock is
        // taken as often as with a push a millisecond and a commit every 25. Past `perRecorder`
        // pushes a recorder slows to a push every 25 ms (a commit every 125 ms), still recording
        // until after the last writer: a loaded machine that keeps the navdb writers slow no
        // longer grows the stack without bound (full runs grew it past 12,000 entries a
        // recorder, and every snapshot and the suite's time with it).
        let stop = scratch.file("writers-done")
        let recorders = try ["x", "y"].map { tag in
            try Child(
                bench,
                [
                    "__recorder-loop", path, "shared", "--flush-every", "5", "--tag", tag, "--pace-ms", "4",
                    "--slow-after", "\(perRecorder)", "--slow-pace-ms", "25", "--until-exists", stop,
                ],
                directory: scratch.path, io: scratch.ioFiles())
        }
        // The navdb writers start once both recorders have committed a first flush, four at a
        // time, while the recorders go on.
        try await onThread {
            let deadline = Date().addingTimeInterval(120)
            while recorders.contains(where: { !$0.stdoutSoFar().contains("\n") }) && Date() < deadline {
                usleep(500)
            }
        }
        let results = try await withThrowingTaskGroup(of: ChildResult.self) { group in
            for lane in 0..<4 {
                group.addTask {
                    var last: ChildResult?
                    for index in stride(from: lane, to: writes, by: 4) {
                        let result = try await scratch.navdb(["--db", path, "push", "shared", "n-\(index)"])
                        if result.status != 0 { return result }
                        last = result
                    }
                    return last
                        ?? ChildResult(status: 0, signal: nil, stdout: "", stderr: "", seconds: 0, timedOut: false)
                }
            }
            var all: [ChildResult] = []
            for try await result in group { all.append(result) }
            return all
        }
        for result in results { #expect(result.status == 0, "\(result)") }
        let written = writes
        // The writers are done; each recorder goes on to at least `perRecorder` pushes, then stops.
        try await onThread {
            let deadline = Date().addingTimeInterval(300)
            while recorders.contains(where: {
                ($0.stdoutSoFar().split(separator: "\n").last.flatMap { Int($0) } ?? 0) < perRecorder
            })
                && Date() < deadline
            {
                usleep(1_000)
            }
        }
        let stillRecording = try recorders.filter { try $0.poll() == nil }.count
        #expect(stillRecording == 2, "a recorder ended before the writers did")
        _ = FileManager.default.createFile(atPath: stop, contents: nil)
        var recorded: [String: Int] = [:]
        for (tag, recorder) in zip(["x", "y"], recorders) {
            let result = try await recorder.wait(timeout: 600)
            #expect(result.status == 0, "recorder \(tag): \(result)")
            // A store that stayed locked by the other writers (a loaded machine) is reported and
            // retried, losing nothing; no other failure may occur.
            let failures = result.stderr.split(separator: "\n").filter { $0.hasPrefix("failure:") }
            #expect(failures.allSatisfy { $0.contains("stayed locked") }, "recorder \(tag): \(result.stderr)")
            recorded[tag] = result.lines.compactMap { Int($0) }.last ?? 0
            #expect(recorded[tag]! >= perRecorder, "recorder \(tag): \(result)")
        }
        let ids = try Self.pushedIDs(store, "shared")
        for tag in ["x", "y"] {
            #expect(
                ids.filter { $0.hasPrefix("\(tag)-") } == (1...max(1, recorded[tag] ?? 0)).map { "\(tag)-\($0)" },
                "\(tag)")
        }
        #expect(Set(ids.filter { $0.hasPrefix("n-") }) == Set((0..<writes).map { "n-\($0)" }))
        let info = try await store.sessionInfo("shared")
        let pushes = recorded.values.reduce(0, +)
        #expect(info.version == 2 + pushes + written)
        #expect(info.depth == 1 + pushes + written)
        #expect(try store.check().isClean)
        Reliability.summary(
            "recorders and writers (\(backend))",
            "2 recording processes (\(recorded["x"] ?? 0) and \(recorded["y"] ?? 0) pushes, recording from before the first navdb writer to after the last; \(stillRecording) of 2 still running then) and \(written) navdb push processes (4 at a time) on one session: \(ids.count) pushes, none lost, versions gapless, check clean"
        )
    }
}
