import NavStore
import NavStoreTools

/// 2. One append per transaction through `execute` (the app's case: each push durable on return)
/// against a raw single-row insert per (autocommit) transaction, same `synchronous`.
enum SingleAppendBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        let perRound = options.small ? 50 : 100
        let rounds = options.small ? 2 : options.full ? 15 : 11
        let workload = SessionWorkload(key: "app", events: perRound * rounds + 1, seed: 2_000)
        let rows = workload.rawRows(sessionID: 1, seed: 2)
        var ours: [Double] = []
        var raw: [Double] = []
        try TempDirectory.with("single") { dir in
            let store = try NavigationStore(path: dir.file("store.sqlite"))
            try store.startSession(workload.key)
            let db = try RawDatabase.createBaseline(path: dir.file("raw.sqlite"), synchronous: context.synchronous)
            try db.insert(rows[0..<1], oneTransaction: false)
            for round in 0..<rounds {
                let range = (1 + round * perRound)..<(1 + (round + 1) * perRound)
                func timeStore() throws {
                    ours.append(
                        try measureSeconds {
                            for command in workload.commands[(range.lowerBound - 1)..<(range.upperBound - 1)] {
                                try store.execute(command, session: workload.key)
                            }
                        } / Double(perRound))
                }
                func timeRaw() throws {
                    raw.append(
                        try measureSeconds { try db.insert(rows[range], oneTransaction: false) } / Double(perRound))
                }
                try inAlternatingOrder(round: round, timeStore, timeRaw)
            }
        }
        let oursRate = 1 / median(ours)
        let rawRate = 1 / median(raw)
        return [
            .ratio(
                "2", "one append per transaction (execute)", ours: oursRate, unit: "ev/s",
                baselineName: "raw autocommit insert", baseline: rawRate,
                // A guard at the row's floor (BENCHMARKS.md, "Guards"): below it is a regression.
                ratio: pairedRateRatio(ours: ours, baseline: raw), target: .atLeast(0.4),
                extra: [
                    "ours µs/append": median(ours) * 1e6, "raw µs/insert": median(raw) * 1e6,
                    "ratio of medians": oursRate / rawRate,
                ],
                note:
                    "medians of \(rounds) alternating rounds of \(perRound), ratio = median of the rounds' ratios; synchronous=\(context.synchronous), so each commit waits for fsync on both sides"
            )
        ]
    }
}
