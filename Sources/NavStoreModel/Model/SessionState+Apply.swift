extension SessionState {
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
            guard !tabs.isEmpty else {
                // No tabs: the tab bar is gone (a restore's acknowledgement of a state without
                // one); the selected tab's stack stays the base stack, the others leave.
                tabBar = nil
                return
            }
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
}
