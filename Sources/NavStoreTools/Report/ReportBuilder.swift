import NavStore

/// Builds a `SessionReport` one event at a time, with the model's own resolution (``SessionState/backButton``,
/// ``SessionState/backMenu``, `BackButton/label(fitting:columns:)`): pure, no database.
///
/// Feed it the state before the first version, then every event in order; it folds each with
/// ``SessionState/apply(_:)``, the reducer the store uses.
package struct ReportBuilder: Sendable {
    /// The state after the last event fed (or the starting state).
    package private(set) var state: SessionState
    private var entries: [ReportEntry] = []
    private var versions: [ReportVersion] = []
    /// The entry indices of the last state, per layer, to reuse unchanged entries.
    private var lastIndices: [[Int]]
    /// The state the indices of ``lastIndices`` describe.
    private var indexedState: SessionState

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
        indexedState = SessionState()
        lastIndices = []
        lastIndices = indexLayers(state)
        indexedState = state
    }

    /// Folds `event` and records its version.
    /// - Parameters:
    ///   - event: the next event of the session, in version order.
    ///   - summary: the event's one-line summary for the timeline.
    /// - Complexity: O(depth) plus the size of entries that changed.
    package mutating func add(_ event: Event, summary: String) {
        let before = state
        state.apply(event.body)
        if let platform { state.platform = platform }
        let layers = indexLayers(state)
        lastIndices = layers
        indexedState = state
        let button = state.backButton
        let menu = state.backMenu
        var noBackMenu: String?
        if menu == nil {
            noBackMenu =
                state.noBackButtonReason.map { "there is no back button (\($0.rawValue))" }
                ?? "the back item's backBarButtonItem suppresses it (menuSuppressed)"
        }
        versions.append(
            ReportVersion(
                version: event.version, at: event.at, time: Timestamp.format(event.at), type: event.type,
                summary: summary,
                veto: event.body.isVeto,
                layers: zip(state.layers, layers).map {
                    ReportLayer(
                        modalInPresentation: $0.modalInPresentation, navigationBarHidden: $0.navigationBarHidden,
                        entries: $1)
                },
                backButton: button.map(Self.reportButton),
                noBackButton: button == nil ? state.noBackButtonReason?.rawValue : nil,
                backMenu: menu?.map {
                    ReportMenuRow(row: $0.row, entry: $0.entry, title: $0.title, blank: $0.title.isEmpty)
                },
                noBackMenu: noBackMenu,
                changes: Self.changes(from: before, to: state), findings: [], findingsStarting: [],
                tabs: state.tabBar.map { bar in
                    ReportTabs(tabs: bar.tabs.map { ReportTab(id: $0.id, title: $0.title) }, selected: bar.selectedIndex)
                }))
    }

    /// The report of everything fed.
    /// - Parameters:
    ///   - session: the session key.
    ///   - name: its name, if any.
    ///   - latestVersion: the session's latest version.
    package func report(session: String, name: String?, latestVersion: Int) -> SessionReport {
        SessionReport(session: session, name: name, latestVersion: latestVersion, entries: entries, versions: versions)
    }

    /// Entry indices per layer for `state`, reusing the index of an entry that is exactly as it
    /// was at the same place in ``indexedState`` and interning the others.
    private mutating func indexLayers(_ state: SessionState) -> [[Int]] {
        var result: [[Int]] = []
        for (l, layer) in state.layers.enumerated() {
            var indices: [Int] = []
            for (p, entry) in layer.entries.enumerated() {
                if l < indexedState.layers.count, p < indexedState.layers[l].entries.count, l < lastIndices.count,
                    p < lastIndices[l].count, indexedState.layers[l].entries[p].isExactly(entry)
                {
                    indices.append(lastIndices[l][p])
                } else {
                    entries.append(ReportEntry(entry))
                    indices.append(entries.count - 1)
                }
            }
            result.append(indices)
        }
        return result
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

    /// What differs between `before` and `after`: layers presented or dismissed, a layer's own
    /// fields (``LayerField``), entries added, removed or changed (by id within a layer), and the
    /// back button and menu.
    static func changes(from before: SessionState, to after: SessionState) -> [ReportChange] {
        var changes: [ReportChange] = []
        for index in 0..<max(before.layers.count, after.layers.count) {
            let old = index < before.layers.count ? before.layers[index] : nil
            let new = index < after.layers.count ? after.layers[index] : nil
            if old == nil, new != nil, index > 0 { changes.append(ReportChange(kind: .layerPresented, layer: index)) }
            if let old, let new {
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
            entryChanges(from: old?.entries ?? [], to: new?.entries ?? [], layer: index, into: &changes)
            if old != nil, new == nil { changes.append(ReportChange(kind: .layerDismissed, layer: index)) }
        }
        backChanges(from: before, to: after, into: &changes)
        return changes
    }

    /// The entries of one layer removed, added or changed (by id), appended to `changes`.
    private static func entryChanges(
        from oldEntries: [Entry], to newEntries: [Entry], layer index: Int, into changes: inout [ReportChange]
    ) {
        for entry in oldEntries where !newEntries.contains(where: { $0.id.hasSameScalars(as: entry.id) }) {
            changes.append(ReportChange(kind: .entryRemoved, layer: index, entry: entry.id))
        }
        for (position, entry) in newEntries.enumerated() {
            guard let previous = oldEntries.first(where: { $0.id.hasSameScalars(as: entry.id) }) else {
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
                    ReportChange(
                        kind: .fieldChanged, layer: index, entry: entry.id, field: "params",
                        before: previous.params.map(JSONValue.object) ?? .null,
                        after: entry.params.map(JSONValue.object) ?? .null))
            }
            for field in previous.item.changedFields(to: entry.item) {
                changes.append(
                    ReportChange(
                        kind: .fieldChanged, layer: index, entry: entry.id, field: field,
                        before: previous.item.jsonValue(of: field), after: entry.item.jsonValue(of: field)))
            }
        }
    }

    /// The back button's label and the back menu's titles, when they differ, appended to `changes`.
    private static func backChanges(
        from before: SessionState, to after: SessionState, into changes: inout [ReportChange]
    ) {
        let oldButton = before.backButton
        let newButton = after.backButton
        if !sameScalars(oldButton?.label, newButton?.label) || (oldButton != nil) != (newButton != nil) {
            changes.append(
                ReportChange(
                    kind: .backButton, before: oldButton.map { .string($0.label) } ?? .null,
                    after: newButton.map { .string($0.label) } ?? .null))
        }
        let oldMenu = before.backMenu?.map(\.title)
        let newMenu = after.backMenu?.map(\.title)
        let sameMenu: Bool =
            switch (oldMenu, newMenu) {
            case (nil, nil): true
            case (let a?, let b?): a.count == b.count && zip(a, b).allSatisfy { $0.hasSameScalars(as: $1) }
            default: false
            }
        if !sameMenu {
            changes.append(
                ReportChange(
                    kind: .backMenu, before: oldMenu.map { .array($0.map(JSONValue.string)) } ?? .null,
                    after: newMenu.map { .array($0.map(JSONValue.string)) } ?? .null))
        }
    }
}
