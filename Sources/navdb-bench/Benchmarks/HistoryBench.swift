import NavStore

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
                progress("   built a session of \(size) events in \(formatFixed(Double(monotonicNanoseconds() - began) / 1e9, decimals: 1)) s")
            }
            var samples = [[Double]](repeating: [], count: sizes.count)
            var random = SeededRandom(seed: 4_242)
            var sink = 0
            for round in 0..<(rounds + 1) {
                for offset in 0..<sizes.count {
                    let index = (offset + round) % sizes.count
                    for _ in 0..<perRound {
                        let version = Int.random(in: 1...sizes[index], using: &random)
                        let start = monotonicNanoseconds()
                        let state = try stores[index].state(session: "long", at: .version(version))
                        let button = state.backButton
                        let menu = state.backMenu
                        let elapsed = Double(monotonicNanoseconds() - start) / 1e3
                        sink &+= (button?.label.utf8.count ?? 0) &+ (menu?.count ?? 0) &+ state.version
                        if round > 0 { samples[index].append(elapsed) }   // round 0 warms the caches
                    }
                }
            }
            precondition(sink != 0)
            let base = median(samples[0])
            var figures: [Figure] = [
                .absolute("4a", "state+button+menu at random version, 10^\(exponent(sizes[0]))", ours: base, unit: "µs",
                          target: .atMost(1000), extra: ["p90 µs": quantile(samples[0], 0.9)],
                          note: "median of \(samples[0].count) random versions; snapshot interval \(StoreOptions().snapshotInterval)"),
            ]
            for index in 1..<sizes.count {
                let ours = median(samples[index])
                let id = index == 1 ? "4b" : "4c"
                figures.append(.ratioAndAbsolute(id, "same, 10^\(exponent(sizes[index])) vs 10^\(exponent(sizes[0])) events", ours: ours,
                                                 unit: "µs", baselineName: "10^\(exponent(sizes[0])) session", baseline: base,
                                                 ratio: ours / base, ratioTarget: .atMost(1.5), absoluteTarget: .atMost(1000),
                                                 extra: ["p90 µs": quantile(samples[index], 0.9)]))
            }
            return figures
        }
    }

    /// The number of decimal digits of `n` minus one (10^4 -> 4), for labels.
    static func exponent(_ n: Int) -> Int {
        var e = 0, v = n
        while v >= 10 { v /= 10; e += 1 }
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
}
