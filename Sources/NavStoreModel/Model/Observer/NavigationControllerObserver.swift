/// Turns UIKit callbacks (``NavigationCallback``, <doc:Recording>, "How a pop happened") into the commands that record what
/// the user did, with the right pop source: pure, no UIKit, one value per session.
///
/// The callbacks before a `didShow` say how its change happened, by their order (each trace in
/// `Tests/Fixtures/traces/` names where the order is observed):
/// - a back-button tap asks `shouldPop` first, then pops (source `back-button`);
/// - the app's own pop calls `popViewController` (or `popToViewController`,
///   `popToRootViewController`, `setViewControllers`) first, and `shouldPop` after (source
///   `programmatic`); a `didShow` that pops with no callback before it is the app's too;
/// - a back-menu row pops with `didPop` and no `shouldPop` (a pop to the row's entry, source
///   `back-menu`);
/// - a swipe pops inside an interactive transition (source `gesture`, or `content-gesture` for
///   iOS 26's content swipe); a cancelled swipe changes no stack and is kept as
///   `pop.cancelled` with its source (rule 17);
/// - a `shouldPop` on the top entry of the top layer when it has a pop guard, with no app call
///   and no swipe under way, is a veto (`pop.vetoed`) at once, unless the adapter answered
///   `true`; the app's `popViewController` of that entry right after its veto is the confirmed tap.
///
/// A sheet's `isModalInPresentation` shows in its dismissal callbacks: UIKit reports a refused
/// swipe down (`dismissAttempt`) only for a modal sheet and dismisses (`didDismiss`) only one that
/// is not, so where the log holds the other value, a `layer.updated` (rule 18) comes first.
///
/// A `didShow` is compared with the layer's stack in the log: an entry whose item differs is an
/// `item.updated` first; then one entry more on top is a push, fewer entries from the top a pop
/// (with the source above), and any other difference a `stack.replaced`. Every command is judged
/// by the rules (``SessionState/decide(_:)``) against the state it will be appended after; when
/// they refuse what UIKit did (a swipe with no back button, which apps get by clearing
/// `interactivePopGestureRecognizer.delegate`), or the change is to a layer under a presented
/// one, the command is ``NavigationCommand/observedStack(_:layer:reason:)`` with the refusal's
/// message: the log still ends in the stack UIKit shows (<doc:Recording>, "Facts, not judgments").
///
/// ```swift
/// var observer = NavigationControllerObserver()
/// var state = SessionState()
/// for callback in callbacks {
///     for command in try observer.observe(callback, state: state) {
///         if let event = try state.decide(command) { state.apply(event) }
///     }
/// }
/// ```
public struct NavigationControllerObserver: Sendable, Hashable {
    /// The callbacks since the last `didShow` of a layer that say how its next change happens.
    private struct Hints: Sendable, Hashable {
        /// The layer they came from (its index in the state).
        package var layer: Int
        /// The first callback that pointed at a pop: it decides the source.
        package var first: Cause?
        /// The app's last call.
        package var call: ProgrammaticCall?
        /// The swipe under way or finished.
        package var swipe: Swipe?

        package enum Cause: Sendable, Hashable {
            case shouldPop
            case didPop
            case programmatic
        }

        package struct Swipe: Sendable, Hashable {
            package var recognizer: PopRecognizer
            package var finished: Bool
        }
    }

    private var hints: Hints?
    /// The entry whose back-button tap was vetoed last, until the stack changes: the app's
    /// `popViewController` of it is the confirmed tap.
    private var vetoed: String?

    /// An observer with nothing pending (a session's first callback, or after a restart).
    public init() {}

