/// One UIKit callback as an app's adapter forwards it (<doc:Recording>, "How a pop happened"): what a
/// `UINavigationController` subclass, its delegate and a presentation controller delegate are
/// told, with no UIKit type in it. ``NavigationControllerObserver`` turns a sequence of them into
/// commands with the right pop source; ``NavigationRecorder/observe(_:session:)`` records them.
///
/// `layer` is the navigation stack the callback comes from (0 = base; `nil` = the top layer, the
/// one on screen). A stack is the navigation controller's `viewControllers`, bottom first, each
/// as an ``Entry`` (`stack --json`'s shape): the app gives each view controller a stable id and
/// describes its `navigationItem`.
public enum NavigationCallback: Sendable, Hashable {
    /// `navigationController(_:didShow:animated:)`: the navigation controller of `layer` now shows
    /// `stack` (bottom first, at least one entry).
    case didShow(stack: [Entry], layer: Int? = nil)
    /// `navigationBar(_:shouldPop:)` was asked about the item of the entry `id`; `answer` is what
    /// the adapter already answered (`nil` when it leaves UIKit's default).
    case shouldPop(id: String, answer: Bool? = nil, layer: Int? = nil)
    /// `navigationBar(_:didPop:)` for the item of the entry `id`.
    case didPop(id: String, layer: Int? = nil)
    /// The app called one of the navigation controller's methods (a subclass override that calls
    /// `super`): `pushViewController`, `popViewController`, ...
    case programmatic(call: ProgrammaticCall, layer: Int? = nil)
    /// The interactive pop: `interactivePopGestureRecognizer` (edge) or, on iOS 26,
    /// `interactiveContentPopGestureRecognizer` (content) began, and the transition coordinator's
    /// `notifyWhenInteractionChanges` reported it finished or cancelled.
    case interactivePop(phase: InteractivePopPhase, recognizer: PopRecognizer, layer: Int? = nil)
    /// Key-value observation of a view controller's `navigationItem`: the entry `id` now has `item`
    /// (the whole item, not a change).
    case itemChanged(id: String, item: NavigationItem)
    /// The app's `present(_:animated:)` of a navigation controller showing `stack`, over the top
    /// layer (`layer`, when given, must be the top layer: UIKit presents from it);
    /// `modalInPresentation` is the presented controller's `isModalInPresentation`.
    case present(stack: [Entry], modalInPresentation: Bool = false, layer: Int? = nil)
    /// `presentationControllerDidAttemptToDismiss`: a swipe down on the top layer was refused by
    /// `isModalInPresentation` (so the sheet is modal, whatever the log held).
    case dismissAttempt(layer: Int? = nil)
    /// `presentationControllerDidDismiss`: a swipe down dismissed the top layer (so it was not
    /// modal).
    case didDismiss(layer: Int? = nil)
    /// The app's `dismiss(animated:)` of the modal layer `layer` (the top one when `nil`); the
    /// layers above it leave with it, as UIKit dismisses everything it presented.
    case dismiss(layer: Int? = nil)
    /// The app gave its `UITabBarController` these tabs (`setViewControllers`, or its tab bar at
    /// launch), each with what tapping it while selected does (<doc:TabBars>, ``TabReselect``).
    case setTabs([Tab])
    /// `tabBarController(_:didSelect:)`: the user tapped the tab `id` (also when it was already
    /// selected: UIKit then pops its stack to the root, unless `shouldSelect` returned `false`).
    case didSelectTab(id: String)
    /// The app set `selectedIndex` or `selectedViewController` to the tab `id`.
    case selectTab(id: String)
    /// The navigation controller of tab `tab`, not on screen, now holds `stack` (bottom first,
    /// at least one entry): what the app's navigation controller subclass reports after a push,
    /// pop or `setViewControllers` into a tab that is not shown (no delegate callback comes then).
    case tabStack(tab: String, stack: [Entry])

    /// The callback's name in a UIKit callback trace (`didShow`, `shouldPop`, ...).
    public var name: String {
        switch self {
        case .didShow: "didShow"
        case .shouldPop: "shouldPop"
        case .didPop: "didPop"
        case .programmatic: "programmatic"
        case .interactivePop: "interactivePop"
        case .itemChanged: "itemChanged"
        case .present: "present"
        case .dismissAttempt: "dismissAttempt"
        case .didDismiss: "didDismiss"
        case .dismiss: "dismiss"
        case .setTabs: "setTabs"
        case .didSelectTab: "didSelectTab"
        case .selectTab: "selectTab"
        case .tabStack: "tabStack"
        }
    }

