import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// NavStore.docc/PlatformGenerations.md through the store: the generation recorded at the start, kept by the
/// projection,
/// snapshots, rebuild, check, export and import, and what-if reads that write nothing.
@Suite("NavigationStore: platform generations")
struct PlatformStoreTests {
    /// A session `key` of `platform`: Inbox, then Mail, then a plain top entry (three pushes).
    private func mailSession(_ store: NavigationStore, _ key: String, platform: PlatformGeneration) throws {
        try store.startSession(key, name: "Mail", platform: platform, at: 1_000)
        try store.execute(.push(Entry(id: "A", item: NavigationItem(title: "Inbox"))), session: key, at: 2_000)
        try store.execute(
            .push(Entry(id: "B", item: NavigationItem(title: "Mail", backButtonTitle: "Messages"))), session: key,
            at: 3_000)
        try store.execute(.push(Entry(id: "C")), session: key, at: 4_000)
    }

    // SQLite only: it reads the database file or runs SQLite's own SQL on it.
    @Test(
        "the generation is recorded in session.started, listed by sessions() and resolves the label",
        arguments: [StoreBackend.sqlite])
    func recorded(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try mailSession(store, "new", platform: .ios26)
        try mailSession(store, "old", platform: .ios14)
        try store.startSession("plain")
        #expect(try store.sessions().map(\.platform) == [.ios26, .ios14, .ios14])
        #expect(try store.sessionInfo("new").platform == .ios26)
        let first = try store.allEvents(session: "new")[0]
        #expect(first.body == .sessionStarted(name: "Mail", platform: .ios26))
        #expect(try store.allEvents(session: "plain")[0].body == .sessionStarted(name: nil, platform: .ios14))

        let new = try store.state(session: "new")
        #expect(new.state.platform == .ios26 && new.recordedPlatform == .ios26 && !new.isWhatIf)
        #expect(new.backButton == BackButton(label: "Messages", fallbacks: [""]))
        #expect(try store.state(session: "old").backButton == BackButton(label: "Messages", fallbacks: ["Back", ""]))
        // At a past version (folded from the log): Inbox below Mail.
        #expect(try store.state(session: "new", at: .version(3)).backButton == BackButton(label: "", fallbacks: []))
        #expect(
            try store.state(session: "old", at: .version(3)).backButton
                == BackButton(label: "Inbox", fallbacks: ["Back", ""]))
        // Plain SQL readers see it in the sessions table.
        let db = try Connection(path: dir.path("nav.sqlite"), mode: .readOnly)
        #expect(
            try db.testScalar("SELECT group_concat(platform, ',') FROM (SELECT platform FROM sessions ORDER BY key)")
                == .text("ios26,ios14,ios14"))
    }

    @Test(
        "a what-if read resolves under another generation, keeps the recorded one, and writes nothing",
        arguments: StoreBackend.all)
    func whatIf(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions(snapshotInterval: 2))
        try mailSession(store, "s", platform: .ios14)
        let before = try databaseContent(store)
        for point in [nil, HistoryPoint.version(3), .version(4), .time(3_500)] {
            let asRecorded = try store.state(session: "s", at: point)
            let modern = try store.state(session: "s", at: point, platform: .ios26)
            #expect(modern.isWhatIf && modern.recordedPlatform == .ios14 && modern.state.platform == .ios26)
            #expect(modern.state.layers == asRecorded.state.layers)
            #expect(modern.backButton == asRecorded.state.backButton(under: .ios26))
            #expect(modern.backMenu == asRecorded.backMenu)
            #expect(try store.state(session: "s", at: point, platform: .ios14) == asRecorded)
        }
        #expect(
            try store.state(session: "s", at: .version(3), platform: .ios26).backButton
                == BackButton(label: "", fallbacks: []))
        #expect(
            try store.state(session: "s", platform: .ios26).backButton == BackButton(label: "Messages", fallbacks: [""])
        )
        #expect(try databaseContent(store) == before, "a what-if read changes neither the file nor its WAL")
        #expect(try store.sessionInfo("s").platform == .ios14)
    }

    // SQLite only: it reads the snapshots with SQLite's JSON functions.
    @Test("snapshots carry the generation: a past state of an ios26 session read from a snapshot is ios26")
    func snapshots() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, options: fastOptions(snapshotInterval: 2))
        try mailSession(store, "s", platform: .ios26)
        try store.execute(.push(Entry(id: "D", item: NavigationItem(title: "Draft"))), session: "s", at: 5_000)
        try store.execute(.push(Entry(id: "E")), session: "s", at: 6_000)
        let db = try Connection(path: dir.path("nav.sqlite"), mode: .readOnly)
        var folded = SessionState()
        var expected: Int64 = 0
        for event in try store.allEvents(session: "s") {
            folded.apply(event.body)
            if fastOptions(snapshotInterval: 2).isSnapshotVersion(event.version, of: folded) { expected += 1 }
        }
        #expect(expected >= 2)
        #expect(try db.testScalar("SELECT count(*) FROM snapshots") == .integer(expected))
        #expect(
            try db.testScalar("SELECT count(*) FROM snapshots WHERE json_extract(state, '$.platform') = 'ios26'")
                == .integer(expected))
        let past = try store.state(session: "s", at: .version(6))
        #expect(past.state.platform == .ios26)
        #expect(past.backButton == BackButton(label: "", fallbacks: []))
    }

    @Test(
        "rebuild and check: the projection's platform agrees with the log; a changed one is found and repaired",
        arguments: StoreBackend.all)
    func rebuildAndCheck(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let path = try backend.location(dir)
        do {
            let store = try NavigationStore(path: path)
            try mailSession(store, "s", platform: .ios26)
            #expect(try store.check().isClean)
            #expect(try store.rebuild(verify: true).differences.isEmpty)
        }
        // Behind the store's back, as plain SQL could.
        try executeSQL("UPDATE sessions SET platform = 'ios14'", at: path)
        do {
            let store = try NavigationStore(path: path)
            let problems = try store.check().problems
            #expect(
                problems.contains { $0.contains("platform is ios14 in the projection, ios26 in the fold") },
                "\(problems)")
            let report = try store.rebuild(verify: true)
            #expect(
                report.differences.contains { $0.contains("platform is ios14 in the projection, ios26 in the fold") },
                "\(report.differences)")
            #expect(try store.check().isClean)
            #expect(try store.sessionInfo("s").platform == .ios26)
            #expect(try store.state(session: "s").state.platform == .ios26)
        }
        // A value no generation has: reads say so (74), check reports it, rebuild rewrites it.
        try executeSQL("UPDATE sessions SET platform = 'ios99'", at: path)
        let store = try NavigationStore(path: path)
        let error = try #require(throws: StoreError.self) { try store.state(session: "s") }
        guard case .unreadableRow = error else {
            Issue.record("expected unreadableRow, got \(error)")
            return
        }
        #expect(
            error.description.contains("'ios99'") && error.description.contains("ios14, ios26")
                && error.description.contains("rebuild"), "\(error)")
        #expect(try store.check().problems.contains { $0.contains("'ios99'") })
        _ = try store.rebuild()
        #expect(try store.check().isClean)
        #expect(try store.state(session: "s").state.platform == .ios26)
    }

    @Test("export and import carry the generation; redaction keeps it", arguments: StoreBackend.all)
    func exportImport(backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let redacted = try TemporaryDirectory()
        let original = try makeStore(source)
        try mailSession(original, "new", platform: .ios26)
        try mailSession(original, "old", platform: .ios14)
        let lines = try original.exportLines()
        #expect(lines[0].contains(#""platform":"ios26""#))
        let copy = try makeStore(target, on: backend)
        try copy.importNDJSON(lines: lines)
        #expect(try copy.sessions() == original.sessions())
        #expect(try copy.state(session: "new") == original.state(session: "new"))
        #expect(try copy.exportLines() == lines)

        let hidden = try makeStore(redacted, on: backend)
        try hidden.importNDJSON(lines: try original.exportLines(redact: true, keepIDs: true))
        #expect(try hidden.sessions().map(\.platform) == [.ios26, .ios14])
        // B's backButtonTitle, hashed, with the iOS 26 fallback.
        let button = try #require(try hidden.state(session: "new").backButton)
        #expect(button.label.hasPrefix("h:") && button.fallbacks == [""])
        #expect(try hidden.state(session: "new", at: .version(3)).backButton == BackButton(label: "", fallbacks: []))
    }

    @Test(
        "a truncated ios26 session keeps its generation in its base: reads, rebuild, check, export and import",
        arguments: StoreBackend.all)
    func truncated(backend: StoreBackend) throws {
        let source = try TemporaryDirectory()
        let target = try TemporaryDirectory()
        let store = try makeStore(source, on: backend, options: fastOptions(snapshotInterval: 2))
        try mailSession(store, "s", platform: .ios26)
        try store.execute(.push(Entry(id: "D")), session: "s", at: 5_000)
        try store.truncateSession("s", before: 4)
        #expect(try store.base(session: "s")?.state.platform == .ios26)
        #expect(
            try store.state(session: "s", at: .version(4)).backButton == BackButton(label: "Messages", fallbacks: [""]))
        #expect(try store.state(session: "s").backButton == BackButton(label: "", fallbacks: []))
        _ = try store.rebuild()
        #expect(try store.check().isClean)
        #expect(try store.sessionInfo("s").platform == .ios26)
        let copy = try makeStore(target)
        try copy.importNDJSON(lines: try store.exportLines())
        #expect(try copy.sessionInfo("s").platform == .ios26)
        #expect(try copy.state(session: "s") == store.state(session: "s"))
    }

    @Test(
        "an export written before generations (no platform) imports as ios14, and again as already stored",
        arguments: StoreBackend.all)
    func oldExport(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let lines = [
            #"{"at":1000,"eventID":"00000000-0000-7000-8000-000000000001","payload":{"name":"Mail"},"session":"s","type":"session.started","version":1}"#,
            #"{"at":2000,"eventID":"00000000-0000-7000-8000-000000000002","payload":{"entry":{"id":"A","item":{"title":"Inbox"}}},"session":"s","type":"entry.pushed","version":2}"#,
            #"{"at":3000,"eventID":"00000000-0000-7000-8000-000000000003","payload":{"entry":{"id":"B"}},"session":"s","type":"entry.pushed","version":3}"#,
        ]
        #expect(try store.importNDJSON(lines: lines) == ImportReport(sessions: 1, imported: 3, skipped: 0))
        #expect(try store.sessionInfo("s").platform == .ios14)
        #expect(try store.state(session: "s").backButton == BackButton(label: "Inbox", fallbacks: ["Back", ""]))
        #expect(try store.importNDJSON(lines: lines) == ImportReport(sessions: 1, imported: 0, skipped: 3))
        // The same start stated as ios26 is other content under a known id.
        let modern = lines[0].replacingOccurrences(
            of: #"{"name":"Mail"}"#, with: #"{"name":"Mail","platform":"ios26"}"#)
        #expect(throws: StoreError.self) { try store.importNDJSON(lines: [modern]) }
    }

    @Test(
        "import creates an ios26 session from its start and accepts content-gesture pops; an unknown platform is refused",
        arguments: StoreBackend.all)
    func importModern(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let lines = [
            #"{"at":1000,"eventID":"00000000-0000-7000-8000-000000000001","payload":{"platform":"ios26"},"session":"s","type":"session.started","version":1}"#,
            #"{"at":2000,"eventID":"00000000-0000-7000-8000-000000000002","payload":{"entry":{"id":"A","item":{"title":"Inbox"}}},"session":"s","type":"entry.pushed","version":2}"#,
            #"{"at":3000,"eventID":"00000000-0000-7000-8000-000000000003","payload":{"entry":{"id":"B","item":{"popGuard":{"prompt":"?"}}}},"session":"s","type":"entry.pushed","version":3}"#,
            #"{"at":4000,"eventID":"00000000-0000-7000-8000-000000000004","payload":{"ids":["B"],"source":"content-gesture"},"session":"s","type":"entries.popped","version":4}"#,
        ]
        try store.importNDJSON(lines: lines)
        #expect(try store.sessionInfo("s").platform == .ios26)
        #expect(try store.state(session: "s").state.entryIDs == [["A"]])
        #expect(try store.state(session: "s", at: .version(3)).backButton == BackButton(label: "", fallbacks: []))

        let before = try databaseContent(store)
        let bad =
            #"{"at":1000,"eventID":"00000000-0000-7000-8000-000000000009","payload":{"platform":"ios27"},"session":"t","type":"session.started","version":1}"#
        let error = try #require(throws: StoreError.self) { try store.importNDJSON(lines: [bad]) }
        guard case .invalidImport(let line, let reason) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(line == 1 && reason.contains("session.started"), "\(reason)")
        #expect(try databaseContent(store) == before)
    }

    @Test(
        "the content swipe through the store: accepted on ios26 (guard not asked), refused on ios14 with nothing written",
        arguments: StoreBackend.all)
    func contentGesture(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        for (key, platform) in [("new", PlatformGeneration.ios26), ("old", .ios14)] {
            try store.startSession(key, platform: platform)
            try store.execute(.push(Entry(id: "A")), session: key)
            try store.execute(
                .push(Entry(id: "B", item: NavigationItem(popGuard: PopGuard(prompt: "Discard?")))), session: key)
        }
        let result = try store.execute(.pop(source: .contentGesture), session: "new")
        #expect(
            result.outcome == .ok
                && result.event?.body == .entriesPopped(source: .contentGesture, ids: ["B"], confirmed: false))
        let before = try databaseContent(store)
        let error = try #require(throws: StoreError.self) {
            try store.execute(.pop(source: .contentGesture), session: "old")
        }
        #expect(error == .rules(.sourceNotOnPlatform(source: .contentGesture, platform: .ios14)))
        #expect(try databaseContent(store) == before)
    }
}
