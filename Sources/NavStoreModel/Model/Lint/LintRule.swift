/// How serious a lint finding is (<doc:Lint>). Ordered: `info < warning < error`, so
/// `finding.severity >= threshold` decides whether a finding fails a pipeline (`--fail-on`).
public enum LintSeverity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Worth knowing; usually not a defect on its own.
    case info
    /// A defect users see (a blank row, a screen with no way back, a setting UIKit ignores).
    case warning
    /// A defect that loses the user's work or breaks the app's own contract (a bypassed guard).
    case error

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    /// `info < warning < error`.
    public static func < (a: LintSeverity, b: LintSeverity) -> Bool { a.rank < b.rank }
}

/// One lint rule (<doc:Lint>): its id, severity, the fix it suggests and the public
/// source of the behaviour it judges.
///
/// Every rule is judged with the model's own resolution: ``SessionState/backMenu`` and
/// ``NavigationItem/backMenuTitleResolution`` (rules 6–8), ``SessionState/backButton`` and
/// `BackButton/label(fitting:columns:)` (rules 1–5), ``SessionState/noBackButtonReason`` (rule 1), and
/// for ``guardBypassed`` the events themselves (rules 9, 10, 15).
public enum LintRule: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A back-menu row has the title `""` (rule 7): `menuTitle`, the custom item's title,
    /// `backButtonTitle` or `title` is the empty string, which does not fall through.
    case blankMenuRow = "blank-menu-row"
    /// A back-menu row says "Back" only because its item has no `menuTitle`, custom item title,
    /// `backButtonTitle` or `title` (all `nil`). A `title` that is literally "Back" is not this.
    case untitledMenuRow = "untitled-menu-row"
    /// Two or more rows of one back menu have the same non-empty title.
    case duplicateMenuRows = "duplicate-menu-rows"
    /// The event removed an entry that had a `popGuard` without consulting it: `entries.popped`
    /// with source back-menu or gesture, or `layer.dismissed` with source gesture.
    case guardBypassed = "guard-bypassed"
    /// The top layer's top entry is above its root, has no back button (rule 1) and no left items.
    case noWayBack = "no-way-back"
    /// A live entry has a `backBarButtonItem` and also a `backButtonTitle` or a non-default
    /// `backButtonDisplayMode`, which UIKit then ignores (rule 3).
    case ignoredBackSetting = "ignored-back-setting"
    /// Only with a width: the back button's preferred label does not fit, so a fallback shows.
    case labelFallsBack = "label-falls-back"
    /// Only with a width: a custom back item's title is wider than the room; it has no
    /// fallbacks, so it is cut.
    case customLabelTruncated = "custom-label-truncated"
    /// A session judged under the iOS 14 rules (``PlatformGeneration/ios14``) whose back button
    /// shows a label that iOS 26 would not: the back item's `title` (or "Back") where iOS 26
    /// shows the chevron alone (<doc:PlatformGenerations>).
    case labelLostOnIOS26 = "label-lost-on-ios26"
    /// The event is a `stack.replaced` marked observed (``StackObservation``): UIKit was seen to
    /// make a change the rules refused (<doc:Recording>), and the log kept the observed stack.
    case modelDivergence = "model-divergence"
    /// Opt-in: the screen on show (the top layer's top entry, its navigation bar shown) has no
    /// title (`title` is `nil` or `""`): its bar shows none, and the screens pushed on it will
    /// list it as "Back" or a blank row.
    case untitledScreen = "untitled-screen"

    /// The rule's id, e.g. `blank-menu-row` (the raw value).
    public var id: String { rawValue }

    /// Every rule id, in the order of <doc:Lint> (for messages that list the known ids).
    public static var ids: [String] { allCases.map(\.rawValue) }

    /// The rule with this id, or `nil` (ids are compared exactly, lowercase with dashes).
    public init?(id: String) { self.init(rawValue: id) }

    /// How serious a finding of this rule is (<doc:Lint>).
    public var severity: LintSeverity {
        switch self {
        case .guardBypassed: .error
        case .blankMenuRow, .untitledMenuRow, .noWayBack, .ignoredBackSetting, .customLabelTruncated,
            .modelDivergence:
            .warning
        case .duplicateMenuRows, .labelFallsBack, .labelLostOnIOS26, .untitledScreen: .info
        }
    }

    /// Whether the rule needs a width (``LintOptions/width``); without one it does not run.
    public var needsWidth: Bool {
        switch self {
        case .labelFallsBack, .customLabelTruncated: true
        default: false
        }
    }

    /// Whether the rule runs only when asked for by name (``LintOptions/init(rules:width:platform:)``
    /// with it in `rules`): `label-lost-on-ios26` answers a migration
    /// question and would otherwise report nearly every titled screen of every classic session.
    /// `untitled-screen` finds screens many apps leave untitled on purpose (a custom header, a
    /// search screen).
    public var isOptIn: Bool { self == .labelLostOnIOS26 || self == .untitledScreen }

    /// The rules that run when none are named: every rule that is not ``isOptIn``.
    public static var defaultRules: Set<LintRule> { Set(allCases.filter { !$0.isOptIn }) }

    /// One line saying what the rule finds, for help text.
    public var summary: String {
        switch self {
        case .blankMenuRow: "a back-menu row has the title \"\" (an empty back title does not fall through)"
        case .untitledMenuRow: "a back-menu row says \"Back\" because its item has no title of any kind"
        case .untitledScreen: "the screen on show has no title (nil or \"\"): its navigation bar shows none"
        case .duplicateMenuRows: "two or more rows of one back menu have the same title"
        case .guardBypassed:
            "a back-menu pop, swipe, swipe-down dismissal or tap on the selected tab removed a guarded entry without asking"
        case .noWayBack:
            "a screen above its layer's root has no back button and no left items, or is under a hidden navigation bar (which hides its left items too)"
        case .ignoredBackSetting:
            "an entry has a backBarButtonItem and also a backButtonTitle or display mode UIKit ignores"
        case .labelFallsBack: "the back button's label does not fit the width, so a fallback shows (needs a width)"
        case .customLabelTruncated: "a custom back item's title is wider than the width and is cut (needs a width)"
        case .labelLostOnIOS26: "an iOS 14-18 session's back label that iOS 26 would not show"
        case .modelDivergence: "UIKit was observed to change a stack in a way the rules refuse (the log kept it)"
        }
    }

    /// The fix the rule suggests (<doc:Lint>).
    public var fix: String {
        switch self {
        case .blankMenuRow:
            "set backButtonDisplayMode = .minimal (or a menuTitle) instead of an empty back title"
        case .untitledMenuRow:
            "give the screen a title"
        case .untitledScreen:
            "give the screen a title: its bar shows it, and the back button and back menu of the screens above it do too"
        case .duplicateMenuRows:
            "give the screens distinct titles or menuTitles"
        case .guardBypassed:
            "save or confirm outside navigationBar(_:shouldPop:) (the back menu, the swipe and a tab reselect never call it), or use a custom back item without a menu"
        case .noWayBack:
            "show the navigation bar and its back button, or add a left item that goes back"
        case .ignoredBackSetting:
            "drop one of them: the backBarButtonItem, or the backButtonTitle / backButtonDisplayMode"
        case .labelFallsBack:
            "set a shorter backButtonTitle"
        case .customLabelTruncated:
            "drop the custom back item, or give it a shorter title"
        case .labelLostOnIOS26:
            "set backButtonTitle on the previous screen: iOS 26 still shows it, but no longer its title"
        case .modelDivergence:
            "check what the app does there (a cleared interactivePopGestureRecognizer.delegate, a push under a presented sheet) and whether the model lacks the rule; the observed stack is kept"
        }
    }

    /// The public source of the behaviour the rule judges: the UIKit API and documentation page,
    /// and the behaviour cases (`Tests/Fixtures/cases*/`) that show it.
    public var source: String {
        switch self {
        case .blankMenuRow:
            "UIKit back menu (iOS 14): a row's title is menuTitle ?? backBarButtonItem.title ?? backButtonTitle ?? title, and \"\" does not fall through; https://developer.apple.com/documentation/uikit/uinavigationitem/backbuttontitle; cases empty-backButtonTitle-does-not-fall-through, empty-custom-back-title-gives-blank-menu-row"
        case .untitledMenuRow:
            "UIKit back menu (iOS 14): an item with no title of any kind is listed as \"Back\"; https://developer.apple.com/documentation/uikit/uinavigationitem/title; case nil-title-falls-back-to-Back"
        case .untitledScreen:
            "UINavigationBar shows the top item's title, and nothing when it is nil or empty; the same title labels the back button and the back-menu row of the screens pushed on it; https://developer.apple.com/documentation/uikit/uinavigationitem/title; case nil-title-falls-back-to-Back"
        case .duplicateMenuRows:
            "UIKit back menu (iOS 14): rows are the titles of the screens below, nearest first, with nothing else to tell them apart; https://developer.apple.com/documentation/uikit/uinavigationitem/backbuttontitle; case menu-lists-nearest-first"
        case .guardBypassed:
            "UINavigationBarDelegate.navigationBar(_:shouldPop:) is consulted for the back-button tap only, not for the back menu or the interactive pop gesture, and isModalInPresentation alone stops a swipe-down; https://developer.apple.com/documentation/uikit/uinavigationbardelegate/navigationbar(_:shouldpop:); cases: a back-menu selection that pops several entries and a guarded one with them (uikit-back-button.json; public-reports-2.json C9, Esri/arcgis-maps-sdk-swift-toolkit PR #1229), C13-sheet-swipe-down-dismisses; a tap on the selected tab pops its navigation controller to the root (UITabBarController's default; cases-tabs TB3)"
        case .noWayBack:
            "UINavigationItem.hidesBackButton removes the back button, its menu and the swipe, and so does UINavigationController.setNavigationBarHidden(true) (WordPress-iOS #6007, RTRootNavigationController #134); https://developer.apple.com/documentation/uikit/uinavigationitem/hidesbackbutton, https://developer.apple.com/documentation/uikit/uinavigationcontroller/setnavigationbarhidden(_:animated:); cases hidden-back-button-means-no-menu, C21-custom-left-item-disables-swipe-back, G1-hidden-bar-refuses-edge-swipe"
        case .ignoredBackSetting:
            "UINavigationItem.backBarButtonItem, when set, is the back button: backButtonTitle and backButtonDisplayMode apply only when it is nil; https://developer.apple.com/documentation/uikit/uinavigationitem/backbuttondisplaymode; cases custom-item-ignores-minimal-mode, custom-backBarButtonItem-beats-all-and-has-no-fallbacks"
        case .labelFallsBack:
            "UINavigationBar shortens a back title that does not fit to \"Back\", then to the chevron alone; https://developer.apple.com/documentation/uikit/uinavigationitem/backbuttontitle; case C1-long-back-title-falls-back-to-Back (mozilla-mobile/focus-ios#2972)"
        case .customLabelTruncated:
            "A custom UINavigationItem.backBarButtonItem has no shorter fallbacks: a title that does not fit is truncated; https://developer.apple.com/documentation/uikit/uinavigationitem/backbarbuttonitem; case custom-backBarButtonItem-beats-all-and-has-no-fallbacks"
        case .labelLostOnIOS26:
            "iOS 26's back button shows backButtonTitle but no longer the previous screen's title, and no generic \"Back\" (observed by app and library developers: react-native-screens PR #3303 and #3166, react-navigation PR #12795, deltachat-ios #2973); https://developer.apple.com/documentation/uikit/uinavigationitem/backbuttontitle; cases in shared/cases-ios26/"
        case .modelDivergence:
            "a recorder keeps what UIKit did (facts, not judgments: NavStore's Recording article): apps keep the edge swipe with a hidden back button by clearing interactivePopGestureRecognizer.delegate, which the rules refuse; https://developer.apple.com/documentation/uikit/uinavigationcontroller/interactivepopgesturerecognizer; trace T14-swipe-without-back-button-is-kept in shared/traces/"
        }
    }
}

extension LintRule {
    /// The rule's id as the CLI, lint's JSON and `--disable` spell it (`blank-menu-row`): its raw
    /// value.
    public var description: String { rawValue }
}