    /// Every callback name, in the order <doc:Recording> lists them.
    public static let names = [
        "didShow", "shouldPop", "didPop", "programmatic", "interactivePop", "itemChanged", "present",
        "dismissAttempt", "didDismiss", "dismiss", "setTabs", "didSelectTab", "selectTab", "tabStack",
    ]

    /// The layer the callback names, `nil` for the top layer (and for `itemChanged`, whose id says
    /// where it is).
    public var layer: Int? {
        switch self {
        case .didShow(_, let layer), .shouldPop(_, _, let layer), .didPop(_, let layer),
            .programmatic(_, let layer), .interactivePop(_, _, let layer), .present(_, _, let layer),
            .dismissAttempt(let layer), .didDismiss(let layer), .dismiss(let layer):
            layer
        case .itemChanged, .setTabs, .didSelectTab, .selectTab, .tabStack: nil
        }
    }
}

/// The navigation controller method an app called (``NavigationCallback/programmatic(call:layer:)``),
/// by its UIKit name.
public enum ProgrammaticCall: String, Sendable, Hashable, Codable, CaseIterable {
    /// `pushViewController(_:animated:)`.
    case pushViewController
    /// `popViewController(animated:)`.
    case popViewController
    /// `popToViewController(_:animated:)`.
    case popToViewController
    /// `popToRootViewController(animated:)`.
    case popToRootViewController
    /// `setViewControllers(_:animated:)`.
    case setViewControllers
}

/// Where an interactive pop is (``NavigationCallback/interactivePop(phase:recognizer:layer:)``).
public enum InteractivePopPhase: String, Sendable, Hashable, Codable, CaseIterable {
    /// The recognizer began: an interactive transition is under way.
    case began
    /// The user let go early (`UIViewControllerTransitionCoordinatorContext.isCancelled`): nothing
    /// is popped, and the swipe is kept as `pop.cancelled` (rule 17).
    case cancelled
    /// The transition will complete: the top entry is popped.
    case finished
}

/// Which swipe an interactive pop is.
public enum PopRecognizer: String, Sendable, Hashable, Codable, CaseIterable {
    /// `interactivePopGestureRecognizer`, the swipe from the leading edge (source `gesture`).
    case edge
    /// `interactiveContentPopGestureRecognizer` (iOS 26), the swipe anywhere in the content
    /// (source `content-gesture`).
    case content

    /// The pop source the swipe records.
    public var source: PopSource { self == .edge ? .gesture : .contentGesture }
}

/// Why ``NavigationControllerObserver`` cannot follow a callback: it contradicts the state the
/// log holds (an id that is not on the stack, a layer the session does not have), or asks for a
/// change no event can keep. Nothing is recorded for it; the next `didShow` brings the log back
/// to what UIKit shows.
public enum ObservationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `didShow` or `present` with no entries: a navigation controller always shows one.
    case emptyStack(callback: String)
    /// A stack that lists the id `id` twice.
    case duplicateEntry(id: String, callback: String)
    /// A layer the session does not have (`layers` layers: 0...`layers - 1`), or one the
    /// callback cannot come from (`reason`).
    case layerOutOfRange(layer: Int, layers: Int, callback: String, reason: String)
    /// An entry id the layer's stack does not hold (`stack` describes the state).
    case entryNotInStack(id: String, callback: String, stack: String)
    /// A change the rules refuse that no observed replacement can keep (a presentation over an
    /// empty base layer, an id live in two layers): the rules' error.
    case refused(callback: String, NavigationError)

    /// A one-line message naming the callback and the values.
    public var description: String {
        switch self {
        case .emptyStack(let callback):
            "\(callback) has an empty stack: a navigation controller shows at least one view controller"
        case .duplicateEntry(let id, let callback):
            "\(callback) lists entry '\(id)' more than once; ids must be distinct"
        case .layerOutOfRange(let layer, let layers, let callback, let reason):
            "\(callback) names layer \(layer), but \(reason) (the session has layers 0...\(layers - 1), 0 = base)"
        case .entryNotInStack(let id, let callback, let stack):
            "\(callback) names entry '\(id)', which is not on the stack (stack: \(stack))"
        case .refused(let callback, let error):
            "\(callback): \(error.description)"
        }
    }
}
