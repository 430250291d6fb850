/// Where an event changes a state (<doc:Events>): what a reader that keeps something per entry
/// (lint's judgements, the report's interned entries) must redo after ``SessionState/apply(_:)``,
/// so that its work per event is the size of the change, not the depth of the stacks.
///
/// Derived from the same cases as the reducer (``SessionState/change(by:)``, beside `apply`), and
/// checked against it: applying ``splices`` to the layers before gives the layers after
/// (`StateChangeTests`).
package struct StateChange: Sendable, Hashable {
    /// One on-screen layer whose entries changed: the entries at positions `at ..< at + removed`
    /// of the layer before were replaced by the layer after's entries from `at` on, up to where
    /// the unchanged rest begins (`inserted` of them, known after the event is applied).
    package struct Splice: Sendable, Hashable {
        /// The layer (0 = base). A layer presented by the event has `removed` 0; a layer
        /// dismissed by it has every entry removed and no layer after.
        package var layer: Int
        /// The first position changed.
        package var at: Int
        /// How many entries of the layer before were removed from `at` on.
        package var removed: Int

        /// How many entries the layer after holds from `at` on in place of the removed ones,
        /// given the entry counts before and after.
        package func inserted(before: Int, after: Int) -> Int { after - (before - removed) }
    }

    /// The layers whose entries changed, at most one splice per layer, in layer order.
    package var splices: [Splice] = []
    /// The number of layers before the event.
    package var layersBefore: Int
    /// The layers whose ``LayerField``s may have changed (not their entries).
    package var layerFields: [Int] = []
    /// Whether the tab bar changed: its tabs, its selection, or a stack of a tab off screen.
    package var tabBar = false
    /// Whether the platform generation changed (`session.started`): every label may differ.
    package var platform = false

    /// No change at all (a veto, a marker, a cancelled swipe).
    package var isEmpty: Bool { splices.isEmpty && layerFields.isEmpty && !tabBar && !platform }
}

extension SessionState {
    /// Where `event`, applied to this state (the state before it), changes it: the layers'
    /// entries as splices, the layers' fields, the tab bar, the platform. What
    /// ``apply(_:)`` does with `event`, case by case, without doing it.
    /// - Complexity: O(1), but O(n) in the live entries for `item.updated` (it finds the entry
    ///   as `apply` does).
    package func change(by event: EventBody) -> StateChange {
        let top = layers.count - 1
        var change = StateChange(layersBefore: layers.count)
        switch event {
        case .sessionStarted:
            change.platform = true
        case .sessionRestored, .popVetoed, .dismissVetoed, .popCancelled, .callsDropped:
            break
        case .layerUpdated(let layer, _, _, _):
            if layer >= 0, layer < layers.count { change.layerFields = [layer] }
        case .entryPushed:
            change.splices = [.init(layer: top, at: layers[top].entries.count, removed: 0)]
        case .entriesPopped(_, let ids, _):
            let count = layers[top].entries.count
            let removed = min(ids.count, max(count - 1, 0))
            if removed > 0 { change.splices = [.init(layer: top, at: count - removed, removed: removed)] }
        case .stackReplaced(_, let observed):
            let index = observed?.layer ?? top
            if index >= 0 && index <= top {
                change.splices = [.init(layer: index, at: 0, removed: layers[index].entries.count)]
            }
        case .itemUpdated(let id, _, _):
            if let (layer, position) = location(of: id) {
                change.splices = [.init(layer: layer, at: position, removed: 1)]
            }
        case .layerPresented:
            change.splices = [.init(layer: top + 1, at: 0, removed: 0)]
            change.layerFields = [top + 1]
        case .layerDismissed:
            if layers.count > 1 { change.splices = [.init(layer: top, at: 0, removed: layers[top].entries.count)] }
        case .tabsReplaced(let tabs):
            guard !tabs.isEmpty else {
                // The tab bar removed: the base stack stays.
                change.tabBar = tabBar != nil
                break
            }
            change.tabBar = true
            change.splices = [.init(layer: 0, at: 0, removed: layers[0].entries.count)]
            change.layerFields = [0]
        case .tabSelected(let id, _):
            guard let tabBar, let index = tabBar.index(of: id), index != tabBar.selectedIndex else { break }
            change.tabBar = true
            change.splices = [.init(layer: 0, at: 0, removed: layers[0].entries.count)]
            change.layerFields = [0]
        case .inTab(let tab, let inner):
            guard let tabBar, let index = tabBar.index(of: tab) else { break }
            guard index == tabBar.selectedIndex else {
                change.tabBar = true
                break
            }
            // The selected tab's stack is layer 0: the inner event's change, as a one-layer state's.
            let inside = SessionState(layers: [layers[0]], platform: platform).change(by: inner)
            change.splices = inside.splices
            change.layerFields = inside.layerFields
        }
        return change
    }
}

/// The positions of one layer's entries whose items end the back menu
/// (``NavigationItem/endsBackMenu``, rule 6), kept up to date with a ``StateChange``'s splices,
/// so that the back menu's lowest row is found in O(log n) instead of a walk down the stack.
package struct MenuEnds: Sendable, Hashable {
    /// The positions, ascending.
    private var positions: [Int] = []

    /// The positions of `layer`'s entries that end the back menu.
    package init(_ layer: Layer) {
        for (position, entry) in layer.entries.enumerated() where entry.item.endsBackMenu {
            positions.append(position)
        }
    }

    /// Applies a splice of this layer: positions from `at` on are shifted or dropped, and the
    /// inserted entries of `layer` (the layer after) judged.
    /// - Complexity: O(removed + inserted + the ends above `at`).
    package mutating func apply(_ splice: StateChange.Splice, countBefore: Int, layer: Layer) {
        let inserted = splice.inserted(before: countBefore, after: layer.entries.count)
        let shift = inserted - splice.removed
        let first = firstIndex(atOrAbove: splice.at)
        var rest: [Int] = []
        for position in positions[first...] where position >= splice.at + splice.removed {
            rest.append(position + shift)
        }
        positions.removeSubrange(first...)
        for position in splice.at..<(splice.at + inserted) where layer.entries[position].item.endsBackMenu {
            positions.append(position)
        }
        positions.append(contentsOf: rest)
    }

    /// The highest position at or below `position` whose item ends the back menu, or 0: the
    /// back menu's lowest row when `position` is the back item (rule 6).
    package func lowestRow(below position: Int) -> Int {
        let index = firstIndex(atOrAbove: position + 1)
        return index > 0 ? positions[index - 1] : 0
    }

    /// The index in ``positions`` of the first position at or above `position`.
    private func firstIndex(atOrAbove position: Int) -> Int {
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
