import CSQLite
import NavStore
import NavStoreTools

/// 5. `rebuild` (projections and snapshots re-derived from the log) in events per second, against
/// a bare read of the log with the C API.
enum RebuildBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let log = ManySessionsLog(context.options)
        return try TempDirectory.with("rebuild") { dir in
            let path = dir.file("rebuild.sqlite")
            let store = try log.build(path: path, seed: 5_000)
            let reader = try RawDatabase(path: path)
            let timings = try timeRounds(store, reader: reader, rounds: log.rounds)
            guard timings.folded == log.events else {
                throw BenchError("rebuild folded \(timings.folded) events, expected \(log.events)")
            }
            guard timings.decoded == log.events else {
                throw BenchError("the fold decoded \(timings.decoded) events, expected \(log.events)")
            }
            return figures(timings, log: log)
        }
    }

    /// The seconds of each round's rebuild, fold and their bare reads, and what the last ones saw.
    private struct Timings {
        var ours: [Double] = []
        var raw: [Double] = []
        var foldTimes: [Double] = []
        var foldRaw: [Double] = []
        var folded = 0
        var decoded = 0
    }

    /// Times the rebuild against the bare read, then the fold against the bare read with session
    /// ids, `rounds` times, each pair in alternating order.
    private static func timeRounds(_ store: NavigationStore, reader: RawDatabase, rounds: Int) throws -> Timings {
        var timings = Timings()
        for round in 0..<rounds {
            try inAlternatingOrder(
                round: round,
                { timings.ours.append(try measureSeconds { timings.folded = try store.rebuild().events }) },
                { timings.raw.append(try measureSeconds { _ = try bareRead(reader) }) })
            try inAlternatingOrder(
                round: round,
                { timings.foldTimes.append(try measureSeconds { timings.decoded = try fold(reader) }) },
                { timings.foldRaw.append(try measureSeconds { _ = try bareRead(reader, sessions: true) }) })
        }
        return timings
    }

    /// Rows 5a and 5.
    private static func figures(_ timings: Timings, log: ManySessionsLog) -> [Figure] {
        let events = Double(log.events)
        let (ours, raw, foldTimes, foldRaw) = (timings.ours, timings.raw, timings.foldTimes, timings.foldRaw)
        let rounds = log.rounds
        let oursRate = events / median(ours)
        let rawRate = events / median(raw)
        let foldRate = events / median(foldTimes)
        let foldRawRate = events / median(foldRaw)
        return [
            .ratio(
                "5a", "fold (decode + apply, nothing written), \(log.events) events", ours: foldRate, unit: "ev/s",
                baselineName: "bare read of the same rows", baseline: foldRawRate,
                ratio: pairedRateRatio(ours: foldTimes, baseline: foldRaw), target: .atLeast(0.25),
                extra: ["fold s": median(foldTimes), "ratio of medians": foldRate / foldRawRate],
                note:
                    "fold: the same C API read, each row's type and payload bytes decoded in place with EventBody(type:payload:) and applied to the session's SessionState; bare read: SELECT session_id, type, payload FROM events ORDER BY session_id, version stepped, every column read; medians of \(rounds) rounds, ratio = median of the rounds' ratios"
            ),
            .ratio(
                "5", "rebuild, \(log.events) events in \(log.sessions) sessions", ours: oursRate, unit: "ev/s",
                baselineName: "bare read of the log", baseline: rawRate,
                ratio: pairedRateRatio(ours: ours, baseline: raw), target: .atLeast(0.1),
                extra: ["rebuild s": median(ours), "ratio of medians": oursRate / rawRate],
                note:
                    "bare read: SELECT type, payload FROM events ORDER BY session_id, version, every row stepped and its text read; medians of \(rounds) rounds, ratio = median of the rounds' ratios"
            ),
        ]
    }

    /// Steps every row of the log in the rebuild's order and touches both columns' bytes (and the
    /// session id, as the fold reads it, when `sessions` is true).
    static func bareRead(_ db: RawDatabase, sessions: Bool = false) throws -> Int {
        let statement = try db.prepare(
            sessions
                ? "SELECT type, payload, session_id FROM events ORDER BY session_id, version"
                : "SELECT type, payload FROM events ORDER BY session_id, version")
        defer { sqlite3_finalize(statement) }
        var bytes = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            try db.check(code, SQLITE_ROW, "reading the log")
            if sessions { bytes &+= Int(sqlite3_column_int64(statement, 2)) }
            _ = sqlite3_column_text(statement, 0)
            bytes += Int(sqlite3_column_bytes(statement, 0))
            _ = sqlite3_column_text(statement, 1)
            bytes += Int(sqlite3_column_bytes(statement, 1))
        }
        return bytes
    }

    /// Reads the log as ``bareRead(_:sessions:)`` does and folds it: each row's type and payload
    /// bytes decoded in place with `EventBody(type:payload:)` and applied to its session's state;
    /// nothing is written. Returns the number of events folded.
    static func fold(_ db: RawDatabase) throws -> Int {
        let statement = try db.prepare("SELECT type, payload, session_id FROM events ORDER BY session_id, version")
        defer { sqlite3_finalize(statement) }
        var state = SessionState()
        var session: Int64 = -1
        var count = 0
        var sink = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            try db.check(code, SQLITE_ROW, "reading the log")
            let id = sqlite3_column_int64(statement, 2)
            if id != session {
                sink &+= state.depth
                state = SessionState()
                session = id
            }
            let type = UnsafeRawBufferPointer(
                start: sqlite3_column_text(statement, 0), count: Int(sqlite3_column_bytes(statement, 0)))
            let payload = UnsafeRawBufferPointer(
                start: sqlite3_column_text(statement, 1), count: Int(sqlite3_column_bytes(statement, 1)))
            state.apply(try EventBody(type: type, payload: payload))
            count += 1
        }
        precondition(sink >= 0)
        return count
    }
}