    /// What an adapter answers UIKit's `navigationBar(_:shouldPop:)` for the top screen: `true`
    /// lets UIKit pop, `false` keeps the screen (<doc:UIKitAdapter>).
    ///
    /// - The app's own pop is never refused: its `popViewController` (or another pop call) ran
    ///   first, so `appIsPopping` is `true`, and the app has decided. This is also how the app
    ///   confirms a guarded screen: it calls `popViewController` once the user agrees, with no
    ///   need to clear the guard first.
    /// - A back-button tap on a screen whose item has a ``NavigationItem/popGuard`` is refused:
    ///   the app shows the guard's prompt itself (UIKit asks `shouldPop` before it pops on a tap).
    /// - Any other pop goes ahead.
    ///
    /// The observer reads the same order from the callbacks: a `shouldPop` after the app's call
    /// is a programmatic pop, a refused one without it a veto (`pop.vetoed`).
    /// - Parameters:
    ///   - top: the entry on top of the stack being popped, as the adapter describes it (`nil`
    ///     when it does not know it).
    ///   - appIsPopping: whether the app's own pop call is under way.
    /// - Returns: the answer to give UIKit.
    public static func shouldPop(_ top: Entry?, appIsPopping: Bool) -> Bool {
        appIsPopping || top?.item.popGuard == nil
    }

    /// Takes the next callback and returns the commands that record it, in order, each one
    /// decided against `state` with the commands before it applied.
    ///
    /// - Parameters:
    ///   - callback: the callback, in the order UIKit made it.
    ///   - state: the session's state as the log holds it, before these commands.
    /// - Returns: the commands (none when the callback only says how a later change happens, or
    ///   changes nothing). Each is one the rules accept after `state` and the ones before it;
    ///   an observed replacement stands in for a change they refuse.
    /// - Throws: ``ObservationError`` for a callback that contradicts `state` (an id not on the
    ///   layer's stack, a layer it does not have, a stack that is empty or lists an id twice) or
    ///   that no event can keep; the observer's own pending state is left as it was.
    /// - Complexity: O(n²) in the entries of the stack shown, for the item comparisons; O(n) for
    ///   every other callback.
    public mutating func observe(_ callback: NavigationCallback, state: SessionState) throws(ObservationError)
        -> [NavigationCommand]
    {
        var copy = self
        let commands = try copy.take(callback, state: state)
        self = copy
        return commands
    }

    private mutating func take(_ callback: NavigationCallback, state: SessionState) throws(ObservationError)
        -> [NavigationCommand]
    {
        let name = callback.name
        switch callback {
        case .didShow(let stack, let layer):
            let index = try navigationLayer(layer, in: state, callback: name)
            try requireShowable(stack, callback: name)
            return try didShow(stack, layer: index, state: state)
        case .shouldPop(let id, let answer, let layer):
            let index = try navigationLayer(layer, in: state, callback: name)
            try requireOnStack(id, layer: index, in: state, callback: name)
            return shouldPop(id, answer: answer, layer: index, state: state)
        case .didPop(let id, let layer):
            let index = try navigationLayer(layer, in: state, callback: name)
            try requireOnStack(id, layer: index, in: state, callback: name)
            hint(layer: index) { if $0.first == nil { $0.first = .didPop } }
            return []
        case .programmatic(let call, let layer):
            let index = try navigationLayer(layer, in: state, callback: name)
            hint(layer: index) {
                if $0.first == nil { $0.first = .programmatic }
                $0.call = call
            }
            return []
        case .interactivePop(let phase, let recognizer, let layer):
            let index = try navigationLayer(layer, in: state, callback: name)
            return swipe(phase, recognizer: recognizer, layer: index, state: state)
        case .itemChanged(let id, let item):
            return try itemChanged(id, to: item, state: state)
        case .present, .dismissAttempt, .didDismiss, .dismiss:
            return try takeModal(callback, state: state)
        case .setTabs(let tabs):
            forget()
            return try accepted([.setTabs(tabs)], by: state, callback: name)
        case .didSelectTab(let id):
            // A tap; on the selected tab it does what the tab's reselect says (the didShow of the
            // pop to the root that follows then changes nothing).
            forget()
            return try accepted([.selectTab(id, source: .tap)], by: state, callback: name)
        case .selectTab(let id):
            forget()
            return try accepted([.selectTab(id, source: .programmatic)], by: state, callback: name)
        case .tabStack(let tab, let stack):
            try requireShowable(stack, callback: name)
            return try tabStack(stack, tab: tab, state: state)
        }
    }

