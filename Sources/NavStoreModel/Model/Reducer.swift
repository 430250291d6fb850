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
        if selected && (layers.count == 1 || !isStackCommand) {
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
            throw .notInTab(
                tab: id,
                reason:
                    "it is not the selected tab, and \(name) acts on the screen on show; a tab off screen takes push, programmatic pops, back, set-stack, update and update-layer")
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

    /// Checks that `event` could have been recorded after this state: that the command it records
    /// would have been decided, by ``decide(_:)`` itself, into this very event. Used to validate
    /// imported logs before anything is written, and by `check`.
    ///
    /// The rules are not repeated here: the event names its command (a push, a pop with its
    /// source, a pop to the entry below the popped ones, an update, a dismissal...), `decide`
    /// judges that command against this state, and the event must be what it decided. So an
    /// import refuses what a command would refuse (a gesture pop with no back button, a back-menu
    /// pop to an entry that is not a row of the back menu), and a fact where the command records
    /// a veto (a gesture dismissal of a `modalInPresentation` layer, an unconfirmed back-button
    /// pop of a guarded entry) or another fact (an `item.updated` whose `fields` are not the
    /// fields that changed, or that changes nothing). Vetoes are facts: a `pop.vetoed` or
    /// `dismiss.vetoed` that `decide` would have recorded is accepted.
    /// - Throws: ``NavigationError/invalidEvent(_:)``: `<type>: <what does not fit> (stack: ...)`,
    ///   with `decide`'s own message when it refuses the command.
    /// - Complexity: O(n) in the number of live entries.
    public func validate(_ event: EventBody) throws(NavigationError) {
        func fail(_ message: String) -> NavigationError {
            let stack = "(stack: \(stackDescription))"
            return .invalidEvent("\(event.type): \(message)" + (message.hasSuffix(stack) ? "" : " \(stack)"))
        }
        // What NavStore records itself (``StoreCommand``): a restore's marker is always a fact;
        // a note of dropped calls has its own checks.
        switch event {
        case .sessionRestored: return
        case .callsDropped(let count, let firstAt, let lastAt):
            do throws(NavigationError) {
                _ = try decide(StoreCommand.noteDroppedCalls(count: count, firstAt: firstAt, lastAt: lastAt))
            } catch { throw fail(error.description) }
            return
        default: break
        }
        guard let command = try command(recordedBy: event, fail: fail) else { return }
        let decided: EventBody?
        do throws(NavigationError) { decided = try decide(command) } catch { throw fail(error.description) }
        if let mismatch = mismatch(between: event, and: decided) { throw fail(mismatch) }
    }

    /// The command whose decision `event` records, or `nil` for `session.started` (only version
    /// 1 of a session, which the store checks) and for the empty replacement of a lone base
    /// layer (written by ``NavigationStore/acknowledgeRestore(session:at:)-7vb6n`` alone). Pops name
    /// their entries: the ids must be the top entries above the root, and a pop to an entry
    /// targets the entry below them.
    private func command(recordedBy event: EventBody, fail: (String) -> NavigationError) throws(NavigationError)
        -> NavigationCommand?
    {
        let entries = topLayer.entries
        switch event {
        case .sessionStarted:
            return nil
        case .sessionRestored, .callsDropped:
            // ``validate(_:)`` takes these of the session itself; inside `"tab"` they are no tab's.
            throw fail("\(event.type) is the session's event, not a tab's: it takes no \"tab\"")
        case .entryPushed(let entry):
            return .push(entry)
        case .entriesPopped(let source, let ids, let confirmed):
            guard !ids.isEmpty else { throw fail("no ids popped") }
            guard ids.count < entries.count, sameIDs(entries.suffix(ids.count).map(\.id), ids) else {
                throw fail("popped ids \(ids) are not the top entries above the root")
            }
            switch source {
            case .backButton, .gesture, .contentGesture, .user: return .pop(source: source, confirmed: confirmed)
            case .backMenu, .programmatic:
                return .popTo(entryID: entries[entries.count - ids.count - 1].id, source: source)
            case .tabReselect:
                guard let tab = selectedTab else { throw fail("a tab-reselect pop on a session without a tab bar") }
                return .selectTab(tab, source: .tap)
            }
        case .popVetoed(let id, _, let source):
            guard let top = entries.last, top.id.hasSameScalars(as: id) else {
                throw fail("vetoed entry '\(id)' is not the top entry")
            }
            if source == .tabReselect {
                guard let tab = selectedTab else { throw fail("a tab-reselect veto on a session without a tab bar") }
                return .selectTab(tab, source: .tap)
            }
            return .pop(source: source, confirmed: false)
        case .stackReplaced(let replacement, let observed?):
            return .observedStack(replacement, layer: observed.layer, reason: observed.reason)
        case .stackReplaced(let replacement, nil):
            // An empty base layer is a state (a session's first): `restore --ack` brings the log
            // in line with an acknowledged empty state this way, and no command records it. A
            // modal layer always has its root.
            if replacement.isEmpty {
                guard layers.count == 1 else { throw fail("empty replacement of a modal layer") }
                return nil
            }
            return .setStack(replacement)
        case .itemUpdated(let id, let item, _):
            return .update(entryID: id, item: item)
        case .layerPresented(let entry, let modal):
            return .present(entry, modalInPresentation: modal)
        case .layerDismissed(let source, _), .dismissVetoed(_, let source):
            return .dismiss(source: source)
        case .popCancelled(let id, let source):
            guard let top = entries.last, top.id.hasSameScalars(as: id) else {
                throw fail("the cancelled swipe's entry '\(id)' is not the top entry")
            }
            return .cancelPop(source: source)
        case .layerUpdated(let layer, let hidden, let modal, _):
            guard layer == topLayerIndex else {
                throw fail("layer \(layer) is not the top layer (\(topLayerIndex)): only the top layer is updated")
            }
            return .updateLayer(navigationBarHidden: hidden, modalInPresentation: modal)
        case .tabsReplaced(let tabs):
            return .setTabs(tabs)
        case .tabSelected(let id, let source):
            return .selectTab(id, source: source)
        case .inTab(let tab, let inner):
            if case .entriesPopped(.tabReselect, _, _) = inner {
                throw fail("a tab-reselect pop is the selected tab's, on screen: it takes no \"tab\"")
            }
            if case .popVetoed(_, _, .tabReselect) = inner {
                throw fail("a tab-reselect veto is the selected tab's, on screen: it takes no \"tab\"")
            }
            guard let stack = stack(ofTab: tab) else {
                throw fail(tabBar == nil ? "a tab's event on a session without a tab bar" : "the tab bar has no tab '\(tab)'")
            }
            let view = SessionState(layers: [stack], platform: platform)
            guard let command = try view.command(recordedBy: inner, fail: fail) else { return nil }
            return .inTab(tab, command)
        }
    }

    /// Why `event` is not the event ``decide(_:)`` decided (`decided`, `nil` when the command
    /// changes nothing), or `nil` when it is. Only what `decide` derives from the state is
    /// compared (the popped ids, the confirmation, the veto's entry and prompt, the changed
    /// fields, the dismissed ids, fact or veto): the rest of the event is the command's own input.
    private func mismatch(between event: EventBody, and decided: EventBody?) -> String? {
        if let mismatch = tabMismatch(between: event, and: decided) { return mismatch.isEmpty ? nil : mismatch }
        let top = topLayer.entries.last?.id ?? ""
        switch (event, decided) {
        case (.itemUpdated(let id, _, _), nil):
            return
                "'\(id)' already has this item: the update changes nothing, and a command that changes nothing records no event"
        case (.layerUpdated(let layer, _, _, _), nil):
            return
                "layer \(layer) already has these settings: the update changes nothing, and a command that changes nothing records no event"
        case (_, nil):
            return "the command changes nothing, and a command that changes nothing records no event"
        case (.entriesPopped(_, let ids, let confirmed), .entriesPopped(_, let decidedIDs, let decidedConfirmed)?):
            if !sameIDs(ids, decidedIDs) { return "popped ids \(ids), where the command pops \(decidedIDs)" }
            if confirmed != decidedConfirmed {
                return
                    "the pop of '\(top)' is marked confirmed, but only a back-button tap on an entry with a pop guard is confirmed, and '\(top)' has none"
            }
            return nil
        case (.entriesPopped(let source, _, _), .popVetoed(_, let prompt, _)?):
            return source == .tabReselect
                ? "'\(top)' has a pop guard (prompt '\(prompt)') and the selected tab is guarded: a tap on it is vetoed (pop.vetoed), it does not pop (on a yes the app pops to the root itself, programmatic)"
                : "'\(top)' has a pop guard (prompt '\(prompt)'): an unconfirmed \(source.rawValue) tap is vetoed (pop.vetoed), it does not pop"
        case (.popVetoed(_, _, let source), .entriesPopped?):
            switch source {
            case .backButton: return "'\(top)' has no pop guard: a back-button tap pops it, nothing vetoes it"
            case .tabReselect:
                return
                    "'\(top)' has no pop guard, or the selected tab is not guarded: a tap on it pops to the root, nothing vetoes it"
            default: return "a \(source.rawValue) pop is never vetoed: UIKit does not consult the pop guard for it"
            }
        case (.popVetoed(_, let prompt, _), .popVetoed(_, let decidedPrompt, _)?):
            return prompt.hasSameScalars(as: decidedPrompt)
                ? nil : "the vetoed prompt '\(prompt)' is not the pop guard's prompt '\(decidedPrompt)' of '\(top)'"
        case (.itemUpdated(let id, _, let fields), .itemUpdated(_, _, let changed)?):
            return fields.count == changed.count && Set(fields) == Set(changed)
                ? nil : "the update of '\(id)' lists fields \(fields), but the fields that change are \(changed)"
        case (.layerDismissed(_, let ids), .layerDismissed(_, let decidedIDs)?):
            return sameIDs(ids, decidedIDs) ? nil : "dismissed ids \(ids) are not the top layer's \(decidedIDs)"
        case (.layerDismissed(let source, _), .dismissVetoed(let root, _)?):
            return
                "the layer rooted at '\(root)' is modalInPresentation: a \(source.rawValue) dismissal of it is vetoed (dismiss.vetoed), it does not dismiss"
        case (.dismissVetoed(let id, _), .dismissVetoed(let root, _)?):
            return id.hasSameScalars(as: root) ? nil : "'\(id)' is not the root of the top layer ('\(root)')"
        case (.layerUpdated(let layer, _, _, let fields), .layerUpdated(_, _, _, let changed)?):
            return fields.count == changed.count && Set(fields) == Set(changed)
                ? nil
                : "the update of layer \(layer) lists fields \(fields.map(\.rawValue)), but the fields that change are \(changed.map(\.rawValue))"
        case (.dismissVetoed(_, let source), .layerDismissed?):
            return source == .gesture
                ? "the top layer is not modalInPresentation: a gesture dismissal dismisses it, nothing vetoes it"
                : "a \(source.rawValue) dismissal is never vetoed"
        case (.sessionStarted, _), (.sessionRestored, .sessionRestored?), (.entryPushed, .entryPushed?),
            (.stackReplaced, .stackReplaced?), (.layerPresented, .layerPresented?), (.popCancelled, .popCancelled?),
            (.callsDropped, .callsDropped?):
            return nil
        case (_, let decided?):
            return "the command records \(decided.type), not \(event.type)"
        }
    }

    /// ``mismatch(between:and:)`` for the events of tab bars: `""` when they match, `nil` when
    /// neither is a tab bar's event (the caller compares them).
    private func tabMismatch(between event: EventBody, and decided: EventBody?) -> String? {
        switch (event, decided) {
        case (.inTab(let tab, let inner), .inTab(let decidedTab, let decidedInner)?):
            guard tab.hasSameScalars(as: decidedTab) else { return "the event is tab '\(tab)''s, not '\(decidedTab)''s" }
            guard let stack = stack(ofTab: tab) else { return "the tab bar has no tab '\(tab)'" }
            return SessionState(layers: [stack], platform: platform).mismatch(between: inner, and: decidedInner) ?? ""
        case (.inTab(let tab, _), let decided?):
            return "the command acts on the screen on show (\(decided.type)), not on tab '\(tab)''s stack off screen"
        case (.tabsReplaced, .tabsReplaced?), (.tabSelected, .tabSelected?):
            return ""
        default:
            return nil
        }
    }

    /// Folds one event into the state: the only way state changes (<doc:Events>).
    ///
    /// Pure and total: it never fails on an event already in the log. Vetoes, cancelled swipes
    /// and markers leave the state as it was; `session.started` sets the session's ``platform``.
    /// - Complexity: O(n) in the number of live entries for updates, O(1) amortised for push and pop.
    public mutating func apply(_ event: consuming EventBody) {
        let top = layers.count - 1
        // Consumed: a pushed or presented entry moves into the stack instead of being copied.
        switch consume event {
        case .sessionStarted(_, let platform):
            self.platform = platform
        case .sessionRestored, .popVetoed, .dismissVetoed, .popCancelled, .callsDropped:
            return
        case .layerUpdated(let layer, let hidden, let modal, _):
            guard layer >= 0, layer < layers.count else { return }
            layers[layer].navigationBarHidden = hidden
            layers[layer].modalInPresentation = modal
        case .entryPushed(let entry):
            layers[top].entries.append(entry)
        case .entriesPopped(_, let ids, _):
            let count = min(ids.count, max(layers[top].entries.count - 1, 0))
            // One at a time: `removeLast(_:)` goes through `replaceSubrange`, several times dearer
            // for the one or two entries a pop removes.
            for _ in 0..<count { layers[top].entries.removeLast() }
        case .stackReplaced(let entries, let observed):
            let index = observed?.layer ?? top
            if index >= 0 && index <= top { layers[index].entries = entries }
        case .itemUpdated(let id, let item, _):
            if let (layer, position) = location(of: id) {
                layers[layer].entries[position].item = item
                lookupHint = LookupHint(layer: layer, position: position)
            }
        case .layerPresented(let entry, let modal):
            // Room for a few pushes: grown from one entry, the array was copied at 2, 4 and 8.
            var entries: [Entry] = []
            entries.reserveCapacity(8)
            entries.append(entry)
            layers.append(Layer(entries: entries, modalInPresentation: modal))
        case .layerDismissed:
            if layers.count > 1 { layers.removeLast() }
        case .tabsReplaced(let tabs):
            guard !tabs.isEmpty else { return }
            if let tabBar {
                let (bar, base) = tabBar.replacing(with: tabs, base: layers[0])
                self.tabBar = bar
                layers[0] = base
            } else {
                // The first tab bar: the base stack (empty) becomes the first tab's.
                tabBar = TabBar(tabs: tabs)
            }
        case .tabSelected(let id, _):
            guard let tabBar, let index = tabBar.index(of: id), index != tabBar.selectedIndex else { return }
            let (bar, stack) = tabBar.selecting(index, base: layers[0])
            self.tabBar = bar
            layers[0] = stack
        case .inTab(let tab, let event):
            guard let tabBar, let index = tabBar.index(of: tab) else { return }
            let selected = index == tabBar.selectedIndex
            var view = SessionState(layers: [selected ? layers[0] : tabBar.parked[index]], platform: platform)
            view.apply(event)
            if selected { layers[0] = view.layers[0] } else { self.tabBar?.parked[index] = view.layers[0] }
        }
    }

    /// The state after folding `events` in order into `initial` (<doc:Events>: `fold(apply, initial, events)`).
    public static func fold(_ events: some Sequence<EventBody>, from initial: SessionState = SessionState())
        -> SessionState
    {
        var state = initial
        for event in events { state.apply(event) }
        return state
    }

    /// An entry that a push or a presentation brings: a valid id not live in any layer (rule
    /// 16), params that can be stored.
    private func requireNew(_ entry: Entry) throws(NavigationError) {
        try Entry.requireValidID(entry.id)
        if let (layer, _) = location(of: entry.id) {
            throw .entryAlreadyLive(id: entry.id, layer: layer, stack: stackDescription)
        }
        if let tab = parkedTab(holding: entry.id) { throw .entryLiveInTab(id: entry.id, tab: tab) }
        try entry.requireStorableParams()
    }

    private func rootError(_ id: String) -> NavigationError {
        .cannotPopRoot(root: id, layer: topLayerIndex, stack: stackDescription)
    }

    /// Pops the entries above `index` of the top layer, or nothing when `index` is the top.
    private func popAbove(_ index: Int, source: PopSource) -> EventBody? {
        let entries = topLayer.entries
        guard index < entries.count - 1 else { return nil }
        return .entriesPopped(source: source, ids: entries[(index + 1)...].map(\.id), confirmed: false)
    }
}
