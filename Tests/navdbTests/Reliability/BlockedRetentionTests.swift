import Foundation
import NavStoreTools
import Testing

@testable import NavStore

/// A deletion while another connection reads an older snapshot (`navdb follow`, a backup, an
/// app): the deletion commits, and the two passes that leave no deleted byte behind (the -wal's
/// checkpoint and truncation, the zeroing of the file's unused bytes) wait for the busy timeout
/// and give up. `--json` says which one did not run (`walTruncated`, `freeSpaceZeroed`), stderr
/// names it, and a later call finishes it. Each blocked call waits out
/// navdb's 10 s busy timeout, hence the reliability tier.
@Suite("Reliability: retention blocked by a reader")
struct ReliabilityBlockedRetentionTests {
    @Test("a reader holding a snapshot: the deletion commits, the blocked passes are named, a later call finishes them")
    func blockedByReader() throws {
        let sandbox = try Sandbox()
        for key in ["gone", "kept"] {
            try sandbox.ok(["session", "start", key])
            try sandbox.ok(["push", key, "A", "--title", "\(key)-title"])
        }
        let reader = try Connection(path: sandbox.database.path, mode: .readOnly)
        defer { reader.close() }
        try reader.execute("BEGIN")
        let statement = try reader.prepare("SELECT count(*) FROM events")
        _ = try statement.step()

        let deleted = try sandbox.run(["--json", "session", "delete", "gone"])
        #expect(deleted.status == 0, "\(deleted)")
        let report = try deleted.object()
        #expect(report["events"] as? Int == 2, "\(report)")
        #expect(report["walTruncated"] as? Bool == false && report["freeSpaceZeroed"] as? Bool == false, "\(report)")
        #expect(
            deleted.stderr
                == "warning: the -wal could not be checkpointed and truncated, nor the file's unused bytes zeroed (another connection is reading or writing); deleted bytes may remain until 'navdb vacuum' succeeds, or a later deletion, truncation or prune that removes something finishes it\n"
        )
        // A prune that removes nothing only tries to finish the checkpoint: it says so.
        let none = try sandbox.run(["--json", "prune", "--before", "2000-01-01T00:00:00Z"])
        #expect(none.status == 0, "\(none)")
        let noneReport = try none.object()
        #expect(noneReport["walTruncated"] as? Bool == false && noneReport["freeSpaceZeroed"] as? Bool == true)
        #expect(
            none.stderr.hasPrefix(
                "warning: the -wal could not be checkpointed and truncated (another connection is reading or writing); bytes that earlier deletions removed may remain"
            ), "\(none)")

        statement.reset()
        try reader.execute("COMMIT")
        let vacuumed = try sandbox.run(["--json", "vacuum"])
        #expect(vacuumed.status == 0 && vacuumed.stderr.isEmpty, "\(vacuumed)")
        let vacuumReport = try vacuumed.object()
        #expect(vacuumReport["walTruncated"] as? Bool == true && vacuumReport["freeSpaceZeroed"] as? Bool == true)
        #expect(try sandbox.ok(["check"]).status == 0)
        #expect(try sandbox.ok(["sessions"]).stdout.contains("kept"))
    }
}
