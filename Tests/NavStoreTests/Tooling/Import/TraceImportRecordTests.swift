import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// What a trace import records besides its events (`trace_imports`, Migrations/0008): the lines
/// the longest import of a trace read and their digest, so that a line that makes no event is
/// part of the trace's identity; when that record goes; and imports of one trace racing to
/// create the database.
@Suite("Trace imports: the record of the lines read, and racing imports")
struct TraceImportRecordTests {
    /// The `trace_imports` rows of session `key`: (lines, digest).
    static func records(_ store: NavigationStore, _ key: String) throws -> [(lines: Int, digest: String)] {
        try store.withCore { core in
            guard let row = try core.sessionRow(key) else { return [] }
            var found: [(Int, String)] = []
            try core.db.forEachRow(
                sql: "SELECT lines, digest FROM trace_imports WHERE session_id = ? ORDER BY anchor",
                arguments: [.integer(row.id)]
            ) { found.append((try $0[0], try $0[1])) }
            return found
        }
    }

    static let swiftUI = (
        shownA: #"{"path":[{"id":"A"}],"by":"app","at":1000}"#,
        againByUser: #"{"path":[{"id":"A"}],"by":"user","at":2000}"#,
        againByApp: #"{"path":[{"id":"A"}],"by":"app","at":2000}"#,
        shownAB: #"{"path":[{"id":"A"},{"id":"B"}],"by":"app","at":3000}"#
    )

    @Test(
        "a SwiftUI path line that changes nothing is part of the trace; the record grows with the longest import",
        arguments: StoreBackend.all)
    func swiftUILineWithoutEvent(backend: StoreBackend) throws {
        let folder = try TemporaryDirectory()
        let store = try NavigationStore(path: try backend.location(folder))
        let lines = Self.swiftUI
        let first = try store.importSwiftUIPath(
            lines: [lines.shownA, lines.againByUser], session: "s", platform: nil)
        #expect(first.imported == 2 && first.callbacks == 2, "\(first)")
        #expect(try Self.records(store, "s").map(\.lines) == [2])
        do {
            try store.importSwiftUIPath(
                lines: [lines.shownA, lines.againByApp, lines.shownAB], session: "s", platform: nil)
            Issue.record("a trace differing in a line that makes no event was imported")
        } catch StoreError.invalidImport(let line, let reason) {
            #expect(line == 2, "\(reason)")
            #expect(reason.contains("they differ after line 1, in a line that makes no event"), "\(reason)")
        }
        #expect(try store.state(session: "s").state.layers[0].entries.map(\.id) == ["A"], "nothing was written")
        let longer = try store.importSwiftUIPath(
            lines: [lines.shownA, lines.againByUser, lines.shownAB], session: "s", platform: nil)
        #expect(longer.imported == 1 && longer.skipped == 2, "\(longer)")
        #expect(try Self.records(store, "s").map(\.lines) == [3], "one row per trace, the longest import's")
        // A shorter import (a prefix) leaves the record as it is.
        let prefix = try store.importSwiftUIPath(lines: [lines.shownA], session: "s", platform: nil)
        #expect(prefix.imported == 0 && prefix.skipped == 2, "\(prefix)")
        #expect(try Self.records(store, "s").map(\.lines) == [3])
    }

