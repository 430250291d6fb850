import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// A truncated session's base under a tab bar, as import reads it: the selected tab's stack is the
/// base layer (`layers[0]`, its `"stack"` null in every export); a stack given for the selected
/// tab is kept, never dropped, or refused when the base layer holds another.
@Suite("NavigationStore: import keeps the selected tab's stack of a base")
struct ImportBaseTabBarTests {
    /// A base line of session `t` at version 2 whose base layer holds `base` and whose selected
    /// tab `a` is given `selected` (a stack's JSON text, or `null`); tab `b` holds `B`.
    static func base(layer base: [String], selected: String) -> String {
        let entries = base.map { #"{"id":"\#($0)"}"# }.joined(separator: ",")
        let tabBar =
            #"{"selected":"a","tabs":[{"id":"a","reselect":"popToRoot","stack":\#(selected)},{"id":"b","reselect":"none","stack":{"entries":[{"id":"B"}],"modalInPresentation":false}}]}"#
        return
            #"{"at":1700000001000,"eventID":"00000000-0000-4000-8000-00000000000b","payload":{"name":null,"startedAt":1700000000000,"state":{"layers":[{"entries":[\#(entries)],"modalInPresentation":false}],"platform":"ios14","tabBar":\#(tabBar)},"truncatedAt":1700000009000},"session":"t","type":"session.truncated","version":2}"#
    }

    /// The next event of `t`: Y pushed onto the selected tab's stack.
    static let push =
        #"{"at":1700000002000,"eventID":"00000000-0000-4000-8000-00000000000c","payload":{"entry":{"id":"Y"}},"previous":"00000000-0000-4000-8000-00000000000b","session":"t","type":"entry.pushed","version":3}"#

    @Test("a non-empty stack given for the selected tab over an empty base layer is its stack", arguments: StoreBackend.all)
    func keptAsTheBaseLayer(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend)
        let line = Self.base(layer: [], selected: #"{"entries":[{"id":"Z"},{"id":"W"}],"modalInPresentation":false}"#)
        try store.importNDJSON(lines: [line, Self.push])
        let state = try store.state(session: "t").state
        #expect(state.entryIDs == [["Z", "W", "Y"]])
        #expect(state.stack(ofTab: "b")?.entries.map(\.id) == ["B"])
        #expect(try store.state(session: "t", at: .version(2)).state.entryIDs == [["Z", "W"]])
        // Exported, the stack is the base layer's (the selected tab's "stack" null), and that
        // export imports into a fresh store as the same state.
        let export = try store.exportLines()
        #expect(export[0].contains(#""layers":[{"entries":[{"id":"Z"},{"id":"W"}]"#), "\(export[0])")
        #expect(export[0].contains(#"{"id":"a","reselect":"popToRoot","stack":null}"#), "\(export[0])")
        let again = try makeStore(TemporaryDirectory(), on: backend)
        try again.importNDJSON(lines: export)
        #expect(try again.state(session: "t").state.isExactly(state))
        // The original lines again, into the store that holds them: the base is the same state.
        #expect(try store.importNDJSON(lines: [line, Self.push]).skipped == 2)
    }

    @Test("a selected tab's stack equal to the base layer is the same stack; another one is refused naming both")
    func sameOrRefused() throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory)
        let same = Self.base(layer: ["A"], selected: #"{"entries":[{"id":"A"}],"modalInPresentation":false}"#)
        try store.importNDJSON(lines: [same])
        #expect(try store.state(session: "t").state.entryIDs == [["A"]])
        let before = try databaseContent(store)
        let other = Self.base(layer: ["A"], selected: #"{"entries":[{"id":"Z"}],"modalInPresentation":false}"#)
            .replacingOccurrences(of: #""session":"t""#, with: #""session":"u""#)
        let error = try #require(throws: StoreError.self) { try store.importNDJSON(lines: [other]) }
        guard case .invalidImport(let line, let reason) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(line == 1)
        #expect(
            reason.contains(
                "the selected tab 'a' is given the stack [Z] and the base layer (layers[0]), which is the selected tab's stack, holds [A]"
            ), "\(reason)")
        #expect(try databaseContent(store) == before)
    }

    @Test("a tab bar read alone (the tab_bars projection) refuses a stack given for its selected tab")
    func tabBarAlone() throws {
        let json =
            #"{"selected":"a","tabs":[{"id":"a","stack":{"entries":[{"id":"Z"}],"modalInPresentation":false}},{"id":"b","stack":null}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TabBar.self, from: Data(json.utf8)) }
        let empty = #"{"selected":"a","tabs":[{"id":"a","stack":{"entries":[],"modalInPresentation":false}}]}"#
        #expect(try JSONDecoder().decode(TabBar.self, from: Data(empty.utf8)).tabs.map(\.id) == ["a"])
    }
}
