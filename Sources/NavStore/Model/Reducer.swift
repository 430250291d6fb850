/// The version of the rules in this file and in the label and menu resolution. Snapshots record
/// it; a snapshot written under another version is ignored and rebuilt (DESIGN §5).
public let navigationRulesVersion = 1

extension SessionState {
    /// Validates `command` against this state and returns the event it produces (DESIGN §3.1).
    ///
    /// - Returns: the event to append: the fact, or a veto (`pop.vetoed`, `dismiss.vetoed`) when a
    ///   guard refuses; `nil` when the command is accepted but changes nothing (a `pop-to` the
    ///   top entry, a `pop-to-root` at the root, an update to the item the entry already has).
    /// - Throws: ``NavigationError`` naming the ids and the stack when the rules refuse it.
    /// - Complexity: O(n) in the number of live entries.
    public func decide(_ command: NavigationCommand) throws(NavigationError) -> EventBody? {
        let entries = topLayer.entries
        switch command {
        case .push(let entry):
            try requireNotLive(entry.id)
            return .entryPushed(entry)

        case .pop(let source, let confirmed):
            guard let top = entries.last else { throw .emptyStack(action: "pop") }
            switch source {
            case .backMenu:
                throw .invalidSource(operation: "pop", source: source.rawValue,
                                     accepted: ["back-button", "gesture", "programmatic"])
            case .backButton, .gesture:
                if let reason = noBackButtonReason {
                    if reason == .atRoot && entries.count == 1 { throw rootError(top.id) }
                    throw .noBackButton(source: source, top: top.id, reason: reason.rawValue, stack: stackDescription)
                }
                if source == .backButton, !confirmed, let popGuard = top.item.popGuard {
                    return .popVetoed(entry: top.id, prompt: popGuard.prompt, source: source)
                }
            case .programmatic:
                guard entries.count >= 2 else { throw rootError(top.id) }
            }
            return .entriesPopped(source: source, ids: [top.id], confirmed: source == .backButton && confirmed && top.item.popGuard != nil)

        case .popTo(let id, let source):
            switch source {
            case .programmatic:
                guard let index = entries.firstIndex(where: { $0.id.hasSameScalars(as: id) }) else {
                    throw .notInTopLayer(id: id, stack: stackDescription)
                }
                return popAbove(index, source: source)
            case .backMenu:
                guard let menu = backMenu else { throw .noBackMenu(stack: stackDescription) }
                guard menu.contains(where: { $0.entry.hasSameScalars(as: id) }) else {
                    throw .notInBackMenu(id: id, menu: menu.map(\.entry))
                }
                return popAbove(entries.firstIndex { $0.id.hasSameScalars(as: id) }!, source: source)
            case .backButton, .gesture:
                throw .invalidSource(operation: "pop-to", source: source.rawValue, accepted: ["back-menu", "programmatic"])
            }

        case .popToRoot:
            guard !entries.isEmpty else { return nil }
            return popAbove(0, source: .programmatic)

        case .menuSelect(let row):
            guard let menu = backMenu else { throw .noBackMenu(stack: stackDescription) }
            guard row >= 1, row <= menu.count else { throw .menuRowOutOfRange(row: row, rows: menu.count) }
            return try decide(.popTo(entryID: menu[row - 1].entry, source: .backMenu))

        case .back:
            guard let top = entries.last else { throw .emptyStack(action: "go back") }
            if entries.count >= 2 { return .entriesPopped(source: .programmatic, ids: [top.id], confirmed: false) }
            if layers.count > 1 { return .layerDismissed(source: .programmatic, ids: entries.map(\.id)) }
            throw .nowhereToGoBack(root: top.id)

        case .setStack(let replacement):
            guard !replacement.isEmpty else { throw .emptyStackReplacement }
            var seen = Set<ExactKey>()
            for entry in replacement {
                guard seen.insert(ExactKey(entry.id)).inserted else { throw .duplicateEntryInReplacement(id: entry.id) }
                if let (layer, _) = location(of: entry.id), layer != topLayerIndex {
                    throw .entryAlreadyLive(id: entry.id, layer: layer, stack: stackDescription)
                }
            }
            return .stackReplaced(replacement)

        case .update(let id, let item):
            guard let (layer, position) = location(of: id) else { throw .entryNotLive(id: id, stack: stackDescription) }
            let old = layers[layer].entries[position].item
            if old.changedFields(to: item).isEmpty { return nil }
            return .itemUpdated(id: id, item: item, fields: old.changedFields(to: item))

        case .present(let entry, let modal):
            guard !layers[0].entries.isEmpty else { throw .presentOverEmptyStack }
            try requireNotLive(entry.id)
            return .layerPresented(entry, modalInPresentation: modal)

        case .dismiss(let source):
            guard layers.count > 1 else { throw .noModalLayer(stack: stackDescription) }
            if source == .gesture && topLayer.modalInPresentation {
                return .dismissVetoed(entry: entries.first?.id ?? "", source: source)
            }
            return .layerDismissed(source: source, ids: entries.map(\.id))

        case .markRestored:
            return .sessionRestored(RestoreMarker())
        }
    }

