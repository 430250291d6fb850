import Foundation
import Testing
@testable import NavStore

/// The real Firefox for Android session files: `$NAVSTORE_REAL_INPUTS`, else
/// `<package root>/../shared/real-inputs/firefox-android-sessions` (as CI has it). They are not
/// copied into the repository.
enum FirefoxFiles {
    static var folder: URL? {
        let environment = ProcessInfo.processInfo.environment["NAVSTORE_REAL_INPUTS"]
        let candidates: [URL] = [
            environment.map { URL(fileURLWithPath: $0) },
            environment.map { URL(fileURLWithPath: $0).appendingPathComponent("firefox-android-sessions") },
            URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
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

    static let skipNote: Comment = "real Firefox session files not found (set NAVSTORE_REAL_INPUTS or provide ../shared/real-inputs/firefox-android-sessions); skipped"

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
            var tab = ExpectedTab(uuid: uuid, name: session["title"] as? String, lastAccess: lastAccess.flatMap { $0 > 0 ? $0 : nil }, stack: [])
            let engine = tuple["engineSession"] as? [String: Any] ?? [:]
            if let text = engine["GECKO_STATE"] as? String,
               let gecko = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
               let history = gecko["history"] as? [String: Any], let entries = history["entries"] as? [[String: Any]], !entries.isEmpty {
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

    @Test("every real file imports and each tab restores its current page and back list as the file describes",
          .enabled(if: FirefoxFiles.folder != nil, FirefoxFiles.skipNote))
    func realFilesRestoreAsDescribed() throws {
        var deepest = 0
        for file in FirefoxFiles.all {
            let data = try Data(contentsOf: file)
            let expected = try FirefoxFiles.expectedTabs(data)
            let dir = TemporaryDirectory()
            let store = try makeStore(dir)
            let report = try store.importFirefoxSession(data: data, at: 1_600_000_000_000)
            let events = expected.reduce(0) { $0 + 1 + $1.stack.count }
            #expect(report == ImportReport(sessions: expected.count, imported: events, skipped: 0), "\(file.lastPathComponent)")
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
                #expect(restored.backMenu?.map(\.title) == (backList.isEmpty ? nil : Array(backList)), "\(file.lastPathComponent) \(tab.uuid)")
                #expect(restored.backButton?.label == (tab.stack.count > 1 ? (tab.stack[tab.stack.count - 2].title ?? "Back") : nil))
                let info = try store.sessionInfo(tab.uuid)
                #expect(info.name == tab.name)
                #expect(info.createdAt == (tab.lastAccess ?? 1_600_000_000_000))
                #expect(info.version == tab.stack.count + 1)
            }
            #expect(try store.check().isClean)
        }
        #expect(deepest >= 3, "the files have tabs with back lists")
    }

    @Test("importing the same real file twice is a no-op, and every file goes into one database",
          .enabled(if: FirefoxFiles.folder != nil, FirefoxFiles.skipNote))
    func realFilesTwice() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        for file in FirefoxFiles.all {
            let data = try Data(contentsOf: file)
            let first = try store.importFirefoxSession(data: data)
            let before = fileBytes(store.path)
            let second = try store.importFirefoxSession(data: data)
            #expect(second.imported == 0, "\(file.lastPathComponent)")
            #expect(second.skipped == first.imported + first.skipped)
            #expect(fileBytes(store.path) == before)
        }
        #expect(try store.check().isClean)
    }

    @Test("event ids are deterministic: two databases importing a file export the same lines",
          .enabled(if: FirefoxFiles.folder != nil, FirefoxFiles.skipNote))
    func deterministicIDs() throws {
        let file = try #require(FirefoxFiles.all.first)
        let data = try Data(contentsOf: file)
        let one = TemporaryDirectory(), two = TemporaryDirectory()
        let first = try makeStore(one), second = try makeStore(two)
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

    static func geckoTab(uuid: String, title: String?, lastAccess: Int64?, entries: [(String?, String)], index: Int) -> String {
        let entryJSON = entries.map { title, url in
            "{" + (title.map { #""title":\#(jsonString($0)),"# } ?? "") + #""url":\#(jsonString(url)),"ID":1}"#
        }.joined(separator: ",")
        let gecko = #"{"scrolldata":{},"history":{"entries":[\#(entryJSON)],"index":\#(index),"fromIdx":-1}}"#
        let session = #"{"uuid":"\#(uuid)","url":"https://example.com/","parentUuid":""\#(title.map { #","title":\#(jsonString($0))"# } ?? "")\#(lastAccess.map { #","lastAccess":\#($0)"# } ?? "")}"#
        return #"{"session":\#(session),"engineSession":{"GECKO_STATE":\#(jsonString(gecko))}}"#
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    @Test("format 1 and 2, a current index in the middle, absent and empty titles, a tab without engine state", arguments: [1, 2])
    func syntheticFile(version: Int) throws {
        let text = Self.file(version: version, tabs: [
            Self.geckoTab(uuid: "t1", title: "Fox", lastAccess: 1_609_762_083_437,
                          entries: [("Wikipedia", "https://www.wikipedia.org/"), (nil, "https://no.title/"), ("", "https://blank/"),
                                    ("Fox - Wikipedia", "https://en.m.wikipedia.org/wiki/Fox"), ("Later", "https://forward/")], index: 4),
            #"{"session":{"uuid":"t2","title":"","url":"https://www.wikipedia.org/","lastAccess":0},"engineSession":{}}"#,
        ])
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
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
        #expect(wiki.layers[0].entries == [Entry(id: "1", route: "https://www.wikipedia.org/", item: NavigationItem(title: ""))])
        #expect(wiki.backMenu == nil)
        #expect(try store.sessionInfo("t2").name == "")
        #expect(try store.sessionInfo("t2").createdAt == 1_700_000_000_000)
        // Again, at another fallback time: still a no-op (the tab keeps the time it was given).
        let before = fileBytes(store.path)
        #expect(try store.importFirefoxSession(data: Array(text.utf8), at: 1_800_000_000_000) == ImportReport(sessions: 2, imported: 0, skipped: 7))
        #expect(fileBytes(store.path) == before)
    }

    @Test("a newer file of the same tab appends only the pages visited since")
    func newerFileAppends() throws {
        let older = Self.file(version: 2, tabs: [Self.geckoTab(uuid: "t1", title: "B", lastAccess: 10, entries: [("A", "a"), ("B", "b")], index: 2)])
        let newer = Self.file(version: 2, tabs: [Self.geckoTab(uuid: "t1", title: "B", lastAccess: 10, entries: [("A", "a"), ("B", "b"), ("C", "c")], index: 3)])
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        try store.importFirefoxSession(data: Array(older.utf8))
        #expect(try store.importFirefoxSession(data: Array(newer.utf8)) == ImportReport(sessions: 1, imported: 1, skipped: 3))
        #expect(try store.restore(session: "t1").backMenu?.map(\.title) == ["B", "A"])
        // Going back to the older file now describes less than the session holds: refused.
        let before = fileBytes(store.path)
        #expect(throws: StoreError.self) { try store.importFirefoxSession(data: Array(older.utf8)) }
        #expect(fileBytes(store.path) == before)
    }

    @Test("a tab whose session holds other events is refused, naming the tab")
    func conflictingSession() throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("t1", name: "Mine")
        let text = Self.file(version: 2, tabs: [Self.geckoTab(uuid: "t1", title: "Fox", lastAccess: 10, entries: [("A", "a")], index: 1)])
        let before = fileBytes(store.path)
        let error = #expect(throws: StoreError.self) { try store.importFirefoxSession(data: Array(text.utf8)) }
        guard case .invalidImport(1, let reason)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(reason.contains("tab 1 ('t1')"))
        #expect(fileBytes(store.path) == before)
    }

    @Test("files that are not Firefox session JSON are refused at line 1 and change nothing", arguments: [
        ("not json", "not a Firefox for Android session-restore file"),
        (#"{"version":2}"#, "missing key 'sessionStateTuples'"),
        (#"{"version":2,"sessionStateTuples":[{"session":{"title":"x"}}]}"#, "missing key 'uuid' at sessionStateTuples[0].session"),
        (#"{"version":3,"sessionStateTuples":[]}"#, "version 3 is not supported"),
        (#"{"version":2,"sessionStateTuples":[{"session":{"uuid":"u"},"engineSession":{"GECKO_STATE":"{not json"}}]}"#, "tab 1 ('u'): its GECKO_STATE"),
        (#"{"version":2,"sessionStateTuples":[{"session":{"uuid":"u"},"engineSession":{"GECKO_STATE":"{\"history\":{\"entries\":[{\"url\":\"a\"}],\"index\":2}}"}}]}"#,
         "history.index 2 is outside its 1 entries"),
    ])
    func notFirefoxJSON(text: String, reason: String) throws {
        let dir = TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("existing")
        let before = fileBytes(store.path)
        let error = #expect(throws: StoreError.self) { try store.importFirefoxSession(data: Array(text.utf8)) }
        guard case .invalidImport(1, let actual)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(actual.contains(reason), "\(actual)")
        #expect(fileBytes(store.path) == before)
    }
}
