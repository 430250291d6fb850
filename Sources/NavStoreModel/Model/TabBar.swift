/// What tapping the tab that is already selected does (<doc:TabBars>).
///
/// UIKit's `UITabBarController` pops the selected tab's navigation controller to its root when its
/// tab is tapped again; an app turns that off by returning `false` from
/// `tabBarController(_:shouldSelect:)` for the selected tab, or replaces it with a pop to the root
/// of its own that asks the top screen's discard prompt first.
public enum TabReselect: String, Sendable, Hashable, CaseIterable, Codable {
    /// UIKit's default: the tab's stack pops to its root, past any pop guard (the pop's source is
    /// ``PopSource/tabReselect``).
    case popToRoot
    /// Nothing happens (`tabBarController(_:shouldSelect:)` returns `false` for the selected tab):
    /// the tap is recorded as `tab.selected` and changes nothing.
    case none
    /// The app pops to the root itself and asks the top entry's pop guard first: a guard vetoes
    /// (`pop.vetoed`, source ``PopSource/tabReselect``) and the stack stays.
    case guarded

    /// The spellings, in declaration order: `popToRoot`, `none`, `guarded`.
    public static let names: [String] = allCases.map(\.rawValue)

    /// Decodes a reselect's name.
    /// - Throws: `DecodingError.dataCorrupted` for another string, naming it and the known ones:
    ///   `unknown reselect 'bogus' (known: popToRoot, none, guarded)`.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "reselect")
    }
}

/// How a tab became the selected one (`tab.selected`'s `source`).
public enum TabSelectionSource: String, Sendable, Hashable, CaseIterable, Codable {
    /// The user tapped the tab (`tabBarController(_:didSelect:)`). Refused while a modal layer
    /// covers the tab bar.
    case tap
    /// The app set `selectedIndex` or `selectedViewController`; it may switch the tab under a
    /// modal layer.
    case programmatic

    /// The spellings, in declaration order: `tap`, `programmatic`.
    public static let names: [String] = allCases.map(\.rawValue)

    /// Decodes a source's name.
    /// - Throws: `DecodingError.dataCorrupted` for another string, naming it and the known ones:
    ///   `unknown source 'poke' (known: tap, programmatic)`.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "source")
    }
}

/// One tab of a tab bar: its id, its title (`UITabBarItem.title`) and what a reselect does.
public struct Tab: Sendable, Hashable, Codable {
    /// The tab's id, unique in its tab bar (at least one character, like an entry's id).
    public var id: String
    /// `UITabBarItem.title`; `nil` (no title) and `""` (an empty one) are different values.
    public var title: String?
    /// What tapping the tab while it is selected does.
    public var reselect: TabReselect

    /// A tab with `id`, `title` and `reselect` (UIKit's default, ``TabReselect/popToRoot``, unless given).
    public init(id: String, title: String? = nil, reselect: TabReselect = .popToRoot) {
        self.id = id
        self.title = title
        self.reselect = reselect
    }

    private enum CodingKeys: String, CodingKey { case id, title, reselect }

    /// Decodes `{"id", "title"?, "reselect"?}`: an absent `reselect` is ``TabReselect/popToRoot``,
    /// an absent `title` is `nil`.
    /// - Throws: `DecodingError` when `id` is missing, a value has the wrong type, or another key
    ///   is given (named, with the known ones).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try requireKnownKeys(decoder.container(keyedBy: FieldKey.self), known: ["id", "reselect", "title"], of: "tab key")
        self.init(
            id: try c.decode(String.self, forKey: .id),
            title: try c.decodeIfPresent(String.self, forKey: .title),
            reselect: try c.decodeIfPresent(TabReselect.self, forKey: .reselect) ?? .popToRoot)
    }

    /// Encodes `{"id", "reselect", "title"?}` (`title` left out when `nil`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(reselect, forKey: .reselect)
        try c.encodeIfPresent(title, forKey: .title)
    }
}

/// A session's tab bar (<doc:TabBars>): the tabs in order, which one is selected, and the stack of
/// each tab that is not selected. The selected tab's stack is the session's base layer
/// (``SessionState/layers```[0]`), where pushes, pops, the back button and the back menu act, as
/// they act on a session without a tab bar.
public struct TabBar: Sendable, Hashable, Codable {
    /// The tabs, in the tab bar's order (at least one).
    public private(set) var tabs: [Tab]
    /// The index in ``tabs`` of the selected tab.
    public private(set) var selectedIndex: Int
    /// The stacks of the tabs by index; the selected tab's slot is an empty layer (its stack is
    /// the session's base layer).
    package var parked: [Layer]