    @Test(
        "a shorter trace that differs in a line making no event, before a line making one the earlier import did not: refused",
        arguments: StoreBackend.all)
    func shorterTraceAppending(backend: StoreBackend) throws {
        let folder = try TemporaryDirectory()
        let store = try NavigationStore(path: try backend.location(folder))
        let a = #"{"callback":"didShow","stack":[{"id":"a","item":{"title":"A"}}]}"#
        let b = #"{"callback":"didShow","stack":[{"id":"a","item":{"title":"A"}},{"id":"b","item":{"title":"B"}}]}"#
        let c =
            #"{"callback":"didShow","stack":[{"id":"a","item":{"title":"A"}},{"id":"b","item":{"title":"B"}},{"id":"c","item":{"title":"C"}}]}"#
        let push = #"{"callback":"programmatic","call":"pushViewController"}"#
        let replace = #"{"callback":"programmatic","call":"setViewControllers"}"#
        // The second probe's case: [A, B, push, push, push] then [A, B, setViewControllers, C]
        // appended C (the record's 5 lines were never reached).
        #expect(try store.importUIKitTrace(lines: [a, b, push, push, push], session: "s", platform: nil).imported == 3)
        do {
            try store.importUIKitTrace(lines: [a, b, replace, c], session: "s", platform: nil)
            Issue.record("a shorter, differing trace appended")
        } catch StoreError.invalidImport(let line, let reason) {
            #expect(line == 4)
            #expect(
                reason.hasPrefix(
                    "this line makes entry.pushed, which the trace imported into session 's' before with this first line did not make from the same point"
                ), "\(reason)")
            #expect(reason.contains("differs from it after line 2"), "\(reason)")
        }
        #expect(try store.sessionInfo("s").version == 3, "nothing was written")
        // The same in a SwiftUI path trace, where the differing line makes the event itself.
        let root = #"{"id":"R","item":{"title":"Root"}}"#
        let paths = [#"{"path":[\#(root)]}"#, #"{"path":[\#(root)],"by":"app"}"#, #"{"path":[\#(root)],"by":"app"}"#]
        #expect(try store.importSwiftUIPath(lines: paths, session: "p", platform: nil).imported == 2)
        #expect(throws: StoreError.self) {
            try store.importSwiftUIPath(
                lines: [paths[0], #"{"path":[\#(root),{"id":"X"}],"by":"app"}"#], session: "p", platform: nil)
        }
        #expect(try store.sessionInfo("p").version == 2)
        // The whole trace, and a longer one, still import.
        #expect(try store.importUIKitTrace(lines: [a, b, push, push, push, c], session: "s", platform: nil).imported == 1)
        #expect(try store.importSwiftUIPath(lines: paths, session: "p", platform: nil).skipped == 2)
    }

    @Test(
        "a trace that makes no event records nothing; deletion removes the record; a truncation keeps it, and the trace is then refused clearly",
        arguments: StoreBackend.all)
    func recordGoesWithTheSession(backend: StoreBackend) throws {
        let folder = try TemporaryDirectory()
        let store = try NavigationStore(path: try backend.location(folder))
        try store.startSession("s", at: 500)
        try store.execute(.setStack([Entry(id: "A")]), session: "s", at: 600)
        // didShow of the stack the session shows, then a pending call: no event, no anchor stored.
        let quiet = try store.importUIKitTrace(
            lines: [
                #"{"callback":"didShow","at":1000,"stack":[{"id":"A"}]}"#,
                #"{"callback":"programmatic","at":1100,"call":"pushViewController"}"#,
            ], session: "s", platform: nil)
        #expect(quiet.imported == 0 && quiet.skipped == 0, "\(quiet)")
        #expect(try Self.records(store, "s").isEmpty)
        let trace = [
            #"{"callback":"didShow","at":2000,"stack":[{"id":"A"},{"id":"B"}]}"#,
            #"{"callback":"didShow","at":3000,"stack":[{"id":"A"},{"id":"B"},{"id":"C"}]}"#,
        ]
        #expect(try store.importUIKitTrace(lines: trace, session: "s", platform: nil).imported == 2)
        #expect(try Self.records(store, "s").map(\.lines) == [2])
        // Truncating below the trace's first event (version 3) changes nothing for it ...
        try store.truncateSession("s", before: 3)
        #expect(try store.importUIKitTrace(lines: trace, session: "s", platform: nil).skipped == 2)
        // ... past it, the trace can no longer be checked: refused, naming why.
        try store.truncateSession("s", before: 4)
        #expect(try Self.records(store, "s").map(\.lines) == [2], "the record stays")
        do {
            try store.importUIKitTrace(lines: trace, session: "s", platform: nil)
            Issue.record("a trace whose first event was truncated away was imported again")
        } catch StoreError.invalidImport(let line, let reason) {
            #expect(line == 1)
            #expect(
                reason.hasPrefix(
                    "a trace beginning with this trace's first line was imported into session 's' before (2 lines, blank lines aside), and a truncation (session truncate) has removed its first event since"
                ), "\(reason)")
        }
        try store.importUIKitTrace(lines: [trace[1]], session: "other", platform: nil)
        #expect(try Self.records(store, "other").count == 1)
        try store.deleteSession("other")
        try store.deleteSession("s")
        let left: Int = try store.withCore { core in
            try #require(try core.db.fetchOne(sql: "SELECT count(*) FROM trace_imports", arguments: []))[0]
        }
        #expect(left == 0, "deleting a session removes its records")
    }

