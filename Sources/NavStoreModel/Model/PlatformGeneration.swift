/// The generation of UIKit rules a session follows (<doc:PlatformGenerations>), fixed when the session starts
/// and recorded in its `session.started` event. A log without one is ``ios14``.
///
/// Everything that differs between generations is in ``rules``: one table, so that a correction
/// (when Apple documents the iOS 26 behaviour) is one change there plus a behaviour case.
public enum PlatformGeneration: String, Sendable, Hashable, Codable, CaseIterable {
    /// iOS 14 through 18, and iOS 26 apps that opt out of the new design with
    /// `UIDesignRequiresCompatibility`: the rules Apple's documentation describes (<doc:Rules>).
    case ios14
    /// iOS 26's new design: the previous screen's title no longer labels the back button, the
    /// generic mode shows a chevron only, and a swipe anywhere in the content pops
    /// (`interactiveContentPopGestureRecognizer`). Observed by app and library developers on
    /// iOS 26 (react-native-screens PR #3303 and #3166, react-navigation PR #12795,
    /// deltachat-ios #2973); Apple's documentation still describes the iOS 14 order.
    case ios26

    /// The generation of a session whose log does not record one, and of `session start`
    /// without `--platform`: ``ios14``, the rules every log written before generations existed
    /// followed, and the ones Apple documents.
    public static let `default` = PlatformGeneration.ios14

    /// Decodes a generation's name (`"ios14"`, `"ios26"`).
    /// - Throws: `DecodingError.dataCorrupted` for another string, naming it and the known ones:
    ///   `unknown platform 'ios99' (known: ios14, ios26)`.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "platform")
    }

    /// The known generations' names, for messages: `ios14, ios26`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// How this generation resolves the back button (rules 3–5) and which pops it offers.
    /// The single place that says what differs between generations.
    public var rules: GenerationRules {
        switch self {
        case .ios14:
            // rules 4 and 5 of NavStore.docc/Rules.md, as UIKit's documentation of `backButtonDisplayMode` and
            // `backButtonTitle` describes them.
            GenerationRules(
                defaultModeTexts: [.backButtonTitle, .title], defaultModeLastResort: "Back",
                genericModeLabel: "Back", fallbacks: ["Back", ""], contentPopGesture: false,
                // No content swipe here; the value is iOS 26's, so that the row reads the same.
                contentPopNeedsShownBar: true)
        case .ios26:
            // NavStore.docc/PlatformGenerations.md: `backButtonTitle` still shows, the back
            // item's `title` does not, there is no generic "Back" (generic behaves as minimal),
            // and text that does not fit drops to the chevron. Cases: Tests/Fixtures/cases-ios26/.
            GenerationRules(
                defaultModeTexts: [.backButtonTitle], defaultModeLastResort: "",
                genericModeLabel: "", fallbacks: [""], contentPopGesture: true,
                // A hidden bar refuses the content swipe as it does the edge swipe: no report
                // either way (low confidence); this is the one place to change when one appears.
                // Cases: Tests/Fixtures/cases-gestures/.
                contentPopNeedsShownBar: true)
        }
    }
}

/// What one platform generation decides about the back button and pops (rules 3–5 of <doc:Rules>
/// and <doc:PlatformGenerations>), as data. What every generation shares (a custom `backBarButtonItem`, the minimal
/// mode, the editor style, whether a button exists, the back menu, guards, layers, a hidden bar
/// and the edge swipe, swipes turned off per screen) is not here.
public struct GenerationRules: Sendable, Hashable {
    /// A text field of the back item that may label the button in the default display mode.
    public enum ItemText: String, Sendable, Hashable, CaseIterable {
        /// `UINavigationItem.backButtonTitle`.
        case backButtonTitle
        /// `UINavigationItem.title`.
        case title

        /// The field's value on `item`; `nil` when unset (`""` is a value).
        public func value(of item: NavigationItem) -> String? {
            switch self {
            case .backButtonTitle: item.backButtonTitle
            case .title: item.title
            }
        }
    }

    /// In the default display mode, the back item's texts tried in order: the first that is not
    /// `nil` is the preferred label (iOS 14: `backButtonTitle`, then `title`).
    public var defaultModeTexts: [ItemText]
    /// In the default display mode, the preferred label when every text of
    /// ``defaultModeTexts`` is `nil` (iOS 14: "Back"; iOS 26: "", a chevron only).
    public var defaultModeLastResort: String
    /// The preferred label in the generic display mode (iOS 14: "Back"; iOS 26: "", as minimal).
    public var genericModeLabel: String
    /// The shorter labels shown when space is short, in order, after leaving out any equal to
    /// the preferred label; none when the preferred label is "" (rule 5). Custom items and the
    /// minimal mode never shorten.
    public var fallbacks: [String]
    /// Whether a swipe that starts anywhere in the content pops
    /// (`UINavigationController.interactiveContentPopGestureRecognizer`, iOS 26): a `pop` with
    /// source ``PopSource/contentGesture`` is accepted.
    public var contentPopGesture: Bool
    /// Whether the content swipe (where ``contentPopGesture`` offers it) is refused while the
    /// top layer's navigation bar is hidden (``Layer/navigationBarHidden``), as the edge swipe
    /// is in every generation (rule 17). iOS 26: `true`, by analogy with the edge swipe; no
    /// public report says either way. With `false` the content swipe would need only what the
    /// top item itself allows (a back button were the bar shown).
    public var contentPopNeedsShownBar: Bool

    /// Creates a generation's rules (see each property).
    public init(
        defaultModeTexts: [ItemText], defaultModeLastResort: String, genericModeLabel: String,
        fallbacks: [String], contentPopGesture: Bool, contentPopNeedsShownBar: Bool = true
    ) {
        self.defaultModeTexts = defaultModeTexts
        self.defaultModeLastResort = defaultModeLastResort
        self.genericModeLabel = genericModeLabel
        self.fallbacks = fallbacks
        self.contentPopGesture = contentPopGesture
        self.contentPopNeedsShownBar = contentPopNeedsShownBar
    }

    /// The back button labelled by `back` (the item below the top) in display mode `mode`, for an
    /// item without a custom `backBarButtonItem` (rules 4 and 5).
    public func backButton(for back: NavigationItem, mode: BackButtonDisplayMode) -> BackButton {
        switch mode {
        case .default:
            let text = defaultModeTexts.lazy.compactMap { $0.value(of: back) }.first ?? defaultModeLastResort
            return shortening(text)
        case .generic:
            return shortening(genericModeLabel)
        case .minimal:
            return BackButton(label: "", fallbacks: [])
        }
    }

    /// A preferred label with its fallbacks: ``fallbacks`` leaving out any equal to `preferred`,
    /// and none when `preferred` is "" (rule 5).
    public func shortening(_ preferred: String) -> BackButton {
        BackButton(label: preferred, fallbacks: preferred.isEmpty ? [] : fallbacks.filter { $0 != preferred })
    }
}
