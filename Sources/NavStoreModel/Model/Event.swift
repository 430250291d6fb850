/// What caused a pop (`entries.popped.source`, <doc:Events>).
public enum PopSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// A tap on the back button; consults the top entry's pop guard (rule 10).
    case backButton = "back-button"
    /// The interactive swipe from the leading edge
    /// (`UINavigationController.interactivePopGestureRecognizer`); the guard is not consulted
    /// (rule 10); refused under a hidden bar or on a screen that turns it off (rule 17).
    case gesture
    /// The interactive swipe that starts anywhere in the content
    /// (`UINavigationController.interactiveContentPopGestureRecognizer`, iOS 26): pops as the
    /// edge swipe does, and the guard is not consulted (<doc:PlatformGenerations>). Offered by generations
    /// whose ``GenerationRules/contentPopGesture`` is true.
    case contentGesture = "content-gesture"
    /// A row of the long-press back menu; the guard is not consulted (rule 9).
    case backMenu = "back-menu"
    /// The app's own `popViewController`/`popToViewController`; guards are ignored.
    case programmatic
    /// A tap on the tab that is already selected (<doc:TabBars>, ``TabReselect``): UIKit pops the
    /// tab's stack to its root past any guard; a ``TabReselect/guarded`` tab asks the guard first.
    /// Made by ``NavigationCommand/selectTab(_:source:)`` alone.
    case tabReselect = "tab-reselect"
    /// The user removed the top screen of a SwiftUI `NavigationStack` (<doc:SwiftUI>): the back
    /// button or a swipe, which SwiftUI does not tell apart, so neither is guessed. Pops one
    /// entry; refused where neither the back button nor a swipe could (rules 1, 17). SwiftUI has
    /// no `shouldPop`, so no guard is consulted: the pop is a fact the app saw in its path.
    case user

    /// Decodes a source's name (`"back-button"`, `"gesture"`...).
    /// - Throws: `DecodingError.dataCorrupted` for another string, naming it and the known ones:
    ///   `unknown source 'sideways' (known: back-button, gesture, ...)`.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "source")
    }
}

/// What caused a dismissal of a modal layer (`layer.dismissed.source`).
public enum DismissSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The interactive swipe down; vetoed by `isModalInPresentation` (rule 15).
    case gesture
    /// The app's own `dismiss(animated:)`; always allowed.
    case programmatic

    /// Decodes a source's name (`"gesture"`, `"programmatic"`).
    /// - Throws: `DecodingError.dataCorrupted` for another string, naming it and the known ones:
    ///   `unknown source 'swipe' (known: gesture, programmatic)`.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "source")
    }
}

