import CSQLite
import NavStore
import NavStoreTools

/// 4. State, back button and back menu at a random version of one long session, in-process, for
/// sessions of 10^4, 10^5 (and with --full 10^6) events: the time must stay flat as the log grows.
enum HistoryBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        var sizes = [options.size(10_000), options.size(100_000)]
        if options.full { sizes.append(1_000_000) }
        let rounds = options.small ? 4 : 10
        let perRound = options.small ? 50 : 200
        return try TempDirectory.with("history") { dir in
            var stores: [NavigationStore] = []
            for (index, size) in sizes.enumerated() {
                let began = monotonicNanoseconds()
                let store = try NavigationStore(path: dir.file("history-\(size).sqlite"))
                try buildSession(store, key: "long", events: size, seed: 4_000 + UInt64(index))
                stores.append(store)
                progress(
                    "   built a session of \(size) events in \(formatFixed(Double(monotonicNanoseconds() - began) / 1e9, decimals: 1)) s"
                )
            }
            let raw = try sizes.map { try RawReads(path: dir.file("history-\($0).sqlite"), key: "long") }
            let samples = try timeRounds(stores, sizes: sizes, raw: raw, rounds: rounds, perRound: perRound)
            return figures(samples, sizes: sizes)
        }
    }

    /// The microseconds of each read per session size, of the raw reads of the same versions per
    /// size, and the per-version ratios of the two for the smallest.
    private struct Samples {
        var rawBySize: [[Double]]
        var paired: [Double] = []
        var bySize: [[Double]]
        var sink = 0
        var raw: [Double] { rawBySize[0] }
    }

    /// Reads `perRound` random versions of each store per round, the sizes in rotated order; each
    /// read is paired with raw reads of the same version of the same file, in alternating order.
    /// Round 0 warms the caches and is not kept.
    private static func timeRounds(
        _ stores: [NavigationStore], sizes: [Int], raw: [RawReads], rounds: Int, perRound: Int
    ) throws -> Samples {
        let empty = [[Double]](repeating: [], count: sizes.count)
        var samples = Samples(rawBySize: empty, bySize: empty)
        var random = SeededRandom(seed: 4_242)
        for round in 0..<(rounds + 1) {
            for offset in 0..<sizes.count {
                let index = (offset + round) % sizes.count
                for _ in 0..<perRound {
                    let version = Int.random(in: 1...sizes[index], using: &random)
                    try timeVersion(
                        version, of: stores[index], index: index, raw: raw[index], keep: round > 0, &samples)
                }
            }
        }
        precondition(samples.sink != 0)
        return samples
    }

    /// Times the state, back button and back menu of `store` at `version` and the raw reads of
    /// the same version, in alternating order, into `samples`.
    private static func timeVersion(
        _ version: Int, of store: NavigationStore, index: Int, raw: RawReads, keep: Bool, _ samples: inout Samples
    ) throws {
        var sink = 0
        defer { samples.sink &+= sink }
        func timeOurs() throws -> Double {
            let start = monotonicNanoseconds()
            let state = try store.state(session: "long", at: .version(version))
            let button = state.backButton
            let menu = state.backMenu
            let elapsed = Double(monotonicNanoseconds() - start) / 1e3
            sink &+= (button?.label.utf8.count ?? 0) &+ (menu?.count ?? 0) &+ state.version
            return elapsed
        }
        func timeRaw() throws -> Double {
            let start = monotonicNanoseconds()
            sink &+= try raw.read(version: version)
            return Double(monotonicNanoseconds() - start) / 1e3
        }
        let ours: Double
        let bare: Double
        if version % 2 == 0 {
            ours = try timeOurs()
            bare = try timeRaw()
        } else {
            bare = try timeRaw()
            ours = try timeOurs()
        }
        guard keep else { return }
        samples.bySize[index].append(ours)
        samples.rawBySize[index].append(bare)
        if index == 0 { samples.paired.append(ours / bare) }
    }

    /// Rows 4a, 4r, 4b (and 4c).
    private static func figures(_ samples: Samples, sizes: [Int]) -> [Figure] {
        let base = median(samples.bySize[0])
        let rawSamples = samples.raw
        var figures: [Figure] = [
            .absolute(
                "4a", "state+button+menu at random version, 10^\(exponent(sizes[0]))", ours: base, unit: "µs",
                target: .atMost(1000), extra: ["p90 µs": quantile(samples.bySize[0], 0.9)],
                note:
                    "median of \(samples.bySize[0].count) random versions; snapshot interval \(StoreOptions().snapshotInterval)"
            ),
            .ratio(
                "4r", "state+button+menu at random version / raw reads, 10^\(exponent(sizes[0]))", ours: base,
                unit: "µs",
                baselineName: "raw reads of snapshot + event rows", baseline: median(rawSamples),
                ratio: median(samples.paired), target: .atMost(3),
                extra: ["ratio of medians": base / median(rawSamples), "raw p90 µs": quantile(rawSamples, 0.9)],
                note:
                    "raw reads with the C API, statements prepared once: the session's id by key, the newest snapshot row at or below the version (state text read), every event row after it up to the version (type, payload, at read); ratio = median of the per-version ratios, the two timed in alternating order"
            ),
        ]
        for index in 1..<sizes.count {
            let ours = median(samples.bySize[index])
            let id = index == 1 ? "4b" : "4c"
            figures.append(
                .ratioAndAbsolute(
                    id, "same, 10^\(exponent(sizes[index])) vs 10^\(exponent(sizes[0])) events", ours: ours,
                    unit: "µs", baselineName: "10^\(exponent(sizes[0])) session", baseline: base,
                    ratio: ours / base, ratioTarget: .atMost(1.2), absoluteTarget: .atMost(1000),
                    extra: [
                        "p90 µs": quantile(samples.bySize[index], 0.9),
                        "raw reads 10^\(exponent(sizes[index])) µs": median(samples.rawBySize[index]),
                        "raw reads 10^\(exponent(sizes[index])) vs 10^\(exponent(sizes[0]))":
                            median(samples.rawBySize[index]) / median(samples.raw),
                        "ours / raw reads at 10^\(exponent(sizes[index]))":
                            ours / median(samples.rawBySize[index]),
                    ],
                    note:
                        "the raw reads of the same versions of the same file, timed beside ours, show what SQLite itself pays for the bigger file"
                ))
        }
        return figures
    }

    /// The number of decimal digits of `n` minus one (10^4 -> 4), for labels.
    static func exponent(_ n: Int) -> Int {
        var e = 0
        var v = n
        while v >= 10 {
            v /= 10
            e += 1
        }
        return e
    }

    /// Starts session `key` in `store` and appends `events - 1` generated commands through the
    /// batch API in chunks of 10^4 (one transaction each), so that the commands in memory stay few
    /// whatever the session's length.
    static func buildSession(_ store: NavigationStore, key: String, events: Int, seed: UInt64) throws {
        try store.startSession(key, at: 1_767_225_600_000)
        var generator = CommandGenerator(seed: seed)
        var remaining = events - 1
        while remaining > 0 {
            let count = min(remaining, 10_000)
            var chunk: [NavigationCommand] = []
            chunk.reserveCapacity(count)
            for _ in 0..<count { chunk.append(generator.next().0) }
            try store.append(contentsOf: chunk, session: key)
            remaining -= count
        }
    }

    /// The rows a historical read needs, read raw with the C API (statements prepared once): the
    /// session's id by its key, the newest snapshot at or below the version, the events after it.
    final class RawReads {
        let db: RawDatabase
        let session: OpaquePointer, snapshot: OpaquePointer, events: OpaquePointer
        let key: String

        init(path: String, key: String) throws {
            db = try RawDatabase(path: path)
            self.key = key
            session = try db.prepare("SELECT id FROM sessions WHERE key = ?")
            snapshot = try db.prepare(
                "SELECT version, state FROM snapshots WHERE session_id = ? AND version <= ? ORDER BY version DESC LIMIT 1"
            )
            events = try db.prepare(
                "SELECT type, payload, at FROM events WHERE session_id = ? AND version > ? AND version <= ? ORDER BY version"
            )
        }

        deinit {
            sqlite3_finalize(session)
            sqlite3_finalize(snapshot)
            sqlite3_finalize(events)
        }

        /// Reads the rows for `version` and returns the bytes read (so the reads are not elided).
        func read(version: Int) throws -> Int {
            bindText(session, 1, key)
            guard sqlite3_step(session) == SQLITE_ROW else { throw BenchError("no session '\(key)'") }
            let id = sqlite3_column_int64(session, 0)
            sqlite3_reset(session)
            sqlite3_bind_int64(snapshot, 1, id)
            sqlite3_bind_int64(snapshot, 2, Int64(version))
            var base: Int64 = 0
            var bytes = 0
            if sqlite3_step(snapshot) == SQLITE_ROW {
                base = sqlite3_column_int64(snapshot, 0)
                _ = sqlite3_column_text(snapshot, 1)
                bytes += Int(sqlite3_column_bytes(snapshot, 1))
            }
            sqlite3_reset(snapshot)
            sqlite3_bind_int64(events, 1, id)
            sqlite3_bind_int64(events, 2, base)
            sqlite3_bind_int64(events, 3, Int64(version))
            while true {
                let code = sqlite3_step(events)
                if code == SQLITE_DONE { break }
                try db.check(code, SQLITE_ROW, "reading events")
                _ = sqlite3_column_text(events, 0)
                bytes += Int(sqlite3_column_bytes(events, 0))
                _ = sqlite3_column_text(events, 1)
                bytes += Int(sqlite3_column_bytes(events, 1))
                bytes &+= Int(sqlite3_column_int64(events, 2))
            }
            sqlite3_reset(events)
            return bytes
        }
    }
}
