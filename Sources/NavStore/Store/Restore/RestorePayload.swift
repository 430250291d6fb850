/// What an app needs to rebuild its `UINavigationController`s after a restart (<doc:Restore>).
public struct RestorePayload: Sendable, Hashable, Codable {
    /// The session key.
    public var session: String
    /// The session's current version (after the restart marker, when one was appended).
    public var version: Int
    /// The version whose state `layers` holds: normally the session's newest event other than a
    /// `session.restored` marker (markers change nothing, so after one this is below `version`);
    /// an earlier acknowledged version, or 0 for the base root alone (an empty stack when the
    /// base layer has no entries), after repeated unacknowledged restores (see ``fallback``).
    public var restoredVersion: Int
    /// The layers to rebuild, base first, each with its entries (ids, routes, params, items).
    /// Under a tab bar the base layer is the selected tab's stack.
    public var layers: [Layer]
    /// The tab bar to rebuild (<doc:TabBars>): every tab in order, the selected one, and the stacks
    /// of the tabs not selected (``SessionState/tabStacks`` of a state holding it); `nil` for a
    /// session without one. JSON: `"tabs"` (`[{"id","title","reselect","navigationBarHidden","entries"}]`,
    /// the selected tab's entries those of `layers[0]`) and `"selectedTab"`, both `null` without.
    public var tabBar: TabBar? = nil
    /// The back button those layers show, or `nil`.
    public var backButton: BackButton?
    /// The back menu those layers show, or `nil`.
    public var backMenu: [BackMenuRow]?
    /// Unacknowledged restores of the state handed out (`restoredVersion`), this one included.
    public var attempts: Int
    /// Why an earlier state was returned instead of the current one, or `nil`.
    public var fallback: String?
    /// Why the next plain restore (``NavigationStore/restore(session:mark:at:expectedVersion:deliver:)``
    /// after this call) will hand out an earlier state than the session's newest, or `nil` when it
    /// will hand out the newest. For ``NavigationStore/previewRestore(session:)-6cfdz`` the next plain
    /// restore is the one previewed, so this equals ``fallback``. Not part of the JSON shape: it is
    /// a hint for a person, for a tool to show beside the payload.
    public var nextFallback: String? = nil
    /// The platform generation whose rules gave ``backButton`` and ``backMenu``: the session's
    /// (<doc:PlatformGenerations>). Not part of the JSON shape (which 0.1.0's readers know): a
    /// tool that draws the payload's bar from its layers draws it under these rules.
    public var platform: PlatformGeneration = .default

    /// The payload of a past point, as ``NavigationStore/state(session:at:platform:)-9dytn`` read it: no attempt
    /// counted (`attempts` 0), no fallback (a restore at a past point).
    public init(_ state: VersionedState) {
        session = state.session
        version = state.version
        restoredVersion = state.version
        layers = state.state.layers
        tabBar = state.state.tabBar
        backButton = state.backButton
        backMenu = state.backMenu
        attempts = 0
        fallback = nil
        platform = state.state.platform
    }

    package init(
        session: String, version: Int, restoredVersion: Int, layers: [Layer], backButton: BackButton?,
        backMenu: [BackMenuRow]?, attempts: Int, fallback: String?, nextFallback: String?,
        platform: PlatformGeneration, tabBar: TabBar?
    ) {
        self.tabBar = tabBar
        self.session = session
        self.version = version
        self.restoredVersion = restoredVersion
        self.layers = layers
        self.backButton = backButton
        self.backMenu = backMenu
        self.attempts = attempts
        self.fallback = fallback
        self.nextFallback = nextFallback
        self.platform = platform
    }

    private enum CodingKeys: String, CodingKey {
        case session, version, restoredVersion, layers, tabs, selectedTab, backButton, backMenu, attempts, fallback
    }
    private enum TabKeys: String, CodingKey { case id, title, reselect, navigationBarHidden, entries }

    /// Every tab of ``tabBar`` with its stack, in order (the selected one's being `layers[0]`).
    public var tabStacks: [(tab: Tab, stack: Layer)]? {
        guard let tabBar else { return nil }
        return tabBar.tabs.indices.map { index in
            (tabBar.tabs[index], index == tabBar.selectedIndex ? layers.first ?? Layer() : tabBar.parked[index])
        }
    }

