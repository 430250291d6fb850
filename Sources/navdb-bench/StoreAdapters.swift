import NavStore
import NavStoreTools

/// Appends every command of `workload` to its (started) session through the store's batch API,
/// `append(contentsOf:session:)`, in batches of at most `chunk` commands (one transaction each).
func appendBatch(_ store: NavigationStore, _ workload: SessionWorkload, chunk: Int = 50_000) throws {
    var start = 0
    while start < workload.commands.count {
        let end = min(start + chunk, workload.commands.count)
        try store.append(contentsOf: workload.commands[start..<end], session: workload.key)
        start = end
    }
}

/// Imports the NDJSON lines of `reader` through the store's `importNDJSON(lines:)`; returns the
/// number of events stored.
func importLines(_ store: NavigationStore, _ reader: LineReader) throws -> Int {
    try store.importNDJSON(lines: reader).imported
}
