import NavStore
import NavStoreTools

/// 1. Bulk append through the store's batch API (validation, event, projection, snapshots, one
/// transaction per batch) against raw inserts of rows of the same shape with the C API, one
/// prepared statement, one transaction, same PRAGMAs.
enum BulkAppendBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        let total = options.size(options.full ? 200_000 : 20_000)
        let perSession = min(total, 20_000)
        let rounds = options.small ? 2 : options.full ? 5 : 15
        let workloads = (0..<(total / perSession)).map {
            SessionWorkload(
                key: "bulk-\($0)", events: perSession, seed: 1_000 + UInt64($0),
                startTime: 1_767_225_600_000 + Int64($0) * Int64(perSession) * 1000)
        }
        let timings = try timeRounds(workloads, rounds: rounds, synchronous: context.synchronous)
        let payload = workloads.map { $0.meanPayloadBytes() }.reduce(0, +) / Double(workloads.count)
        return figures(timings, sessions: workloads.count, rounds: rounds, payload: payload)
    }

    /// The seconds of each round on both sides, the events timed, and the bytes per event of the
    /// last round's two files.
    private struct Timings {
        var ours: [Double] = []
        var raw: [Double] = []
        var events: Double = 0
        var bytes: (store: Double, raw: Double) = (0, 0)
    }

    /// Appends `workloads` to a fresh store and inserts their rows into a fresh raw database,
    /// `rounds` times in alternating order; the last round's files are measured on disk.
    private static func timeRounds(_ workloads: [SessionWorkload], rounds: Int, synchronous: String) throws
        -> Timings
    {
        // Version 1 of each session (`session.started`) is written before the clock starts, on
        // both sides: the store's `startSession` is a transaction of its own (one fsync), which
        // would otherwise be charged to the bulk path.
        let sessionRows = workloads.enumerated().map { $1.rawRows(sessionID: Int64($0 + 1), seed: UInt64($0)) }
        let firstRows = sessionRows.map { $0[0] }
        let rows = sessionRows.flatMap { $0.dropFirst() }
        var timings = Timings(events: Double(rows.count))
        try TempDirectory.with("bulk") { dir in
            for round in 0..<rounds {
                let storePath = dir.file("store-\(round).sqlite")
                let rawPath = dir.file("raw-\(round).sqlite")
                func timeStore() throws {
                    let store = try NavigationStore(path: storePath)
                    for workload in workloads {
                        try store.startSession(workload.key, name: "bench \(workload.key)", at: workload.startTime)
                    }
                    timings.ours.append(
                        try measureSeconds {
                            for workload in workloads { try appendBatch(store, workload) }
                        })
                }
                func timeRaw() throws {
                    let db = try RawDatabase.createBaseline(path: rawPath, synchronous: synchronous)
                    try db.insert(firstRows[...], oneTransaction: true)
                    timings.raw.append(try measureSeconds { try db.insert(rows[...], oneTransaction: true) })
                }
                try inAlternatingOrder(round: round, timeStore, timeRaw)
                if round == rounds - 1 {
                    let all = timings.events + Double(workloads.count)
                    timings.bytes.store = Double(try RawDatabase(path: storePath).checkpointedBytes().bytes) / all
                    timings.bytes.raw = Double(try RawDatabase(path: rawPath).checkpointedBytes().bytes) / all
                }
                for path in [storePath, rawPath] { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
            }
        }
        return timings
    }

    /// Rows 1 and 6a.
    private static func figures(_ timings: Timings, sessions: Int, rounds: Int, payload: Double) -> [Figure] {
        let (ours, raw, events, bytes) = (timings.ours, timings.raw, timings.events, timings.bytes)
        let oursRate = events / median(ours)
        let rawRate = events / median(raw)
        return [
            .ratio(
                "1",
                "bulk append (batch API), \(Int(events)) events, \(sessions) session\(sessions == 1 ? "" : "s")",
                ours: oursRate, unit: "ev/s",
                baselineName: "raw C API inserts, 1 txn", baseline: rawRate,
                // A guard at the row's floor (BENCHMARKS.md, "Guards"): below it is a regression.
                ratio: pairedRateRatio(ours: ours, baseline: raw), target: .atLeast(0.62),
                extra: [
                    "payload bytes (mean)": payload, "rounds": Double(rounds), "ratio of medians": oursRate / rawRate,
                ],
                note:
                    "medians of \(rounds) alternating rounds, ratio = median of the rounds' ratios; the store commits one batch per session (\(sessions)), raw once"
            ),
            .ratio(
                "6a", "bytes per event on disk, same events", ours: bytes.store, unit: "B/ev",
                baselineName: "raw rows + their 2 unique indexes", baseline: bytes.raw, ratio: bytes.store / bytes.raw,
                target: .none,
                note:
                    "page_count x page_size minus free pages after wal_checkpoint(TRUNCATE); the store's file also holds sessions, projections and a snapshot every \(StoreOptions().snapshotInterval) events"
            ),
        ]
    }
}