    /// A phase of the interactive pop gesture on layer `layer`: a hint for the next `didShow`, or
    /// the cancelled swipe itself.
    private mutating func swipe(
        _ phase: InteractivePopPhase, recognizer: PopRecognizer, layer index: Int, state: SessionState
    ) -> [NavigationCommand] {
        switch phase {
        case .began:
            hint(layer: index) { $0.swipe = Hints.Swipe(recognizer: recognizer, finished: false) }
        case .finished:
            hint(layer: index) { $0.swipe = Hints.Swipe(recognizer: recognizer, finished: true) }
        case .cancelled:
            // The transition ended where it began: the stack did not change, and the
            // callbacks of the swipe say nothing about the next change. The swipe itself
            // is a fact (rule 17): `pop.cancelled` of the top layer's top entry.
            hints = nil
            return cancelledSwipe(recognizer, layer: index, state: state)
        }
        return []
    }

    /// An item that changed while its screen is on a stack, on screen or in a tab off screen.
    private func itemChanged(_ id: String, to item: NavigationItem, state: SessionState) throws(ObservationError)
        -> [NavigationCommand]
    {
        let callbackName = "itemChanged"
        // An entry of a tab's stack off screen (<doc:TabBars>): updated in that tab.
        if state.location(of: id) == nil, let tab = state.parkedTab(holding: id) {
            return try accepted([.inTab(tab, .update(entryID: id, item: item))], by: state, callback: callbackName)
        }
        guard state.location(of: id) != nil else {
            throw .entryNotInStack(id: id, callback: callbackName, stack: state.stackDescription(against: id))
        }
        return try accepted([.update(entryID: id, item: item)], by: state, callback: callbackName)
    }

    /// A presentation or a dismissal (attempted, by a swipe, or programmatic).
    private mutating func takeModal(_ callback: NavigationCallback, state: SessionState) throws(ObservationError)
        -> [NavigationCommand]
    {
        let name = callback.name
        switch callback {
        case .present(let stack, let modal, let layer):
            if let layer, layer != state.topLayerIndex {
                throw .layerOutOfRange(
                    layer: layer, layers: state.layers.count, callback: name,
                    reason: "UIKit presents from the top layer, \(state.topLayerIndex)")
            }
            try requireShowable(stack, callback: name)
            forget()
            var commands: [NavigationCommand] = [.present(stack[0], modalInPresentation: modal)]
            if stack.count > 1 { commands.append(.setStack(stack)) }
            return try accepted(commands, by: state, callback: name)
        case .dismissAttempt(let layer):
            _ = try modalLayer(layer, in: state, callback: name, topOnly: true)
            forget()
            // A refused swipe down: UIKit reports one only when the sheet is
            // isModalInPresentation, so a sheet the log holds as not modal was switched on
            // after its presentation (rule 18): `layer.updated` first, then the veto.
            var commands: [NavigationCommand] = []
            if !state.topLayer.modalInPresentation { commands.append(.updateLayer(modalInPresentation: true)) }
            commands.append(.dismiss(source: .gesture))
            return try accepted(commands, by: state, callback: name)
        case .didDismiss(let layer):
            _ = try modalLayer(layer, in: state, callback: name, topOnly: true)
            forget()
            // A swipe down dismissed the sheet: it was not isModalInPresentation, so a sheet the
            // log holds as modal was switched off since (rule 18): `layer.updated` first.
            var commands: [NavigationCommand] = []
            if state.topLayer.modalInPresentation { commands.append(.updateLayer(modalInPresentation: false)) }
            commands.append(.dismiss(source: .gesture))
            return try accepted(commands, by: state, callback: name)
        case .dismiss(let layer):
            let index = try modalLayer(layer, in: state, callback: name, topOnly: false)
            forget()
            let count = state.topLayerIndex - index + 1
            return try accepted(
                Array(repeating: .dismiss(source: .programmatic), count: count), by: state, callback: name)        default:
            // ``take(_:state:)`` hands only presentations and dismissals here.
            return []
        }
    }