    @Test("a shorter trace whose timed line differs only in its time is refused; 0.0, 1e3 and 1000 are the same number")
    func timesAndNumbers() throws {
        let folder = try TemporaryDirectory()
        let store = try NavigationStore(path: folder.path("nav.sqlite"))
        try store.startSession("s", at: 0)
        let trace = [
            #"{"callback":"programmatic","call":"pushViewController","at":1000}"#,
            #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}}],"at":2000}"#,
            #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}},{"id":"B"}],"at":3000}"#,
        ]
        #expect(try store.importUIKitTrace(lines: trace, session: "s", platform: nil).imported == 2)
        // The hostile probe's case: the first event takes the id of line 1 alone, so line 2 at
        // 2500 found the push stored at 2000 and was taken for it.
        do {
            try store.importUIKitTrace(
                lines: [trace[0], #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}}],"at":2500}"#],
                session: "s", platform: nil)
            Issue.record("a line at another time was taken for the imported one")
        } catch StoreError.invalidImport(let line, let reason) {
            #expect(line == 2)
            #expect(
                reason.hasPrefix(
                    "this trace's first event is made by this line, the trace's line 2 (blank lines aside), and the trace imported into session 's' before with this first line made it by its line 2, with other lines before it: they differ after line 1"
                ), "\(reason)")
        }
        // The same numbers written otherwise: the same lines.
        let respelled = [
            #"{"callback":"programmatic","call":"pushViewController","at":1e3}"#,
            #"{"callback":"didShow","stack":[{"id":"A","item":{"title":"Inbox"}}],"at":2000.0,"layer":0}"#,
        ]
        let again = try store.importUIKitTrace(lines: respelled.prefix(1) + [trace[1]], session: "s", platform: nil)
        #expect(again.imported == 0 && again.skipped == 1, "\(again)")
        // `"layer":0` is a key the first import did not have: another line (but the same event,
        // so the session holds it under another id: refused).
        #expect(throws: StoreError.self) {
            try store.importUIKitTrace(lines: respelled, session: "s", platform: nil)
        }
    }

    @Test("after an export and import (the record does not travel), a lookalike trace that only finds events records nothing")
    func lookalikeAfterExport() throws {
        let folder = try TemporaryDirectory()
        let source = try NavigationStore(path: folder.path("source.sqlite"))
        let original = [
            #"{"callback":"didShow","stack":[{"id":"A"}]}"#,
            #"{"callback":"didShow","stack":[{"id":"A"},{"id":"B"}]}"#,
            #"{"callback":"programmatic","call":"pushViewController"}"#,
        ]
        let lookalike = Array(original.prefix(2)) + [#"{"callback":"programmatic","call":"setViewControllers"}"#]
        try source.importUIKitTrace(lines: original, session: "s", platform: nil)
        var lines: [String] = []
        try source.exportNDJSON(session: nil) { lines.append($0) }
        let copy = try NavigationStore(path: folder.path("copy.sqlite"))
        try copy.importNDJSON(lines: lines)
        #expect(try Self.records(copy, "s").isEmpty, "the record is the source's")
        let found = try copy.importUIKitTrace(lines: lookalike, session: "s", platform: nil)
        #expect(found.imported == 0 && found.skipped == 3, "\(found)")
        #expect(try Self.records(copy, "s").isEmpty, "found events certify no line that makes none")
        // Without the record, a timed line that makes the trace's first event is checked by its
        // time (the probe's case after an export: the first event's id covers line 1 alone).
        let timed = [
            #"{"callback":"programmatic","call":"pushViewController","at":1000}"#,
            #"{"callback":"didShow","stack":[{"id":"T"}],"at":2000}"#,
        ]
        try source.startSession("t", at: 0)
        try source.importUIKitTrace(lines: timed, session: "t", platform: nil)
        lines = []
        try source.exportNDJSON(session: "t") { lines.append($0) }
        try copy.importNDJSON(lines: lines)
        do {
            try copy.importUIKitTrace(
                lines: [timed[0], #"{"callback":"didShow","stack":[{"id":"T"}],"at":2500}"#], session: "t", platform: nil)
            Issue.record("a line at another time was taken for the imported one")
        } catch StoreError.invalidImport(let line, let reason) {
            #expect(line == 2)
            #expect(reason.contains("but at 1970-01-01T00:00:02.000Z (2000), not at this line's 2500"), "\(reason)")
        }
        // So the original is not refused afterwards, and a longer one is recorded.
        #expect(try copy.importUIKitTrace(lines: original, session: "s", platform: nil).skipped == 3)
        let longer = original + [#"{"callback":"didShow","stack":[{"id":"A"},{"id":"B"},{"id":"C"}]}"#]
        #expect(try copy.importUIKitTrace(lines: longer, session: "s", platform: nil).imported == 1)
        #expect(try Self.records(copy, "s").map(\.lines) == [4])
    }

    @Test(
        "imports of one trace racing to create the database: one creates it, every other finds the trace and skips it",
        arguments: [true, false])
    func racingIntoMissingFile(timed: Bool) throws {
        // Long enough for the imports to overlap; whether they do or not, the counts must hold.
        var built = [#"{"callback":"didShow","stack":[{"id":"A"}]}"#]
        var stack = [#"{"id":"A"}"#]
        for index in 1..<200 {
            stack.append(#"{"id":"e\#(index)"}"#)
            built.append(#"{"callback":"didShow","stack":[\#(stack.suffix(3).joined(separator: ","))]}"#)
        }
        if timed {
            built = built.enumerated().map { index, line in
                line.replacingOccurrences(of: #"{"callback""#, with: #"{"at":\#(1_000 + index),"callback""#)
            }
        }
        let lines = built
        for round in 1...3 {
            let folder = try TemporaryDirectory()
            let path = folder.path("race.sqlite")
            let reports = Locked([TraceImportReport]())
            let failures = Locked([String]())
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    var rest = lines.makeIterator()
                    let input = IteratorSequence(AnyIterator { rest.next() })
                    let report = try NavigationStore.importUIKitTrace(
                        into: path, lines: input, session: "s", platform: nil)
                    reports.withLock { $0.append(report) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty, "round \(round): \(failures.withLock { $0 })")
            let all = reports.withLock { $0 }
            let stored = try NavigationStore(path: path).sessionInfo("s").version
            #expect(all.count == 4 && stored > 1)
            #expect(all.filter(\.created).count == 1, "round \(round): \(all)")
            #expect(all.map(\.imported).reduce(0, +) == stored, "round \(round): each event imported once: \(all)")
            for report in all {
                #expect(
                    report.imported + report.skipped == stored && report.version == stored, "round \(round): \(report)")
            }
        }
    }
}
