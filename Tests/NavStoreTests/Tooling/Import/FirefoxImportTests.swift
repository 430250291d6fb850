import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// The real Firefox for Android session files: `$NAVSTORE_REAL_INPUTS`, else
/// `<package root>/../shared/real-inputs/firefox-android-sessions` (as CI has it). They are not
/// copied into the repository.
enum FirefoxFiles {
    static var folder: URL? {
        let environment = ProcessInfo.processInfo.environment["NAVSTORE_REAL_INPUTS"]
        let candidates: [URL] = [
            environment.map { URL(fileURLWithPath: $0) },
            environment.map { URL(fileURLWithPath: $0).appendingPathComponent("firefox-android-sessions") },
            SharedCase.packageRoot()
                .appendingPathComponent("../shared/real-inputs/firefox-android-sessions").standardizedFileURL,
        ].compactMap { $0 }
        return candidates.first { !files(in: $0).isEmpty }
    }

    static func files(in folder: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static var all: [URL] { folder.map(files(in:)) ?? [] }

    static let skipNote: Comment =
        "real Firefox session files not found (set NAVSTORE_REAL_INPUTS or provide ../shared/real-inputs/firefox-android-sessions); skipped"

    /// What a file says about one tab, read independently of the importer with JSONSerialization.
    struct ExpectedTab {
        var uuid: String
        var name: String?
        var lastAccess: Int64?
        /// (title, url) from the first history entry to the current one.
        var stack: [(title: String?, url: String?)]
    }

    static func expectedTabs(_ data: Data) throws -> [ExpectedTab] {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let tuples = try #require(root["sessionStateTuples"] as? [[String: Any]])
        return try tuples.map { tuple in
            let session = try #require(tuple["session"] as? [String: Any])
            let uuid = try #require(session["uuid"] as? String)
            let lastAccess = (session["lastAccess"] as? NSNumber)?.int64Value
            var tab = ExpectedTab(
                uuid: uuid, name: session["title"] as? String, lastAccess: lastAccess.flatMap { $0 > 0 ? $0 : nil },
                stack: [])
            let engine = tuple["engineSession"] as? [String: Any] ?? [:]
            if let text = engine["GECKO_STATE"] as? String,
                let gecko = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                let history = gecko["history"] as? [String: Any], let entries = history["entries"] as? [[String: Any]],
                !entries.isEmpty
            {
                let index = (history["index"] as? Int) ?? entries.count
                tab.stack = entries.prefix(index).map { ($0["title"] as? String, $0["url"] as? String) }
            } else {
                tab.stack = [(session["title"] as? String, session["url"] as? String)]
            }
            return tab
        }
    }
}

@Suite("NavigationStore: Firefox for Android session import")
struct FirefoxImportTests {
    @Test("the real files are present or the skip is recorded")
    func realFilesLocated() {
        if FirefoxFiles.folder == nil {
            print("FirefoxImportTests: \(FirefoxFiles.skipNote.rawValue)")
        } else {
            #expect(FirefoxFiles.all.count >= 5)
        }
    }

