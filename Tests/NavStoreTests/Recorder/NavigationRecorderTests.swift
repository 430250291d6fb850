import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// NavStore.docc/Recording.md: the recorder, through its public API (and, for the full queue, a lock held on
/// the file from this test).
@Suite("NavigationRecorder")
struct NavigationRecorderTests {
    static func push(_ id: String, _ title: String? = nil) -> NavigationCommand {
        .push(Entry(id: id, item: NavigationItem(title: title ?? id)))
    }

    /// The session's events, read back with a store of its own.
    static func events(_ path: String, _ session: String) throws -> [Event] {
        try NavigationStore(path: path, create: false).allEvents(session: session)
    }

    /// Options that keep the tests quick: no fsync, short waits.
    static func quick(capacity: Int = 4_096, platform: PlatformGeneration = .ios14) -> RecorderOptions {
        var options = RecorderOptions(platform: platform, queueCapacity: capacity)
        options.store.synchronous = .off
        options.retryIntervalMilliseconds = 20
        options.pollIntervalMilliseconds = 10
        return options
    }

    /// The first failures of `recorder` that match, waiting at most `seconds`.
    static func failures(
        of recorder: NavigationRecorder, count: Int, seconds: Double = 30,
        matching: @escaping @Sendable (RecorderFailure) -> Bool
    ) async -> [RecorderFailure] {
        await withTaskGroup(of: [RecorderFailure].self) { group in
            group.addTask {
                var found: [RecorderFailure] = []
                for await failure in recorder.failures where matching(failure) {
                    found.append(failure)
                    if found.count >= count { break }
                }
                return found
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
    }

    @Test(
        "recorded commands of two sessions are committed in order by flush(); a new session starts with the options' platform"
    )
    func recordAndFlush() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick(platform: .ios26))
        for index in 0..<300 {
            recorder.record(Self.push("a\(index)"), session: "one")
            if index % 3 == 0 { recorder.record(Self.push("b\(index)"), session: "two") }
        }
        try await recorder.flush()
        let one = try Self.events(path, "one")
        #expect(one.count == 301)
        #expect(one.map(\.version) == Array(1...301))
        #expect(one.first?.body == .sessionStarted(name: nil, platform: .ios26))
        #expect(one.dropFirst().map(\.body.entryIDs) == (0..<300).map { ["a\($0)"] })
        #expect(try Self.events(path, "two").count == 101)
        // Times never go backwards, and every event has its own id.
        #expect(zip(one, one.dropFirst()).allSatisfy { $0.at <= $1.at })
        #expect(Set(one.map(\.eventID)).count == one.count)
        let store = try NavigationStore(path: path, create: false)
        #expect(try store.check().isClean)
        // A session that exists keeps its own generation: a recorder under ios14 appends to it.
        let other = NavigationRecorder(path: path, options: Self.quick(platform: .ios14))
        other.record(Self.push("z"), session: "one")
        try await other.flush()
        #expect(try await store.sessionInfo("one").platform == .ios26)
        #expect(try await store.sessionInfo("one").version == 302)
    }

    @Test("by default commits are not synced; flush syncs the log once for what it covers, and only then")
    func syncAtFlush() async throws {
        #expect(RecorderOptions().store.synchronous == .normal)
        #expect(RecorderOptions.defaultStore.busyTimeoutMilliseconds == StoreOptions().busyTimeoutMilliseconds)
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        var options = RecorderOptions()
        options.pollIntervalMilliseconds = 5
        let recorder = NavigationRecorder(path: path, options: options)
        let syncs = { recorder.shared.state.withLock { $0.tickets.syncs } }
        for index in 0..<20 { recorder.record(Self.push("p\(index)"), session: "s") }
        // Committed without a sync: a live reader sees all 21 events before any flush.
        var seen = 0
        for try await _ in recorder.events(session: "s") {
            seen += 1
            if seen == 21 { break }
        }
        #expect(syncs() == 0)
        try await recorder.flush()
        #expect(syncs() == 1)
        // Nothing new: the next flush has nothing to sync.
        try await recorder.flush()
        #expect(syncs() == 1)
        recorder.record(Self.push("last"), session: "s")
        try await recorder.flush()
        #expect(syncs() == 2)
        try await recorder.close()
        #expect(try Self.events(path, "s").count == 22)

        // At full every commit is synced: a flush syncs nothing more.
        var full = RecorderOptions()
        full.store.synchronous = .full
        let synced = NavigationRecorder(path: directory.path("full.sqlite"), options: full)
        synced.record(Self.push("a"), session: "s")
        try await synced.flush()
        #expect(synced.shared.state.withLock { $0.tickets.syncs } == 0)
        #expect(try Self.events(directory.path("full.sqlite"), "s").count == 2)
        try await synced.close()
    }