    /// A tab bar of `tabs` with every stack empty and the first tab selected.
    package init(tabs: [Tab]) {
        self.tabs = tabs
        selectedIndex = 0
        parked = Array(repeating: Layer(), count: tabs.count)
    }

    /// A tab bar as stored: `tabs`, the selected index, and every tab's stack (the selected one's
    /// slot ignored and kept empty).
    package init(tabs: [Tab], selectedIndex: Int, stacks: [Layer]) {
        self.tabs = tabs
        self.selectedIndex = selectedIndex
        parked = stacks
        parked[selectedIndex] = Layer()
    }

    /// The selected tab.
    public var selected: Tab { tabs[selectedIndex] }

    private enum CodingKeys: String, CodingKey { case selected, tabs }
    private enum TabKeys: String, CodingKey { case id, title, reselect, stack }

    /// Decodes `{"selected": ID, "tabs": [{"id", "reselect"?, "stack": LAYER | null, "title"?}]}`
    /// (a snapshot's `tabBar`, the `tab_bars` projection): the selected tab's `stack` is `null`,
    /// since it is the session's base layer.
    /// - Throws: `DecodingError` for a missing member, a key that is none of these (named, with
    ///   the known ones), no tabs, a `selected` that is none of them, or a stack given for the
    ///   selected tab other than an empty one (a state's decoding takes it as its base layer:
    ///   ``SessionState/init(from:)``).
    public init(from decoder: any Decoder) throws {
        let decoded = try Decoded(from: decoder)
        if let stack = decoded.selectedStack, !stack.isExactly(Layer()) {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "the selected tab '\(decoded.bar.selected.id)' is given the stack [\(stack.entries.map(\.id).joined(separator: ", "))]; its stack is the session's base layer, so its \"stack\" is null"
                ))
        }
        self = decoded.bar
    }

    /// A tab bar as JSON gives it, with the stack given for its selected tab, if any: `null`
    /// (`nil`) in everything NavStore writes, since that stack is the session's base layer; a
    /// state read from a hand-made file keeps it there (``SessionState/init(from:)``).
    package struct Decoded: Decodable {
        /// The tab bar, the selected tab's slot empty.
        package var bar: TabBar
        /// The stack given for the selected tab, or `nil` for `null` or none.
        package var selectedStack: Layer?

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            try requireKnownKeys(
                decoder.container(keyedBy: FieldKey.self), known: ["selected", "tabs"], of: "tab bar key")
            let selected = try c.decode(String.self, forKey: .selected)
            let stored = try c.decode([StoredTab].self, forKey: .tabs)
            guard let index = stored.firstIndex(where: { $0.tab.id.hasSameScalars(as: selected) }) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .selected, in: c, debugDescription: "the selected tab '\(selected)' is not one of the tabs")
            }
            bar = TabBar(tabs: stored.map(\.tab), selectedIndex: index, stacks: stored.map { $0.stack ?? Layer() })
            selectedStack = stored[index].stack
        }
    }

    /// One tab as a tab bar stores it: `{"id", "reselect"?, "stack": LAYER | null, "title"?}`.
    private struct StoredTab: Decodable {
        var tab: Tab
        var stack: Layer?

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: TabKeys.self)
            try requireKnownKeys(
                decoder.container(keyedBy: FieldKey.self), known: ["id", "reselect", "stack", "title"], of: "tab key")
            tab = Tab(
                id: try c.decode(String.self, forKey: .id),
                title: try c.decodeIfPresent(String.self, forKey: .title),
                reselect: try c.decodeIfPresent(TabReselect.self, forKey: .reselect) ?? .popToRoot)
            stack = try c.decodeIfPresent(Layer.self, forKey: .stack)
        }
    }

    /// Encodes what ``init(from:)`` reads (`PayloadWriter` writes the same bytes for the store).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(selected.id, forKey: .selected)
        var list = c.nestedUnkeyedContainer(forKey: .tabs)
        for (index, tab) in tabs.enumerated() {
            var item = list.nestedContainer(keyedBy: TabKeys.self)
            try item.encode(tab.id, forKey: .id)
            try item.encode(tab.reselect, forKey: .reselect)
            if index == selectedIndex {
                try item.encodeNil(forKey: .stack)
            } else {
                try item.encode(parked[index], forKey: .stack)
            }
            try item.encodeIfPresent(tab.title, forKey: .title)
        }
    }

    /// The index of the tab `id`, compared by Unicode scalars as entry ids are; `nil` if none.
    public func index(of id: String) -> Int? {
        tabs.firstIndex { $0.id.hasSameScalars(as: id) }
    }

    /// The tab bar after `setViewControllers`: a tab kept by id keeps its stack, a new one starts
    /// empty, a dropped one leaves with its entries; the selection stays on its tab if it remains,
    /// else moves to the first tab. `base` is the selected tab's stack now; returns the new bar and
    /// the new selected tab's stack.
    package func replacing(with newTabs: [Tab], base: Layer) -> (TabBar, Layer) {
        var stacks = parked
        stacks[selectedIndex] = base
        let kept = newTabs.map { tab in index(of: tab.id).map { stacks[$0] } ?? Layer() }
        let selection = newTabs.firstIndex { $0.id.hasSameScalars(as: selected.id) } ?? 0
        return (TabBar(tabs: newTabs, selectedIndex: selection, stacks: kept), kept[selection])
    }

    /// The tab bar with `index` selected: `base` (the old selected tab's stack) parked, and the
    /// newly selected tab's stack returned.
    package func selecting(_ index: Int, base: Layer) -> (TabBar, Layer) {
        var copy = self
        copy.parked[selectedIndex] = base
        let stack = copy.parked[index]
        copy.parked[index] = Layer()
        copy.selectedIndex = index
        return (copy, stack)
    }
}