    @Test(
        "every real file imports and each tab restores its current page and back list as the file describes",
        .enabled(if: FirefoxFiles.folder != nil, FirefoxFiles.skipNote))
    func realFilesRestoreAsDescribed() throws {
        var deepest = 0
        for file in FirefoxFiles.all {
            let data = try Data(contentsOf: file)
            let expected = try FirefoxFiles.expectedTabs(data)
            let dir = try TemporaryDirectory()
            let store = try makeStore(dir)
            let report = try store.importFirefoxSession(data: data, at: 1_600_000_000_000)
            let events = expected.reduce(0) { $0 + 1 + $1.stack.count }
            #expect(
                report == ImportReport(sessions: expected.count, imported: events, skipped: 0),
                "\(file.lastPathComponent)")
            deepest = max(deepest, expected.map(\.stack.count).max() ?? 0)
            for tab in expected {
                let restored = try store.restore(session: tab.uuid)
                let entries = try #require(restored.layers.first?.entries)
                #expect(restored.layers.count == 1)
                #expect(entries.map(\.id) == tab.stack.indices.map { String($0 + 1) })
                let current = try #require(tab.stack.last)
                #expect(entries.last?.item.title == current.title, "\(file.lastPathComponent) \(tab.uuid)")
                #expect(entries.last?.route == current.url)
                let backList = tab.stack.dropLast().reversed().map { $0.title ?? "Back" }
                #expect(
                    restored.backMenu?.map(\.title) == (backList.isEmpty ? nil : Array(backList)),
                    "\(file.lastPathComponent) \(tab.uuid)")
                #expect(
                    restored.backButton?.label
                        == (tab.stack.count > 1 ? (tab.stack[tab.stack.count - 2].title ?? "Back") : nil))
                let info = try store.sessionInfo(tab.uuid)
                #expect(info.name == tab.name)
                #expect(info.createdAt == (tab.lastAccess ?? 1_600_000_000_000))
                #expect(info.version == tab.stack.count + 1)
            }
            #expect(try store.check().isClean)
        }
        #expect(deepest >= 3, "the files have tabs with back lists")
    }

    @Test(
        "importing the same real file twice is a no-op, and every file goes into one database",
        .enabled(if: FirefoxFiles.folder != nil, FirefoxFiles.skipNote))
    func realFilesTwice() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        for file in FirefoxFiles.all {
            let data = try Data(contentsOf: file)
            let first = try store.importFirefoxSession(data: data)
            let before = try databaseContent(store)
            let second = try store.importFirefoxSession(data: data)
            #expect(second.imported == 0, "\(file.lastPathComponent)")
            #expect(second.skipped == first.imported + first.skipped)
            #expect(try databaseContent(store) == before)
        }
        #expect(try store.check().isClean)
    }

    @Test(
        "event ids are deterministic: two databases importing a file export the same lines",
        .enabled(if: FirefoxFiles.folder != nil, FirefoxFiles.skipNote), arguments: StoreBackend.all)
    func deterministicIDs(backend: StoreBackend) throws {
        let file = try #require(FirefoxFiles.all.first)
        let data = try Data(contentsOf: file)
        let one = try TemporaryDirectory()
        let two = try TemporaryDirectory()
        let first = try makeStore(one, on: backend)
        let second = try makeStore(two, on: backend)
        try first.importFirefoxSession(data: data, at: 5)
        try second.importFirefoxSession(data: data, at: 5)
        #expect(try first.exportLines() == second.exportLines())
        let pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
        #expect(try first.allEvents().allSatisfy { $0.eventID.wholeMatch(of: pattern) != nil })
    }

    // Synthetic files: the shapes of both format versions, always run.

    static func file(version: Int, tabs: [String]) -> String {
        let selection = version == 1 ? #""selectedSessionIndex":0"# : #""selectedTabId":"t1""#
        return #"{"version":\#(version),\#(selection),"sessionStateTuples":[\#(tabs.joined(separator: ","))]}"#
    }

    static func geckoTab(
        uuid: String, title: String?, lastAccess: Int64?, entries: [(String?, String)], index: Int
    ) throws -> String {
        let entryJSON = try entries.map { title, url in
            try "{" + (title.map { #""title":\#(try jsonString($0)),"# } ?? "")
                + #""url":\#(try jsonString(url)),"ID":1}"#
        }.joined(separator: ",")
        let gecko = #"{"scrolldata":{},"history":{"entries":[\#(entryJSON)],"index":\#(index),"fromIdx":-1}}"#
        let titleJSON = try title.map { #","title":\#(try jsonString($0))"# } ?? ""
        let session =
            #"{"uuid":"\#(uuid)","url":"https://example.com/","parentUuid":""\#(titleJSON)\#(lastAccess.map { #","lastAccess":\#($0)"# } ?? "")}"#
        return #"{"session":\#(session),"engineSession":{"GECKO_STATE":\#(try jsonString(gecko))}}"#
    }

    static func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test(
        "format 1 and 2, a current index in the middle, absent and empty titles, a tab without engine state",
        arguments: StoreBackend.all, [1, 2])
    func syntheticFile(backend: StoreBackend, version: Int) throws {
        let text = try Self.file(
            version: version,
            tabs: [
                Self.geckoTab(
                    uuid: "t1", title: "Fox", lastAccess: 1_609_762_083_437,
                    entries: [
                        ("Wikipedia", "https://www.wikipedia.org/"), (nil, "https://no.title/"), ("", "https://blank/"),
                        ("Fox - Wikipedia", "https://en.m.wikipedia.org/wiki/Fox"), ("Later", "https://forward/"),
                    ], index: 4),
                #"{"session":{"uuid":"t2","title":"","url":"https://www.wikipedia.org/","lastAccess":0},"engineSession":{}}"#,
            ])
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        let report = try store.importFirefoxSession(data: Array(text.utf8), at: 1_700_000_000_000)
        #expect(report == ImportReport(sessions: 2, imported: 7, skipped: 0))
        let fox = try store.restore(session: "t1")
        #expect(fox.layers[0].entries.map(\.id) == ["1", "2", "3", "4"])
        #expect(fox.layers[0].entries.map(\.item.title) == ["Wikipedia", nil, "", "Fox - Wikipedia"])
        #expect(fox.layers[0].entries.last?.route == "https://en.m.wikipedia.org/wiki/Fox")
        #expect(fox.backMenu?.map(\.title) == ["", "Back", "Wikipedia"])
        #expect(fox.backButton == BackButton(label: "", fallbacks: []))
        #expect(try store.sessionInfo("t1").name == "Fox")
        #expect(try store.allEvents(session: "t1").allSatisfy { $0.at == 1_609_762_083_437 })
        let wiki = try store.restore(session: "t2")
        #expect(
            wiki.layers[0].entries == [
                Entry(id: "1", route: "https://www.wikipedia.org/", item: NavigationItem(title: ""))
            ])
        #expect(wiki.backMenu == nil)
        #expect(try store.sessionInfo("t2").name == "")
        #expect(try store.sessionInfo("t2").createdAt == 1_700_000_000_000)
        // Again, at another fallback time: still a no-op (the tab keeps the time it was given).
        let before = try databaseContent(store)
        #expect(
            try store.importFirefoxSession(data: Array(text.utf8), at: 1_800_000_000_000)
                == ImportReport(sessions: 2, imported: 0, skipped: 7))
        #expect(try databaseContent(store) == before)
    }

    @Test(
        "a lastAccess past Int64 or past the year 9999 is refused naming the tab and the value, never a trap; the database is unchanged",
        arguments: StoreBackend.all,
        [
            "1e19", "9223372036854775808", "1e300", "-1e300", "9223372036854775807", "253402300800000",
            "1.8446744073709552e19",
        ])
    func hugeLastAccess(backend: StoreBackend, number: String) throws {
        let text =
            #"{"version":2,"sessionStateTuples":[{"session":{"uuid":"t1","title":"Fox","url":"https://a/","lastAccess":"#
            + number + "}}]}"
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("other")
        let before = try databaseContent(store)
        #expect {
            try store.importFirefoxSession(data: Array(text.utf8))
        } throws: { error in
            guard case StoreError.invalidImportFile(let reason) = error else { return false }
            return reason.hasPrefix("tab 1 'Fox' (uuid 't1'): lastAccess ")
                && reason.contains("is not a time in ms since the Unix epoch")
        }
        #expect(try databaseContent(store) == before)
    }

    @Test(
        "a newer file of the same tab appends only the pages visited since; an older one is refused, naming the tab",
        arguments: StoreBackend.all)
    func newerFileAppends(backend: StoreBackend) throws {
        let older = try Self.file(
            version: 2,
            tabs: [Self.geckoTab(uuid: "t1", title: "B", lastAccess: 10, entries: [("A", "a"), ("B", "b")], index: 2)])
        // The tab navigated on: its lastAccess and title changed with it.
        let newer = try Self.file(
            version: 2,
            tabs: [
                Self.geckoTab(
                    uuid: "t1", title: "C", lastAccess: 20, entries: [("A", "a"), ("B", "b"), ("C", "c")], index: 3)
            ])
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.importFirefoxSession(data: Array(older.utf8))
        #expect(
            try store.importFirefoxSession(data: Array(newer.utf8))
                == ImportReport(sessions: 1, imported: 1, skipped: 3))
        #expect(try store.restore(session: "t1").backMenu?.map(\.title) == ["B", "A"])
        #expect(try store.allEvents(session: "t1").last?.at == 20)
        // The same newer file again: a no-op.
        var before = try databaseContent(store)
        #expect(
            try store.importFirefoxSession(data: Array(newer.utf8))
                == ImportReport(sessions: 1, imported: 0, skipped: 4))
        #expect(try databaseContent(store) == before)
        // Going back to the older file: it differs and is older than the session. Refused.
        before = try databaseContent(store)
        #expect(
            throws: StoreError.invalidImportFile(
                reason:
                    "tab 1 'B' (uuid 't1'): the tab's history in this file differs from the session imported before at version 4, and this file is older: its lastAccess 1970-01-01T00:00:00.010Z is before the session's last event at 1970-01-01T00:00:00.020Z"
            )
        ) {
            try store.importFirefoxSession(data: Array(older.utf8))
        }
        #expect(try databaseContent(store) == before)
    }

    @Test(
        "a restart marker does not block a later re-import of the tab: it continues after the marker (issue 19)",
        arguments: StoreBackend.all)
    func reimportAfterMarker(backend: StoreBackend) throws {
        let older = try Self.file(
            version: 2,
            tabs: [Self.geckoTab(uuid: "t1", title: "B", lastAccess: 10, entries: [("A", "a"), ("B", "b")], index: 2)])
        let newer = try Self.file(
            version: 2,
            tabs: [
                Self.geckoTab(
                    uuid: "t1", title: "C", lastAccess: 20, entries: [("A", "a"), ("B", "b"), ("C", "c")], index: 3)
            ])
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.importFirefoxSession(data: Array(older.utf8))
        try store.execute(.markRestored, session: "t1", at: 15)
        #expect(
            try store.importFirefoxSession(data: Array(newer.utf8))
                == ImportReport(sessions: 1, imported: 1, skipped: 4))
        #expect(
            try store.allEvents(session: "t1").map(\.type) == [
                "session.started", "entry.pushed", "entry.pushed", "session.restored", "entry.pushed",
            ])
        #expect(try store.state(session: "t1").state.entryIDs == [["1", "2", "3"]])
        // Unchanged afterwards: the same file again is a no-op, marker or not.
        try store.execute(.markRestored, session: "t1", at: 25)
        #expect(
            try store.importFirefoxSession(data: Array(newer.utf8))
                == ImportReport(sessions: 1, imported: 0, skipped: 6))
        // Other events a Firefox import did not write still block it.
        try store.execute(.push(Entry(id: "mine")), session: "t1", at: 30)
        #expect(throws: StoreError.self) { try store.importFirefoxSession(data: Array(older.utf8)) }
    }

    @Test(
        "a tab that went back and elsewhere pops then pushes; one whose first page changed is replaced",
        arguments: StoreBackend.all)
    func tabNavigatedElsewhere(backend: StoreBackend) throws {
        let first = try Self.file(
            version: 2,
            tabs: [
                Self.geckoTab(
                    uuid: "t1", title: "C", lastAccess: 10, entries: [("A", "a"), ("B", "b"), ("C", "c")], index: 3),
                Self.geckoTab(uuid: "t2", title: "X", lastAccess: 10, entries: [("X", "x")], index: 1),
            ])
        let second = try Self.file(
            version: 2,
            tabs: [
                // Back to A, then D: B and C are gone from the history, as a browser drops forward pages.
                Self.geckoTab(uuid: "t1", title: "D", lastAccess: 30, entries: [("A", "a"), ("D", "d")], index: 2),
                // Same url, another title: the first page differs.
                Self.geckoTab(
                    uuid: "t2", title: "Y", lastAccess: nil, entries: [("X (updated)", "x"), ("Y", "y")], index: 2),
            ])
        let one = try TemporaryDirectory()
        let two = try TemporaryDirectory()
        let store = try makeStore(one, on: backend)
        try store.importFirefoxSession(data: Array(first.utf8), at: 5)
        #expect(
            try store.importFirefoxSession(data: Array(second.utf8), at: 40)
                == ImportReport(sessions: 2, imported: 3, skipped: 6))
        let t1 = try store.allEvents(session: "t1").suffix(2)
        #expect(
            t1.map(\.body) == [
                .entriesPopped(source: .programmatic, ids: ["2", "3"], confirmed: false),
                .entryPushed(Entry(id: "2", route: "d", item: NavigationItem(title: "D"))),
            ])
        #expect(t1.map(\.at) == [30, 30])
        #expect(try store.restore(session: "t1").backMenu?.map(\.title) == ["A"])
        let t2 = try store.allEvents(session: "t2")
        #expect(
            t2.last?.body
                == .stackReplaced([
                    Entry(id: "1", route: "x", item: NavigationItem(title: "X (updated)")),
                    Entry(id: "2", route: "y", item: NavigationItem(title: "Y")),
                ]))
        #expect(t2.last?.at == 40, "no lastAccess: the import's time")
        #expect(try store.check().isClean)
        // Deterministic ids: another database importing the same files in the same order holds the same log.
        let copy = try makeStore(two, on: backend)
        try copy.importFirefoxSession(data: Array(first.utf8), at: 5)
        try copy.importFirefoxSession(data: Array(second.utf8), at: 40)
        #expect(try copy.exportLines() == store.exportLines())
        // And the second file again, at another time, changes nothing.
        let before = try databaseContent(store)
        #expect(try store.importFirefoxSession(data: Array(second.utf8), at: 50).imported == 0)
        #expect(try databaseContent(store) == before)
    }

    @Test("a page title changed to a canonically equivalent spelling is a change", arguments: StoreBackend.all)
    func canonicallyEquivalentTitle(backend: StoreBackend) throws {
        let first = try Self.file(
            version: 2,
            tabs: [
                Self.geckoTab(
                    uuid: "t1", title: "C", lastAccess: 10, entries: [("Caf\u{E9}", "a"), ("B", "b")], index: 2)
            ])
        let second = try Self.file(
            version: 2,
            tabs: [
                Self.geckoTab(
                    uuid: "t1", title: "C", lastAccess: 20, entries: [("Cafe\u{301}", "a"), ("B", "b")], index: 2)
            ])
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.importFirefoxSession(data: Array(first.utf8))
        #expect(
            try store.importFirefoxSession(data: Array(second.utf8))
                == ImportReport(sessions: 1, imported: 1, skipped: 3))
        let title = try #require(try store.restore(session: "t1").layers[0].entries[0].item.title)
        #expect(Array(title.unicodeScalars) == Array("Cafe\u{301}".unicodeScalars))
        #expect(try store.check().isClean)
    }

    @Test(
        "a newer copy of a real file, edited in a temporary folder, brings the tab up to date",
        .enabled(if: FirefoxFiles.all.contains { $0.lastPathComponent == "Fenix_83_1_0.json" }, FirefoxFiles.skipNote))
    func realFileNavigatedOn() throws {
        let original = try #require(FirefoxFiles.all.first { $0.lastPathComponent == "Fenix_83_1_0.json" })
        let data = try Data(contentsOf: original)
        // The edited copy: the Verge tab went back to the front page and opened another article,
        // a minute later; the other tab is unchanged.
        var root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var tuples = try #require(root["sessionStateTuples"] as? [[String: Any]])
        let index = try #require(
            tuples.firstIndex {
                ($0["session"] as? [String: Any])?["uuid"] as? String == "cbea9370-719e-47ef-931b-dee03f15761f"
            })
        var session = try #require(tuples[index]["session"] as? [String: Any])
        let lastAccess = try #require((session["lastAccess"] as? NSNumber)?.int64Value)
        session["lastAccess"] = lastAccess + 60_000
        session["title"] = "Another article - The Verge"
        var engine = try #require(tuples[index]["engineSession"] as? [String: Any])
        let geckoText = try #require(engine["GECKO_STATE"] as? String)
        var gecko = try #require(try JSONSerialization.jsonObject(with: Data(geckoText.utf8)) as? [String: Any])
        var history = try #require(gecko["history"] as? [String: Any])
        var entries = try #require(history["entries"] as? [[String: Any]])
        let front = try #require(entries.first)
        entries = [
            front,
            ["title": "Another article - The Verge", "url": "https://www.theverge.com/another-article", "ID": 99],
        ]
        history["entries"] = entries
        history["index"] = 2
        gecko["history"] = history
        engine["GECKO_STATE"] = String(decoding: try JSONSerialization.data(withJSONObject: gecko), as: UTF8.self)
        tuples[index]["engineSession"] = engine
        tuples[index]["session"] = session
        root["sessionStateTuples"] = tuples
        let folder = try TemporaryDirectory()
        let newerPath = folder.path("Fenix_83_1_0-newer.json")
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: newerPath))
        let newer = try Data(contentsOf: URL(fileURLWithPath: newerPath))

        let store = try makeStore(folder)
        let first = try store.importFirefoxSession(data: data)
        #expect(first == ImportReport(sessions: 2, imported: 7, skipped: 0))
        // Before, this failed with "line 1: event id ... is already stored with different content".
        #expect(try store.importFirefoxSession(data: newer) == ImportReport(sessions: 2, imported: 2, skipped: 7))
        let tab = try store.restore(session: "cbea9370-719e-47ef-931b-dee03f15761f")
        #expect(
            tab.layers[0].entries.map(\.route) == [front["url"] as? String, "https://www.theverge.com/another-article"])
        #expect(tab.backMenu?.map(\.title) == [front["title"] as? String].compactMap { $0 })
        #expect(try store.allEvents(session: "cbea9370-719e-47ef-931b-dee03f15761f").last?.at == lastAccess + 60_000)
        let before = try databaseContent(store)
        #expect(try store.importFirefoxSession(data: newer) == ImportReport(sessions: 2, imported: 0, skipped: 9))
        #expect(try databaseContent(store) == before)
        #expect(try store.check().isClean)
    }

    @Test(
        "a file listing a tab uuid twice is refused, naming both tabs, and changes nothing", arguments: StoreBackend.all
    )
    func repeatedTabUUID(backend: StoreBackend) throws {
        let text = try Self.file(
            version: 2,
            tabs: [
                Self.geckoTab(uuid: "t1", title: "Fox", lastAccess: 10, entries: [("A", "a"), ("B", "b")], index: 2),
                Self.geckoTab(uuid: "t2", title: "Other", lastAccess: 10, entries: [("X", "x")], index: 1),
                Self.geckoTab(
                    uuid: "t1", title: "Fox again", lastAccess: 10, entries: [("A", "a"), ("B", "b")], index: 2),
            ])
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("existing")
        let before = try databaseContent(store)
        #expect(
            throws: StoreError.invalidImportFile(
                reason:
                    "tab 3 'Fox again' (uuid 't1'): tab 1 'Fox' (uuid 't1') has the same uuid; a session-restore file lists each tab once"
            )
        ) {
            try store.importFirefoxSession(data: Array(text.utf8))
        }
        #expect(try databaseContent(store) == before)
        // Without the repeat, the counts are true.
        let once = try Self.file(
            version: 2,
            tabs: [
                Self.geckoTab(uuid: "t1", title: "Fox", lastAccess: 10, entries: [("A", "a"), ("B", "b")], index: 2),
                Self.geckoTab(uuid: "t2", title: "Other", lastAccess: 10, entries: [("X", "x")], index: 1),
            ])
        #expect(
            try store.importFirefoxSession(data: Array(once.utf8)) == ImportReport(sessions: 2, imported: 5, skipped: 0)
        )
        // Uuids that are canonically equivalent but not the same text are different tabs, as
        // their sessions are different keys.
        let equivalent = try Self.file(
            version: 2,
            tabs: [
                Self.geckoTab(uuid: "caf\u{E9}", title: "One", lastAccess: 10, entries: [("A", "a")], index: 1),
                Self.geckoTab(uuid: "cafe\u{301}", title: "Two", lastAccess: 10, entries: [("B", "b")], index: 1),
            ])
        #expect(
            try store.importFirefoxSession(data: Array(equivalent.utf8))
                == ImportReport(sessions: 2, imported: 4, skipped: 0))
        #expect(try store.sessionInfo("cafe\u{301}").name == "Two")
        #expect(try store.check().isClean)
    }

    @Test("a tab whose session holds other events is refused, naming the tab", arguments: StoreBackend.all)
    func conflictingSession(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("t1", name: "Mine")
        let text = try Self.file(
            version: 2, tabs: [Self.geckoTab(uuid: "t1", title: "Fox", lastAccess: 10, entries: [("A", "a")], index: 1)]
        )
        let before = try databaseContent(store)
        let error = #expect(throws: StoreError.self) { try store.importFirefoxSession(data: Array(text.utf8)) }
        guard case .invalidImportFile(let reason)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(
            reason.hasPrefix(
                "tab 1 'Fox' (uuid 't1'): session 't1' holds events no Firefox session import wrote (version 1, session.started)"
            ), "\(reason)")
        #expect(error?.description.contains("line") == false)
        #expect(try databaseContent(store) == before)
    }

    @Test(
        "files that are not Firefox session JSON are refused and change nothing",
        arguments: StoreBackend.each([
            ("not json", "not a Firefox for Android session-restore file"),
            (#"{"version":2}"#, "missing key 'sessionStateTuples'"),
            (
                #"{"version":2,"sessionStateTuples":[{"session":{"title":"x"}}]}"#,
                "missing key 'uuid' at sessionStateTuples[0].session"
            ),
            (#"{"version":3,"sessionStateTuples":[]}"#, "version 3 is not supported"),
            (
                #"{"version":2,"sessionStateTuples":[],}"#,
                "not a Firefox for Android session-restore file: a comma before '}' ends no value (a trailing comma is not JSON) at sessionStateTuples"
            ),
            (
                #"{"version":2,"sessionStateTuples":[{"session":{"uuid":"u"},"engineSession":{"GECKO_STATE":"{\"history\":{\"entries\":[],}}"}}]}"#,
                "tab 1 (uuid 'u'): its GECKO_STATE text cannot be read: a comma before '}' ends no value (a trailing comma is not JSON) at history.entries"
            ),
            (
                #"{"version":2,"sessionStateTuples":[{"session":{"uuid":"u"},"engineSession":{"GECKO_STATE":"{not json"}}]}"#,
                "tab 1 (uuid 'u'): its GECKO_STATE"
            ),
            (
                #"{"version":2,"sessionStateTuples":[{"session":{"uuid":"u"},"engineSession":{"GECKO_STATE":"{\"history\":{\"entries\":[{\"url\":\"a\"}],\"index\":2}}"}}]}"#,
                "history.index 2 is outside its 1 entries"
            ),
        ]))
    func notFirefoxJSON(text: String, reason: String, backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("existing")
        let before = try databaseContent(store)
        let error = #expect(throws: StoreError.self) { try store.importFirefoxSession(data: Array(text.utf8)) }
        guard case .invalidImportFile(let actual)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(actual.contains(reason), "\(actual)")
        #expect(try databaseContent(store) == before)
    }
}