    /// The files under `directory` this process has open (Linux's /proc/self/fd).
    static func openFiles(under directory: String) -> [String] {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(directory) }
    }

    @Test("suspend() closes every connection (writer and live readers) and keeps calls queued; resume() writes them")
    func suspendAndResume() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        for index in 0..<5 { recorder.record(Self.push("p\(index)"), session: "s") }
        try await recorder.flush()
        // A live reader with its own connection, reading as events come.
        let seen = Lock<[Int]>([])
        let reader = Task {
            for try await event in recorder.events(session: "s") {
                seen.withLock { $0.append(event.version) }
                if event.version == 9 { break }
            }
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while seen.withLock({ $0.count }) < 6, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        try #require(seen.withLock { $0.count } == 6)
        #expect(!Self.openFiles(under: directory.url.path).isEmpty)

        try await recorder.suspend()
        // No connection is left: no file of the folder is open, and the last connection's close
        // removed the -wal and -shm files (nothing to hold a lock on).
        #expect(Self.openFiles(under: directory.url.path) == [])
        #expect(recorder.shared.commits.openReaders == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        // Calls keep coming and stay queued; a flush throws at once rather than wait.
        for index in 5..<8 { recorder.record(Self.push("p\(index)"), session: "s") }
        await #expect(throws: StoreError.self) { try await recorder.flush() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(Self.openFiles(under: directory.url.path) == [])
        #expect(try Self.events(path, "s").count == 6)
        // A second suspend changes nothing.
        try await recorder.suspend()

        recorder.resume()
        try await recorder.flush()
        #expect(try Self.events(path, "s").map(\.version) == Array(1...9))
        try await reader.value
        #expect(seen.withLock { $0 } == Array(1...9))
        // resume() of a recorder that is not suspended does nothing.
        recorder.resume()
        recorder.record(Self.push("last"), session: "s")
        try await recorder.close()
        #expect(try Self.events(path, "s").count == 10)
    }

    @Test("suspend() of a recorder whose store cannot open returns, keeps the calls, and close() ends")
    func suspendWhileFailing() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing/nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        recorder.record(Self.push("a"), session: "s")
        await #expect(throws: StoreError.self) { try await recorder.suspend() }
        recorder.record(Self.push("b"), session: "s")
        try FileManager.default.createDirectory(atPath: directory.path("missing"), withIntermediateDirectories: true)
        recorder.resume()
        try await recorder.flush()
        #expect(try Self.events(path, "s").compactMap(\.body.entryIDs.first) == ["a", "b"])
        try await recorder.close()
    }

    /// Runs `chattr` (e2fsprogs) on `path`; `false` when it cannot (not installed, a file system
    /// without the immutable flag).
    @discardableResult
    static func chattr(_ flag: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether this machine can make a file unwritable even for root (the tests run as root,
    /// whom permissions do not stop): the immutable flag.
    static let canMakeImmutable: Bool = {
        guard let directory = try? TemporaryDirectory() else { return false }
        let probe = directory.path("probe")
        _ = FileManager.default.createFile(atPath: probe, contents: nil)
        guard chattr("+i", probe) else { return false }
        chattr("-i", probe)
        return true
    }()

    @Test(
        "a store that is read-only when the recorder opens it is opened again once it is writable",
        .enabled(if: canMakeImmutable, "needs chattr +i: the tests run as root, whom permissions do not stop"))
    func readOnlyRecovers() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let store = try NavigationStore(path: path)
        try store.startSession("s")
        _ = store  // closed at the end of the test; its connection keeps -wal and -shm in place
        // The database file itself cannot be written, by anyone: SQLite opens it read-only.
        #expect(Self.chattr("+i", path))
        defer { Self.chattr("-i", path) }
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        recorder.record(Self.push("a"), session: "s")
        await #expect(throws: StoreError.self) { try await recorder.flush() }
        // Opened read-only, the write is refused: reported, the call kept.
        let reported = await Self.failures(of: recorder, count: 1) {
            if case .store(.readOnly) = $0 { true } else { false }
        }
        #expect(reported.count == 1, "\(reported)")
        // Writable again: the writer's next attempt opens the store anew and writes.
        #expect(Self.chattr("-i", path))
        var flushed = false
        for _ in 0..<200 where !flushed {
            do {
                try await recorder.flush()
                flushed = true
            } catch {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(flushed)
        #expect(try Self.events(path, "s").compactMap(\.body.entryIDs.first) == ["a"])
        try await recorder.close()
    }

    @Test("a session key past the one limit is not stored: reported once, the other sessions' calls written")
    func sessionKeyLimit() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        let long = String(repeating: "🧭", count: 251)  // 1,004 bytes
        recorder.record(Self.push("a"), session: "short")
        recorder.record(Self.push("a"), session: long)
        recorder.record(Self.push("b"), session: "short")
        try await recorder.flush()
        #expect(try Self.events(path, "short").count == 3)
        let reported = await Self.failures(of: recorder, count: 1) {
            if case .notStored(_, .sessionKeyTooLong(_, bytes: 1_004)) = $0 { true } else { false }
        }
        #expect(reported.count == 1)
        #expect(try await NavigationStore(path: path).sessions().map(\.key) == ["short"])
        try await recorder.close()
    }

    @Test("flush with nothing recorded returns at once; record and observe never throw on odd input")
    func oddInput() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        try await recorder.flush()
        // Nothing was recorded, so nothing was opened or created.
        #expect(!FileManager.default.fileExists(atPath: path))
        recorder.record(.pop(source: .backButton), session: "s")  // refused: nothing to pop
        recorder.record(Self.push(""), session: "s")  // refused: an empty id
        recorder.observe(.shouldPop(id: "nowhere"), session: "s")  // not on the stack
        recorder.record(Self.push("A", String(repeating: "長", count: 10_000)), session: "s")
        recorder.record(Self.push("B", "🧭\u{0}\n"), session: "")  // an empty key: not stored
        try await recorder.flush()
        let events = try Self.events(path, "s")
        #expect(events.map(\.type) == ["session.started", "entry.pushed"])
        #expect(events.last?.body.entryIDs == ["A"])
        let reported = await Self.failures(of: recorder, count: 4) { _ in true }
        #expect(reported.count == 4, "\(reported)")
        #expect(reported.contains { if case .refused(let key, _, .emptyStack) = $0 { key == "s" } else { false } })
        #expect(reported.contains { if case .refused(_, _, .emptyEntryID) = $0 { true } else { false } })
        #expect(reported.contains { if case .unobservable(_, _, .entryNotInStack) = $0 { true } else { false } })
        #expect(reported.contains { if case .notStored("", .emptySessionKey) = $0 { true } else { false } })
    }

    @Test("observed callbacks go through the session's observer: sources, vetoes and observed replacements")
    func observe() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        for trace in try TraceCase.all() {
            let session = "trace-\(trace.id)"
            guard trace.platform == .ios14 else { continue }
            for line in try trace.lines() { recorder.observe(line.callback, session: session) }
        }
        try await recorder.flush()
        for trace in try TraceCase.all() where trace.platform == .ios14 {
            let events = try Self.events(path, "trace-\(trace.id)").dropFirst().map(\.body)
            #expect(trace.eventMismatches(events).isEmpty, "\(trace): \(trace.eventMismatches(events))")
            let expected = try trace.runThroughObserver().events
            #expect(events == expected, "\(trace)")
        }
    }

    @Test(
        "events(session:from:) gives the history first, then each new event once, in order; a missing session is waited for"
    )
    func liveEvents() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        // Started before the database and the session exist.
        let reader = Task {
            var versions: [Int] = []
            for try await event in recorder.events(session: "s", from: 1) {
                versions.append(event.version)
                if versions.count == 51 { break }
            }
            return versions
        }
        let later = Task {
            var versions: [Int] = []
            for try await event in recorder.events(session: "s", from: 40) {
                versions.append(event.version)
                if event.version == 51 { break }
            }
            return versions
        }
        for index in 0..<30 { recorder.record(Self.push("E\(index)"), session: "s") }
        try await recorder.flush()
        // Another writer's commits are seen too.
        let store = try NavigationStore(path: path, create: false)
        for index in 30..<40 { try store.execute(Self.push("E\(index)"), session: "s") }
        for index in 40..<50 {
            recorder.record(Self.push("E\(index)"), session: "s")
            if index % 4 == 0 { try await recorder.flush() }
        }
        try await recorder.flush()
        #expect(try await reader.value == Array(1...51))
        #expect(try await later.value == Array(40...51))
        // A third reader, started after everything, reads the same history and stops when cancelled.
        let afterwards = Task {
            var count = 0
            for try await _ in recorder.events(session: "s") { count += 1 }
            return count
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        afterwards.cancel()
        #expect(try await afterwards.value == 51)
    }

    @Test("a store that cannot open is reported, flush throws, calls keep coming, and all is written once it can")
    func storeThatCannotOpen() async throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("later")
        let path = folder + "/nav.sqlite"
        let recorder = NavigationRecorder(path: path, options: Self.quick(capacity: 16))
        for index in 0..<40 { recorder.record(Self.push("E\(index)"), session: "s") }
        await #expect(throws: StoreError.self) { try await recorder.flush() }
        let reported = await Self.failures(of: recorder, count: 1) {
            if case .store = $0 { true } else { false }
        }
        #expect(reported.count == 1)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await recorder.flush()
        let events = try Self.events(path, "s")
        // A full queue keeps the older calls and counts the newer ones as dropped, in the log where
        // they were lost. The writer takes what is queued into its batch (1 to 16 calls, however
        // far the recording thread got) before its first open fails, which frees the queue for 16
        // more: so the log holds E0...E15 at least and 32 at most, each run of dropped calls
        // counted by a calls.dropped note in its place, in the order the calls came.
        let pushes = events.filter { $0.type == "entry.pushed" }
        #expect(pushes.count >= 16 && pushes.count <= 32, "\(events.map(\.type))")
        #expect(Array(pushes.prefix(16).map(\.body.entryIDs)) == (0..<16).map { ["E\($0)"] })
        var next = 0
        var notes = 0
        for event in events.dropFirst() {
            switch event.body {
            case .entryPushed(let entry):
                #expect(entry.id == "E\(next)", "\(events.map(\.body.entryIDs))")
                next += 1
            case .callsDropped(let count, let firstAt, let lastAt):
                #expect(count >= 1 && firstAt <= lastAt)
                next += count
                notes += 1
            default:
                Issue.record("unexpected \(event.type)")
            }
        }
        #expect(next == 40, "every call is either in the log or counted as dropped")
        #expect(notes >= 1 && (40 - pushes.count) >= notes)
    }

    /// Every failure of `recorder` until it is closed (after `body`).
    static func allFailures(
        _ recorder: NavigationRecorder, _ body: () async throws -> Void
    ) async throws -> [RecorderFailure] {
        let collected = Task {
            var all: [RecorderFailure] = []
            for await failure in recorder.failures { all.append(failure) }
            return all
        }
        try await body()
        try? await recorder.close()
        return await collected.value
    }

    @Test("an empty path is refused once, its calls given up and counted; nothing is tried again and again")
    func emptyPath() async throws {
        let recorder = NavigationRecorder(path: "", options: Self.quick())
        let failures = try await Self.allFailures(recorder) {
            for index in 0..<3 { recorder.record(Self.push("E\(index)"), session: "s") }
            // A flush waiting when the calls are given up throws; one that comes after returns,
            // as for any call given up (flush()'s contract): either way it returns.
            _ = try? await recorder.flush()
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        // One report per batch given up (the writer may take the first call before the others
        // come), never one per retry: the three calls are counted as dropped, once each.
        let stores = failures.compactMap { if case .store(let error) = $0 { error } else { nil } }
        let dropped = failures.compactMap { if case .dropped("s", let count) = $0 { count } else { nil } }
        #expect((1...3).contains(stores.count) && stores.count == dropped.count, "\(failures)")
        #expect(stores.allSatisfy { "\($0)".contains("the path is empty") }, "\(stores)")
        #expect(dropped.reduce(0, +) == 3, "\(failures)")
    }

    @Test("a file that is not a NavStore database is a permanent failure: reported once, calls dropped, no retries")
    func foreignFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        let failures = try await Self.allFailures(recorder) {
            recorder.record(Self.push("A"), session: "s")
            // Throws when it waits as the call is given up, returns when it comes after.
            _ = try? await recorder.flush()
            // Retries 20 ms apart would show here as more failures.
            try await Task.sleep(nanoseconds: 300_000_000)
            recorder.record(Self.push("B"), session: "s")
            _ = try? await recorder.flush()
        }
        let stores = failures.compactMap { if case .store(let error) = $0 { error } else { nil } }
        #expect(stores.count == 2, "one per batch given up: \(failures)")
        #expect(failures.filter { $0 == .dropped(session: "s", count: 1) }.count == 2, "\(failures)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("an observed stack is refused by record() (the observer makes it), reported and never written")
    func storeOnlyCommands() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        let failures = try await Self.allFailures(recorder) {
            recorder.record(Self.push("A"), session: "s")
            recorder.record(.observedStack([Entry(id: "X")], reason: "made up"), session: "s")
            recorder.record(Self.push("B"), session: "s")
            try await recorder.flush()
        }
        let refused = failures.compactMap { if case .notStored(let session, let error) = $0 { (session, "\(error)") } else { nil } }
        #expect(refused.count == 1 && refused.allSatisfy { $0.0 == "s" && $0.1.contains("made by NavStore's observer") }, "\(failures)")
        #expect(try Self.events(path, "s").map(\.type) == ["session.started", "entry.pushed", "entry.pushed"])
    }

    @Test("a database file deleted under a running recorder is noticed: reported, and the next calls go to a new file")
    func deletedFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        let failures = try await Self.allFailures(recorder) {
            recorder.record(Self.push("A"), session: "s")
            try await recorder.flush()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            recorder.record(Self.push("B"), session: "s")
            try await recorder.flush()
        }
        #expect(
            failures.contains { if case .store(let error) = $0 { "\(error)".contains("deleted or replaced") } else { false } },
            "\(failures)")
        let events = try Self.events(path, "s")
        #expect(events.map(\.type) == ["session.started", "entry.pushed"])
        #expect(events.last?.body.entryIDs == ["B"])
    }

    @Test("an idle live reader looks for other writers' commits ever less often, up to once a second")
    func idleWaits() {
        typealias Iterator = RecordedEvents.Iterator
        #expect((0..<8).map { Iterator.idleWait(poll: 50, checks: $0) } == [50, 100, 200, 400, 800, 1_000, 1_000, 1_000])
        #expect(Iterator.idleWait(poll: 5_000, checks: 3) == 5_000)
        #expect(Iterator.idleWait(poll: 0, checks: 0) == 1)
        #expect(Iterator.idleWait(poll: 60_000, checks: Int.max) == 60_000)
    }

    @Test("an idle live reader that watches this recorder alone makes no wake-up; one that watches others backs off")
    func idleWakeUps() async throws {
        let directory = try TemporaryDirectory()
        for watches in [false, true] {
            let path = directory.path("nav-\(watches).sqlite")
            var options = Self.quick()
            options.watchesOtherWriters = watches
            let recorder = NavigationRecorder(path: path, options: options)
            recorder.record(Self.push("a"), session: "s")
            try await recorder.flush()
            let seen = Lock(0)
            let reader = Task {
                for try await _ in recorder.events(session: "s") {
                    let count = seen.withLock { count -> Int in
                        count += 1
                        return count
                    }
                    if count == 3 { break }
                }
            }
            let deadline = ContinuousClock.now + .seconds(120)
            while seen.withLock({ $0 }) < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
            try #require(seen.withLock { $0 } == 2)
            let before = recorder.shared.commits.timeouts
            try await Task.sleep(for: .milliseconds(400))
            let wakeUps = recorder.shared.commits.timeouts - before
            if watches {
                // 10, 20, 40, 80, 160 ms: a handful of looks in 400 ms, fewer and fewer.
                #expect((1...10).contains(wakeUps), "\(wakeUps)")
            } else {
                #expect(wakeUps == 0)
            }
            // This recorder's commit wakes it at once either way.
            recorder.record(Self.push("b"), session: "s")
            try await reader.value
            #expect(seen.withLock { $0 } == 3)
            try await recorder.close()
        }
    }

    @Test("numbers past their range are taken as the nearest bound: no allocation of Int.max calls, no overflowing wait")
    func optionsAreClamped() async throws {
        var options = Self.quick()
        options.queueCapacity = Int.max
        options.retryIntervalMilliseconds = Int.max
        options.pollIntervalMilliseconds = Int.min
        let clamped = options.clamped
        #expect(clamped.queueCapacity == RecorderOptions.queueCapacityRange.upperBound)
        #expect(clamped.retryIntervalMilliseconds == RecorderOptions.intervalRange.upperBound)
        #expect(clamped.pollIntervalMilliseconds == 1)
        options.queueCapacity = -5
        #expect(options.clamped.queueCapacity == 1)
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        options.queueCapacity = Int.max
        let recorder = NavigationRecorder(path: path, options: options)
        recorder.record(Self.push("A"), session: "s")
        try await recorder.flush()
        try await recorder.close()
        #expect(try Self.events(path, "s").map(\.type) == ["session.started", "entry.pushed"])
    }

    @Test("close() of a recorder whose store never opens ends at once, after one last attempt; no attempt without a wait")
    func closeWhileTheStoreCannotOpen() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("missing-folder/nav.sqlite")
        let started = Date()
        let recorder = NavigationRecorder(path: path, options: Self.quick())
        // Every attempt to open the store reports a failure: counting them counts the attempts.
        let attempts = Task {
            var count = 0
            for await failure in recorder.failures { if case .store = failure { count += 1 } }
            return count
        }
        for index in 0..<5 { recorder.record(Self.push("E\(index)"), session: "s") }
        // Retries 20, 40, 80, 160 ms apart: a few attempts in this half second.
        try await Task.sleep(nanoseconds: 500_000_000)
        // close() must return, whatever the store does: give it 10 s before calling it a hang
        // (and leave it hanging then, rather than the whole run).
        let outcome = Locked<String?>(nil)
        Task {
            do {
                try await recorder.close()
                outcome.withLock { $0 = "returned" }
            } catch {
                outcome.withLock { $0 = "threw \(error)" }
            }
        }
        for _ in 0..<1_000 where outcome.withLock({ $0 }) == nil {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        guard let outcome = outcome.withLock({ $0 }) else {
            Issue.record("close() had not returned 10 s after it was called")
            return
        }
        #expect(outcome.hasPrefix("threw"), "close() \(outcome)")
        // The failures end with the writer. Retries come 20, 40, 80, ... ms apart, at most 640 ms
        // (32 times the interval): at most 7 in the first 1.3 s, then under 2 a second, plus one
        // for close()'s flush and the last one, however long a busy machine made this test take.
        // A writer that retried without waiting makes thousands a second.
        let count = await attempts.value
        let seconds = Date().timeIntervalSince(started)
        #expect(count >= 2 && Double(count) <= 10 + 2 * seconds, "\(count) attempts to open the store in \(seconds) s")
        #expect(!FileManager.default.fileExists(atPath: path))
        // After close() nothing is taken, and nothing is tried.
        recorder.record(Self.push("late"), session: "s")
        await #expect(throws: (any Error).self) { try await recorder.flush() }
    }

    @Test("a full queue drops the newer calls, counts them per session, and notes them where the drop began")
    func fullQueue() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let store = try NavigationStore(path: path)
        try store.startSession("a")
        try store.execute(Self.push("root"), session: "a")
        // Another connection holds the write lock: the writer waits, then backs off and retries.
        let holder = try Connection(path: path, mode: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")
        var options = Self.quick(capacity: 10)
        options.store.busyTimeoutMilliseconds = 30
        let recorder = NavigationRecorder(path: path, options: options)
        let started = Date()
        for index in 0..<500 {
            recorder.record(Self.push("a\(index)"), session: "a")
            recorder.record(Self.push("b\(index)"), session: "b")
        }
        // 1,000 calls with the writer stuck: none waited for the lock.
        #expect(Date().timeIntervalSince(started) < 5)
        try await Task.sleep(nanoseconds: 100_000_000)
        try holder.execute("COMMIT")
        try await recorder.flush()
        // The kept calls are in order; each run of dropped ones is one note, where the run began,
        // counting exactly the calls missing there; kept and dropped make every call.
        var dropped: [String: Int] = [:]
        for (key, events) in [
            ("a", try Self.events(path, "a").dropFirst(2)), ("b", try Self.events(path, "b").dropFirst()),
        ] {
            var next = 0
            var kept = 0
            for event in events {
                switch event.body {
                case .entryPushed(let entry):
                    #expect(entry.id == "\(key)\(next)", "\(key): \(events.map(\.type))")
                    next += 1
                    kept += 1
                case .callsDropped(let count, let firstAt, let lastAt):
                    #expect(count >= 1 && firstAt <= lastAt)
                    next += count
                    dropped[key, default: 0] += count
                default:
                    Issue.record("unexpected \(event.type)")
                }
            }
            #expect(next == 500, "\(key): \(kept) kept")
            #expect(kept >= 5 && (dropped[key] ?? 0) > 0, "\(key): \(kept) kept")
        }
        let notes =
            try Self.events(path, "a").filter { $0.type == "calls.dropped" }.count
            + Self.events(path, "b").filter { $0.type == "calls.dropped" }.count
        let reported = await Self.failures(of: recorder, count: notes) {
            if case .dropped = $0 { true } else { false }
        }
        var reportedCounts: [String: Int] = [:]
        for case .dropped(let key, let count) in reported { reportedCounts[key, default: 0] += count }
        #expect(reportedCounts == dropped)
        // After the drop, recording goes on.
        recorder.record(Self.push("after"), session: "a")
        try await recorder.flush()
        #expect(try Self.events(path, "a").last?.body.entryIDs == ["after"])
        #expect(try store.check().isClean)
    }

    @Test(
        "two recorders on one file, into one session and sessions of their own, lose no update",
        arguments: StoreBackend.all)
    func twoRecorders(backend: StoreBackend) async throws {
        let directory = try TemporaryDirectory()
        let path = try backend.location(directory)
        let first = NavigationRecorder(path: path, options: Self.quick())
        let second = NavigationRecorder(path: path, options: Self.quick())
        await withTaskGroup(of: Void.self) { group in
            for (name, recorder) in [("x", first), ("y", second)] {
                group.addTask {
                    for index in 0..<300 {
                        recorder.record(Self.push("\(name)\(index)"), session: "shared")
                        recorder.record(Self.push("\(name)\(index)"), session: "own-\(name)")
                    }
                }
            }
        }
        try await first.flush()
        try await second.flush()
        let store = try NavigationStore(path: path, create: false)
        let shared = try store.allEvents(session: "shared")
        #expect(shared.count == 601 && shared.map(\.version) == Array(1...601))
        #expect(shared.filter { $0.type == "session.started" }.count == 1)
        let ids = shared.flatMap(\.body.entryIDs)
        #expect(ids.filter { $0.hasPrefix("x") } == (0..<300).map { "x\($0)" })
        #expect(ids.filter { $0.hasPrefix("y") } == (0..<300).map { "y\($0)" })
        #expect(try await store.state(session: "shared", at: nil).state.depth == 600)
        #expect(try store.allEvents(session: "own-x").count == 301)
        #expect(try store.allEvents(session: "own-y").count == 301)
    }
}
