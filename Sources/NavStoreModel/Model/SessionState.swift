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
    ///
    /// The selected tab's stack is the base layer (`layers[0]`), and NavStore writes its `stack`
    /// as `null`. A stack given there is kept, not dropped: as the base layer when that one is
    /// empty, or as the same stack the base layer holds.
    /// - Throws: `DecodingError` when `layers` is missing or malformed, the platform unknown, the
    ///   tab bar malformed, the selected tab given a stack other than the base layer's, or another
    ///   key is given (named, with the known ones).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try requireKnownKeys(
            decoder.container(keyedBy: FieldKey.self), known: ["layers", "platform", "tabBar"], of: "state key")
        self.init(
            layers: try c.decode([Layer].self, forKey: .layers),
            platform: try c.decodeIfPresent(PlatformGeneration.self, forKey: .platform) ?? .default)
        guard let decoded = try c.decodeIfPresent(TabBar.Decoded.self, forKey: .tabBar) else { return }
        tabBar = decoded.bar
        guard let stack = decoded.selectedStack, !stack.isExactly(layers[0]) else { return }
        guard layers[0].isExactly(Layer()) else {
            throw DecodingError.dataCorruptedError(
                forKey: .tabBar, in: c,
                debugDescription:
                    "the selected tab '\(decoded.bar.selected.id)' is given the stack [\(stack.entries.map(\.id).joined(separator: ", "))] and the base layer (layers[0]), which is the selected tab's stack, holds [\(layers[0].entries.map(\.id).joined(separator: ", "))]: give that stack once, as layers[0] (the selected tab's \"stack\" null) or as the selected tab's with layers[0] empty"
            )
        }
        layers[0] = stack
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
