/// Why the rules refused a command or an event (<doc:Rules>). Messages name the entry ids
/// involved and what is on the stack, so they can be shown as they are. ``invalidItem(_:)`` and
/// ``invalidEvent(_:)`` are about input data (an item or an event read from a file); the other
/// cases are refusals by the rules.
public enum NavigationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing to act on: the top layer has no entries (before the first push).
    case emptyStack(action: String)
    /// Rule 11: popping a layer's root is refused.
    case cannotPopRoot(root: String, layer: Int, stack: String)
    /// Rule 10: a back-button tap or swipe needs a back button (rule 1); `reason` says why there is none.
    case noBackButton(source: PopSource, top: String, reason: String, stack: String)
    /// Rule 11: ``NavigationCommand/popTo(entryID:source:)`` an entry that is not in the top layer.
    case notInTopLayer(id: String, stack: String)
    /// Rule 11: a pop to an entry from the back menu must name a row of the current back menu.
    case notInBackMenu(id: String, menu: [String])
    /// `menu-select` needs a back menu (rules 1 and 8).
    case noBackMenu(stack: String)
    /// `menu-select` row out of range (1 = nearest).
    case menuRowOutOfRange(row: Int, rows: Int)
    /// The source does not fit the operation (e.g. `pop` with source `back-menu`).
    case invalidSource(operation: String, source: String, accepted: [String])
    /// The session's platform generation has no such pop: `content-gesture`
    /// (`interactiveContentPopGestureRecognizer`) exists from iOS 26 (<doc:PlatformGenerations>).
    case sourceNotOnPlatform(source: PopSource, platform: PlatformGeneration)
    /// Rule 17: the top entry turns this swipe off (`field`: `interactivePopDisabled` for the
    /// edge swipe, `contentPopDisabled` for iOS 26's content swipe).
    case swipeDisabled(source: PopSource, top: String, field: String, stack: String)
    /// Rule 18: `modalInPresentation` set on the base layer, which is not presented.
    case baseLayerNotPresented(stack: String)
    /// Rule 14: going back at the root of the base layer.
    case nowhereToGoBack(root: String)
    /// Rule 16: an id that is already live cannot be pushed or presented again.
    case entryAlreadyLive(id: String, layer: Int, stack: String)
    /// Rule 16: updating an id that is not live.
    case entryNotLive(id: String, stack: String)
    /// Presenting over an empty base layer is refused (<doc:Rules>).
    case presentOverEmptyStack
    /// Dismissing when no modal layer is presented.
    case noModalLayer(stack: String)
    /// Rule 12: ``NavigationCommand/setStack(_:)`` needs at least one entry.
    case emptyStackReplacement
    /// Rule 12: the ids of ``NavigationCommand/setStack(_:)`` must be distinct.
    case duplicateEntryInReplacement(id: String)
    /// An entry id that is the empty string: an id has at least one character
    /// (``Entry/requireValidID(_:)``).
    case emptyEntryID
    /// A navigation item (or item patch) could not be read.
    case invalidItem(String)
    /// An event that cannot be applied to the state it follows (import validation).
    case invalidEvent(String)
    /// An entry whose params cannot be stored as given: nested deeper than
    /// ``JSONValue/maximumDepth`` levels, or a number JSON cannot keep (`reason` says which).
    case invalidParams(entry: String, reason: String)
    /// An observed replacement (``NavigationCommand/observedStack(_:layer:reason:)``) names a
    /// layer the session does not have (`layers` is how many it has, 0 = base).
    case layerOutOfRange(layer: Int, layers: Int, stack: String)
    /// A note of dropped calls (`calls.dropped`, which a recorder writes when its queue is full)
    /// with a count below 1, or a first time after its last (ms since the Unix epoch).
    case invalidDroppedCalls(count: Int, firstAt: Int64, lastAt: Int64)
    /// A tab command (``NavigationCommand/selectTab(_:source:)``, `--tab`) on a session without a
    /// tab bar (<doc:TabBars>).
    case noTabBar(action: String)
    /// A tab id the session's tab bar does not have; `tabs` are its ids in order.
    case unknownTab(id: String, tabs: [String])
    /// A tap on a tab while a modal layer covers the tab bar (a programmatic selection is allowed).
    case tabBarCovered(tab: String, stack: String)
    /// ``NavigationCommand/setTabs(_:)`` on a session whose base stack holds entries and has no
    /// tab bar.
    case tabsOverStack(stack: String)
    /// A tab set that cannot be a tab bar: `reason` says why (no tabs, an empty or repeated id).
    case invalidTabs(reason: String)
    /// A command that acts on a tab's stack only where UIKit can: `reason` says why not (a
    /// swipe or tap on a stack not on screen, a command that is not a tab's).
    case notInTab(tab: String, reason: String)
    /// Rule 16 across tabs: the id is live in the stack of tab `tab`, which is not on screen.
    case entryLiveInTab(id: String, tab: String)
    /// An update of an entry that is live in the stack of tab `tab`, not on screen: the command
    /// names the tab (``NavigationCommand/inTab(_:_:)``, `--tab`).
    case entryInOtherTab(id: String, tab: String)

    /// A one-line message naming the ids and the stack.
    public var description: String {
        switch self {
        case .emptyStack(let action):
            "cannot \(action): the stack is empty (push a first entry)"
        case .cannotPopRoot(let root, let layer, let stack):
            "cannot pop '\(root)': it is the root of layer \(layer) (stack: \(stack))"
        case .noBackButton(let source, let top, let reason, let stack):
            "cannot pop with source \(source.rawValue): '\(top)' shows no back button (\(reason)) (stack: \(stack))"
        case .notInTopLayer(let id, let stack):
            "cannot pop to '\(id)': it is not in the top layer (stack: \(stack))"
        case .notInBackMenu(let id, let menu):
            "cannot pop to '\(id)' from the back menu: it is not a row of it (rows: \(menu.isEmpty ? "none" : menu.joined(separator: ", ")))"
        case .noBackMenu(let stack):
            "there is no back menu to select from (stack: \(stack))"
        case .menuRowOutOfRange(let row, let rows):
            "back menu row \(row) does not exist (accepted: 1...\(rows), 1 = nearest)"
        case .invalidSource(let operation, let source, let accepted):
            "'\(source)' is not a source for \(operation) (accepted: \(accepted.joined(separator: ", ")))"
        case .sourceNotOnPlatform(let source, let platform):
            "cannot pop with source \(source.rawValue): this session follows \(platform.rawValue) rules, which have no such swipe (interactiveContentPopGestureRecognizer is iOS 26's; generations that have it: \(PlatformGeneration.allCases.filter(\.rules.contentPopGesture).map(\.rawValue).joined(separator: ", ")), chosen when the session started)"
        case .swipeDisabled(let source, let top, let field, let stack):
            "cannot pop with source \(source.rawValue): '\(top)' turns that swipe off (\(field): \(source == .contentGesture ? "interactiveContentPopGestureRecognizer" : "interactivePopGestureRecognizer").isEnabled is false) (stack: \(stack))"
        case .baseLayerNotPresented(let stack):
            "cannot set modalInPresentation on layer 0: the base layer is not presented, so there is no sheet to lock (present a layer first) (stack: \(stack))"
        case .nowhereToGoBack(let root):
            "cannot go back from '\(root)': it is the root of the base layer"
        case .entryAlreadyLive(let id, let layer, let stack):
            "entry '\(id)' is already live in layer \(layer) (stack: \(stack)); ids must be unique"
        case .entryNotLive(let id, let stack):
            "entry '\(id)' is not live (stack: \(stack))"
        case .presentOverEmptyStack:
            "cannot present over an empty base layer: push a first entry"
        case .noModalLayer(let stack):
            "nothing to dismiss: no modal layer is presented (stack: \(stack))"
        case .emptyStackReplacement:
            "a stack replacement (setViewControllers) needs at least one entry"
        case .duplicateEntryInReplacement(let id):
            "a stack replacement (setViewControllers) lists entry '\(id)' more than once; ids must be distinct"
        case .emptyEntryID:
            "the entry id '' is empty: an entry id has at least one character"
        case .invalidItem(let message):
            "invalid navigation item: \(message)"
        case .invalidEvent(let message):
            "invalid event: \(message)"
        case .invalidParams(let entry, let reason):
            "params of entry '\(entry)' \(reason)"
        case .layerOutOfRange(let layer, let layers, let stack):
            "layer \(layer) does not exist (accepted: 0...\(layers - 1), 0 = base; stack: \(stack))"
        case .invalidDroppedCalls(let count, let firstAt, let lastAt):
            count < 1
                ? "a note of dropped calls needs a count of at least 1, not \(count)"
                : "a note of dropped calls has its first drop at \(firstAt) ms, after its last at \(lastAt) ms"
        case .noTabBar(let action):
            "cannot \(action): the session has no tab bar (set one with tabs first)"
        case .unknownTab(let id, let tabs):
            "the tab bar has no tab '\(id)' (tabs: \(tabs.joined(separator: ", ")))"
        case .tabBarCovered(let tab, let stack):
            "cannot tap tab '\(tab)': a modal layer covers the tab bar (dismiss it first, or select the tab with source programmatic) (stack: \(stack))"
        case .tabsOverStack(let stack):
            "cannot set a tab bar: the base stack already holds entries without one (set the tab bar first, as an app does at launch) (stack: \(stack))"
        case .invalidTabs(let reason):
            "invalid tab bar: \(reason)"
        case .notInTab(let tab, let reason):
            "cannot act on tab '\(tab)': \(reason)"
        case .entryLiveInTab(let id, let tab):
            "entry '\(id)' is already live in tab '\(tab)'; ids must be unique"
        case .entryInOtherTab(let id, let tab):
            "entry '\(id)' is in tab '\(tab)', which is not on screen: name that tab (--tab \(tab))"
        }
    }
}
