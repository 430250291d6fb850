import Testing

@testable import NavStoreModel

/// ``SessionState/location(of:)`` looks beside the last item update's entry first: an
/// accelerator that changes no answer and no equality.
@Suite("SessionState: the lookup hint")
struct LookupHintTests {
    static func state(_ ids: [String]) -> SessionState {
        SessionState(layers: [Layer(entries: ids.map { Entry(id: $0, item: NavigationItem(title: $0)) })])
    }

    @Test("every id is found where it is, whatever the hint, after updates, pops, pushes and replacements")
    func answersUnchanged() throws {
        var state = Self.state((0..<50).map { "e\($0)" })
        func check() {
            for (layer, entries) in state.layers.enumerated() {
                for (position, entry) in entries.entries.enumerated() {
                    let found = state.location(of: entry.id)
                    #expect(found?.layer == layer && found?.position == position, "\(entry.id)")
                }
            }
            #expect(state.location(of: "missing") == nil)
        }
        for index in stride(from: 0, to: 50, by: 7) {
            state.apply(.itemUpdated(id: "e\(index)", item: NavigationItem(title: "new"), fields: ["title"]))
            check()
        }
        state.apply(.entriesPopped(source: .programmatic, ids: (40..<50).map { "e\($0)" }, confirmed: false))
        check()
        state.apply(.entryPushed(Entry(id: "e49", item: NavigationItem(title: "again"))))
        check()
        state.apply(.itemUpdated(id: "e49", item: NavigationItem(title: "x"), fields: ["title"]))
        state.apply(.stackReplaced((0..<5).map { Entry(id: "r\($0)") }, observed: nil))
        check()
        #expect(state.location(of: "e49") == nil)
    }

    @Test("two states that differ only in their hint are equal and hash alike")
    func notPartOfTheState() {
        var updated = Self.state(["a", "b", "c"])
        updated.apply(.itemUpdated(id: "b", item: NavigationItem(title: "b"), fields: []))
        let fresh = Self.state(["a", "b", "c"])
        #expect(updated == fresh)
        #expect(updated.hashValue == fresh.hashValue)
    }
}
