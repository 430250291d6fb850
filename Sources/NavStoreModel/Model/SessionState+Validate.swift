extension SessionState {
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
    /// 1 of a session, which the store checks), for the empty replacement of a lone base layer
    /// and for a `tabs.replaced` with no tabs, which removes the tab bar (both written by
    /// ``NavigationStore/acknowledgeRestore(session:at:)-7vb6n`` alone). Pops name
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
            return try command(poppingTop: ids, source: source, confirmed: confirmed, fail: fail)
        case .popVetoed(let id, _, let source):
            return try command(vetoingPopOf: id, source: source, fail: fail)
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
        case .tabsReplaced(let tabs) where tabs.isEmpty:
            // The tab bar removed, as a restore's acknowledgement of a state without one writes
            // it; no command records it.
            guard tabBar != nil else { throw fail("no tabs, on a session without a tab bar") }
            guard layers.count == 1 else { throw fail("no tabs, under a modal layer") }
            return nil
        case .tabsReplaced(let tabs):
            return .setTabs(tabs)
        case .tabSelected(let id, let source):
            return .selectTab(id, source: source)
        case .inTab(let tab, let inner):
            return try command(inTab: tab, recordedBy: inner, fail: fail)
        }
    }

    /// The pop that removed `ids` from the top of the top layer, by `source`.
    private func command(
        poppingTop ids: [String], source: PopSource, confirmed: Bool, fail: (String) -> NavigationError
    ) throws(NavigationError) -> NavigationCommand {
        let entries = topLayer.entries
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
    }

    /// The pop of the top entry `id` that its guard vetoed, asked for by `source`.
    private func command(vetoingPopOf id: String, source: PopSource, fail: (String) -> NavigationError)
        throws(NavigationError) -> NavigationCommand
    {
        guard let top = topLayer.entries.last, top.id.hasSameScalars(as: id) else {
            throw fail("vetoed entry '\(id)' is not the top entry")
        }
        if source == .tabReselect {
            guard let tab = selectedTab else { throw fail("a tab-reselect veto on a session without a tab bar") }
            return .selectTab(tab, source: .tap)
        }
        return .pop(source: source, confirmed: false)
    }

    /// The command `inner` records in tab `tab`'s stack: a tab's own event, judged on its stack
    /// alone; a reselect is the selected tab's and takes no tab.
    private func command(inTab tab: String, recordedBy inner: EventBody, fail: (String) -> NavigationError)
        throws(NavigationError) -> NavigationCommand?
    {
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
}