    /// The commands that take tab `tab`'s stack, not on screen, to `shown`: a push or a
    /// programmatic pop when that is the difference, else a replacement (rule 12's checks).
    private func tabStack(_ shown: [Entry], tab: String, state: SessionState) throws(ObservationError)
        -> [NavigationCommand]
    {
        guard let current = state.stack(ofTab: tab)?.entries else {
            // Not a tab of the session: the rules name what is wrong (no tab bar, an unknown tab).
            return try accepted([.inTab(tab, .setStack(shown))], by: state, callback: "tabStack")
        }
        var commands: [NavigationCommand] = []
        // Items that differ, then the stack itself.
        for entry in shown {
            guard let old = current.first(where: { $0.id.hasSameScalars(as: entry.id) }),
                !old.item.changedFields(to: entry.item).isEmpty
            else { continue }
            commands.append(.inTab(tab, .update(entryID: entry.id, item: entry.item)))
        }
        if !Self.sameStack(current, shown) {
            if shown.count == current.count + 1, Self.sameStack(current, shown.dropLast()) {
                commands.append(.inTab(tab, .push(shown[shown.count - 1])))
            } else if shown.count < current.count, Self.sameStack(current.prefix(shown.count), shown) {
                commands.append(.inTab(tab, .popTo(entryID: shown[shown.count - 1].id, source: .programmatic)))
            } else {
                commands.append(.inTab(tab, .setStack(shown)))
            }
        }
        return try accepted(commands, by: state, callback: "tabStack")
    }

    // MARK: Pops and vetoes

    private mutating func shouldPop(_ id: String, answer: Bool?, layer: Int, state: SessionState)
        -> [NavigationCommand]
    {
        let pending = hints?.layer == layer ? hints : nil
        let underWay = pending?.call != nil || pending?.swipe != nil
        hint(layer: layer) { if $0.first == nil { $0.first = .shouldPop } }
        // A tap on a guarded screen: the veto is recorded now, and the tap is over.
        guard !underWay, answer != true, layer == state.topLayerIndex,
            let top = state.topEntry, top.id.hasSameScalars(as: id), top.item.popGuard != nil
        else { return [] }
        let command = NavigationCommand.pop(source: .backButton)
        guard let body = try? state.decide(command), body.isVeto else { return [] }
        hints = nil
        vetoed = id
        return [command]
    }

    /// A swipe of `layer` that began and was cancelled: `pop.cancelled` when `layer` is the top
    /// layer and the rules accept that swipe there. A swipe UIKit began where the rules refuse
    /// one (a hidden bar, a swipe switched off) left the stack as the log holds it: nothing is
    /// kept.
    private func cancelledSwipe(_ recognizer: PopRecognizer, layer: Int, state: SessionState) -> [NavigationCommand] {
        guard layer == state.topLayerIndex else { return [] }
        let command = NavigationCommand.cancelPop(source: recognizer.source)
        guard (try? state.decide(command)) != nil else { return [] }
        return [command]
    }

    /// The command for a `didShow` that shows `shown`, a proper prefix of `current` (the layer's
    /// entries): a pop, with the source the callbacks before it point at.
    private func popCommand(to shown: [Entry], from current: [Entry]) -> NavigationCommand {
        let newTop = shown[shown.count - 1].id
        let popped = current.count - shown.count
        guard let hints else { return .popTo(entryID: newTop, source: .programmatic) }
        if let swipe = hints.swipe { return .pop(source: swipe.recognizer.source) }
        switch hints.first {
        case .programmatic?:
            if hints.call == .popViewController, popped == 1, let vetoed,
                current[current.count - 1].id.hasSameScalars(as: vetoed)
            {
                return .pop(source: .backButton, confirmed: true)
            }
            return .popTo(entryID: newTop, source: .programmatic)
        case .shouldPop?:
            // The tap happened, so a guard, if any, was answered yes.
            return .pop(source: .backButton, confirmed: true)
        case .didPop?:
            return .popTo(entryID: newTop, source: .backMenu)
        case nil:
            return .popTo(entryID: newTop, source: .programmatic)
        }
    }