extension SessionState {
    /// The tabs of the session's tab bar in order, with each tab's stack (the selected tab's is
    /// ``layers```[0]`), or `nil` for a session without a tab bar (<doc:TabBars>).
    public var tabStacks: [(tab: Tab, stack: Layer)]? {
        guard let tabBar else { return nil }
        return tabBar.tabs.indices.map { index in
            (tabBar.tabs[index], index == tabBar.selectedIndex ? layers[0] : tabBar.parked[index])
        }
    }

    /// The id of the selected tab, or `nil` without a tab bar.
    public var selectedTab: String? { tabBar?.selected.id }

    /// The stack of the tab `id` (the base layer for the selected tab), or `nil` when the session
    /// has no such tab.
    public func stack(ofTab id: String) -> Layer? {
        guard let tabBar, let index = tabBar.index(of: id) else { return nil }
        return index == tabBar.selectedIndex ? layers[0] : tabBar.parked[index]
    }

    /// The state of tab `id`'s stack alone, as it shows with that tab selected and nothing
    /// presented (<doc:TabBars>): what that tab's back button and back menu show (`back-menu --tab`,
    /// `show --tab`), the same whether it is selected or not; modal layers are not a tab's.
    /// - Throws: ``NavigationError/noTabBar(action:)`` without a tab bar,
    ///   ``NavigationError/unknownTab(id:tabs:)`` for an id the tab bar lacks.
    public func viewingTab(_ id: String) throws(NavigationError) -> SessionState {
        guard let tabBar else { throw .noTabBar(action: "read tab '\(id)'") }
        guard let index = tabBar.index(of: id) else { throw .unknownTab(id: id, tabs: tabBar.tabs.map(\.id)) }
        if index == tabBar.selectedIndex {
            var view = SessionState(layers: [layers[0]], platform: platform)
            view.tabBar = tabBar
            return view
        }
        let (bar, stack) = tabBar.selecting(index, base: layers[0])
        var view = SessionState(layers: [stack], platform: platform)
        view.tabBar = bar
        return view
    }

    /// The tab whose stack (not on screen) holds the live entry `id`: the selected tab's stack is a
    /// layer, which ``location(of:)`` searches.
    package func parkedTab(holding id: String) -> String? {
        guard let tabBar else { return nil }
        for index in tabBar.tabs.indices where index != tabBar.selectedIndex {
            if tabBar.parked[index].entries.contains(where: { $0.id.hasSameScalars(as: id) }) {
                return tabBar.tabs[index].id
            }
        }
        return nil
    }
}
