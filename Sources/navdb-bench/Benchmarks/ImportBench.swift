import NavStore
import NavStoreTools

/// What the import child reports back (as JSON in a file).
struct ImportResult: Codable {
    var events: Int
    var seconds: Double
    /// `VmRSS` and `VmHWM` right after start-up, before the store is opened.
    var startRSSKiB: Int
    var startPeakKiB: Int
    /// `VmHWM` after the import: the peak of the whole child process.
    var peakKiB: Int
    /// Live pages x page size after `wal_checkpoint(TRUNCATE)`.
    var bytes: Int64
}

/// 6. Bytes per event on disk and peak memory of importing NDJSON through `importNDJSON(lines:)`,
/// streamed line by line, measured in a child process so that its peak is the import's alone.
enum ImportBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        let sizes = options.full ? [100_000, 1_000_000] : [options.size(100_000)]
        var results: [Measured] = []
        for size in sizes {
            try TempDirectory.with("import") { dir in
                let input = dir.file("events.ndjson")
                let db = dir.file("import.sqlite")
                let output = dir.file("result.json")
                let began = monotonicNanoseconds()
                let rawBytes = try writeInput(
                    path: input, rawPath: dir.file("raw.sqlite"), events: size, synchronous: context.synchronous)
                progress(
                    "   wrote \(size) events of NDJSON (\(fileSize(input) / 1_048_576) MiB) in \(formatFixed(Double(monotonicNanoseconds() - began) / 1e9, decimals: 1)) s"
                )
                let child = try spawnAndWait(
                    currentExecutablePath(), [ImportChild.subcommand, input, db, output],
                    stdoutPath: "/dev/null", stderrPath: dir.file("child-stderr.txt"))
                guard child.status == 0, let text = readSmallFile(output) else {
                    let message = readSmallFile(dir.file("child-stderr.txt")) ?? ""
                    throw BenchError("the import child exited with \(child.status): \(message)")
                }
                let result = try JSONDecoder().decode(ImportResult.self, from: Data(text.utf8))
                guard result.events == size else {
                    throw BenchError("the import stored \(result.events) events, expected \(size)")
                }
                results.append((size, result, rawBytes, fileSize(input)))
            }
        }
        return figures(results)
    }

    /// One import's size, the child's result, the raw baseline's bytes and the NDJSON's bytes.
    private typealias Measured = (size: Int, result: ImportResult, rawBytes: Int64, fileBytes: Int64)

    /// Rows 6b and 6c (and with --full 6d, 6e and 6f).
    private static func figures(_ results: [Measured]) -> [Figure] {
        var figures: [Figure] = []
        for (index, entry) in results.enumerated() {
            let r = entry.result
            let (peakID, bytesID) = [("6b", "6c"), ("6d", "6e")][index]
            let peak = Double(r.peakKiB) / 1024
            figures.append(
                .absolute(
                    peakID, "import peak memory, \(entry.size) events", ours: peak, unit: "MiB",
                    baselineName: "the child before opening", baseline: Double(r.startPeakKiB) / 1024,
                    ratio: nil, target: .atMost(64),
                    extra: [
                        "import ev/s": Double(r.events) / r.seconds,
                        "peak - start MiB": Double(r.peakKiB - r.startPeakKiB) / 1024,
                        "NDJSON MiB": Double(entry.fileBytes) / 1_048_576,
                    ],
                    note: "VmHWM of a child process that only imports (streaming getline reader)"))
            let ours = Double(r.bytes) / Double(r.events)
            let raw = Double(entry.rawBytes) / Double(r.events)
            figures.append(
                .ratio(
                    bytesID, "bytes per event after import, \(entry.size) events", ours: ours, unit: "B/ev",
                    baselineName: "raw rows of the same events", baseline: raw, ratio: ours / raw, target: .none))
        }
        if results.count == 2 {
            let small = Double(results[0].result.peakKiB)
            let large = Double(results[1].result.peakKiB)
            figures.append(
                .ratio(
                    "6f", "import peak, 10^6 vs 10^5 events", ours: large / 1024, unit: "MiB",
                    baselineName: "10^5 import", baseline: small / 1024, ratio: large / small, target: .atMost(1.25),
                    note: "independent of the input size: the bench allows 25% for allocator noise"))
        }
        return figures
    }

    /// Writes `events` events in 10 sessions, one after the other, as NDJSON (the shape `navdb
    /// export` writes, with time-ordered version-7 event ids as the store makes them) and the same
    /// rows into a raw baseline database; returns the raw database's live bytes.
    static func writeInput(path: String, rawPath: String, events: Int, synchronous: String) throws -> Int64 {
        let writer = try LineWriter(path: path)
        defer { writer.close() }
        let raw = try RawDatabase.createBaseline(path: rawPath, synchronous: synchronous)
        try raw.execute("BEGIN IMMEDIATE")
        let sessions = 10
        for index in 0..<sessions {
            let key = "import-\(index)"
            let workload = SessionWorkload(
                key: key, events: events / sessions, seed: 6_000 + UInt64(index),
                startTime: 1_767_225_600_000 + Int64(index) * Int64(events / sessions) * 1000)
            let rows = workload.rawRows(sessionID: Int64(index + 1), seed: 6_000 + UInt64(index))
            for row in rows {
                writer.write(
                    #"{"at":\#(row.at),"eventID":"\#(row.eventID)","payload":\#(row.payload),"session":"\#(key)","type":"\#(row.type)","version":\#(row.version)}"#
                )
            }
            try raw.insert(rows[...], oneTransaction: false)
        }
        try raw.execute("COMMIT")
        return try raw.checkpointedBytes().bytes
    }
}

/// The hidden subcommand `navdb-bench __import-child NDJSON DB RESULT`: imports NDJSON into a new
/// store with nothing else in the process, then writes an ``ImportResult`` as JSON to RESULT.
enum ImportChild {
    static let subcommand = "__import-child"

    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3 else {
            fputs("usage: navdb-bench \(subcommand) NDJSON DB RESULT\n", Platform.standardError)
            return 64
        }
        let startRSS = procStatusKiB("VmRSS") ?? 0
        let startPeak = peakResidentKiB()
        do {
            var events = 0
            let seconds = try measureSeconds {
                let store = try NavigationStore(path: arguments[1])
                let reader = try LineReader(path: arguments[0])
                events = try importLines(store, reader)
            }
            let peak = peakResidentKiB()
            let bytes = try RawDatabase(path: arguments[1]).checkpointedBytes().bytes
            let result = ImportResult(
                events: events, seconds: seconds, startRSSKiB: startRSS, startPeakKiB: startPeak,
                peakKiB: peak, bytes: bytes)
            let writer = try LineWriter(path: arguments[2])
            writer.write(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
            writer.close()
            return 0
        } catch {
            fputs("Error: \(error)\n", Platform.standardError)
            return 1
        }
    }
}
