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

// A SwiftUI app (NavStore.docc/SwiftUI.md): its typed path recorded through the recorder, a restart, and the
// same [Route] decoded from the restore (the NavigationStack's path is set from it).
enum Route: Codable, Hashable {
    case library
    case shelf(name: String)
    case book(id: Int, title: String)
}
let typedPath: [Route] = [.shelf(name: "sci-fi"), .book(id: 7, title: "Dune")]
let root = try RouteCoding.entry(id: "root", route: Route.library, item: NavigationItem(title: "Library"))
let pathEntries = try typedPath.enumerated().map { index, route in
    try RouteCoding.entry(id: "screen-\(index)", route: route, item: NavigationItem(title: "\(route)"))
}
let finished = DispatchSemaphore(value: 0)
Task.detached {  // not the main actor: the main thread waits below
    let recorder = NavigationRecorder(path: folder + "/swiftui.sqlite")
    recorder.recordPath(.path([root], by: .app), session: "scene-swiftui")
    recorder.recordPath(.path([root] + pathEntries, by: .user), session: "scene-swiftui")
    recorder.recordPath(.path([root] + pathEntries.prefix(1), by: .user), session: "scene-swiftui")  // a back tap
    recorder.recordPath(.path([root] + pathEntries, by: .user), session: "scene-swiftui")
    do { try await recorder.close() } catch { check(false, "the recorder closed: \(error)") }
    finished.signal()
}
finished.wait()
let swiftUIStore = try NavigationStore(path: folder + "/swiftui.sqlite")
let swiftUIPayload = try swiftUIStore.restore(session: "scene-swiftui", mark: true)
let decodedPath = swiftUIPayload.routes(Route.self)
check(decodedPath.dropped == nil && decodedPath.routes == [.library] + typedPath, "the restored [Route]")
var sources: [PopSource] = []
try swiftUIStore.events(session: "scene-swiftui") { event in
    if case .entriesPopped(let source, _, _) = event.body { sources.append(source) }
}
check(sources == [.user], "the back tap is a pop by the user")
print("app: recorded a typed SwiftUI path, restarted, decoded \(decodedPath.routes)")
