import Foundation
import Testing

@testable import NavStoreModel

/// ``SessionState/isExactly(_:)``, what `check`, `rebuild --verify`, an import's "already
/// stored" and a restore's acknowledgement ask of two states: every stored field compared, texts
/// by their Unicode scalars.
@Suite("Exact equality of states")
struct ExactEqualityTests {
    /// The names of a value's stored properties, in declaration order.
    static func fields(of value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap(\.label)
    }

    @Test(
        "the values a state holds have exactly the fields the comparison knows: a field added to one fails here until isExactly compares it"
    )
    func knownFields() {
        // A new stored field must be compared by `isExactly` (SessionState+ExactEquality.swift),
        // then listed here, with a case in `oneFieldDiffers` below.
        #expect(Self.fields(of: SessionState()) == ["layers", "platform", "tabBar", "lookupHint"])
        #expect(Self.fields(of: Layer()) == ["entries", "modalInPresentation", "navigationBarHidden"])
        #expect(Self.fields(of: TabBar(tabs: [Tab(id: "a")])) == ["tabs", "selectedIndex", "parked"])
        #expect(Self.fields(of: Tab(id: "a")) == ["id", "title", "reselect"])
        #expect(Self.fields(of: BackBarButtonItem()) == ["title", "image", "menuSuppressed"])
        // An entry's fields (its mirror is its own: the params are read once): its id, route,
        // stored params and item; every item field is in NavigationItemField.all.
        #expect(Self.fields(of: Entry(id: "a")) == ["id", "route", "params", "item"])
    }

    /// A state with something in every field: two tabs (one parked with a hidden bar), a
    /// modal layer with a hidden bar over the selected tab's stack.
    static func full() -> SessionState {
        let item = NavigationItem(title: "Inbox", backButtonTitle: "Mail")
        var state = SessionState(
            layers: [
                Layer(entries: [Entry(id: "root", item: item), Entry(id: "mail", route: "mail://1")]),
                Layer(entries: [Entry(id: "sheet")], modalInPresentation: true, navigationBarHidden: true),
            ],
            platform: .ios26)
        state.tabBar = TabBar(
            tabs: [Tab(id: "home", title: "Home"), Tab(id: "cal", title: "Calendar", reselect: .guarded)],
            selectedIndex: 0,
            stacks: [Layer(), Layer(entries: [Entry(id: "day")], navigationBarHidden: true)])
        return state
    }

    @Test("a state that differs from another in any one field is not exactly equal to it; equal states are")
    func oneFieldDiffers() {
        let base = Self.full()
        #expect(base.isExactly(Self.full()))
        var changes: [(String, (inout SessionState) -> Void)] = [
            ("platform", { $0.platform = .ios14 }),
            ("a layer's navigationBarHidden", { $0.layers[0].navigationBarHidden = true }),
            ("a modal layer's navigationBarHidden", { $0.layers[1].navigationBarHidden = false }),
            ("a layer's modalInPresentation", { $0.layers[1].modalInPresentation = false }),
            ("an entry's id", { $0.layers[0].entries[1].id = "mail2" }),
            ("an entry's route", { $0.layers[0].entries[1].route = nil }),
            ("an entry's item", { $0.layers[0].entries[0].item.title = "Inbox " }),
            ("a layer's entries", { $0.layers[0].entries.removeLast() }),
            ("the layers", { $0.layers.removeLast() }),
            ("the tab bar", { $0.tabBar = nil }),
            ("the selected tab", { $0.tabBar = TabBar(tabs: $0.tabBar!.tabs, selectedIndex: 1, stacks: $0.tabBar!.parked) }),
            ("a parked stack's navigationBarHidden", { $0.tabBar!.parked[1].navigationBarHidden = false }),
            ("a parked stack's modalInPresentation", { $0.tabBar!.parked[1].modalInPresentation = true }),
            ("a parked stack's entries", { $0.tabBar!.parked[1].entries = [] }),
        ]
        changes += [
            ("a tab's title", { state in
                var tabs = state.tabBar!.tabs
                tabs[0].title = nil
                state.tabBar = TabBar(tabs: tabs, selectedIndex: 0, stacks: state.tabBar!.parked)
            }),
            ("a tab's reselect", { state in
                var tabs = state.tabBar!.tabs
                tabs[1].reselect = .popToRoot
                state.tabBar = TabBar(tabs: tabs, selectedIndex: 0, stacks: state.tabBar!.parked)
            }),
            ("a tab's id", { state in
                var tabs = state.tabBar!.tabs
                tabs[1].id = "calendar"
                state.tabBar = TabBar(tabs: tabs, selectedIndex: 0, stacks: state.tabBar!.parked)
            }),
        ]
        for (name, change) in changes {
            var other = Self.full()
            change(&other)
            #expect(!base.isExactly(other), "\(name)")
            #expect(!other.isExactly(base), "\(name), the other way")
        }
        // Canonically equivalent ids and titles are different values (as SQLite compares them).
        var composed = Self.full()
        composed.layers[0].entries[1].id = "caf\u{E9}"
        var decomposed = Self.full()
        decomposed.layers[0].entries[1].id = "cafe\u{301}"
        #expect(composed == decomposed, "Swift's == takes canonical equivalence")
        #expect(!composed.isExactly(decomposed))
    }
}
