/// One view controller on a navigation stack: its id, what the app needs to rebuild the screen,
/// and its navigation item.
public struct Entry: Sendable, Hashable, Codable, CustomReflectable {
    /// Unique among the session's live entries (rule 16 of <doc:Rules>). Ids are exact text: two
    /// ids are the same id only when they hold the same Unicode scalars (the same UTF-8 bytes),
    /// everywhere (rules, store, import, export, redaction, `history --entry`), as SQLite's
    /// `BINARY` collation compares them and as the app gave them. Canonically equivalent spellings
    /// ("é" as U+00E9 and as "e" + U+0301), fullwidth forms and ids that differ by a zero-width
    /// joiner are different ids; none is normalised.
    public var id: String
    /// The app's route for restoring the screen (e.g. a URL or a screen name); `nil` when unset.
    public var route: String?
    /// Parameters for restoring the screen: a JSON object, or `nil` when unset (distinct from `{}`).
    public var params: [String: JSONValue]? {
        get { storedParams.value }
        set { storedParams = .value(newValue) }
    }
    /// The screen's `UINavigationItem`.
    public var item: NavigationItem
    /// How ``params`` is held: read from the store, it stays JSON text until asked for.
    package var storedParams: EntryParams

    /// Creates an entry.
    public init(
        id: String, route: String? = nil, params: [String: JSONValue]? = nil, item: NavigationItem = NavigationItem()
    ) {
        self.id = id
        self.route = route
        self.storedParams = .value(params)
        self.item = item
    }

    private enum CodingKeys: String, CodingKey { case id, route, params, item }

    /// What `print`, `dump` and a debugger show: the public properties (`id`, `route`, `params`,
    /// `item`), not how the params are held.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["id": id, "route": route as Any, "params": params as Any, "item": item], displayStyle: .struct)
    }

    /// The rule for entry ids, wherever an entry comes from (a push, a presentation, a stack replacement,
    /// an import): an id has at least one character. Checked when a command is decided, not when
    /// a stored event is read.
    /// - Throws: ``NavigationError/emptyEntryID`` for `""`.
    public static func requireValidID(_ id: String) throws(NavigationError) {
        if id.isEmpty { throw .emptyEntryID }
    }

    /// Decodes `{"id", "route", "params", "item"}`; only `id` is required.
    /// - Throws: `DecodingError` when `id` is missing, a value has the wrong type, or for another key.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        route = try c.decodeIfPresent(String.self, forKey: .route)
        storedParams = .value(try c.decodeIfPresent([String: JSONValue].self, forKey: .params))
        item = try c.decodeIfPresent(NavigationItem.self, forKey: .item) ?? NavigationItem()
        try requireKnownKeys(
            decoder.container(keyedBy: FieldKey.self), known: ["id", "route", "params", "item"], of: "entry key")
    }

    /// Encodes every key when `userInfo[NavigationItem.explicitKeys] == true`, else the set ones.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        if encoder.userInfo[NavigationItem.explicitKeys] as? Bool == true {
            try c.encode(route, forKey: .route)
            try c.encode(params, forKey: .params)
            try c.encode(item, forKey: .item)
        } else {
            try c.encodeIfPresent(route, forKey: .route)
            try c.encodeIfPresent(params, forKey: .params)
            if item != NavigationItem() { try c.encode(item, forKey: .item) }
        }
    }
}

/// One navigation stack: the base `UINavigationController` (layer 0) or one presented modally
/// over the layer before it, with the state of the stack itself that can change while its
/// screens are on show (``LayerField``: its bar, and whether a sheet is locked).
public struct Layer: Sendable, Hashable, Codable {
    /// The layer's entries, bottom (root) first, top last.
    public var entries: [Entry]
    /// `UIViewController.isModalInPresentation` of the presented stack: an interactive dismissal
    /// (swipe down) is vetoed (rule 15). Set when the layer is presented and changed later by
    /// `layer.updated` (rule 18). Always `false` for layer 0, which is not presented.
    public var modalInPresentation: Bool
    /// `UINavigationController.isNavigationBarHidden` (`setNavigationBarHidden(_:animated:)`):
    /// with the bar hidden there is no back button and no back menu, and the edge swipe (and
    /// iOS 26's content swipe) is refused (rule 1, rule 17). Changed by `layer.updated`.
    public var navigationBarHidden: Bool

    /// Creates a layer.
    public init(entries: [Entry] = [], modalInPresentation: Bool = false, navigationBarHidden: Bool = false) {
        self.entries = entries
        self.modalInPresentation = modalInPresentation
        self.navigationBarHidden = navigationBarHidden
    }

    private enum CodingKeys: String, CodingKey { case entries, modalInPresentation, navigationBarHidden }