/// The fact an event records, with its payload (<doc:Events>). Every case is in the past tense.
public enum EventBody: Sendable, Hashable {
    /// `session.started`: the stream began; `name` is a human label (optional); `platform` is
    /// the generation of rules the session follows, fixed from here on (<doc:PlatformGenerations>; a payload
    /// without one, written before generations existed, is ``PlatformGeneration/ios14``).
    case sessionStarted(name: String?, platform: PlatformGeneration = .default)
    /// `entry.pushed`: `entry` went on top of the top layer.
    case entryPushed(Entry)
    /// `entries.popped`: the top entries of the top layer with ids `ids` (bottom first) were
    /// popped; `confirmed` is true when a guarded back-button tap was confirmed.
    case entriesPopped(source: PopSource, ids: [String], confirmed: Bool)
    /// `pop.vetoed`: a back-button tap on the guarded entry `entry` was refused with `prompt`.
    case popVetoed(entry: String, prompt: String, source: PopSource)
    /// `stack.replaced`: the top layer's entries became `entries` (last = top; rule 12). With
    /// `observed`, a change UIKit was seen to make that the rules refused (<doc:Recording>, facts
    /// not judgments): the log keeps the observed stack, the observation says why the rules would
    /// not have reached it and, for a layer below the top, which layer it replaced
    /// (<doc:Recording>); lint reports it as ``LintRule/modelDivergence``.
    case stackReplaced([Entry], observed: StackObservation? = nil)
    /// `item.updated`: the live entry `id` now has `item`; `fields` names what changed (the item's JSON keys).
    case itemUpdated(id: String, item: NavigationItem, fields: [String])
    /// `layer.presented`: a new navigation stack with root `entry` was presented modally.
    case layerPresented(Entry, modalInPresentation: Bool)
    /// `layer.dismissed`: the top modal layer, holding `ids` (bottom first), was dismissed.
    case layerDismissed(source: DismissSource, ids: [String])
    /// `dismiss.vetoed`: an interactive dismissal of the layer rooted at `entry` was refused
    /// because it is `modalInPresentation`.
    case dismissVetoed(entry: String, source: DismissSource)
    /// `session.restored`: the app restarted and restored the session here (a marker; the
    /// navigation state does not change); the marker says which state the app was handed.
    case sessionRestored(RestoreMarker)
    /// `layer.updated`: the top layer, at index `layer` (0 = base), now has these
    /// ``LayerField`` values (``Layer/navigationBarHidden``, ``Layer/modalInPresentation``);
    /// `fields` names the ones that changed, in ``LayerField`` order (rule 18).
    case layerUpdated(layer: Int, navigationBarHidden: Bool, modalInPresentation: Bool, fields: [LayerField])
    /// `pop.cancelled`: an interactive swipe back (`source` ``PopSource/gesture`` or
    /// ``PopSource/contentGesture``) of the top entry `entry` began and was cancelled (the user
    /// let go early); nothing changed (rule 17).
    case popCancelled(entry: String, source: PopSource)
    /// `calls.dropped`: a recorder's queue was full, and `count` of its calls for this session
    /// (commands and UIKit callbacks) were dropped between `firstAt` and `lastAt` (ms since the
    /// Unix epoch), right here in the stream (<doc:Recording>). A fact about the log, not about
    /// navigation: the state does not change.
    case callsDropped(count: Int, firstAt: Int64, lastAt: Int64)
    /// `tabs.replaced`: the session's tab bar became `tabs`, in order (<doc:TabBars>,
    /// `UITabBarController.setViewControllers`): a tab kept by id keeps its stack, a new one starts
    /// empty, a dropped one leaves with its entries; the selection stays on its tab if it remains,
    /// else moves to the first. The first `tabs.replaced` of a session selects the first tab.
    case tabsReplaced([Tab])
    /// `tab.selected`: the tab `id` became the selected one (or, tapped while selected, stayed so
    /// and changed nothing: its ``TabReselect`` is `none`, or its stack is at the root).
    case tabSelected(id: String, source: TabSelectionSource)
    /// An event of a tab's stack that is not the one on screen (<doc:TabBars>, `--tab`): the stack of
    /// tab `tab` (under any modal layer, or parked while another tab is selected) is the one
    /// `event` changes, as its only layer. Its payload is `event`'s with a `"tab"` member.
    indirect case inTab(String, EventBody)

