import Dispatch
import NavStore
import NavStoreTools

/// 10. The recorder (NavStore.docc/Recording.md): what a `record()` costs the calling thread, against a
/// synchronous `execute` of the same commands (each a transaction with its fsync); and the rate
/// at which its writer commits a stream of calls, against the bulk append of the same commands
/// through the batch API, same `synchronous`.
enum RecorderBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        let perRound = options.small ? 200 : 1_000
        let rounds = options.small ? 2 : options.full ? 9 : 5
        let sustained = options.size(20_000)
        let sustainedRounds = options.small ? 2 : options.full ? 7 : 5
        return try [
            callerThread(perRound: perRound, rounds: rounds),
            sustainedAppend(events: sustained, rounds: sustainedRounds),
        ]
    }

    /// Waits, on this (non-async) thread, for `recorder.flush()`.
    static func flush(_ recorder: NavigationRecorder) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = LockedBox<(any Error)?>(nil)
        Task {
            do { try await recorder.flush() } catch { failure.set(error) }
            done.signal()
        }
        done.wait()
        if let error = failure.get() { throw error }
    }

    /// Row 10a: each `record()` timed alone on the caller's thread (its median, mean and p99),
    /// against each `execute` of the same commands on another session of the same kind.
    private static func callerThread(perRound: Int, rounds: Int) throws -> Figure {
        var recordTimes: [Double] = []
        var executeTimes: [Double] = []
        var roundRatios: [Double] = []
        var meanRatios: [Double] = []
        var dropped = 0
        try TempDirectory.with("recorder") { dir in
            for round in 0..<rounds {
                let workload = SessionWorkload(key: "r\(round)", events: perRound + 1, seed: 10_000 + UInt64(round))
                let storePath = dir.file("execute-\(round).sqlite")
                let recorderPath = dir.file("recorder-\(round).sqlite")
                var ours: [Double] = []
                var theirs: [Double] = []
                func timeRecorder() throws {
                    let store = try NavigationStore(path: recorderPath)
                    try store.startSession(workload.key)
                    let recorder = NavigationRecorder(path: recorderPath)
                    try flush(recorder)  // the writer has opened the store
                    for command in workload.commands {
                        let start = monotonicNanoseconds()
                        recorder.record(command, session: workload.key)
                        ours.append(Double(monotonicNanoseconds() - start) / 1e9)
                    }
                    try flush(recorder)
                    let stored = try store.sessionInfo(workload.key).version - 1
                    dropped += workload.commands.count - min(stored, workload.commands.count)
                }
                func timeExecute() throws {
                    let store = try NavigationStore(path: storePath)
                    try store.startSession(workload.key)
                    for command in workload.commands {
                        let start = monotonicNanoseconds()
                        try store.execute(command, session: workload.key)
                        theirs.append(Double(monotonicNanoseconds() - start) / 1e9)
                    }
                }
                try inAlternatingOrder(round: round, timeRecorder, timeExecute)
                roundRatios.append(quantile(ours, 0.99) / quantile(theirs, 0.99))
                meanRatios.append(mean(ours) / mean(theirs))
                recordTimes += ours
                executeTimes += theirs
            }
        }
        let p99 = quantile(recordTimes, 0.99) * 1e6
        return .ratioAndAbsolute(
            "10a", "recorder record(), caller's thread", ours: p99, unit: "µs p99",
            baselineName: "synchronous execute", baseline: quantile(executeTimes, 0.99) * 1e6,
            ratio: median(roundRatios), ratioTarget: .atMost(0.02), absoluteTarget: .atMost(50),
            extra: [
                "record µs mean": mean(recordTimes) * 1e6, "record µs median": median(recordTimes) * 1e6,
                "record µs max": (recordTimes.max() ?? 0) * 1e6, "execute µs mean": mean(executeTimes) * 1e6,
                "execute µs median": median(executeTimes) * 1e6, "ratio of means": median(meanRatios),
                "calls dropped": Double(dropped),
            ],
            note:
                "\(rounds) alternating rounds of \(perRound) pushes, pops, updates and sheets; each call timed alone with CLOCK_MONOTONIC while the writer runs on the other core; ratio = median over rounds of p99 record() / p99 execute() (the ratio of means beside it); a dropped call would be cheaper, so drops are counted (the default queue of 4,096 holds a round)"
        )
    }

    /// Row 10b: `events` calls recorded as fast as the caller can, then a flush: the events
    /// committed per second from the first call to the flush's return, against the bulk
    /// append of the same commands (one batch) in the same round.
    private static func sustainedAppend(events: Int, rounds: Int) throws -> Figure {
        var ours: [Double] = []
        var bulk: [Double] = []
        try TempDirectory.with("recorder-sustained") { dir in
            for round in 0..<rounds {
                let workload = SessionWorkload(key: "s\(round)", events: events + 1, seed: 20_000 + UInt64(round))
                let recorderPath = dir.file("recorder-\(round).sqlite")
                let bulkPath = dir.file("bulk-\(round).sqlite")
                func timeRecorder() throws {
                    let store = try NavigationStore(path: recorderPath)
                    try store.startSession(workload.key)
                    var options = RecorderOptions()
                    options.queueCapacity = events
                    let recorder = NavigationRecorder(path: recorderPath, options: options)
                    try flush(recorder)
                    ours.append(
                        try measureSeconds {
                            for command in workload.commands { recorder.record(command, session: workload.key) }
                            try flush(recorder)
                        })
                    guard try store.sessionInfo(workload.key).version == workload.commands.count + 1 else {
                        throw BenchError(
                            "the recorder stored \(try store.sessionInfo(workload.key).version - 1) of \(workload.commands.count) events"
                        )
                    }
                }
                func timeBulk() throws {
                    let store = try NavigationStore(path: bulkPath)
                    try store.startSession(workload.key)
                    bulk.append(try measureSeconds { try appendBatch(store, workload) })
                }
                try inAlternatingOrder(round: round, timeRecorder, timeBulk)
                for path in [recorderPath, bulkPath] { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
            }
        }
        let count = Double(events)
        return .ratio(
            "10b", "recorder sustained append, \(events) events", ours: count / median(ours), unit: "ev/s",
            baselineName: "bulk append (batch API), 1 txn", baseline: count / median(bulk),
            ratio: pairedRateRatio(ours: ours, baseline: bulk), target: .atLeast(0.7),
            note:
                "medians of \(rounds) alternating rounds; ours from the first record() to flush()'s return, the writer committing what is queued per transaction while the caller keeps recording; ratio = median of the rounds' ratios"
        )
    }

    private static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }
}

/// A value one task sets and another reads, behind a lock (the bench's own; NavStore's is internal).
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private var value: Value
    private let lock = DispatchSemaphore(value: 1)
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) {
        lock.wait()
        value = newValue
        lock.signal()
    }
    func get() -> Value {
        lock.wait()
        defer { lock.signal() }
        return value
    }
}
