import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Two imports of the same events at once: PostgreSQL runs the loser's transaction
/// again after a serialization failure, and that run must read the input from its first line, so
/// each report counts every event once (imported + skipped) and the two import each event once.
@Suite("NavigationStore: concurrent imports")
struct ConcurrentImportTests {
    /// The NDJSON export of one session of `events` events (a start and pushes).
    static func exportLines(_ directory: TemporaryDirectory, events: Int) throws -> [String] {
        let source = try NavigationStore(path: directory.path("source.sqlite"))
        try source.startSession("s", at: 1_700_000_000_000)
        try source.append(
            contentsOf: (1..<events).map { .push(Entry(id: "e\($0)")) }, session: "s", at: 1_700_000_000_001)
        var lines: [String] = []
        try source.exportNDJSON(session: nil) { lines.append($0) }
        return lines
    }

    /// The event id of an NDJSON line.
    static func eventID(_ line: String) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(object?["eventID"] as? String)
    }

    @Test(
        "two concurrent imports of the same single-pass lines: each counts every event, together they import each once",
        arguments: StoreBackend.all)
    func concurrentImportsCountEveryEvent(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let lines = try Self.exportLines(directory, events: 1_000)
        for round in 1...4 {
            let folder = try TemporaryDirectory()
            let location = try backend.location(folder)
            try NavigationStore(path: location).startSession("other", at: 1_700_000_000_000)
            let reports = Locked([ImportReport?](repeating: nil, count: 2))
            let failures = Locked([String]())
            // Both stores are open before the imports start, so that their transactions overlap.
            let stores = try [NavigationStore(path: location), NavigationStore(path: location)]
            DispatchQueue.concurrentPerform(iterations: 2) { importer in
                do {
                    // A single-pass input, as the CLI's line reader is: it cannot start again by itself.
                    var rest = lines.makeIterator()
                    let input = IteratorSequence(AnyIterator { rest.next() })
                    let report = try stores[importer].importNDJSON(lines: input)
                    reports.withLock { $0[importer] = report }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "round \(round)")
            let both = reports.withLock { $0 }.compactMap { $0 }
            #expect(both.count == 2)
            for report in both {
                #expect(report.imported + report.skipped == lines.count, "round \(round): \(report)")
                #expect(report.sessions == 1)
            }
            #expect(both.map(\.imported).reduce(0, +) == lines.count, "round \(round): \(both)")
            var stored: [String] = []
            try NavigationStore(path: location).exportNDJSON(session: "s") { stored.append($0) }
            #expect(try stored.map(Self.eventID) == lines.map(Self.eventID), "round \(round)")
        }
    }

    @Test("a replayed input gives its lines again from the first, any text, then goes on")
    func replayGivesTheLinesAgain() throws {
        let lines = ["first", "", "two\nlines", "émoji 🧭 中文", String(repeating: "x", count: 100_000), "last"]
        var rest = lines.makeIterator()
        let source = ReplayableLines(AnyIterator { rest.next() }, copying: true)
        try source.rewind()
        #expect(Array(source.prefix(3)) == Array(lines.prefix(3)))
        try source.rewind()
        #expect(Array(source.prefix(4)) == Array(lines.prefix(4)))
        try source.rewind()
        #expect(Array(source) == lines)
        try source.finish()
        try source.rewind()
        #expect(Array(source) == lines)
        try source.finish()
    }

    @Test("an input read without a copy refuses to start again instead of skipping the lines read")
    func uncopiedInputRefusesToStartAgain() throws {
        var rest = ["a", "b"].makeIterator()
        let source = ReplayableLines(AnyIterator { rest.next() }, copying: false)
        try source.rewind()
        #expect(source.next() == "a")
        #expect(throws: ReplayableLines<AnyIterator<String>>.ReplayError.self) { try source.rewind() }
    }
}
