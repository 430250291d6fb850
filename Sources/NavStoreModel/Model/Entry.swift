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
