import NavStore

/// Builds a `SessionReport` one event at a time, with the model's own resolution (``SessionState/backButton``,
/// ``SessionState/backMenu``, `BackButton/label(fitting:columns:)`): pure, no database.
///
/// Feed it the state before the first version, then every event in order; it folds each with
/// ``SessionState/apply(_:)``, the reducer the store uses, and records what the event changed
/// (``SessionState/change(by:)``): the work per event is the size of the change, not the depth
/// of the stacks, but for a keyframe every max(64, 2 × depth) versions.
package struct ReportBuilder: Sendable {
    /// The state after the last event fed (or the starting state).
    package private(set) var state: SessionState
    private var entries: [ReportEntry] = []
    private var buttons: [ReportBackButton] = []
    private var buttonIndex: [ReportBackButton: Int] = [:]
    private var versions: [ReportVersion] = []
    /// The entry indices of the state, per layer.
    private var indices: [[Int]] = []
    /// Where the back menu stops, per layer (rule 6).
    private var ends: [MenuEnds] = []
    /// The view of the last version.
    private var view: ReportView?
    /// The versions since the last keyframe.
    private var sinceKeyframe = 0

    /// The most menu rows "what changed" lists one by one; beyond, it gives the counts.
    package static let maximumRowChanges = 32

    /// The generation the labels are resolved under when it is not the recorded one (a what-if
    /// report, <doc:PlatformGenerations>), or `nil` for the session's own.
    package let platform: PlatformGeneration?

    /// A builder that starts from `state` (the state before the first version it will be fed).
    /// - Parameters:
    ///   - state: the state before the first version; a new session's empty state by default.
    ///   - platform: resolve every label under this generation instead of the one the
    ///   log records (a what-if report); `nil` for the recorded one.
    package init(startingAt state: SessionState = SessionState(), platform: PlatformGeneration? = nil) {
        self.platform = platform
        self.state = platform.map(state.with(platform:)) ?? state
        for layer in self.state.layers {
            var layerIndices: [Int] = []
            for entry in layer.entries { layerIndices.append(intern(entry)) }
            indices.append(layerIndices)
            ends.append(MenuEnds(layer))
        }
    }

    private mutating func internButton(_ button: ReportBackButton) -> Int {
        if let index = buttonIndex[button] { return index }
        buttons.append(button)
        buttonIndex[button] = buttons.count - 1
        return buttons.count - 1
    }

    private mutating func intern(_ entry: Entry) -> Int {
        entries.append(ReportEntry(entry))
        return entries.count - 1
    }

    /// The back menu's positions in the top layer (``SessionState/backMenuPositions``).
    private var menuPositions: ClosedRange<Int>? {
        let top = state.topLayerIndex
        return state.backMenuPositions { ends[top].lowestRow(below: $0) }
    }

    /// Folds `event` and records its version.
    /// - Parameters:
    ///   - event: the next event of the session, in version order.
    ///   - summary: the event's one-line summary for the timeline.
    /// - Complexity: O(1) plus the entries the event changed; O(depth) at a keyframe.
    package mutating func add(_ event: Event, summary: String) {
        let change = state.change(by: event.body)
        let before = snapshot(before: change)

        state.apply(event.body)
        if let platform { state.platform = platform }

        // The layers: splices of entry indices, the layers' fields, their count.
        let splices = applySplices(of: change, before: before)
        let layerCount = state.layers.count < indices.count ? state.layers.count : nil
        if let layerCount {
            indices.removeLast(indices.count - layerCount)
            ends.removeLast(ends.count - layerCount)
        }
        let fields = change.layerFields.filter { $0 < state.layers.count }.map { layer in
            [layer, state.layers[layer].modalInPresentation ? 1 : 0, state.layers[layer].navigationBarHidden ? 1 : 0]
        }

        // What is drawn besides the layers.
        let button = state.backButton
        let positions = menuPositions
        let newView = reportView(button: button, positions: positions)
        let changes = reportChanges(by: change, before: before, button: button, positions: positions)

        var version = ReportVersion(
            version: event.version, at: event.at, type: event.type, summary: summary,
            veto: event.body.isVeto ? true : nil, changes: changes)
        let depth = indices.reduce(0) { $0 + $1.count }
        if versions.isEmpty || sinceKeyframe + 1 >= max(64, 2 * depth) {
            version.layers = zip(state.layers, indices).map {
                ReportLayer(
                    modalInPresentation: $0.modalInPresentation, navigationBarHidden: $0.navigationBarHidden, entries: $1)
            }
            version.view = newView
            sinceKeyframe = 0
        } else {
            version.splices = splices.isEmpty ? nil : splices
            version.layerCount = layerCount
            version.layerFields = fields.isEmpty ? nil : fields
            if newView != view { version.view = newView }
            sinceKeyframe += 1
        }
        view = newView
        versions.append(version)
    }

    /// What an event's changes name from the state before it: kept while the event is folded,
    /// as the state after it no longer holds them.
    private struct Before {
        /// The number of layers.
        var layers: Int
        /// Per splice of the change: the entries it removes, their indices, and its layer's count.
        var removed: [[Entry]] = []
        var removedIndices: [[Int]] = []
        var counts: [Int] = []
        /// The fields of the layers whose fields the change sets, by layer.
        var fields: [Int: Layer] = [:]
        /// The back button's label.
        var button: String?
        /// The back menu: its layer and its positions there.
        var menu: (layer: Int, positions: ClosedRange<Int>)?
    }

    /// What `change` names from ``state``, the state before it: the entries removed, the
    /// layers' fields, the button and the menu.
    private func snapshot(before change: StateChange) -> Before {
        var before = Before(layers: state.layers.count)
        for splice in change.splices {
            let old = splice.layer < before.layers ? state.layers[splice.layer].entries : []
            before.removed.append(Array(old[splice.at..<(splice.at + splice.removed)]))
            before.counts.append(old.count)
            before.removedIndices.append(
                splice.layer < indices.count ? Array(indices[splice.layer][splice.at..<(splice.at + splice.removed)]) : [])
        }
        for layer in change.layerFields where layer < before.layers {
            before.fields[layer] = Layer(
                modalInPresentation: state.layers[layer].modalInPresentation,
                navigationBarHidden: state.layers[layer].navigationBarHidden)
        }
        before.button = state.backButton?.label
        before.menu = menuPositions.map { (layer: state.topLayerIndex, positions: $0) }
        return before
    }

    /// Applies the splices of `change` to the entry indices and the menu ends, ``state`` being
    /// the state after it: an entry exactly as it was keeps its index, any other is interned.
    /// - Returns: the splices as a version records them, `[layer, at, removed, index...]`.
    private mutating func applySplices(of change: StateChange, before: Before) -> [[Int]] {
        var splices: [[Int]] = []
        for (number, splice) in change.splices.enumerated() {
            let layer = splice.layer
            let after = layer < state.layers.count ? state.layers[layer].entries : []
            let inserted = splice.inserted(before: before.counts[number], after: after.count)
            if layer == indices.count {
                indices.append([])
                ends.append(MenuEnds(Layer()))
            }
            var new: [Int] = []
            new.reserveCapacity(inserted)
            for offset in 0..<inserted {
                let entry = after[splice.at + offset]
                // An entry exactly as it was at the same place keeps its index (a set-stack that
                // keeps entries, an update that changes nothing of it).
                if offset < before.removed[number].count, before.removed[number][offset].isExactly(entry) {
                    new.append(before.removedIndices[number][offset])
                } else {
                    new.append(intern(entry))
                }
            }
            indices[layer].replaceSubrange(splice.at..<(splice.at + splice.removed), with: new)
            if layer < state.layers.count {
                ends[layer].apply(splice, countBefore: before.counts[number], layer: state.layers[layer])
            }
            splices.append([layer, splice.at, splice.removed] + new)
        }
        return splices
    }

    /// The view of ``state`` (after the event) besides its layers: the back button (interned),
    /// the back menu or why there is none, the tab bar.
    private mutating func reportView(button: BackButton?, positions: ClosedRange<Int>?) -> ReportView {
        var noBackMenu: String?
        if positions == nil {
            noBackMenu =
                state.noBackButtonReason.map { "there is no back button (\($0.rawValue))" }
                ?? "the back item's backBarButtonItem suppresses it (menuSuppressed)"
        }
        return ReportView(
            button: button.map { internButton(Self.reportButton($0)) },
            noBackButton: button == nil ? state.noBackButtonReason?.rawValue : nil,
            menu: positions.map { [$0.lowerBound, $0.upperBound] }, noBackMenu: noBackMenu,
            tabs: state.tabBar.map { bar in
                ReportTabs(tabs: bar.tabs.map { ReportTab(id: $0.id, title: $0.title) }, selected: bar.selectedIndex)
            })
    }

    /// What `change` changed, for the version's "what changed", ``state`` being the state after
    /// it: layers presented and dismissed, their fields, their entries, the button and the menu.
    private func reportChanges(
        by change: StateChange, before: Before, button: BackButton?, positions: ClosedRange<Int>?
    ) -> [ReportChange] {
        var changes: [ReportChange] = []
        for index in 0..<max(before.layers, state.layers.count) {
            if index >= before.layers, index > 0 { changes.append(ReportChange(kind: .layerPresented, layer: index)) }
            if let old = before.fields[index], index < state.layers.count {
                let new = state.layers[index]
                for field in old.changedFields(to: new) {
                    let kind: ReportChange.Kind =
                        switch field {
                        case .modalInPresentation: .modalInPresentation
                        case .navigationBarHidden: .navigationBarHidden
                        }
                    changes.append(
                        ReportChange(kind: kind, layer: index, before: .bool(old[field]), after: .bool(new[field])))
                }
            }
            if let number = change.splices.firstIndex(where: { $0.layer == index }) {
                let splice = change.splices[number]
                let after = index < state.layers.count ? state.layers[index].entries : []
                let inserted = splice.inserted(before: before.counts[number], after: after.count)
                Self.entryChanges(
                    from: before.removed[number], to: after[splice.at..<(splice.at + inserted)], at: splice.at,
                    layer: index, into: &changes)
            }
            if index >= state.layers.count { changes.append(ReportChange(kind: .layerDismissed, layer: index)) }
        }
        if !sameScalars(before.button, button?.label) || (before.button != nil) != (button != nil) {
            changes.append(
                ReportChange(
                    kind: .backButton, before: before.button.map { .string($0) } ?? .null,
                    after: button.map { .string($0.label) } ?? .null))
        }
        menuChanges(
            from: before.menu, to: positions.map { (layer: state.topLayerIndex, positions: $0) },
            change: change, countsBefore: before.counts, removed: before.removed, into: &changes)
        return changes
    }

    /// The report of everything fed.
    /// - Parameters:
    ///   - session: the session key.
    ///   - name: its name, if any.
    ///   - latestVersion: the session's latest version.
    package func report(session: String, name: String?, latestVersion: Int) -> SessionReport {
        var report = SessionReport(
            session: session, name: name, latestVersion: latestVersion, entries: entries, versions: versions)
        report.buttons = buttons
        return report
    }

    /// The button with the label shown at every room, found by asking `BackButton/label(fitting:columns:)`
    /// where its answer changes (it chooses a longer candidate as the room grows).
    static func reportButton(_ button: BackButton) -> ReportBackButton {
        let candidates = [button.label] + button.fallbacks
        // No candidate needs more room than two per scalar (a wide character is two columns).
        let widest = 2 * (candidates.map(\.unicodeScalars.count).max() ?? 0) + 1
        var room = 0
        var shown = button.label(fitting: 0)
        var steps = [ReportLabelStep(minWidth: 0, label: shown)]
        while !shown.hasSameScalars(as: button.label(fitting: nil)) && room < widest {
            // The smallest room above `room` where the label shown differs.
            var low = room + 1
            var high = widest
            while low < high {
                let middle = (low + high) / 2
                if button.label(fitting: middle).hasSameScalars(as: shown) { low = middle + 1 } else { high = middle }
            }
            room = low
            shown = button.label(fitting: room)
            steps.append(ReportLabelStep(minWidth: room, label: shown))
        }
        return ReportBackButton(label: button.label, fallbacks: button.fallbacks, image: button.image, steps: steps)
    }

    /// The entries of one layer's splice removed, added or changed (by id), appended to
    /// `changes`: the entries outside the splice are the same before and after.
    private static func entryChanges(
        from oldEntries: [Entry], to newEntries: ArraySlice<Entry>, at start: Int, layer index: Int,
        into changes: inout [ReportChange]
    ) {
        var old: [ExactKey: Entry] = [:]
        for entry in oldEntries { old[ExactKey(entry.id)] = entry }
        var new: Set<ExactKey> = []
        for entry in newEntries { new.insert(ExactKey(entry.id)) }
        for entry in oldEntries where !new.contains(ExactKey(entry.id)) {
            changes.append(ReportChange(kind: .entryRemoved, layer: index, entry: entry.id))
        }
        for (position, entry) in zip(newEntries.indices, newEntries) {
            guard let previous = old[ExactKey(entry.id)] else {
                changes.append(ReportChange(kind: .entryAdded, layer: index, entry: entry.id, position: position))
                continue
            }
            if !sameScalars(previous.route, entry.route) {
                changes.append(
                    ReportChange(
                        kind: .fieldChanged, layer: index, entry: entry.id, field: "route",
                        before: previous.route.map(JSONValue.string) ?? .null,
                        after: entry.route.map(JSONValue.string) ?? .null))
            }
            if !sameParams(previous.params, entry.params) {
                changes.append(
                    exact(
                        ReportChange(
                            kind: .fieldChanged, layer: index, entry: entry.id, field: "params",
                            before: previous.params.map(JSONValue.object) ?? .null,
                            after: entry.params.map(JSONValue.object) ?? .null)))
            }
            for field in previous.item.changedFields(to: entry.item) {
                changes.append(
                    exact(
                        ReportChange(
                            kind: .fieldChanged, layer: index, entry: entry.id, field: field,
                            before: previous.item.jsonValue(of: field), after: entry.item.jsonValue(of: field))))
            }
        }
    }

    /// `change` with the exact text of a value a page would round (``ReportExactText``).
    private static func exact(_ change: ReportChange) -> ReportChange {
        var change = change
        change.beforeText = change.before.flatMap(ReportExactText.text)
        change.afterText = change.after.flatMap(ReportExactText.text)
        return change
    }

    /// The back menu's rows that changed, appended to `changes`: rows added, removed or
    /// retitled (matched by the entry they pop to), or, when the menu appeared, went, moved to
    /// another layer or changed in more than ``maximumRowChanges`` rows, its row counts.
    /// `removed` holds the entries each of the change's splices removed.
    private func menuChanges(
        from before: (layer: Int, positions: ClosedRange<Int>)?,
        to after: (layer: Int, positions: ClosedRange<Int>)?, change: StateChange, countsBefore: [Int],
        removed: [[Entry]], into changes: inout [ReportChange]
    ) {
        func counts() {
            changes.append(
                ReportChange(
                    kind: .backMenu, before: before.map { .integer(Int64($0.positions.count)) } ?? .null,
                    after: after.map { .integer(Int64($0.positions.count)) } ?? .null))
        }
        guard let old = before, let new = after, old.layer == new.layer else {
            if before != nil || after != nil { counts() }
            return
        }
        let entries = state.layers[new.layer].entries
        // The splice's region, before and after: rows there may differ; elsewhere they are the
        // same entries, those above the region moved by `shift`.
        var oldRegion = 0..<0
        var newRegion = 0..<0
        var spliceStart = 0
        var removedHere: [Entry] = []
        var shift = 0
        if let number = change.splices.firstIndex(where: { $0.layer == new.layer }) {
            let splice = change.splices[number]
            let inserted = splice.inserted(before: countsBefore[number], after: entries.count)
            shift = inserted - splice.removed
            oldRegion = splice.at..<(shift != 0 ? countsBefore[number] : splice.at + splice.removed)
            newRegion = splice.at..<(shift != 0 ? entries.count : splice.at + inserted)
            spliceStart = splice.at
            removedHere = removed[number]
        }
        var gone: [MenuRow] = []
        var came: [MenuRow] = []
        var budget = 2 * Self.maximumRowChanges + 2
        for position in Self.rows(old.positions, outside: new.positions, or: oldRegion) {
            budget -= 1
            if budget < 0 { return counts() }
            let entry: Entry =
                position < spliceStart
                ? entries[position]
                : position - spliceStart < removedHere.count
                    ? removedHere[position - spliceStart] : entries[position + shift]
            gone.append((position, entry.id, entry.item.backMenuTitle))
        }
        for position in Self.rows(new.positions, outside: old.positions, or: newRegion) {
            budget -= 1
            if budget < 0 { return counts() }
            came.append((position, entries[position].id, entries[position].item.backMenuTitle))
        }
        let edits = Self.menuRowEdits(gone: gone, came: came, backItem: new.positions.upperBound)
        if edits.count > Self.maximumRowChanges { return counts() }
        changes += edits
    }

    /// A row of the back menu: the position of the entry it pops to, its id, the row's title.
    private typealias MenuRow = (position: Int, id: String, title: String)

    /// The menu's rows removed, retitled and added, from the rows that may have gone and those
    /// that may have come (matched by the entry they pop to); `backItem` is the position of row 1.
    private static func menuRowEdits(gone: [MenuRow], came: [MenuRow], backItem: Int) -> [ReportChange] {
        var edits: [ReportChange] = []
        var matched: Set<ExactKey> = []
        let cameByID = Dictionary(came.map { (ExactKey($0.id), $0) }, uniquingKeysWith: { a, _ in a })
        for row in gone {
            if let now = cameByID[ExactKey(row.id)] {
                matched.insert(ExactKey(row.id))
                if !row.title.hasSameScalars(as: now.title) {
                    edits.append(
                        ReportChange(
                            kind: .menuRowChanged, entry: row.id, row: backItem - now.position + 1,
                            before: .string(row.title), after: .string(now.title)))
                }
            } else {
                edits.append(ReportChange(kind: .menuRowRemoved, entry: row.id, before: .string(row.title)))
            }
        }
        for row in came where !matched.contains(ExactKey(row.id)) {
            edits.append(
                ReportChange(
                    kind: .menuRowAdded, entry: row.id, row: backItem - row.position + 1, after: .string(row.title)))
        }
        return edits
    }

    /// The positions of `positions` outside `other` or inside `region`, ascending.
    private static func rows(_ positions: ClosedRange<Int>, outside other: ClosedRange<Int>, or region: Range<Int>)
        -> [Int]
    {
        var result: [Int] = []
        if positions.lowerBound < other.lowerBound {
            result += Array(positions.lowerBound...min(positions.upperBound, other.lowerBound - 1))
        }
        let low = max(positions.lowerBound, region.lowerBound)
        let high = min(positions.upperBound, region.upperBound - 1)
        if low <= high { result += Array(low...high) }
        if positions.upperBound > other.upperBound {
            result += Array(max(positions.lowerBound, other.upperBound + 1)...positions.upperBound)
        }
        return Array(Set(result)).sorted()
    }
}
