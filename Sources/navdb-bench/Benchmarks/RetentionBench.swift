import CSQLite
import NavStore
import NavStoreTools

/// 7. Retention (NavStore.docc/Retention.md): `deleteSession` of one long session and `prune` of 100 sessions,
/// each on a fresh copy of the same file, against a bare `DELETE` of the same rows with the C API
/// on another copy (one transaction, the maintenance flag raised so the trigger lets it through,
/// the connection's default `secure_delete`, no checkpoint).
enum RetentionBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        let shape = Shape(
            longEvents: options.size(options.full ? 100_000 : 20_000), pruned: 100,
            perPruned: options.small ? 20 : 100, rounds: options.small ? 2 : 3)
        return try TempDirectory.with("retention") { dir in
            let model = dir.file("model.sqlite")
            try buildModel(path: model, shape)
            let modelBytes = try Data(contentsOf: URL(fileURLWithPath: model))
            let fileBytes = modelBytes.count
            func copy(_ name: String) throws -> String {
                let path = dir.file(name)
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                try modelBytes.write(to: URL(fileURLWithPath: path))
                return path
            }
            var timings = Timings()
            timings.fileBytes = fileBytes
            for round in 0..<shape.rounds {
                // Ours and the baseline alternate which goes first.
                let order = round % 2 == 0 ? [true, false] : [false, true]
                for ours in order {
                    let path = try copy("round.sqlite")
                    if ours {
                        try timeOurs(path: path, shape, &timings)
                        let small = try copy("small.sqlite")
                        let store = try NavigationStore(path: small, create: false)
                        timings.smallDeleteOurs.append(try measureSeconds { try store.deleteSession("kept") })
                    } else {
                        try timeBare(path: path, shape, synchronous: context.synchronous, &timings)
                        let whole = try copy("vacuum.sqlite")
                        let db = try RawDatabase(path: whole)
                        timings.vacuum.append(try measureSeconds { try db.execute("VACUUM") })
                    }
                }
            }
            return figures(timings, shape)
        }
    }

    /// The sizes of the measurement: one long session of `longEvents` events, `pruned` sessions of
    /// `perPruned` events, `rounds` rounds.
    private struct Shape {
        var longEvents: Int
        var pruned: Int
        var perPruned: Int
        var rounds: Int
    }

    /// The seconds of each round's delete and prune on both sides, and the prune's cut-off time.
    private struct Timings {
        var deleteOurs: [Double] = []
        var deleteRaw: [Double] = []
        var pruneOurs: [Double] = []
        var pruneRaw: [Double] = []
        var pruneTime: Int64 = 0
        /// Deleting the small `kept` session from a fresh copy (ours, with the free-space pass),
        /// and `VACUUM` of another fresh copy (what the pass spares each deletion).
        var smallDeleteOurs: [Double] = []
        var vacuum: [Double] = []
        var fileBytes = 0
    }

    /// Writes the model file every round copies: the long session, the sessions to prune, and a
    /// kept session whose last event is newer than any pruned one's; vacuumed.
    private static func buildModel(path: String, _ shape: Shape) throws {
        let store = try NavigationStore(path: path)
        try HistoryBench.buildSession(store, key: "long", events: shape.longEvents, seed: 7_000)
        for index in 0..<shape.pruned {
            try HistoryBench.buildSession(
                store, key: "old-\(index)", events: shape.perPruned, seed: 7_100 + UInt64(index))
        }
        try HistoryBench.buildSession(store, key: "kept", events: shape.perPruned, seed: 7_999)
        // The kept session's last event is newer than any pruned one's.
        try store.execute(.markRestored, session: "kept", at: 4_102_444_800_000)
        try store.vacuum()
    }

    /// Times the store's `deleteSession` of the long session, then its `prune` of the old ones,
    /// on the copy at `path`.
    private static func timeOurs(path: String, _ shape: Shape, _ timings: inout Timings) throws {
        let store = try NavigationStore(path: path, create: false)
        var removed = 0
        timings.deleteOurs.append(try measureSeconds { removed = try store.deleteSession("long").events })
        guard removed == shape.longEvents else {
            throw BenchError("deleteSession removed \(removed) events, expected \(shape.longEvents)")
        }
        if timings.pruneTime == 0 { timings.pruneTime = try store.sessionInfo("kept").updatedAt }
        let pruneTime = timings.pruneTime
        var sessions = 0
        timings.pruneOurs.append(try measureSeconds { sessions = try store.prune(before: pruneTime).sessions.count })
        guard sessions == shape.pruned else {
            throw BenchError("prune removed \(sessions) sessions, expected \(shape.pruned)")
        }
    }

    /// Times a bare `DELETE` of the long session's rows, then of the old sessions' rows, on the
    /// copy at `path`.
    private static func timeBare(path: String, _ shape: Shape, synchronous: String, _ timings: inout Timings) throws {
        let db = try RawDatabase(path: path)
        try db.execute("PRAGMA synchronous=\(synchronous.uppercased())")
        let long = try db.integer("SELECT id FROM sessions WHERE key = 'long'")
        timings.deleteRaw.append(try measureSeconds { try bareDelete(db, ids: [long]) })
        let statement = try db.prepare("SELECT id FROM sessions WHERE key LIKE 'old-%' ORDER BY id")
        var ids: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW { ids.append(sqlite3_column_int64(statement, 0)) }
        sqlite3_finalize(statement)
        guard ids.count == shape.pruned else {
            throw BenchError("the baseline found \(ids.count) sessions to prune")
        }
        timings.pruneRaw.append(try measureSeconds { try bareDelete(db, ids: ids) })
    }

    /// The two rows 7: session delete and prune.
    private static func figures(_ timings: Timings, _ shape: Shape) -> [Figure] {
        let (longEvents, pruned, perPruned) = (shape.longEvents, shape.pruned, shape.perPruned)
        let (deleteOurs, deleteRaw) = (timings.deleteOurs, timings.deleteRaw)
        let (pruneOurs, pruneRaw) = (timings.pruneOurs, timings.pruneRaw)
        let pruneEvents = Double(pruned * perPruned)
        let note =
            "bare DELETE: one transaction of DELETE ... WHERE session_id = ? on entries, layers, snapshots, restore_attempts, events and sessions, "
            + "maintenance flag raised, default secure_delete, no checkpoint; ours adds the seq runs, secure_delete, the WAL checkpoint and truncation, and the free-space pass (one read of every page, the pages with old bytes written back); "
            + "fresh copy of the file per run, medians of \(shape.rounds) rounds, ratio = median of the rounds' ratios"
        return [
            .ratio(
                "7", "session delete, one \(longEvents)-event session",
                ours: Double(longEvents) / median(deleteOurs), unit: "ev/s",
                baselineName: "bare DELETE of the same rows", baseline: Double(longEvents) / median(deleteRaw),
                ratio: pairedRateRatio(ours: deleteOurs, baseline: deleteRaw), target: .none,
                extra: ["delete s": median(deleteOurs), "bare s": median(deleteRaw)], note: note),
            .ratio(
                "7", "prune, \(pruned) sessions of \(perPruned) events", ours: pruneEvents / median(pruneOurs),
                unit: "ev/s",
                baselineName: "bare DELETE of the same rows", baseline: pruneEvents / median(pruneRaw),
                ratio: pairedRateRatio(ours: pruneOurs, baseline: pruneRaw), target: .none,
                extra: ["prune s": median(pruneOurs), "bare s": median(pruneRaw)], note: note),
            .ratio(
                "7", "session delete of a \(perPruned)-event session from a \(timings.fileBytes / 1_048_576) MiB file",
                ours: 1 / median(timings.smallDeleteOurs), unit: "deletes/s",
                baselineName: "VACUUM of the same file", baseline: 1 / median(timings.vacuum),
                ratio: pairedRateRatio(ours: timings.smallDeleteOurs, baseline: timings.vacuum), target: .none,
                extra: ["delete s": median(timings.smallDeleteOurs), "vacuum s": median(timings.vacuum)],
                note:
                    "what the free-space pass costs where it dominates (a small session in a large file): it reads every page, where the VACUUM that also leaves no deleted byte writes every page twice; fresh copy per run"
            ),
        ]
    }

    /// Deletes every row of the sessions `ids` in one transaction, with plain statements.
    static func bareDelete(_ db: RawDatabase, ids: [Int64]) throws {
        try db.execute("BEGIN IMMEDIATE; UPDATE maintenance SET removing = 1")
        let columns = [
            ("entries", "session_id"), ("layers", "session_id"), ("snapshots", "session_id"),
            ("restore_attempts", "session_id"), ("events", "session_id"), ("sessions", "id"),
        ]
        for (table, column) in columns {
            let statement = try db.prepare("DELETE FROM \(table) WHERE \(column) = ?")
            for id in ids {
                sqlite3_bind_int64(statement, 1, id)
                try db.check(sqlite3_step(statement), SQLITE_DONE, "deleting from \(table)")
                sqlite3_reset(statement)
            }
            sqlite3_finalize(statement)
        }
        try db.execute("UPDATE maintenance SET removing = 0; COMMIT")
    }
}
