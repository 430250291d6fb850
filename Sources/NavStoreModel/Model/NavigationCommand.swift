/// An action asked of a session (<doc:Rules>), validated against the current state by
/// ``SessionState/decide(_:)`` before any event exists.
public enum NavigationCommand: Sendable, Hashable {
    /// Push `entry` on the top layer (rule 16: its id must not be live).
    case push(Entry)
    /// Pop the top entry of the top layer (rules 10, 11). `confirmed` answers a pop guard's prompt.
    case pop(source: PopSource, confirmed: Bool = false)
    /// Pop to the entry `entryID` of the top layer; source `.programmatic` or `.backMenu` (rules 9, 11).
    case popTo(entryID: String, source: PopSource = .programmatic)
    /// Pop everything above the top layer's root (rule 11).
    case popToRoot
    /// Select row `row` (1 = nearest) of the current back menu (rule 9).
    case menuSelect(row: Int)
    /// Go back the `CanGoBack` way: pop, or dismiss at a modal root (rule 14).
    case back
    /// Replace the top layer's entries (last = top; rule 12).
    case setStack([Entry])
    /// Give the live entry `entryID` the navigation item `item` (rule 13).
    case update(entryID: String, item: NavigationItem)
    /// Present a new navigation stack rooted at `entry` modally over the top layer.
    case present(Entry, modalInPresentation: Bool = false)
    /// Dismiss the top modal layer (rule 15).
    case dismiss(source: DismissSource)
    /// Record an interactive swipe back that began and was cancelled (the user let go early),
    /// `source` ``PopSource/gesture`` or ``PopSource/contentGesture``: `pop.cancelled`, no state
    /// change; refused exactly where a pop with that source would be (rule 17). What a UIKit
    /// trace's `interactivePop` with phase `cancelled` becomes.
    case cancelPop(source: PopSource)
    /// Change the top layer's own settings (rule 18): `navigationBarHidden`
    /// (`setNavigationBarHidden(_:animated:)`) and `modalInPresentation` (`isModalInPresentation`,
    /// of a presented layer only); `nil` leaves a field as it is. `layer.updated` names what
    /// changed; a command that changes nothing appends nothing.
    case updateLayer(navigationBarHidden: Bool? = nil, modalInPresentation: Bool? = nil)
    /// Record the stack UIKit was observed to show on layer `layer` (the top layer when `nil`;
    /// 0 = base), a change the rules refused for `reason` (<doc:Recording>, "Facts, not judgments"):
    /// the layer's entries become `entries` (last = top) as a `stack.replaced` marked observed
    /// (``StackObservation``). The entries follow rule 12's checks (non-empty, distinct valid
    /// ids, none live in another layer, storable params), which keep the state one UIKit can
    /// show; the rest of the rules are what was refused. ``NavigationControllerObserver`` makes
    /// this command when its inference is refused; an app may too.
    case observedStack([Entry], layer: Int? = nil, reason: String)
    /// Set the session's tab bar to `tabs`, in order (<doc:TabBars>, `setViewControllers`):
    /// `tabs.replaced`. Refused on a session whose base stack already holds entries without a tab
    /// bar (set the tab bar first, as an app does at launch); tab ids must be valid and distinct.
    /// On a tab bar, a tab kept by id keeps its stack and the selection stays if its tab remains.
    case setTabs([Tab])
    /// Select the tab `id` (`tab.selected`). A ``TabSelectionSource/tap`` is refused while a
    /// modal layer covers the tab bar; a tap on the selected tab does what its ``TabReselect``
    /// says (a pop to the root with source ``PopSource/tabReselect``, a veto, or nothing). A
    /// programmatic selection of the selected tab changes nothing.
    case selectTab(_ id: String, source: TabSelectionSource = .tap)
    /// Act on the stack of tab `tab` rather than the screen on show (<doc:TabBars>, `--tab`), as an
    /// app pushes into a tab that is not on screen: `push`, `pop`, `popTo`, `popToRoot`,
    /// `setStack`, `update` and `updateLayer`. A stack not on screen (another tab's, or under a
    /// modal layer) takes programmatic pops alone. On the selected tab with nothing presented it
    /// is `command` itself.
    indirect case inTab(_ tab: String, NavigationCommand)
}

/// The result of a command that was accepted or vetoed (``AppendResult/outcome``).
public enum CommandOutcome: String, Sendable, Hashable, Codable {
    /// The command took effect (or had nothing to do).
    case ok
    /// A guard refused it; the veto was recorded as an event (exit code 3).
    case vetoed
}
