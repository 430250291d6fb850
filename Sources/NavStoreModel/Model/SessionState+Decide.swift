/// The version of the rules in this file and in the label and menu resolution. Snapshots record
/// it; a snapshot written under another version is ignored and rebuilt (<doc:StorageLayout>). The rules of
/// each platform generation (``PlatformGeneration/rules``) count: changing them raises it. (Adding
/// generations did not: a snapshot without a platform is an `ios14` state, as its log is.)
///
/// It guards what a snapshot holds: the fold of the events before it. Adding hidden bars, swipes
/// turned off per screen, `layer.updated` and `pop.cancelled` (rules 17 and 18) did not raise
/// it: ``SessionState/apply(_:)`` folds every event type that existed before exactly as it did, a snapshot
/// without `navigationBarHidden` or the new item fields is the state with them unset (which is
/// what a log without the new events folds to), and the new refusals are decisions, which no
/// snapshot stores. A file holding the new state is schema 6, which an older navdb refuses to open.
public let navigationRulesVersion = 1

extension SessionState {
    /// Validates `command` against this state and returns the event it produces (<doc:Rules>).
    ///
    /// - Returns: the event to append: the fact, or a veto (`pop.vetoed`, `dismiss.vetoed`) when a
    ///   guard refuses; `nil` when the command is accepted but changes nothing (a pop to the
    ///   top entry, a pop to the root at the root, an update to the item the entry already has).
    /// - Throws: ``NavigationError`` naming the ids and the stack when the rules refuse it.
    /// - Complexity: O(n) in the number of live entries.
    public func decide(_ command: consuming NavigationCommand) throws(NavigationError) -> EventBody? {
        // Consumed: a pushed or presented entry, or an updated item, moves into the event
        // instead of being copied there from a command that is then destroyed.
        switch consume command {
        case .push(let entry):
            try requireNew(entry)
            return .entryPushed(entry)
        case .pop(let source, let confirmed):
            return try decidePop(source: source, confirmed: confirmed)
        case .popTo(let id, let source):
            return try decidePop(to: id, source: source)
        case .popToRoot:
            return topLayer.entries.isEmpty ? nil : popAbove(0, source: .programmatic)
        case .menuSelect(let row):
            guard let menu = backMenu else { throw .noBackMenu(stack: stackDescription) }
            guard row >= 1, row <= menu.count else { throw .menuRowOutOfRange(row: row, rows: menu.count) }
            return try decide(.popTo(entryID: menu[row - 1].entry, source: .backMenu))
        case .back:
            return try decideBack()
        case .setStack(let replacement):
            return try decideSetStack(replacement)
        case .update(let id, let item):
            guard let (layer, position) = location(of: id) else {
                // An entry of a tab not on screen is named with its tab (`inTab`).
                if let tab = parkedTab(holding: id) { throw .entryInOtherTab(id: id, tab: tab) }
                throw .entryNotLive(id: id, stack: stackDescription(against: id))
            }
            let fields = layers[layer].entries[position].item.changedFields(to: item)
            return fields.isEmpty ? nil : .itemUpdated(id: id, item: item, fields: fields)
        case .present(let entry, let modal):
            guard !layers[0].entries.isEmpty else { throw .presentOverEmptyStack }
            try requireNew(entry)
            return .layerPresented(entry, modalInPresentation: modal)
        case .dismiss(let source):
            guard layers.count > 1 else { throw .noModalLayer(stack: stackDescription) }
            if source == .gesture && topLayer.modalInPresentation {
                return .dismissVetoed(entry: topLayer.entries.first?.id ?? "", source: source)
            }
            return .layerDismissed(source: source, ids: topLayer.entries.map(\.id))
        case .cancelPop(let source):
            return try decideCancelledPop(source: source)
        case .updateLayer(let hidden, let modal):
            return try decideLayerUpdate(navigationBarHidden: hidden, modalInPresentation: modal)
        case .observedStack(let entries, let layer, let reason):
            return try decideObservedStack(entries, layer: layer, reason: reason)
        case .setTabs(let tabs):
            return try decideTabs(tabs)
        case .selectTab(let id, let source):
            return try decideTabSelection(id, source: source)
        case .inTab(let tab, let command):
            return try decideInTab(tab, command)
        }
    }

