import Foundation
import NavStore
import TestSupport
import Testing

/// The NavStore calls of NavStore.docc/GettingStarted.md, as written there, with the public API
/// only: if the article's code stops compiling or means something else, this fails. On both
/// backends: on PostgreSQL a fresh schema's URI stands for the article's file.
@Suite("Getting started in an app")
struct GettingStartedTests {
    @Test(
        "the article's calls run as written: start, push, pop from the menu, update, restore, acknowledge, read back",
        arguments: StoreBackend.all)
    func articleCalls(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let databaseURL = directory.url("nav.sqlite")
        let databasePath = backend == .sqlite ? databaseURL.path : try backend.location(directory)
        let sceneID = "scene-1"

        let store = try NavigationStore(path: databasePath)
        if (try? store.sessionInfo(sceneID)) == nil {
            try store.startSession(sceneID, name: "Main window", platform: .ios26)
        }

        let item = NavigationItem(title: "Inbox", backButtonTitle: "Mail")
        try store.execute(.push(Entry(id: "inbox", route: "mail://inbox", item: item)), session: sceneID)
        try store.execute(.push(Entry(id: "message", item: NavigationItem(title: "Message"))), session: sceneID)
        try store.execute(.popTo(entryID: "inbox", source: .backMenu), session: sceneID)
        try store.updateItem("inbox", session: sceneID) { $0.title = "Inbox (3)" }

        let payload = try store.restore(session: sceneID, mark: true)
        #expect(payload.layers.map { $0.entries.map(\.id) } == [["inbox"]])
        #expect(payload.layers[0].entries[0].item.title == "Inbox (3)")
        let acknowledgement = try store.acknowledgeRestore(session: sceneID)
        #expect(acknowledgement.version != nil)

        // Version 3 is the push of "message": the back button and the menu row come from the
        // back item "inbox", its backButtonTitle first (rules 4 and 7; iOS 26 keeps it).
        let then = try store.state(session: sceneID, at: .version(3))
        #expect(then.backButton?.label == "Mail")
        #expect(then.backMenu?.map(\.title) == ["Mail"])
    }
}