    /// Decodes `{"entries", "modalInPresentation", "navigationBarHidden"}`; an absent flag is
    /// `false` (a snapshot or export written before the flag existed).
    /// - Throws: `DecodingError` for a missing `entries` array or wrong types.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        entries = try c.decode([Entry].self, forKey: .entries)
        modalInPresentation = try c.decodeIfPresent(Bool.self, forKey: .modalInPresentation) ?? false
        navigationBarHidden = try c.decodeIfPresent(Bool.self, forKey: .navigationBarHidden) ?? false
    }

    /// Encodes `{"modalInPresentation", "entries"}`, and `navigationBarHidden` when it is set or
    /// the encoder's `userInfo` asks for explicit output (``NavigationItem/explicitKeys``): a
    /// stored state whose bar was never hidden keeps the bytes it had before the flag existed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(modalInPresentation, forKey: .modalInPresentation)
        if navigationBarHidden || encoder.userInfo[NavigationItem.explicitKeys] as? Bool == true {
            try c.encode(navigationBarHidden, forKey: .navigationBarHidden)
        }
        try c.encode(entries, forKey: .entries)
    }

    /// The value of `field` (<doc:Rules>, rule 18).
    public subscript(field: LayerField) -> Bool {
        get {
            switch field {
            case .navigationBarHidden: navigationBarHidden
            case .modalInPresentation: modalInPresentation
            }
        }
        set {
            switch field {
            case .navigationBarHidden: navigationBarHidden = newValue
            case .modalInPresentation: modalInPresentation = newValue
            }
        }
    }

    /// The ``LayerField``s whose values differ between this layer and `other`, in
    /// ``LayerField`` order (the `fields` of `layer.updated`); the entries are not compared.
    public func changedFields(to other: Layer) -> [LayerField] {
        LayerField.allCases.filter { self[$0] != other[$0] }
    }
}

/// A setting of a navigation stack itself, not of one of its screens, that can change while it
/// is on show: the one list that `layer.updated`, `update-layer`, the store's projection, the
/// report and `check` walk (rule 18 of <doc:Rules>). The raw value is the JSON key.
public enum LayerField: String, Sendable, Hashable, CaseIterable, Codable {
    /// ``Layer/navigationBarHidden``: `UINavigationController.setNavigationBarHidden(_:animated:)`.
    case navigationBarHidden
    /// ``Layer/modalInPresentation``: `UIViewController.isModalInPresentation` of the presented stack.
    case modalInPresentation

    /// The JSON keys of every field, in order.
    public static let names: [String] = allCases.map(\.rawValue)

    /// Decodes a field from its JSON key; another string is refused naming the known ones.
    /// - Throws: `DecodingError` naming the value and the accepted ones.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "layer field")
    }
}

/// The navigation state of a session (one window or scene): its layers, base first, and the
/// platform generation whose rules resolve its back button.
///
/// A new session has one empty base layer; its first entry is pushed. The state is always a fold
/// of the session's events (``SessionState/apply(_:)``), never edited any other way; a
/// what-if read under another generation works on a copy (``with(platform:)``).
public struct SessionState: Sendable, Hashable, Codable {
    /// The layers, base (index 0) first; never empty.
    public var layers: [Layer]
    /// The generation of rules the session follows (<doc:PlatformGenerations>), set by its `session.started`
    /// event; ``PlatformGeneration/ios14`` for a log that records none.
    public var platform: PlatformGeneration
    /// The session's tab bar (<doc:TabBars>), or `nil` for a session without one (a single base
    /// stack). With a tab bar, ``layers```[0]` is the selected tab's stack.
    public package(set) var tabBar: TabBar?
    /// Where the last item update found its entry: ``location(of:)`` looks beside it first, so
    /// that updating n entries in stack order (an observed `didShow` retitling them all) costs
    /// O(n), not O(n²). Not part of the state: equal, hashed and coded as nothing.
    package var lookupHint = LookupHint()

    /// The state of a new session: one empty base layer, under `platform`.
    public init(platform: PlatformGeneration = .default) {
        layers = [Layer()]
        self.platform = platform
    }

    /// A state with the given layers (at least one; an empty array becomes one empty base layer).
    public init(layers: [Layer], platform: PlatformGeneration = .default) {
        self.layers = layers.isEmpty ? [Layer()] : layers
        self.platform = platform
    }

    /// The same state resolved under another generation: a what-if read ("what would this
    /// history show on iOS 26?"). The layers are unchanged; only the label rules differ.
    public func with(platform: PlatformGeneration) -> SessionState {
        var copy = self
        copy.platform = platform
        return copy
    }

    private enum CodingKeys: String, CodingKey { case layers, platform, tabBar }