    // MARK: Tab bars (<doc:TabBars>)

    /// `tabs.replaced`: a tab set with valid, distinct ids, on a session whose base stack is empty
    /// or already a tab's; `nil` when the tab bar already has exactly these tabs.
    private func decideTabs(_ tabs: [Tab]) throws(NavigationError) -> EventBody? {
        guard !tabs.isEmpty else { throw .invalidTabs(reason: "a tab bar needs at least one tab") }
        var seen = Set<ExactKey>()
        for tab in tabs {
            guard !tab.id.isEmpty else {
                throw .invalidTabs(reason: "a tab id is empty: an id has at least one character")
            }
            guard seen.insert(ExactKey(tab.id)).inserted else {
                throw .invalidTabs(reason: "tab '\(tab.id)' is listed more than once; tab ids must be distinct")
            }
        }
        guard let tabBar else {
            guard layers[0].entries.isEmpty else { throw .tabsOverStack(stack: stackDescription) }
            return .tabsReplaced(tabs)
        }
        if layers.count > 1 {
            let (bar, base) = tabBar.replacing(with: tabs, base: layers[0])
            if base.entries.isEmpty && !bar.selected.id.hasSameScalars(as: tabBar.selected.id) {
                throw .invalidTabs(
                    reason:
                        "tab '\(tabBar.selected.id)' is selected and a modal layer is presented over it; these tabs drop it, which would leave the modal over tab '\(bar.selected.id)' with nothing pushed: dismiss the modal first, or keep tab '\(tabBar.selected.id)'"
                )
            }
        }
        let same =
            tabBar.tabs.count == tabs.count
            && zip(tabBar.tabs, tabs).allSatisfy { old, new in
                old.id.hasSameScalars(as: new.id) && old.reselect == new.reselect
                    && old.title.isExactly(new.title)
            }
        return same ? nil : .tabsReplaced(tabs)
    }

    /// `tab.selected`, or what a tap on the selected tab does (its ``TabReselect``): a pop to the
    /// root with source `tab-reselect` that skips guards, a veto by the top entry's guard, or a
    /// `tab.selected` that changes nothing.
    private func decideTabSelection(_ id: String, source: TabSelectionSource) throws(NavigationError) -> EventBody? {
        guard let tabBar else { throw .noTabBar(action: "select tab '\(id)'") }
        guard let index = tabBar.index(of: id) else { throw .unknownTab(id: id, tabs: tabBar.tabs.map(\.id)) }
        let tab = tabBar.tabs[index]
        if source == .tap && layers.count > 1 { throw .tabBarCovered(tab: tab.id, stack: stackDescription) }
        guard index == tabBar.selectedIndex else { return .tabSelected(id: tab.id, source: source) }
        // Setting selectedIndex to the selected tab does nothing in UIKit.
        guard source == .tap else { return nil }
        let entries = layers[0].entries
        switch tab.reselect {
        case .none:
            break
        case .guarded:
            if entries.count >= 2, let popGuard = entries[entries.count - 1].item.popGuard {
                return .popVetoed(entry: entries[entries.count - 1].id, prompt: popGuard.prompt, source: .tabReselect)
            }
            if let pop = popAbove(0, source: .tabReselect) { return pop }
        case .popToRoot:
            if let pop = popAbove(0, source: .tabReselect) { return pop }
        }
        return .tabSelected(id: tab.id, source: .tap)
    }

