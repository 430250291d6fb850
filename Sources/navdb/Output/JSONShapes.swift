import NavStore
import NavStoreTools

/// `{"session","version","outcome","prompt","unchanged"}`: what every writing command prints with
/// `--json`; `prompt` is the pop guard's prompt when a guard vetoed the pop (the veto's reason, as
/// the human output prints it), else `null`; `unchanged` says why nothing was appended when the
/// command succeeded without an event (as the human output's `(unchanged: ...)`), else `null`.
struct WriteResultJSON: Encodable {
    var session: String
    var version: Int
    var outcome: CommandOutcome
    var prompt: String?
    var unchanged: String?

    /// - Parameter unchanged: why nothing was appended, when nothing was; "nothing to do" when not given.
    init(_ result: AppendResult, unchanged: String? = nil) {
        session = result.session
        version = result.version
        outcome = result.outcome
        if case .popVetoed(_, let prompt, _)? = result.event?.body { self.prompt = prompt }
        if result.event == nil { self.unchanged = unchanged ?? "nothing to do" }
    }

    private enum CodingKeys: String, CodingKey { case session, version, outcome, prompt, unchanged }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session, forKey: .session)
        try c.encode(version, forKey: .version)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(prompt, forKey: .prompt)
        try c.encode(unchanged, forKey: .unchanged)
    }
}

/// A retention report (`session delete`, `session truncate`, `prune`, `vacuum`) with each
/// session's last activity written twice (`updatedAt` ms, `updatedTime` ISO-8601 text), and after
/// a vacuum the bytes before and after it: `"storage": null | {"after","before","measured","reclaimed"}`.
struct RetentionJSON: Encodable {
    var report: RetentionReport

    private enum CodingKeys: String, CodingKey { case bytes, dryRun, events, freeSpaceZeroed, sessions, storage, vacuumed, walTruncated }
    private enum StorageKeys: String, CodingKey { case after, before, measured, reclaimed }
    private enum SessionKeys: String, CodingKey {
        case baseVersion, bytes, events, key, updatedAt, updatedTime, version
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(report.bytes, forKey: .bytes)
        try c.encode(report.dryRun, forKey: .dryRun)
        try c.encode(report.events, forKey: .events)
        try c.encode(report.freeSpaceZeroed, forKey: .freeSpaceZeroed)
        try c.encode(report.vacuumed, forKey: .vacuumed)
        try c.encode(report.walTruncated, forKey: .walTruncated)
        if let storage = report.storage {
            var s = c.nestedContainer(keyedBy: StorageKeys.self, forKey: .storage)
            try s.encode(storage.after, forKey: .after)
            try s.encode(storage.before, forKey: .before)
            try s.encode(storage.measured.rawValue, forKey: .measured)
            try s.encode(storage.reclaimed, forKey: .reclaimed)
        } else {
            try c.encodeNil(forKey: .storage)
        }
        var sessions = c.nestedUnkeyedContainer(forKey: .sessions)
        for session in report.sessions {
            var s = sessions.nestedContainer(keyedBy: SessionKeys.self)
            try s.encode(session.baseVersion, forKey: .baseVersion)
            try s.encode(session.bytes, forKey: .bytes)
            try s.encode(session.events, forKey: .events)
            try s.encode(session.key, forKey: .key)
            try s.encode(session.updatedAt, forKey: .updatedAt)
            try s.encode(Timestamp.format(session.updatedAt), forKey: .updatedTime)
            try s.encode(session.version, forKey: .version)
        }
    }
}

/// `{"session","version","platform","recordedPlatform","layers":[{"modalInPresentation","entries":[{"id","route","params","item"}]}]}`:
/// `stack --json`. `platform` is the generation the state is resolved under (another one than
/// `recordedPlatform`, the session's own, in a `--platform` what-if read).
///
/// With a tab bar (<doc:TabBars>) `layers` is the selected tab's stack and the modal layers over it,
/// `tabs` every tab in order as `{"id","title","reselect","navigationBarHidden","entries"}` (the
/// selected one's entries are `layers[0]`'s) and `selectedTab` its id; both `null` without one.
struct StackJSON: Encodable {
    var session: String
    var version: Int
    var platform: String
    var recordedPlatform: String
    var layers: [Layer]
    var tabs: [TabStackJSON]?
    var selectedTab: String?

