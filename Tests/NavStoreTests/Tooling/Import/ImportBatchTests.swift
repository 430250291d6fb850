import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Imports longer than one batch (PostgreSQL sends 500 events per `INSERT`, SQLite inserts each
/// as it comes): the same result, the same refusals naming the same lines, nothing written on a
/// refusal, on both backends.
@Suite("NavigationStore: imports across batches")
struct ImportBatchTests {
    /// An export of about 1,300 events in 3 sessions.
    static func longExport() throws -> [String] {
        let store = try makeStore(try TemporaryDirectory(), on: .sqlite, options: fastOptions(snapshotInterval: 64))
        try buildRandomLog(store, seed: 7, sessions: ["a", "b", "c"], batches: 160, batchSize: 1...16)
        return try store.exportLines()
    }

    /// The event id of an export line.
    static func eventID(_ line: String) throws -> String {
        let range = try #require(line.range(of: #""eventID":"[0-9a-f-]+""#, options: .regularExpression))
        return String(line[range].dropFirst(11).dropLast())
    }

    /// `line` with its event id replaced by `id`.
    static func replacingID(_ line: String, with id: String) throws -> String {
        line.replacingOccurrences(of: try eventID(line), with: id)
    }

    @Test(
        "an import of 1,300 events gives the same lines (seq included) and imports again as all skipped",
        arguments: StoreBackend.all)
    func longImport(backend: StoreBackend) throws {
        let lines = try Self.longExport()
        #expect(lines.count > 1_200)
        let store = try makeStore(try TemporaryDirectory(), on: backend, options: fastOptions(snapshotInterval: 64))
        #expect(try store.importNDJSON(lines: lines) == ImportReport(sessions: 3, imported: lines.count, skipped: 0))
        #expect(try store.exportLines() == lines)
        #expect(try store.importNDJSON(lines: lines) == ImportReport(sessions: 3, imported: 0, skipped: lines.count))
        #expect(try store.importNDJSON(lines: lines + lines).skipped == 2 * lines.count)
        #expect(try store.check().isClean)
    }

    @Test(
        "an event id used again 600 lines later with other content names the first line, and nothing is written",
        arguments: StoreBackend.all)
    func repeatedIDAcrossBatches(backend: StoreBackend) throws {
        var lines = try Self.longExport()
        lines[700] = try Self.replacingID(lines[700], with: try Self.eventID(lines[100]))
        let store = try makeStore(try TemporaryDirectory(), on: backend)
        #expect {
            try store.importNDJSON(lines: lines)
        } throws: { error in
            guard case StoreError.invalidImport(line: 701, let reason) = error else { return false }
            return reason.hasPrefix("event id \(try Self.eventID(lines[100])) repeats line 101 of the input")
        }
        #expect(try store.sessions().isEmpty)
    }

    @Test(
        "of two bad lines the first is reported, though the later one is found before the earlier one's batch is sent",
        arguments: StoreBackend.all)
    func firstBadLineWins(backend: StoreBackend) throws {
        var lines = try Self.longExport()
        let store = try makeStore(try TemporaryDirectory(), on: backend)
        try store.startSession("x", at: 1_600_000_000_000)
        let before = try store.exportLines()
        let stored = try Self.eventID(before[0])
        lines[50] = try Self.replacingID(lines[50], with: stored)
        lines[60] = "not json"
        #expect(throws: StoreError.eventIDConflict(line: 51, eventID: stored)) { try store.importNDJSON(lines: lines) }
        #expect(try store.exportLines() == before)
    }
}