    /// A command on the stack of tab `tab`: the command itself on the screen on show; else decided
    /// against that stack alone, where only what an app can do to a stack off screen is accepted,
    /// and recorded as ``EventBody/inTab(_:_:)``.
    private func decideInTab(_ tab: String, _ command: NavigationCommand) throws(NavigationError) -> EventBody? {
        guard let tabBar else { throw .noTabBar(action: "act on tab '\(tab)'") }
        guard let index = tabBar.index(of: tab) else { throw .unknownTab(id: tab, tabs: tabBar.tabs.map(\.id)) }
        let id = tabBar.tabs[index].id
        let selected = index == tabBar.selectedIndex
        // What the app does to a navigation controller (it reaches any tab's stack), and what the
        // user does on the screen (a tap, a swipe, a presentation: the selected tab's screen only).
        let isStackCommand: Bool
        switch command {
        case .push, .popToRoot, .setStack, .update, .updateLayer, .back, .pop(.programmatic, _),
            .popTo(_, .programmatic):
            isStackCommand = true
        default:
            isStackCommand = false
        }
        if selected && layers.count == 1 {
            // The tab on screen: the command itself, but an update names an entry of this tab.
            if case .update(let entryID, _) = command, location(of: entryID) == nil {
                throw .entryNotLive(id: entryID, stack: stackDescription(against: entryID))
            }
            return try decide(command)
        }
        guard isStackCommand else {
            let name: String =
                switch command {
                case .pop(let source, _), .popTo(_, let source): "a \(source.rawValue) pop"
                case .cancelPop: "a cancelled swipe"
                case .menuSelect: "a back-menu selection"
                case .present: "a presentation"
                case .dismiss: "a dismissal"
                default: "this command"
                }
            let (why, which) =
                selected
                ? ("a modal layer is presented over it (layer \(topLayerIndex)), so its stack is not on screen",
                    "a stack under a modal")
                : ("it is not the selected tab", "a tab off screen")
            throw .notInTab(
                tab: id,
                reason:
                    "\(why), and \(name) acts on the screen on show; \(which) takes push, programmatic pops, back, set-stack, update and update-layer")
        }
        let view = SessionState(layers: [index == tabBar.selectedIndex ? layers[0] : tabBar.parked[index]], platform: platform)
        guard let body = try view.decide(command) else { return nil }
        // Rule 16 over the whole session: what arrives in the tab's stack is live nowhere else.
        let arriving: [Entry] =
            switch body {
            case .entryPushed(let entry): [entry]
            case .stackReplaced(let entries, _): entries
            default: []
            }
        let locations = locations(forLookups: arriving.count)
        for entry in arriving {
            if let (layer, _) = locations.location(of: entry.id), !(layer == 0 && index == tabBar.selectedIndex) {
                throw .entryAlreadyLive(id: entry.id, layer: layer, stack: stackDescription)
            }
            if let other = locations.parkedTab(holding: entry.id), !other.hasSameScalars(as: id) {
                throw .entryLiveInTab(id: entry.id, tab: other)
            }
        }
        return .inTab(id, body)
    }

    /// An observed replacement (<doc:Recording>): rule 12's checks on the entries, for `layer` (the
    /// top layer when `nil` or the top layer's index), which must exist. A replacement the layer
    /// already holds exactly changes nothing.
    private func decideObservedStack(_ replacement: [Entry], layer: Int?, reason: String) throws(NavigationError)
        -> EventBody?
    {
        let index = layer ?? topLayerIndex
        guard index >= 0, index < layers.count else {
            throw .layerOutOfRange(layer: index, layers: layers.count, stack: stackDescription)
        }
        try requireReplacement(replacement, of: index)
        let current = layers[index].entries
        if current.count == replacement.count, zip(current, replacement).allSatisfy({ $0.isExactly($1) }) {
            return nil
        }
        return .stackReplaced(
            replacement, observed: StackObservation(reason: reason, layer: index == topLayerIndex ? nil : index))
    }

    /// `pop.cancelled` (rule 17): a swipe of the top entry that began and was cancelled, refused
    /// wherever a pop with that source would be.
    private func decideCancelledPop(source: PopSource) throws(NavigationError) -> EventBody {
        let entries = topLayer.entries
        // The errors are the pop's own: the swipe could not have begun.
        guard let top = entries.indices.last else { throw .emptyStack(action: "pop") }
        switch source {
        case .gesture, .contentGesture:
            try requireSwipe(source, entries: entries)
            return .popCancelled(entry: entries[top].id, source: source)
        case .backButton, .backMenu, .programmatic, .tabReselect, .user:
            throw .invalidSource(
                operation: "a cancelled pop", source: source.rawValue, accepted: swipeSources.map(\.rawValue))
        }
    }

    /// The swipes this generation offers: the edge swipe, and the content swipe where
    /// ``GenerationRules/contentPopGesture`` says so.
    private var swipeSources: [PopSource] {
        platform.rules.contentPopGesture ? [.gesture, .contentGesture] : [.gesture]
    }