    // MARK: Stacks

    private mutating func didShow(_ shown: [Entry], layer: Int, state: SessionState) throws(ObservationError)
        -> [NavigationCommand]
    {
        let name = "didShow"
        var running = state
        var commands: [NavigationCommand] = []
        // 1. Items that differ from the log's, wherever the entry is live (an update changes an
        // item, never where an entry is, so the locations found before hold throughout).
        let locations = state.locations(forLookups: shown.count)
        for entry in shown {
            guard let (live, position) = locations.location(of: entry.id) else { continue }
            if live != layer {
                throw .refused(
                    callback: name,
                    .entryAlreadyLive(id: entry.id, layer: live, stack: running.stackDescription))
            }
            let item = running.layers[live].entries[position].item
            guard !item.changedFields(to: entry.item).isEmpty else { continue }
            try apply(.update(entryID: entry.id, item: entry.item), to: &running, into: &commands, callback: name)
        }
        // 2. The stack itself.
        let current = running.layers[layer].entries
        if Self.sameStack(current, shown) {
            finishShow(changed: false)
            return commands
        }
        guard layer == running.topLayerIndex else {
            let reason =
                "layer \(layer) is under the presented layer \(running.topLayerIndex): the rules change the top layer only"
            try observe(shown, layer: layer, reason: reason, on: &running, into: &commands)
            finishShow(changed: true)
            return commands
        }
        let candidate: NavigationCommand
        if shown.count == current.count + 1, Self.sameStack(current, shown.dropLast()) {
            candidate = .push(shown[shown.count - 1])
        } else if shown.count < current.count, Self.sameStack(current.prefix(shown.count), shown) {
            candidate = popCommand(to: shown, from: current)
        } else {
            candidate = .setStack(shown)
        }
        try reach(shown, by: candidate, on: &running, into: &commands)
        finishShow(changed: true)
        return commands
    }

    /// Appends `candidate` when the rules accept it and it leaves the top layer exactly
    /// `shown`; else a `setStack` of `shown`, and when that is refused too, an observed
    /// replacement with the refusal's reason.
    private func reach(
        _ shown: [Entry], by candidate: NavigationCommand, on state: inout SessionState,
        into commands: inout [NavigationCommand]
    ) throws(ObservationError) {
        var reason: String
        do throws(NavigationError) {
            var trial = state
            if let body = try trial.decide(candidate) { trial.apply(body) }
            if Self.sameStack(trial.topLayer.entries, shown, exactly: true) {
                state = trial
                commands.append(candidate)
                return
            }
            reason = ""
        } catch {
            reason = error.description
        }
        if reason.isEmpty {
            // The callbacks pointed at a change that is not the one shown (a tap that removed two
            // entries): any other difference is a replacement.
            do throws(NavigationError) {
                var trial = state
                if let body = try trial.decide(.setStack(shown)) { trial.apply(body) }
                state = trial
                commands.append(.setStack(shown))
                return
            } catch {
                reason = error.description
            }
        }
        try observe(shown, layer: state.topLayerIndex, reason: reason, on: &state, into: &commands)
    }

    /// Appends the observed replacement of `layer` by `shown`.
    private func observe(
        _ shown: [Entry], layer: Int, reason: String, on state: inout SessionState,
        into commands: inout [NavigationCommand]
    ) throws(ObservationError) {
        let command = NavigationCommand.observedStack(
            shown, layer: layer == state.topLayerIndex ? nil : layer, reason: reason)
        try apply(command, to: &state, into: &commands, callback: "didShow")
    }