    init(_ state: VersionedState) {
        session = state.session
        version = state.version
        platform = state.state.platform.rawValue
        recordedPlatform = state.recordedPlatform.rawValue
        layers = state.state.layers
        tabs = state.state.tabStacks?.map { TabStackJSON(tab: $0.tab, stack: $0.stack) }
        selectedTab = state.state.selectedTab
    }

    private enum CodingKeys: String, CodingKey {
        case session, version, platform, recordedPlatform, layers, tabs, selectedTab
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session, forKey: .session)
        try c.encode(version, forKey: .version)
        try c.encode(platform, forKey: .platform)
        try c.encode(recordedPlatform, forKey: .recordedPlatform)
        try c.encode(layers, forKey: .layers)
        try c.encode(tabs, forKey: .tabs)
        try c.encode(selectedTab, forKey: .selectedTab)
    }
}


/// `{"session","version","platform","recordedPlatform","backButton": null | {"label","fallbacks","image"},
/// "backMenu": null | [{"row","entry","title"}]}`: `back-menu --json`. With `--width`, also
/// `"fittingLabel"`: the label drawn in that many terminal columns (the preferred label or a
/// fallback, whole; a custom item's title cut with `…`; `null` without a back button). `show --json`
/// always writes it: the label its drawn bar shows.
struct BackMenuJSON: Encodable {
    var session: String
    var version: Int
    var platform: String
    var recordedPlatform: String
    var backButton: BackButton?
    var backMenu: [BackMenuRow]?
    /// `fittingLabel`: absent when `nil`; `.some(nil)` is written as `null` (no back button).
    var fittingLabel: String??

    /// `back-menu`'s JSON: with `width`, `fittingLabel` is the label drawn in that many columns.
    init(_ state: VersionedState, width: Int?) {
        self.init(state, fittingLabel: width.map { state.state.backButton?.drawnLabel(in: $0) })
    }

    /// `show`'s JSON: `fittingLabel` is the label the drawn bar shows (`nil`: no back button).
    init(_ state: VersionedState, fittingLabel: String??) {
        session = state.session
        version = state.version
        platform = state.state.platform.rawValue
        recordedPlatform = state.recordedPlatform.rawValue
        backButton = state.state.backButton
        backMenu = state.state.backMenu
        self.fittingLabel = fittingLabel
    }

    private enum CodingKeys: String, CodingKey {
        case session, version, platform, recordedPlatform, backButton, backMenu, fittingLabel
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session, forKey: .session)
        try c.encode(version, forKey: .version)
        try c.encode(platform, forKey: .platform)
        try c.encode(recordedPlatform, forKey: .recordedPlatform)
        try c.encode(backButton, forKey: .backButton)
        try c.encode(backMenu, forKey: .backMenu)
        if let fittingLabel { try c.encode(fittingLabel, forKey: .fittingLabel) }
    }
}

/// One session of `sessions --json`: `{"key","name","version","layers","depth","createdAt",
/// "createdTime","updatedAt","updatedTime"}` (each time twice, as every `--json` output writes
/// one: `...At` in milliseconds since the Unix epoch, `...Time` its ISO-8601 UTC text;
/// `Schemas/README.md`).
struct SessionJSON: Encodable {
    var key: String
    var name: String?
    var version: Int
    var layers: Int
    var depth: Int
    var platform: String
    var createdAt: Int64
    var updatedAt: Int64

    init(_ info: SessionInfo) {
        key = info.key
        name = info.name
        version = info.version
        layers = info.layers
        depth = info.depth
        platform = info.platform.rawValue
        createdAt = info.createdAt
        updatedAt = info.updatedAt
    }

    private enum CodingKeys: String, CodingKey {
        case key, name, version, layers, depth, platform, createdAt, createdTime, updatedAt, updatedTime
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(name, forKey: .name)
        try c.encode(version, forKey: .version)
        try c.encode(platform, forKey: .platform)
        try c.encode(layers, forKey: .layers)
        try c.encode(depth, forKey: .depth)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(Timestamp.format(createdAt), forKey: .createdTime)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(Timestamp.format(updatedAt), forKey: .updatedTime)
    }
}