    /// `layer.updated` (rule 18): the top layer's fields given a value, or `nil` when none
    /// changes. `modalInPresentation` true on the base layer is refused: it is not presented.
    private func decideLayerUpdate(navigationBarHidden: Bool?, modalInPresentation: Bool?) throws(NavigationError)
        -> EventBody?
    {
        let index = topLayerIndex
        let old = layers[index]
        var new = Layer(modalInPresentation: old.modalInPresentation, navigationBarHidden: old.navigationBarHidden)
        if let navigationBarHidden { new.navigationBarHidden = navigationBarHidden }
        if let modalInPresentation {
            if modalInPresentation && index == 0 { throw .baseLayerNotPresented(stack: stackDescription) }
            new.modalInPresentation = modalInPresentation
        }
        let fields = old.changedFields(to: new)
        guard !fields.isEmpty else { return nil }
        return .layerUpdated(
            layer: index, navigationBarHidden: new.navigationBarHidden, modalInPresentation: new.modalInPresentation,
            fields: fields)
    }

    /// `pop` (rules 1, 10, 11): one entry by a back-button tap, a swipe or the app; a tap on a
    /// guarded entry without confirmation is vetoed.
    private func decidePop(source: PopSource, confirmed: Bool) throws(NavigationError) -> EventBody {
        let entries = topLayer.entries
        guard let top = entries.indices.last else { throw .emptyStack(action: "pop") }
        // The top entry is read in place: a copy of the whole entry cost half of the decision.
        let topID = entries[top].id
        switch source {
        case .backMenu, .tabReselect:
            throw .invalidSource(
                operation: "pop", source: source.rawValue,
                accepted: PopSource.allCases.filter {
                    $0 != .backMenu && $0 != .tabReselect && (platform.rules.contentPopGesture || $0 != .contentGesture)
                }.map(\.rawValue))
        case .backButton, .gesture, .contentGesture:
            try requireSwipe(source, entries: entries)
            if source == .backButton, !confirmed, let popGuard = entries[top].item.popGuard {
                return .popVetoed(entry: topID, prompt: popGuard.prompt, source: source)
            }
        case .programmatic:
            guard entries.count >= 2 else { throw rootError(topID) }
        case .user:
            // The back button, the edge swipe or (iOS 26) the content swipe: whichever could.
            var refusal: NavigationError?
            for way in [PopSource.backButton, .gesture, .contentGesture] {
                do throws(NavigationError) {
                    try requireSwipe(way, entries: entries)
                    refusal = nil
                    break
                } catch {
                    if refusal == nil || way == .backButton { refusal = error }
                }
            }
            if let refusal {
                if case .noBackButton(_, let top, let reason, let stack) = refusal {
                    throw .noBackButton(source: .user, top: top, reason: reason, stack: stack)
                }
                throw refusal
            }
        }
        return .entriesPopped(
            source: source, ids: [topID],
            confirmed: source == .backButton && confirmed && entries[top].item.popGuard != nil)
    }

    /// What a back-button tap or a swipe of the top entry needs (rules 1, 10, 17): the source on
    /// this platform, a back button (for the content swipe under a hidden bar, as
    /// ``GenerationRules/contentPopNeedsShownBar`` says), and for a swipe, the top entry not
    /// turning it off. `entries` is the top layer's, not empty.
    private func requireSwipe(_ source: PopSource, entries: [Entry]) throws(NavigationError) {
        let top = entries.count - 1
        if source == .contentGesture, !platform.rules.contentPopGesture {
            throw .sourceNotOnPlatform(source: source, platform: platform)
        }
        let ignoringBar = source == .contentGesture && !platform.rules.contentPopNeedsShownBar
        if let reason = noBackButtonReason(ignoringHiddenBar: ignoringBar) {
            if reason == .atRoot && entries.count == 1 { throw rootError(entries[top].id) }
            throw .noBackButton(source: source, top: entries[top].id, reason: reason.rawValue, stack: stackDescription)
        }
        switch source {
        case .gesture where entries[top].item.interactivePopDisabled:
            throw .swipeDisabled(
                source: source, top: entries[top].id, field: "interactivePopDisabled", stack: stackDescription)
        case .contentGesture where entries[top].item.contentPopDisabled:
            throw .swipeDisabled(
                source: source, top: entries[top].id, field: "contentPopDisabled", stack: stackDescription)
        default:
            return
        }
    }

