import Foundation
import NavStore
import NavStoreTools
import NavStorePostgreSQL
import TestSupport
import Testing

/// The code of the DocC articles and of the doc comments, as written there, run here: each
/// snippet twice on one database, as an app's first launch and its next (a snippet that only
/// works once, or only before some date, is a defect). `codeIsTested` checks that every line of
/// code in the catalog and in `/// ```swift` comments is a line of one of the snippet tests:
/// this file, GettingStartedTests and PlatformForAppTests. UIKitAdapter.md is UIKit code that
/// this machine cannot compile: its decisions are NavigationControllerObserver's, tested there.
@Suite("The documentation's code runs as written")
struct DocSnippetsTests {
    /// NavStore.md's snippet, then TimeTravel.md's and Restore.md's on the store it made: one launch.
    static func landing(databaseURL: (path: String, ())) throws -> (
        now: VersionedState, then: VersionedState, v: Int, restored: [String]
    ) {
        let sceneID = "window-1"
        let store = try NavigationStore(path: databaseURL.path)  // a file in Application Support, say
        do {
            try store.startSession("window-1")
        } catch StoreError.sessionExists {
            // A launch after the first: the window's session goes on.
        }
        try store.execute(.setStack([Entry(id: "inbox", item: NavigationItem(title: "Inbox"))]), session: "window-1")
        try store.execute(.push(Entry(id: "message")), session: "window-1")

        let now = try store.state(session: "window-1")
        _ = now.backButton?.label  // "Inbox", with the fallbacks "Back" and ""
        _ = now.backMenu  // one row, "Inbox", that pops to the entry "inbox"

        // TimeTravel.md
        let then = try store.state(session: "window-1", at: .version(3))
        _ = then.backButton?.label  // what the button said after version 3
        _ = then.backMenu?.map(\.title)

        let started = try store.sessionInfo("window-1").createdAt
        let v = try store.version(session: "window-1", at: .time(started + 5_000))  // 5 s after it started

        // Restore.md
        var restored: [String] = []
        // At launch, before building the window's navigation controller:
        let payload = try store.restore(session: sceneID, mark: true)
        for layer in payload.layers {
            // Rebuild one UINavigationController per layer from layer.entries:
            restored += layer.entries.map(\.id)
        }
        // Once the screens are on screen without a crash:
        try store.acknowledgeRestore(session: sceneID)
        return (now, then, v, restored)
    }

    @Test("NavStore.md, TimeTravel.md and Restore.md: twice on one file, as two launches", arguments: StoreBackend.all)
    func landingTwice(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let databaseURL = (
            path: backend == .sqlite ? directory.path("nav.sqlite") : try backend.location(directory), ()
        )
        for launch in 1...2 {
            let result = try Self.landing(databaseURL: databaseURL)
            #expect(result.now.backButton?.label == "Inbox")
            #expect(result.now.backButton?.fallbacks == ["Back", ""])
            #expect(result.now.backMenu?.map(\.title) == ["Inbox"])
            #expect(result.now.backMenu?.map(\.entry) == ["inbox"])
            #expect(result.then.state.layers[0].entries.map(\.id) == ["inbox", "message"])
            #expect(result.then.backButton?.label == "Inbox")
            #expect(result.restored == ["inbox", "message"])
            // Everything happened within 5 s of the start: the time reads the newest version
            // then (the first launch's 3, or the second's after its restore marker and pushes).
            let versions = try NavigationStore(path: databaseURL.path).sessionInfo("window-1").version
            #expect(result.v == versions - 1, "launch \(launch)")
        }
    }

