import Foundation
import NavStore
import TestSupport
import Testing

/// The README's library snippet, line for line (ReadmeTests checks that every line of it is
/// here), run twice against one file: as a first launch and as a relaunch that restores the
/// session the first one saved.
@Suite struct ReadmeLibraryTests {
    /// The snippet as written; `databasePath` and `savedSessionKey` are the app's.
    static func launch(databasePath: String, savedSessionKey: String?) throws -> (
        scene: String, label: String?, menu: [String]?, then: VersionedState
    ) {
        let store = try NavigationStore(path: databasePath)
        if let previous = savedSessionKey {  // the session the app saved at its last launch
            let payload = try store.restore(session: previous)  // rebuild payload.layers' screens, then:
            #expect(payload.layers.first?.entries.map(\.id) == ["inbox", "msg"])
            try store.acknowledgeRestore(session: previous)
        }
        let scene = UUID().uuidString  // this launch's session
        try store.startSession(scene)
        try store.execute(.push(Entry(id: "inbox", item: NavigationItem(title: "Inbox"))), session: scene)
        try store.execute(.push(Entry(id: "msg", route: "mail://message/1")), session: scene)
        let now = try store.state(session: scene)
        print(now.backButton?.label ?? "no back button")  // Inbox
        print(now.backMenu?.map(\.title) ?? [])  // ["Inbox"]
        let then = try store.state(session: scene, at: .version(2))  // after the first push
        return (scene, now.backButton?.label, now.backMenu?.map(\.title), then)
    }

    @Test("the README's snippet runs as written, and again at the next launch, restoring the first")
    func snippetRuns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("nav.sqlite")
        let first = try Self.launch(databasePath: path, savedSessionKey: nil)
        #expect(first.label == "Inbox")
        #expect(first.menu == ["Inbox"])
        #expect(first.then.state.layers.first?.entries.map(\.id) == ["inbox"])
        let second = try Self.launch(databasePath: path, savedSessionKey: first.scene)
        #expect(second.scene != first.scene)
        #expect(second.label == "Inbox")
    }
}