    /// A pop to an entry (rules 9, 11): to an entry of the top layer, or to a row of the back menu.
    private func decidePop(to id: String, source: PopSource) throws(NavigationError) -> EventBody? {
        let entries = topLayer.entries
        switch source {
        case .programmatic:
            guard let index = entries.firstIndex(where: { $0.id.hasSameScalars(as: id) }) else {
                throw .notInTopLayer(id: id, stack: stackDescription(against: id, topLayerOnly: true))
            }
            return popAbove(index, source: source)
        case .backMenu:
            guard let menu = backMenu else { throw .noBackMenu(stack: stackDescription) }
            guard menu.contains(where: { $0.entry.hasSameScalars(as: id) }) else {
                throw .notInBackMenu(id: id, menu: menu.map(\.entry))
            }
            return popAbove(entries.firstIndex { $0.id.hasSameScalars(as: id) }!, source: source)
        case .backButton, .gesture, .contentGesture, .tabReselect, .user:
            throw .invalidSource(operation: "popTo", source: source.rawValue, accepted: ["back-menu", "programmatic"])
        }
    }

    /// `back` (rule 14): pop above a root, dismiss at a modal layer's root, refuse at the base root.
    private func decideBack() throws(NavigationError) -> EventBody {
        let entries = topLayer.entries
        guard let top = entries.indices.last else { throw .emptyStack(action: "go back") }
        if entries.count >= 2 { return .entriesPopped(source: .programmatic, ids: [entries[top].id], confirmed: false) }
        if layers.count > 1 { return .layerDismissed(source: .programmatic, ids: entries.map(\.id)) }
        throw .nowhereToGoBack(root: entries[top].id)
    }

    /// A stack replacement (rule 12): a non-empty list of entries with distinct, non-empty ids that are
    /// not live in another layer.
    private func decideSetStack(_ replacement: [Entry]) throws(NavigationError) -> EventBody {
        try requireReplacement(replacement, of: topLayerIndex)
        return .stackReplaced(replacement)
    }

    /// Rule 12's checks on a replacement of layer `index`'s stack, the one place they are made
    /// (a `setStack` and an observed replacement): not empty, every id valid and distinct, every
    /// params value storable, no entry live in another layer.
    private func requireReplacement(_ replacement: [Entry], of index: Int) throws(NavigationError) {
        guard !replacement.isEmpty else { throw .emptyStackReplacement }
        var seen = Set<ExactKey>()
        let locations = locations(forLookups: replacement.count)
        for entry in replacement {
            try Entry.requireValidID(entry.id)
            guard seen.insert(ExactKey(entry.id)).inserted else { throw .duplicateEntryInReplacement(id: entry.id) }
            try entry.requireStorableParams()
            if let (live, _) = locations.location(of: entry.id), live != index {
                throw .entryAlreadyLive(id: entry.id, layer: live, stack: stackDescription)
            }
            if let tab = locations.parkedTab(holding: entry.id) { throw .entryLiveInTab(id: entry.id, tab: tab) }
        }
    }


    /// An entry that a push or a presentation brings: a valid id not live in any layer (rule
    /// 16), params that can be stored.
    func requireNew(_ entry: Entry) throws(NavigationError) {
        try Entry.requireValidID(entry.id)
        if let (layer, _) = location(of: entry.id) {
            throw .entryAlreadyLive(id: entry.id, layer: layer, stack: stackDescription)
        }
        if let tab = parkedTab(holding: entry.id) { throw .entryLiveInTab(id: entry.id, tab: tab) }
        try entry.requireStorableParams()
    }

    func rootError(_ id: String) -> NavigationError {
        .cannotPopRoot(root: id, layer: topLayerIndex, stack: stackDescription)
    }

    /// Pops the entries above `index` of the top layer, or nothing when `index` is the top.
    func popAbove(_ index: Int, source: PopSource) -> EventBody? {
        let entries = topLayer.entries
        guard index < entries.count - 1 else { return nil }
        return .entriesPopped(source: source, ids: entries[(index + 1)...].map(\.id), confirmed: false)
    }
}
