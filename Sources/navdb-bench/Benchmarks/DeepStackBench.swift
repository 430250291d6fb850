import NavStore
import NavStoreTools

/// 6g, 6h. Bytes per event on disk for one very deep stack: 32,768 pushes in one session as
/// NDJSON, and one Firefox tab with 32,768 history entries. The baseline is the input's own size
/// per event: a store whose snapshots copy the whole state at a fixed interval grows
/// quadratically with depth, one whose storage is linear in events stays a small multiple of its
/// input.
enum DeepStackBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let depth = context.options.size(32_768)
        var figures: [Figure] = []
        try TempDirectory.with("deep") { dir in
            let ndjson = ndjsonPushes(depth: depth)
            let store = try NavigationStore(path: dir.file("ndjson.sqlite"))
            let imported = try store.importNDJSON(lines: ndjson).imported
            let bytes = try RawDatabase(path: dir.file("ndjson.sqlite")).checkpointedBytes().bytes
            let input = ndjson.reduce(0) { $0 + $1.utf8.count + 1 }
            figures.append(
                .ratio(
                    "6g", "bytes per event, one \(depth)-deep stack of NDJSON pushes",
                    ours: Double(bytes) / Double(imported),
                    unit: "B/ev", baselineName: "NDJSON input per event", baseline: Double(input) / Double(imported),
                    ratio: Double(bytes) / Double(input), target: .atMost(4),
                    note: "linear in events whatever the depth: snapshot intervals stretch with the state"))
        }
        try TempDirectory.with("deep-firefox") { dir in
            let file = firefoxTab(depth: depth)
            let store = try NavigationStore(path: dir.file("firefox.sqlite"))
            let imported = try store.importFirefoxSession(data: Array(file.utf8), at: 1_767_225_600_000).imported
            let bytes = try RawDatabase(path: dir.file("firefox.sqlite")).checkpointedBytes().bytes
            figures.append(
                .ratio(
                    "6h", "bytes per event, one Firefox tab with \(depth) history entries",
                    ours: Double(bytes) / Double(max(imported, 1)),
                    unit: "B/ev", baselineName: "session file per event",
                    baseline: Double(file.utf8.count) / Double(max(imported, 1)),
                    ratio: Double(bytes) / Double(file.utf8.count), target: .atMost(8),
                    note: "\(imported) events"))
        }
        return figures
    }

    /// One session: `session.started`, then `depth` pushes, in the shape `navdb export` writes.
    static func ndjsonPushes(depth: Int) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(depth + 1)
        var previous: String?
        for version in 1...(depth + 1) {
            let id = UUID().uuidString.lowercased()
            let payload =
                version == 1 ? "{}" : #"{"entry":{"id":"E\#(version)","item":{"title":"Screen \#(version)"}}}"#
            let type = version == 1 ? "session.started" : "entry.pushed"
            let link = previous.map { #","previous":"\#($0)""# } ?? ""
            lines.append(
                #"{"at":\#(1_767_225_600_000 + Int64(version)),"eventID":"\#(id)","payload":\#(payload)\#(link),"session":"deep","type":"\#(type)","version":\#(version)}"#
            )
            previous = id
        }
        return lines
    }

    /// A Firefox for Android session file with one tab whose back list has `depth` entries.
    static func firefoxTab(depth: Int) -> String {
        let entries = (1...depth).map { #"{"url":"https:\/\/example.org\/\#($0)","title":"Page \#($0)"}"# }.joined(
            separator: ",")
        let gecko = #"{"history":{"entries":[\#(entries)],"index":\#(depth)}}"#
        var escaped = ""
        for character in gecko {
            if character == "\\" || character == "\"" { escaped.append("\\") }
            escaped.append(character)
        }
        return
            #"{"version":1,"selectedTabId":"7b0d4a52-0000-4000-8000-000000000001","sessionStateTuples":[{"session":{"url":"https://example.org/\#(depth)","uuid":"7b0d4a52-0000-4000-8000-000000000001","parentUuid":"","title":"Page \#(depth)","contextId":null,"readerMode":false,"lastAccess":1767225600000},"engineSession":{"GECKO_STATE":"\#(escaped)"}}]}"#
    }
}