    /// The type of an event, by its name (<doc:Events>): the one list of event types. Code that
    /// handles every type switches over it (or over ``EventBody``), so the compiler names each
    /// place a new type must be handled.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `session.started`.
        case sessionStarted = "session.started"
        /// `entry.pushed`.
        case entryPushed = "entry.pushed"
        /// `entries.popped`.
        case entriesPopped = "entries.popped"
        /// `pop.vetoed`.
        case popVetoed = "pop.vetoed"
        /// `stack.replaced`.
        case stackReplaced = "stack.replaced"
        /// `item.updated`.
        case itemUpdated = "item.updated"
        /// `layer.presented`.
        case layerPresented = "layer.presented"
        /// `layer.dismissed`.
        case layerDismissed = "layer.dismissed"
        /// `dismiss.vetoed`.
        case dismissVetoed = "dismiss.vetoed"
        /// `session.restored`.
        case sessionRestored = "session.restored"
        /// `layer.updated`.
        case layerUpdated = "layer.updated"
        /// `pop.cancelled`.
        case popCancelled = "pop.cancelled"
        /// `calls.dropped`.
        case callsDropped = "calls.dropped"
        /// `tabs.replaced`.
        case tabsReplaced = "tabs.replaced"
        /// `tab.selected`.
        case tabSelected = "tab.selected"
    }

    /// Every event type name, in the order of <doc:Events>.
    public static let typeNames = Kind.allCases.map(\.rawValue)

    /// The event's type.
    public var kind: Kind {
        switch self {
        case .sessionStarted: .sessionStarted
        case .entryPushed: .entryPushed
        case .entriesPopped: .entriesPopped
        case .popVetoed: .popVetoed
        case .stackReplaced: .stackReplaced
        case .itemUpdated: .itemUpdated
        case .layerPresented: .layerPresented
        case .layerDismissed: .layerDismissed
        case .dismissVetoed: .dismissVetoed
        case .sessionRestored: .sessionRestored
        case .layerUpdated: .layerUpdated
        case .popCancelled: .popCancelled
        case .callsDropped: .callsDropped
        case .tabsReplaced: .tabsReplaced
        case .tabSelected: .tabSelected
        case .inTab(_, let event): event.kind
        }
    }

    /// The tab whose stack the event changed when it is not the one on screen (``inTab(_:_:)``),
    /// else `nil`.
    public var tab: String? {
        if case .inTab(let tab, _) = self { tab } else { nil }
    }

    /// The event's type name, e.g. `entry.pushed`.
    public var type: String { kind.rawValue }

    /// Whether the event records a veto (the command's outcome is `vetoed`, exit code 3).
    public var isVeto: Bool {
        switch self {
        case .popVetoed, .dismissVetoed: true
        case .inTab(_, let event): event.isVeto
        default: false
        }
    }

    /// The ids of the entries the event names (pushed, popped, replaced, updated, presented,
    /// dismissed, vetoed, the top entry of a cancelled swipe), for `history --entry`; none for
    /// a `layer.updated`, which changes a stack, not an entry.
    public var entryIDs: [String] {
        switch self {
        case .sessionStarted, .sessionRestored, .layerUpdated, .callsDropped, .tabsReplaced, .tabSelected: []
        case .inTab(_, let event): event.entryIDs
        case .popCancelled(let id, _): [id]
        case .entryPushed(let e), .layerPresented(let e, _): [e.id]
        case .entriesPopped(_, let ids, _), .layerDismissed(_, let ids): ids
        case .popVetoed(let id, _, _), .dismissVetoed(let id, _): [id]
        case .stackReplaced(let entries, _): entries.map(\.id)
        case .itemUpdated(let id, _, _): [id]
        }
    }
}

/// What marks a `stack.replaced` as observed (``EventBody/stackReplaced(_:observed:)``): the
/// stack UIKit was seen to show, which the rules refused to reach (<doc:Recording>, facts not
/// judgments: a model gap, or an app doing something unusual, never a lost change).
///
/// Its payload is `"observed": {"reason": "...", "layer": N}`, `layer` only for a layer below
/// the top (<doc:Events>).
public struct StackObservation: Sendable, Hashable, Codable {
    /// Why the rules refused the change UIKit made, in their words (a ``NavigationError``'s
    /// message, e.g. `cannot pop 'B' by gesture: no back button (hidesBackButton) ...`), or what
    /// the rules cannot express (a change to a layer under a presented one).
    public var reason: String
    /// The layer replaced (0 = base) when it is below the top layer; `nil` for the top layer.
    public var layer: Int?

    /// Creates an observation.
    public init(reason: String, layer: Int? = nil) {
        self.reason = reason
        self.layer = layer
    }

    private enum CodingKeys: String, CodingKey { case layer, reason }

    /// Decodes `{"layer"?, "reason"}`.
    /// - Throws: `DecodingError` for a missing `reason`, a value of the wrong type, or another
    ///   key (named, with the known ones).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try requireKnownKeys(decoder.container(keyedBy: FieldKey.self), known: ["layer", "reason"], of: "observed key")
        self.init(
            reason: try c.decode(String.self, forKey: .reason), layer: try c.decodeIfPresent(Int.self, forKey: .layer))
    }
}

/// One event of a session's stream as stored in the log (<doc:Events>).
public struct Event: Sendable, Hashable {
    /// The global sequence number (gapless, increasing over all sessions), `nil` before it is stored.
    public var seq: Int64?
    /// The session key (stream name).
    public var session: String
    /// The 1-based version within the session.
    public var version: Int
    /// Wall-clock time in milliseconds since the Unix epoch, UTC; never earlier than the
    /// session's previous event.
    public var at: Int64
    /// A unique id (UUID text, client-supplied where the client has one): the idempotency key of imports.
    public var eventID: String
    /// The fact and its payload.
    public var body: EventBody

    /// The event's type name, e.g. `entry.pushed`.
    public var type: String { body.type }

    /// Creates an event.
    public init(seq: Int64? = nil, session: String, version: Int, at: Int64, eventID: String, body: EventBody) {
        self.seq = seq
        self.session = session
        self.version = version
        self.at = at
        self.eventID = eventID
        self.body = body
    }
}