    private mutating func finishShow(changed: Bool) {
        hints = nil
        if changed { vetoed = nil }
    }

    /// Whether `a` and `b` hold the same entries in order: the same ids, routes and params (and,
    /// `exactly`, items), compared by their Unicode scalars.
    private static func sameStack(
        _ a: some Collection<Entry>, _ b: some Collection<Entry>, exactly: Bool = false
    ) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { x, y in
            guard exactly else {
                var y = y
                y.item = x.item
                return x.isExactly(y)
            }
            return x.isExactly(y)
        }
    }

    // MARK: Helpers

    /// Records a hint for `layer`, dropping those of another layer.
    private mutating func hint(layer: Int, _ change: (inout Hints) -> Void) {
        var pending = hints?.layer == layer ? hints! : Hints(layer: layer)
        change(&pending)
        hints = pending
    }

    /// Drops the pending hints and the veto: a presentation or dismissal ends them.
    private mutating func forget() {
        hints = nil
        vetoed = nil
    }

    /// `commands` decided in order against `state`, each accepted, or the refusal.
    private func accepted(_ commands: [NavigationCommand], by state: SessionState, callback: String)
        throws(ObservationError) -> [NavigationCommand]
    {
        var running = state
        var result: [NavigationCommand] = []
        for command in commands { try apply(command, to: &running, into: &result, callback: callback) }
        return result
    }

    /// Decides `command` against `state`, applies its event and appends it.
    private func apply(
        _ command: NavigationCommand, to state: inout SessionState, into commands: inout [NavigationCommand],
        callback: String
    ) throws(ObservationError) {
        do throws(NavigationError) {
            guard let body = try state.decide(command) else { return }
            state.apply(body)
            commands.append(command)
        } catch {
            throw .refused(callback: callback, error)
        }
    }

    /// The index of the navigation stack `layer` names (the top one for `nil`).
    private func navigationLayer(_ layer: Int?, in state: SessionState, callback: String) throws(ObservationError)
        -> Int
    {
        guard let layer else { return state.topLayerIndex }
        guard layer >= 0, layer < state.layers.count else {
            throw .layerOutOfRange(
                layer: layer, layers: state.layers.count, callback: callback, reason: "the session has no such layer")
        }
        return layer
    }

    /// The index of the modal layer `layer` names (the top one for `nil`); with `topOnly`, it
    /// must be the top layer (a swipe down acts on the sheet on screen).
    private func modalLayer(_ layer: Int?, in state: SessionState, callback: String, topOnly: Bool)
        throws(ObservationError) -> Int
    {
        let index = layer ?? state.topLayerIndex
        let count = state.layers.count
        guard index >= 0, index < count else {
            throw .layerOutOfRange(
                layer: index, layers: count, callback: callback, reason: "the session has no such layer")
        }
        guard index >= 1 else {
            throw .layerOutOfRange(
                layer: index, layers: count, callback: callback,
                reason: count == 1 ? "no layer is presented" : "layer 0, the base, is not presented")
        }
        if topOnly, index != state.topLayerIndex {
            throw .layerOutOfRange(
                layer: index, layers: count, callback: callback,
                reason: "a swipe down acts on the top layer, \(state.topLayerIndex)")
        }
        return index
    }

    private func requireShowable(_ stack: [Entry], callback: String) throws(ObservationError) {
        guard !stack.isEmpty else { throw .emptyStack(callback: callback) }
        var seen = Set<ExactKey>()
        for entry in stack where !seen.insert(ExactKey(entry.id)).inserted {
            throw .duplicateEntry(id: entry.id, callback: callback)
        }
    }

    private func requireOnStack(_ id: String, layer: Int, in state: SessionState, callback: String)
        throws(ObservationError)
    {
        guard state.layers[layer].entries.contains(where: { $0.id.hasSameScalars(as: id) }) else {
            throw .entryNotInStack(id: id, callback: callback, stack: state.stackDescription(against: id))
        }
    }
}