    /// Decodes what ``encode(to:)`` writes; `tabs` and `selectedTab` may be absent (a payload
    /// written before tab bars).
    /// - Throws: `DecodingError` for a missing key or a `selectedTab` that is none of the tabs.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        session = try c.decode(String.self, forKey: .session)
        version = try c.decode(Int.self, forKey: .version)
        restoredVersion = try c.decode(Int.self, forKey: .restoredVersion)
        layers = try c.decode([Layer].self, forKey: .layers)
        backButton = try c.decodeIfPresent(BackButton.self, forKey: .backButton)
        backMenu = try c.decodeIfPresent([BackMenuRow].self, forKey: .backMenu)
        attempts = try c.decode(Int.self, forKey: .attempts)
        fallback = try c.decodeIfPresent(String.self, forKey: .fallback)
        guard c.contains(.tabs), try !c.decodeNil(forKey: .tabs) else { return }
        var list = try c.nestedUnkeyedContainer(forKey: .tabs)
        var tabs: [Tab] = []
        var stacks: [Layer] = []
        while !list.isAtEnd {
            let tab = try list.nestedContainer(keyedBy: TabKeys.self)
            tabs.append(
                Tab(
                    id: try tab.decode(String.self, forKey: .id), title: try tab.decodeIfPresent(String.self, forKey: .title),
                    reselect: try tab.decode(TabReselect.self, forKey: .reselect)))
            stacks.append(
                Layer(
                    entries: try tab.decode([Entry].self, forKey: .entries),
                    navigationBarHidden: try tab.decode(Bool.self, forKey: .navigationBarHidden)))
        }
        let selected = try c.decode(String.self, forKey: .selectedTab)
        guard let index = tabs.firstIndex(where: { $0.id.utf8.elementsEqual(selected.utf8) }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .selectedTab, in: c, debugDescription: "the selected tab '\(selected)' is not one of the tabs")
        }
        tabBar = TabBar(tabs: tabs, selectedIndex: index, stacks: stacks)
    }

    /// Encodes every key (`null` for an absent back button, menu or fallback).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session, forKey: .session)
        try c.encode(version, forKey: .version)
        try c.encode(restoredVersion, forKey: .restoredVersion)
        try c.encode(layers, forKey: .layers)
        try c.encode(tabStacks?.map { TabStackJSON(tab: $0.tab, stack: $0.stack) }, forKey: .tabs)
        try c.encode(tabBar?.selected.id, forKey: .selectedTab)
        try c.encode(backButton, forKey: .backButton)
        try c.encode(backMenu, forKey: .backMenu)
        try c.encode(attempts, forKey: .attempts)
        try c.encode(fallback, forKey: .fallback)
    }
}

/// What ``NavigationStore/acknowledgeRestore(session:at:)-7vb6n`` acknowledged.
public struct RestoreAcknowledgement: Sendable, Hashable, Codable {
    /// The session key.
    public var session: String
    /// The version whose state the acknowledged restore handed out; 0 when it handed out the base
    /// root alone (see ``isBaseRootOnly``); `nil` when no restore was pending (nothing changed).
    public var version: Int?
    /// The state restore falls back to from now on (the newest acknowledged version), or `nil`
    /// when no version's state was ever acknowledged.
    public var newestAcknowledgedVersion: Int?
    /// When a fallback was acknowledged: the version at which the log now holds the restored
    /// state (after the events that bring it in line); `nil` when the log already held it.
    public var alignedVersion: Int?

    /// Whether a restore was waiting for its acknowledgement (else nothing changed).
    public var wasPending: Bool { version != nil }

    /// Whether the acknowledged restore handed out the base layer's root alone (the last
    /// fallback), not a version's whole state.
    public var isBaseRootOnly: Bool { version == 0 }

    /// A value with these fields.
    public init(session: String, version: Int?, newestAcknowledgedVersion: Int?, alignedVersion: Int? = nil) {
        self.session = session
        self.version = version
        self.newestAcknowledgedVersion = newestAcknowledgedVersion
        self.alignedVersion = alignedVersion
    }
}

/// One tab with its stack as `restore --json` and `stack --json` write it (<doc:TabBars>):
/// `{"id","title","reselect","navigationBarHidden","entries"}`, `title` `null` when the tab has none.
package struct TabStackJSON: Encodable {
    package var tab: Tab
    package var stack: Layer

    package init(tab: Tab, stack: Layer) {
        self.tab = tab
        self.stack = stack
    }

    private enum CodingKeys: String, CodingKey { case id, title, reselect, navigationBarHidden, entries }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(tab.id, forKey: .id)
        try c.encode(tab.title, forKey: .title)
        try c.encode(tab.reselect, forKey: .reselect)
        try c.encode(stack.navigationBarHidden, forKey: .navigationBarHidden)
        try c.encode(stack.entries, forKey: .entries)
    }
}

extension RestorePayload {
    /// Layer `layer`'s entries as the app's route type (``RouteCoding``), root first: the
    /// longest prefix that decodes, and why the rest was dropped (`nil` when all of it decoded).
    /// A SwiftUI app sets its `NavigationStack` path from it at launch (the root view's entry
    /// first), then acknowledges the restore.
    /// - Returns: no routes and no reason for a layer the payload does not have.
    public func routes<Route: Decodable>(_ type: Route.Type, layer: Int = 0) -> (
        routes: [Route], dropped: RouteDecodingError?
    ) {
        guard layers.indices.contains(layer) else { return ([], nil) }
        return RouteCoding.routes(type, of: layers[layer].entries)
    }
}
