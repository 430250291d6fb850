import Foundation
import NavStore
import TestSupport
import Testing

/// The NavStore calls of NavStore.docc/GettingStarted.md, as written there, with the public API
/// only: if the article's code stops compiling or means something else, this fails; and every
/// line of code in the article must be a line of this file. On both backends: on PostgreSQL a
/// fresh schema's URI stands for the article's file.
@Suite("Getting started in an app")
struct GettingStartedTests {
    @Test(
        "the article's calls run as written: record, observe, failures, flush, events, restore, read back",
        arguments: StoreBackend.all)
    func articleCalls(backend: StoreBackend) async throws {
        let directory = try TemporaryDirectory()
        // The article's `databaseURL.path`: the file, or on PostgreSQL a fresh schema's URI.
        let databaseURL = (
            path: backend == .sqlite ? directory.path("nav.sqlite") : try backend.location(directory), ()
        )
        let sceneID = "scene-1"

        var options = RecorderOptions(platform: .ios26)
        options.queueCapacity = 1_000
        let recorder = NavigationRecorder(path: databaseURL.path, options: options)

        let item = NavigationItem(title: "Inbox", backButtonTitle: "Mail")
        recorder.record(.push(Entry(id: "inbox", route: "mail://inbox", item: item)), session: sceneID)
        recorder.record(.push(Entry(id: "message", item: NavigationItem(title: "Message"))), session: sceneID)

        // The user long-pressed the back button and picked the row for "inbox":
        recorder.record(.popTo(entryID: "inbox", source: .backMenu), session: sceneID)

        let inbox = Entry(
            id: "inbox", route: "mail://inbox", item: NavigationItem(title: "Inbox (3)", backButtonTitle: "Mail"))
        let thread = Entry(id: "thread", item: NavigationItem(title: "Thread"))
        recorder.observe(.didShow(stack: [inbox, thread]), session: sceneID)
        recorder.observe(.shouldPop(id: "thread"), session: sceneID)
        recorder.observe(.didPop(id: "thread"), session: sceneID)
        recorder.observe(.didShow(stack: [inbox]), session: sceneID)

        let watcher = Task {
            for await failure in recorder.failures {
                print("navigation recording: \(failure)")
            }
        }

        try await recorder.flush()

        var seen: [(Int, String)] = []
        for try await event in recorder.events(session: sceneID, from: 1) {
            print(event.version, event.type)
            seen.append((event.version, event.type))
            if event.version == 7 { break }  // an overlay would go on
        }
        #expect(seen.map(\.0) == Array(1...7))
        #expect(
            seen.map(\.1) == [
                "session.started", "entry.pushed", "entry.pushed", "entries.popped", "item.updated", "entry.pushed",
                "entries.popped",
            ])

        let store = try NavigationStore(path: databaseURL.path)
        let payload = try store.restore(session: sceneID, mark: true)
        #expect(payload.layers.map { $0.entries.map(\.id) } == [["inbox"]])
        #expect(payload.layers[0].entries[0].item.title == "Inbox (3)")
        // Rebuild one navigation controller per layer of payload.layers, then, once it is on screen:
        try store.acknowledgeRestore(session: sceneID)

        // Version 3 is the push of "message": the back button and the menu row come from the
        // back item "inbox", its backButtonTitle first (rules 4 and 7; iOS 26 keeps it).
        let then = try store.state(session: sceneID, at: .version(3))
        #expect(then.backButton?.label == "Mail")
        #expect(then.backMenu?.map(\.title) == ["Mail"])
        #expect(try store.sessionInfo(sceneID).platform == .ios26)
        // The pop after shouldPop was a tap; nothing was refused.
        #expect(
            try store.allEventsForTest(sceneID)[6].body
                == .entriesPopped(source: .backButton, ids: ["thread"], confirmed: false))
        try await recorder.close()
        await watcher.value
    }

    @Test("every line of code in the article is a line of this test")
    func articleIsTested() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/NavStore/NavStore.docc/GettingStarted.md"), encoding: .utf8
        )
        let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let testLines = Set(test.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var inCode = false
        var checked = 0
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inCode = line == "```swift"
                continue
            }
            let code = line.trimmingCharacters(in: .whitespaces)
            guard inCode, !code.isEmpty else { continue }
            // Reading a value is written as a bare expression in the article, checked here.
            if code == "then.backButton?.label" || code == "then.backMenu?.map(\\.title)" { continue }
            #expect(testLines.contains(code), "GettingStarted.md's line \(code.debugDescription) is not in this test")
            checked += 1
        }
        #expect(checked > 25)
    }
}

extension NavigationStore {
    /// Every event of a session, in order.
    fileprivate func allEventsForTest(_ key: String) throws -> [Event] {
        var result: [Event] = []
        try events(session: key) { result.append($0) }
        return result
    }
}