    @Test("NavigationRecorder's doc comment: twice, the second recorder going on in the session")
    func recorderComment() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("nav.sqlite")
        for launch in 1...2 {
            let recorder = NavigationRecorder(path: url.path)
            recorder.record(.push(Entry(id: "inbox", item: NavigationItem(title: "Inbox"))), session: "scene-1")
            try await recorder.flush()
            // The second launch's push of "inbox", which is live already, is refused: reported on
            // failures, never thrown, and nothing is appended.
            try await recorder.close()
            // After close() the sequence of failures ends, with what was kept.
            var refusals = 0
            for await failure in recorder.failures {
                if case .refused(_, _, .entryAlreadyLive) = failure { refusals += 1 }
            }
            #expect(refusals == launch - 1)
        }
        var types: [String] = []
        try NavigationStore(path: url.path).events(session: "scene-1") { types.append($0.type) }
        #expect(types == ["session.started", "entry.pushed"])
    }

    @Test("docs/recording.md's summary and docs/app.md's export, twice on one file")
    func repositoryDocs() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("nav.sqlite")
        let inbox = Entry(id: "inbox", item: NavigationItem(title: "Inbox"))
        let thread = Entry(id: "thread", item: NavigationItem(title: "Thread"))
        for launch in 1...2 {
            let recorder = NavigationRecorder(path: url.path)  // never fails, never blocks
            recorder.record(.push(Entry(id: "inbox", item: NavigationItem(title: "Inbox"))), session: "scene-1")
            recorder.observe(.didShow(stack: [inbox, thread]), session: "scene-1")  // or UIKit's callbacks
            try await recorder.flush()  // when moving to the background: committed and synced
            let overlay = Task {
                for try await event in recorder.events(session: "scene-1", from: 1) { print(event.type) }
            }
            overlay.cancel()  // a live sequence ends when its task is cancelled
            try await overlay.value
            try await recorder.close()

            // docs/app.md
            let recordingPath = url.path
            let exportURL = directory.url.appendingPathComponent("export-\(launch).ndjson")
            let store = try NavigationStore(path: recordingPath, create: false)
            var text = ""
            // session: nil exports every session; redact: true replaces titles, routes and params by hashes.
            try store.exportNDJSON(session: "scene-1", redact: true) { line in text += line + "\n" }
            try text.write(to: exportURL, atomically: true, encoding: .utf8)
            #expect(text.isEmpty == false)
            #expect(!text.contains("Thread"))
        }
        var types: [String] = []
        try NavigationStore(path: url.path).events(session: "scene-1") { types.append($0.type) }
        // The second launch's push of a live "inbox" is refused (reported); its didShow shows
        // what is there already.
        #expect(types == ["session.started", "entry.pushed", "entry.pushed"])
    }

    @Test("SessionLinter's and NavigationControllerObserver's doc comments, on the events and callbacks they name")
    func modelComments() throws {
        let events: [EventBody] = [
            .sessionStarted(name: nil, platform: .ios14),
            .entryPushed(Entry(id: "a", item: NavigationItem(title: ""))),
            .entryPushed(Entry(id: "b")),
        ]
        for _ in 1...2 {
            var linter = SessionLinter(session: "window-1")
            for event in events { linter.consume(event) }  // versions 1, 2, 3, ... in order
            let findings = linter.finish()
            #expect(findings.contains { $0.rule == .blankMenuRow })
        }

        let callbacks: [NavigationCallback] = [
            .didShow(stack: [Entry(id: "a"), Entry(id: "b")]),
            .shouldPop(id: "b"),
            .didPop(id: "b"),
            .didShow(stack: [Entry(id: "a")]),
        ]
        for _ in 1...2 {
            var observer = NavigationControllerObserver()
            var state = SessionState()
            for callback in callbacks {
                for command in try observer.observe(callback, state: state) {
                    if let event = try state.decide(command) { state.apply(event) }
                }
            }
            #expect(state.layers[0].entries.map(\.id) == ["a"])
        }
    }

    @Test("PostgreSQLBackend's doc comment: register, then a postgresql:// path opens the server's store")
    func postgreSQLComment() throws {
        PostgreSQLBackend.register()
        PostgreSQLBackend.register()
        let directory = try TemporaryDirectory()
        guard StoreBackend.all.contains(.postgresql) else { return }
        let store = try NavigationStore(path: try StoreBackend.postgresql.location(directory))
        #expect(try store.sessions().isEmpty)
    }

    /// The code lines of a fenced ```swift block in `text`, or of a `/// ```swift` block when
    /// `comment`; comment-only lines are left out.
    static func codeLines(_ text: String, comment: Bool) -> [String] {
        var lines: [String] = []
        var inCode = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if comment {
                guard line.hasPrefix("///") else {
                    inCode = false
                    continue
                }
                line = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            }
            if line.hasPrefix("```") {
                inCode = !inCode && line == "```swift"
                continue
            }
            guard inCode else { continue }
            let code = normalized(line)
            if !code.isEmpty, !code.hasPrefix("//") { lines.append(code) }
        }
        return lines
    }

    /// A line as compared: no indentation, one space wherever there were several (a formatter's
    /// choice), no `_ = ` in front (a bare expression in a snippet).
    static func normalized(_ line: String) -> String {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        return words.hasPrefix("_ = ") ? String(words.dropFirst(4)) : words
    }

    @Test("TabBars.md: each tab its own stack, another tab's back button read by viewingTab")
    func tabBars() throws {
        let state = SessionState.fold([
            .tabsReplaced([Tab(id: "mail", title: "Mail"), Tab(id: "cal", title: "Calendar")]),
            .entryPushed(Entry(id: "inbox", item: NavigationItem(title: "Inbox"))),
            .entryPushed(Entry(id: "message")),
            .tabSelected(id: "cal", source: .tap),
        ])
        #expect(state.selectedTab == "cal")
        #expect(state.backButton == nil)
        #expect(try state.viewingTab("mail").backButton?.label == "Inbox")
        // The lines as the article writes them.
        _ = state.selectedTab  // "cal"
        _ = try state.viewingTab("mail").backButton?.label  // "Inbox"
    }

    @Test("every line of code in the DocC catalog and in doc comments is a line of a snippet test")
    func codeIsTested() throws {
        let root = TestData.packageRoot()
        let testFiles = [
            "Tests/NavStoreTests/Store/DocSnippetsTests.swift", "Tests/NavStoreTests/Store/GettingStartedTests.swift",
            "Tests/NavStoreTests/Recorder/PlatformForAppTests.swift",
        ]
        var tested = Set<String>()
        for file in testFiles {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") { tested.insert(Self.normalized(String(line))) }
        }
        // Not compiled here, each for its stated reason.
        let exempt: [String: String] = [
            "Sources/NavStore/NavStore.docc/UIKitAdapter.md":
                "UIKit code; its decisions are tested through NavigationControllerObserver",
            "Sources/NavStore/NavStore.docc/SwiftUI.md":
                "SwiftUI code; its decisions are tested through NavigationPathObserver",
            "Sources/NavStore/SQLite/SQLiteError.swift": "the shape of a catch clause, with `...` for the code",
        ]
        let exemptLines: Set<String> = [
            // The comment's server; the test opens a throwaway server's URI the same way.
            #"let store = try NavigationStore(path: "postgresql://navdb@db.example/nav")"#,
            // docs/app.md's manifest lines: a package manifest's, not code that runs.
            "dependencies: [", #".package(url: "https://example.com/your-org/navstore.git", from: "0.1.0"),"#, "],",
            "targets: [", #".target(name: "MyApp", dependencies: [.product(name: "NavStore", package: "navstore")]),"#,
            "]",
        ]
        var checked = 0
        var files: [String] = []
        for file in ["docs/recording.md", "docs/app.md", "docs/postgresql.md", "docs/exchange.md", "docs/retention.md"]
        {
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path) { files.append(file) }
        }
        for folder in ["Sources/NavStore", "Sources/NavStoreModel", "Sources/NavStoreTools", "Sources/NavStorePostgreSQL"] {
            let base = root.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(atPath: base.path)
            while let name = walker?.nextObject() as? String {
                if name.hasSuffix(".md") || name.hasSuffix(".swift") { files.append("\(folder)/\(name)") }
            }
        }
        for file in files.sorted() where exempt[file] == nil {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for line in Self.codeLines(text, comment: file.hasSuffix(".swift")) where !exemptLines.contains(line) {
                let found = tested.contains(line)
                #expect(found, "\(file): \(line.debugDescription) is not run by a snippet test")
                checked += 1
            }
        }
        #expect(checked > 60)
    }
}