    /// Checks that `event` can follow this state: the invariants ``applying(_:)`` relies on
    /// (ids live or not, pops of the actual top entries, no root popped). Used to validate
    /// imported logs before anything is written.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` saying what does not fit.
    public func validate(_ event: EventBody) throws(NavigationError) {
        let entries = topLayer.entries
        func fail(_ message: String) -> NavigationError { .invalidEvent("\(event.type): \(message) (stack: \(stackDescription))") }
        switch event {
        case .sessionStarted, .sessionRestored:
            return
        case .entryPushed(let entry):
            if location(of: entry.id) != nil { throw fail("entry '\(entry.id)' is already live") }
        case .entriesPopped(_, let ids, _):
            guard !ids.isEmpty else { throw fail("no ids popped") }
            guard ids.count < entries.count, sameIDs(entries.suffix(ids.count).map(\.id), ids) else {
                throw fail("popped ids \(ids) are not the top entries above the root")
            }
        case .popVetoed(let id, _, _):
            guard let top = entries.last, top.id.hasSameScalars(as: id) else { throw fail("vetoed entry '\(id)' is not the top entry") }
            guard entries.last?.item.popGuard != nil else { throw fail("vetoed entry '\(id)' has no pop guard") }
        case .stackReplaced(let replacement):
            // An empty base layer is a state (a session's first); a modal layer always has its root.
            guard !replacement.isEmpty || layers.count == 1 else { throw fail("empty replacement of a modal layer") }
            var seen = Set<ExactKey>()
            for entry in replacement {
                guard seen.insert(ExactKey(entry.id)).inserted else { throw fail("entry '\(entry.id)' listed twice") }
                if let (layer, _) = location(of: entry.id), layer != topLayerIndex {
                    throw fail("entry '\(entry.id)' is live in layer \(layer)")
                }
            }
        case .itemUpdated(let id, _, _):
            if location(of: id) == nil { throw fail("entry '\(id)' is not live") }
        case .layerPresented(let entry, _):
            if layers[0].entries.isEmpty { throw fail("presented over an empty base layer") }
            if location(of: entry.id) != nil { throw fail("entry '\(entry.id)' is already live") }
        case .layerDismissed(_, let ids):
            guard layers.count > 1 else { throw fail("no modal layer to dismiss") }
            guard sameIDs(entries.map(\.id), ids) else { throw fail("dismissed ids \(ids) are not the top layer's") }
        case .dismissVetoed(let id, _):
            guard layers.count > 1 else { throw fail("no modal layer to veto a dismissal of") }
            guard topLayer.modalInPresentation, let root = entries.first, root.id.hasSameScalars(as: id) else {
                throw fail("'\(id)' is not the root of a modalInPresentation layer")
            }
        }
    }

    /// Folds one event into the state: the only way state changes (DESIGN §4).
    ///
    /// Pure and total: it never fails on an event already in the log. Vetoes and markers leave
    /// the state as it was.
    /// - Complexity: O(n) in the number of live entries for updates, O(1) amortised for push and pop.
    public mutating func apply(_ event: EventBody) {
        let top = layers.count - 1
        switch event {
        case .sessionStarted, .sessionRestored, .popVetoed, .dismissVetoed:
            return
        case .entryPushed(let entry):
            layers[top].entries.append(entry)
        case .entriesPopped(_, let ids, _):
            let count = min(ids.count, max(layers[top].entries.count - 1, 0))
            layers[top].entries.removeLast(count)
        case .stackReplaced(let entries):
            layers[top].entries = entries
        case .itemUpdated(let id, let item, _):
            if let (layer, position) = location(of: id) { layers[layer].entries[position].item = item }
        case .layerPresented(let entry, let modal):
            layers.append(Layer(entries: [entry], modalInPresentation: modal))
        case .layerDismissed:
            if layers.count > 1 { layers.removeLast() }
        }
    }

    /// The state after `event` (see ``apply(_:)``).
    public func applying(_ event: EventBody) -> SessionState {
        var copy = self
        copy.apply(event)
        return copy
    }

    /// The state after folding `events` in order into `initial` (DESIGN §4: `fold(apply, initial, events)`).
    public static func fold(_ events: some Sequence<EventBody>, from initial: SessionState = SessionState()) -> SessionState {
        var state = initial
        for event in events { state.apply(event) }
        return state
    }

    private func requireNotLive(_ id: String) throws(NavigationError) {
        if let (layer, _) = location(of: id) {
            throw .entryAlreadyLive(id: id, layer: layer, stack: stackDescription)
        }
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

extension NavigationItem {
    /// The JSON keys (DESIGN §3) of the fields that differ between this item and `other`, texts
    /// compared by their Unicode scalars (a title changed to a canonically equivalent spelling
    /// is a change).
    public func changedFields(to other: NavigationItem) -> [String] {
        var fields: [String] = []
        if !sameScalars(title, other.title) { fields.append("title") }
        if !sameScalars(backButtonTitle, other.backButtonTitle) { fields.append("backButtonTitle") }
        switch (backBarButtonItem, other.backBarButtonItem) {
        case (nil, nil): break
        case let (a?, b?) where a.isExactly(b): break
        default: fields.append("backBarButtonItem")
        }
        if backButtonDisplayMode != other.backButtonDisplayMode { fields.append("backButtonDisplayMode") }
        if hidesBackButton != other.hidesBackButton { fields.append("hidesBackButton") }
        if leftBarButtonItems != other.leftBarButtonItems { fields.append("leftBarButtonItems") }
        if leftItemsSupplementBackButton != other.leftItemsSupplementBackButton { fields.append("leftItemsSupplementBackButton") }
        if style != other.style { fields.append("style") }
        if !sameScalars(menuTitle, other.menuTitle) { fields.append("menuTitle") }
        if !sameScalars(popGuard?.prompt, other.popGuard?.prompt) { fields.append("popGuard") }
        return fields
    }
}
