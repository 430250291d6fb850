import Foundation
import NavStore
import NavStoreTools
import TestSupport
import Testing

/// The README's library snippet, line for line (ReadmeTests checks that every line of it is
/// here), run twice against one file: as the scene's first launch and as a relaunch that
/// restores the session and goes on in it.
@Suite struct ReadmeLibraryTests {
    /// The snippet as written; `databasePath` and `sceneKey` are the app's.
    static func launch(databasePath: String, sceneKey: String) throws -> (
        restored: [String]?, label: String?, menu: [String]?, then: VersionedState
    ) {
        var restored: [String]?
        let store = try NavigationStore(path: databasePath)
        let scene = sceneKey  // one session per scene, kept across launches (its UISceneSession.persistentIdentifier)
        do {
            let payload = try store.restore(session: scene, mark: true)  // rebuild payload.layers' screens, then:
            restored = payload.layers.first?.entries.map(\.id)
            try store.acknowledgeRestore(session: scene)
        } catch StoreError.sessionNotFound {  // the scene's first launch: it starts at the inbox
            try store.startSession(scene)
            try store.execute(.push(Entry(id: "inbox", item: NavigationItem(title: "Inbox"))), session: scene)
        }
        try store.execute(.push(Entry(id: "msg", route: "mail://message/1")), session: scene)
        let now = try store.state(session: scene)
        print(now.backButton?.label ?? "no back button")  // Inbox
        print(now.backMenu?.map(\.title) ?? [])  // ["Inbox"]
        try store.execute(.pop(source: .backButton), session: scene)  // the user taps it
        let then = try store.state(session: scene, at: .version(3))  // the message, at the first launch
        return (restored, now.backButton?.label, now.backMenu?.map(\.title), then)
    }

    @Test("the README's snippet runs as written, and again at the next launch, restoring the first's session")
    func snippetRuns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let first = try Self.launch(databasePath: path, sceneKey: "scene-A")
        #expect(first.restored == nil)
        #expect(first.label == "Inbox")
        #expect(first.menu == ["Inbox"])
        #expect(first.then.state.layers.first?.entries.map(\.id) == ["inbox", "msg"])
        let second = try Self.launch(databasePath: path, sceneKey: "scene-A")
        #expect(second.restored == ["inbox"])
        #expect(second.label == "Inbox")
        #expect(second.menu == ["Inbox"])
        #expect(second.then.state.layers.first?.entries.map(\.id) == ["inbox", "msg"])
        // One session across both launches, its restart marked where it happened.
        let store = try NavigationStore(path: path)
        #expect(try store.sessions().map(\.key) == ["scene-A"])
        var types: [String] = []
        try store.events(session: "scene-A") { types.append($0.type) }
        #expect(
            types == [
                "session.started", "entry.pushed", "entry.pushed", "entries.popped", "session.restored",
                "entry.pushed", "entries.popped",
            ])
    }
}