    /// Decodes `{"layers": [...], "platform": "ios14" | "ios26", "tabBar"?: ...}`: an absent
    /// platform (a snapshot written before generations existed) is ``PlatformGeneration/ios14``,
    /// an absent `tabBar` (see ``TabBar/init(from:)``) a session without one.
    /// - Throws: `DecodingError` when `layers` is missing or malformed, the platform unknown, or
    ///   the tab bar malformed.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            layers: try c.decode([Layer].self, forKey: .layers),
            platform: try c.decodeIfPresent(PlatformGeneration.self, forKey: .platform) ?? .default)
        tabBar = try c.decodeIfPresent(TabBar.self, forKey: .tabBar)
    }

    /// Encodes `{"layers": [...], "platform": ...}`, and `"tabBar"` when the session has one.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(layers, forKey: .layers)
        try c.encode(platform, forKey: .platform)
        try c.encodeIfPresent(tabBar, forKey: .tabBar)
    }

    /// The topmost layer (the one the user sees and that pushes and pops act on).
    public var topLayer: Layer { layers[layers.count - 1] }

    /// The index of the topmost layer (0 when nothing is presented).
    public var topLayerIndex: Int { layers.count - 1 }

    /// The top entry of the top layer, or `nil` before the first push.
    public var topEntry: Entry? { topLayer.entries.last }

    /// The total number of entries over all layers.
    public var depth: Int { layers.reduce(0) { $0 + $1.entries.count } }

    /// Where the entry with `id` is live, or `nil`. Ids are compared by their Unicode scalars
    /// (their UTF-8 bytes, as SQLite compares them), never by canonical equivalence: "é" as
    /// U+00E9 and as "e" + U+0301 are two ids (see ``Entry/id``).
    ///
    /// Ids are unique among live entries (rule 16), so the order of the search is not
    /// observable; it starts beside the entry the last item update found (`lookupHint`), then
    /// at the top of the top layer, where the entries a session updates (the screen on show) are.
    /// - Complexity: O(1) for the entry beside the last update's; else O(n) in the live entries.
    public func location(of id: String) -> (layer: Int, position: Int)? {
        // Beside the last update's entry first (ids are unique, so a match there is the match).
        if lookupHint.layer >= 0, lookupHint.layer < layers.count {
            let entries = layers[lookupHint.layer].entries
            for position in [lookupHint.position + 1, lookupHint.position, lookupHint.position - 1]
            where position >= 0 && position < entries.count && entries[position].id.hasSameScalars(as: id) {
                return (lookupHint.layer, position)
            }
        }
        // Every push scans every live id: the lengths are compared here, inline, and only ids of
        // the same length compare their bytes (most live ids differ in length from a new one).
        let count = id.utf8.count
        var layer = layers.count
        while layer > 0 {
            layer -= 1
            let entries = layers[layer].entries
            var position = entries.count
            while position > 0 {
                position -= 1
                if entries[position].id.utf8.count == count && entries[position].id.hasSameScalars(as: id) {
                    return (layer, position)
                }
            }
        }
        return nil
    }

    /// The entry ids per layer, bottom first (as a behaviour case's expected `stack` lists them).
    public var entryIDs: [[String]] { layers.map { $0.entries.map(\.id) } }

    /// A short description of the stacks for error messages, e.g. `[A, B] | [M]`.
    public var stackDescription: String {
        layers.map { "[" + $0.entries.map(\.id).joined(separator: ", ") + "]" }.joined(separator: " | ")
    }

    /// ``stackDescription`` for an error about `id`, followed, when live ids are the same text as
    /// `id` in another Unicode spelling (canonically equivalent, other scalars: "é" as U+00E9
    /// and as U+0065 U+0301), by the code points of `id` and of each of them: printed, they
    /// would look the same.
    /// - Parameters:
    ///   - id: the id the error names, as the command gave it.
    ///   - topLayerOnly: look only at the top layer's ids (a pop-to's candidates).
    /// - Returns: the description, e.g. `[é, X]; 'é' is U+0065 U+0301, the live 'é' is U+00E9:
    ///   one text in two Unicode spellings`.
    public func stackDescription(against id: String, topLayerOnly: Bool = false) -> String {
        let candidates = topLayerOnly ? topLayer.entries : layers.flatMap(\.entries)
        let lookAlikes = candidates.map(\.id).filter { $0 == id && !$0.hasSameScalars(as: id) }
        guard !lookAlikes.isEmpty else { return stackDescription }
        let live = lookAlikes.map { "'\($0)' is \(DisplayText.codePoints($0))" }.joined(separator: ", ")
        let spellings = lookAlikes.count == 1 ? "two" : "\(lookAlikes.count + 1)"
        return stackDescription + "; '\(id)' is \(DisplayText.codePoints(id)), the live \(live): one text in "
            + "\(spellings) Unicode spellings"
    }
}

/// Where ``SessionState/location(of:)`` looks first: the entry the last item update found. An
/// accelerator, not part of the state: any two hints are equal, and hash as nothing.
package struct LookupHint: Sendable, Hashable {
    /// The layer, or -1 for none.
    package var layer = -1
    /// The position in the layer.
    package var position = -1

    package static func == (lhs: LookupHint, rhs: LookupHint) -> Bool { true }
    package func hash(into hasher: inout Hasher) {}
}
