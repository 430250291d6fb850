// The app of scripts/check-app-dependency.sh, built in a package of its own that depends on the
// NavStore product alone: `App FOLDER` records, reads back, restores and acknowledges in FOLDER.
import Foundation
import NavStore

/// What an app does with NavStore at a launch: record, read back, restore and acknowledge.
func check(_ condition: Bool, _ what: String) {
    if !condition {
        FileHandle.standardError.write(Data("app: FAILED: \(what)\n".utf8))
        exit(1)
    }
}

let folder = CommandLine.arguments[1]
let store = try NavigationStore(path: folder + "/nav.sqlite")
try store.startSession("scene-1", name: "Main window")
try store.execute(
    .push(Entry(id: "inbox", route: "mail://inbox", item: NavigationItem(title: "Inbox", backButtonTitle: "Mail"))),
    session: "scene-1")
try store.execute(.push(Entry(id: "message", item: NavigationItem(title: "Message"))), session: "scene-1")
let then = try store.state(session: "scene-1", at: .version(3))
check(then.state.layers.map { $0.entries.map(\.id) } == [["inbox", "message"]], "the stack at version 3")
check(then.backButton?.label == "Mail", "the back button at version 3 says Mail")
check(then.backMenu?.map(\.title) == ["Mail"], "the back menu at version 3 lists Mail")
try store.execute(.pop(source: .backButton), session: "scene-1")

// The next launch: a new store on the same file restores, the app shows it and acknowledges.
let relaunched = try NavigationStore(path: folder + "/nav.sqlite")
let payload = try relaunched.restore(session: "scene-1", mark: true)
check(payload.layers.map { $0.entries.map(\.id) } == [["inbox"]], "the restored stack")
let acknowledgement = try relaunched.acknowledgeRestore(session: "scene-1")
check(acknowledgement.version != nil, "the restore was acknowledged")
print("app: recorded, read version 3, restored \(payload.layers[0].entries.map(\.id)) and acknowledged")
