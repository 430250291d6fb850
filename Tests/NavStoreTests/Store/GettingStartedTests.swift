import Foundation
import NavStore
import NavStoreTools
import TestSupport
import Testing

/// The NavStore calls of NavStore.docc/GettingStarted.md, as written there, with the public API
/// only: if the article's code stops compiling or means something else, this fails; and every
/// line of code in the article must be a line of this file. Run twice on one database, as the
/// scene's first launch and a relaunch that restores its session and goes on in it; on both
/// backends (on PostgreSQL a fresh schema's URI stands for the article's file).
@Suite("Getting started in an app")
struct GettingStartedTests {
    /// What one launch saw.
    struct Launch {
        var restored: [String]?
        var seen: [(version: Int, type: String)]
        var then: VersionedState
        var platform: PlatformGeneration
    }

    /// The article's code in its order, as one launch of the app.
    static func launch(path: String, sceneID: String, expectedEvents: Int) async throws -> Launch {
        var restored: [String]?
        let databaseURL = (path: path, ())

        let platform = PlatformGeneration.forApp(
            systemVersion: ProcessInfo.processInfo.operatingSystemVersion, infoDictionary: Bundle.main.infoDictionary)
        var options = RecorderOptions(platform: platform)
        options.queueCapacity = 1_000
        let recorder = NavigationRecorder(path: databaseURL.path, options: options)

        // At launch the app is in a synchronous delegate call (its windows must have their
        // screens before it returns): the synchronous forms, one indexed read each.
        func restoreAtLaunch() throws -> [String]? {
            var restored: [String]?
            let store = try NavigationStore(path: databaseURL.path)
            do {
                let payload = try store.restore(session: sceneID, mark: true)
                restored = payload.layers.first?.entries.map(\.id)
                // Rebuild one navigation controller per layer of payload.layers, then, once it is on screen:
                try store.acknowledgeRestore(session: sceneID)
            } catch StoreError.sessionNotFound {
                // The scene's first launch: there is nothing to restore.
            }
            return restored
        }
        restored = try restoreAtLaunch()
        let store = try NavigationStore(path: databaseURL.path)

        let item = NavigationItem(title: "Inbox", backButtonTitle: "Mail")
        recorder.record(.setStack([Entry(id: "inbox", route: "mail://inbox", item: item)]), session: sceneID)
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

        let seen = Lock<[(version: Int, type: String)]>([])
        let overlay = Task {
            for try await event in recorder.events(session: sceneID, from: 1) {
                print(event.version, event.type)
                seen.withLock { $0.append((event.version, event.type)) }
            }
        }
        // Bounded: a reader that never delivers fails the test rather than hang the suite.
        let deadline = ContinuousClock.now + .seconds(120)
        while seen.withLock({ $0.count }) < expectedEvents, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(seen.withLock { $0.count } >= expectedEvents, "the live sequence delivered too few events")
        // When the overlay closes:
        overlay.cancel()
        try await overlay.value

        let then = try await store.state(session: sceneID, at: .version(3))
        _ = then.backButton?.label
        _ = then.backMenu?.map(\.title)
        #expect(then.backButton?.label == "Mail")
        #expect(then.backMenu?.map(\.title) == ["Mail"])

        try await recorder.close()
        await watcher.value
        return Launch(restored: restored, seen: seen.withLock { $0 }, then: then, platform: platform)
    }

    @Test(
        "the article's calls run as written, at a first launch and at the next, in one session",
        arguments: StoreBackend.all)
    func articleCalls(backend: StoreBackend) async throws {
        let directory = try TemporaryDirectory()
        let path = backend == .sqlite ? directory.path("nav.sqlite") : try backend.location(directory)
        let launchTypes = [
            "stack.replaced", "entry.pushed", "entries.popped", "item.updated", "entry.pushed", "entries.popped",
        ]

        let first = try await Self.launch(path: path, sceneID: "scene-1", expectedEvents: 7)
        #expect(first.restored == nil)
        #expect(first.seen.map(\.version) == Array(1...7))
        #expect(first.seen.map(\.type) == ["session.started"] + launchTypes)
        // Version 3 is the push of "message": the back button and the menu row come from the
        // back item "inbox", its backButtonTitle first (rules 4 and 7; iOS 26 keeps it).
        #expect(first.then.state.layers[0].entries.map(\.id) == ["inbox", "message"])

        // The next launch restores the stack the first one left, marks the restart, and records
        // on in the same session.
        let second = try await Self.launch(path: path, sceneID: "scene-1", expectedEvents: 14)
        #expect(second.restored == ["inbox"])
        #expect(second.seen.map(\.version) == Array(1...14))
        #expect(
            second.seen.map(\.type)
                == ["session.started"] + launchTypes + ["session.restored"] + launchTypes)

        let store = try NavigationStore(path: path)
        #expect(try await store.sessions().map(\.key) == ["scene-1"])
        #expect(try await store.sessionInfo("scene-1").platform == first.platform)
        // The pops after shouldPop were taps; the back-menu row was a back-menu pop.
        let events = try store.allEventsForTest("scene-1")
        #expect(events[6].body == .entriesPopped(source: .backButton, ids: ["thread"], confirmed: false))
        #expect(events[3].body == .entriesPopped(source: .backMenu, ids: ["message"], confirmed: false))
        #expect(events.last?.body == .entriesPopped(source: .backButton, ids: ["thread"], confirmed: false))
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
            // Reading a value is written as a bare expression in the article, `_ = ` here.
            #expect(
                testLines.contains(code) || testLines.contains("_ = " + code),
                "GettingStarted.md's line \(code.debugDescription) is not in this test")
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
