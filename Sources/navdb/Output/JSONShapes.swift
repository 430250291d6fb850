import NavStore

/// `{"session","version","outcome"}`: what every writing command prints with `--json`.
struct WriteResultJSON: Encodable {
    var session: String
    var version: Int
    var outcome: CommandOutcome

    init(_ result: AppendResult) {
        session = result.session
        version = result.version
        outcome = result.outcome
    }
}

/// `{"session","version","layers":[{"modalInPresentation","entries":[{"id","route","params","item"}]}]}`:
/// `stack --json`.
struct StackJSON: Encodable {
    var session: String
    var version: Int
    var layers: [Layer]

    init(_ state: VersionedState) {
        session = state.session
        version = state.version
        layers = state.state.layers
    }
}

/// `{"session","version","backButton": null | {"label","fallbacks","image"},
/// "backMenu": null | [{"row","entry","title"}]}`: `back-menu --json`. With `--width`, also
/// `"fittingLabel"`: the label drawn in that many terminal columns (the preferred label or a
/// fallback, whole; a custom item's title cut with `…`; `null` without a back button).
struct BackMenuJSON: Encodable {
    var session: String
    var version: Int
    var backButton: BackButton?
    var backMenu: [BackMenuRow]?
    var width: Int?

    init(_ state: VersionedState, width: Int?) {
        session = state.session
        version = state.version
        backButton = state.state.backButton
        backMenu = state.state.backMenu
        self.width = width
    }

    private enum CodingKeys: String, CodingKey { case session, version, backButton, backMenu, fittingLabel }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session, forKey: .session)
        try c.encode(version, forKey: .version)
        try c.encode(backButton, forKey: .backButton)
        try c.encode(backMenu, forKey: .backMenu)
        if let width { try c.encode(backButton?.drawnLabel(in: width), forKey: .fittingLabel) }
    }
}

/// One session of `sessions --json`: `{"key","name","version","layers","depth","createdAt","updatedAt"}`
/// (times in milliseconds since the Unix epoch).
struct SessionJSON: Encodable {
    var key: String
    var name: String?
    var version: Int
    var layers: Int
    var depth: Int
    var createdAt: Int64
    var updatedAt: Int64

    init(_ info: SessionInfo) {
        key = info.key
        name = info.name
        version = info.version
        layers = info.layers
        depth = info.depth
        createdAt = info.createdAt
        updatedAt = info.updatedAt
    }

    private enum CodingKeys: String, CodingKey { case key, name, version, layers, depth, createdAt, updatedAt }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(name, forKey: .name)
        try c.encode(version, forKey: .version)
        try c.encode(layers, forKey: .layers)
        try c.encode(depth, forKey: .depth)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}
