/// When each lint rule holds (<doc:Lint>), judged with the model's own resolution: nothing here
/// re-derives a label, a menu row or whether a back button exists.
extension SessionState {
    /// The `guard-bypassed` violation of `event` applied to this state (the state before it), or
    /// `nil`: the event removes entries that have a `popGuard` without consulting it.
    ///
    /// `entries.popped` with source back-menu (rule 9), gesture (rule 10) or content-gesture
    /// (<doc:PlatformGenerations>) and `layer.dismissed`
    /// with source gesture (rule 15) remove entries without `navigationBar(_:shouldPop:)`; a
    /// back-button tap consults the top entry's guard (a confirmed tap is the user's answer), and
    /// a programmatic pop or dismissal is the app's own decision. The subject is the guarded
    /// entries removed, bottom first.
    /// - Complexity: O(n) in the entries of the top layer.
    public func guardBypass(by event: EventBody) -> LintViolation? { guardBypassHit(by: event)?.violation }

    /// The violations of the rules judged on this state alone (all but `guard-bypassed`) that
    /// `options` runs, in <doc:Lint> order.
    ///
    /// The menu rules and the width rules judge the top layer's back menu and back button as the
    /// model resolves them (``backMenu``, ``NavigationItem/backMenuTitleResolution``,
    /// ``backButton``, `BackButton/label(fitting:columns:)`); `no-way-back` the top layer's top entry
    /// (``noBackButtonReason``); `ignored-back-setting` every live entry, in every layer;
    /// `label-lost-on-ios26` compares ``backButton(under:)`` for both generations, in a session
    /// judged under ``PlatformGeneration/ios14`` (``LintOptions/platform``, else ``platform``).
    /// - Complexity: O(n) in the number of live entries.
    public func lintViolations(_ options: LintOptions) -> [LintViolation] {
        var hits: [LintHit] = []
        lintHits(options, rules: LintRuleMask(options), into: &hits)
        return hits.map(\.violation)
    }

    /// The `model-divergence` violation of `event` applied to this state (the state before it),
    /// or `nil`: the event is a `stack.replaced` marked observed (``StackObservation``). The
    /// subject is the entries the replacement removed or added (bottom first: removed, then
    /// added), or its top entry when only items or params changed.
    public func modelDivergence(by event: EventBody) -> LintViolation? { modelDivergenceHit(by: event)?.violation }

    /// The ``modelDivergence(by:)`` hit, its message not yet written.
    package func modelDivergenceHit(by event: EventBody) -> LintHit? {
        guard case .stackReplaced(let entries, let observed?) = event else { return nil }
        let layer = observed.layer ?? topLayerIndex
        let before = layer < layers.count ? layers[layer].entries : []
        let removed = before.filter { old in !entries.contains { $0.id.hasSameScalars(as: old.id) } }
        let added = entries.filter { new in !before.contains { $0.id.hasSameScalars(as: new.id) } }
        var subject = (removed + added).map(\.id)
        if subject.isEmpty, let top = entries.last { subject = [top.id] }
        return LintHit(
            rule: .modelDivergence, entries: subject, detail: .modelDivergence(layer: layer, reason: observed.reason))
    }

    /// The ``guardBypass(by:)`` hit, its message not yet written.
    package func guardBypassHit(by event: EventBody) -> LintHit? {
        let removed: [String]
        let how: StaticString
        switch event {
        case .entriesPopped(let source, let ids, _):
            switch source {
            case .backMenu: how = "a back-menu selection (entries.popped, source back-menu)"
            case .gesture: how = "the interactive swipe back (entries.popped, source gesture)"
            case .contentGesture: how = "the iOS 26 content swipe (entries.popped, source content-gesture)"
            case .tabReselect: how = "a tap on the selected tab (entries.popped, source tab-reselect)"
            case .user: how = "a SwiftUI back button or swipe (entries.popped, source user)"
            case .backButton, .programmatic: return nil
            }
            removed = ids
        case .layerDismissed(let source, let ids):
            switch source {
            case .gesture: how = "a swipe-down dismissal (layer.dismissed, source gesture)"
            case .programmatic: return nil
            }
            removed = ids
        default:
            return nil
        }
        let top = topLayer.entries
        var guarded: [String] = []
        var prompts: [String] = []
        for id in removed {
            if let entry = top.last(where: { $0.id.hasSameScalars(as: id) }), let popGuard = entry.item.popGuard {
                guarded.append(id)
                prompts.append(popGuard.prompt)
            }
        }
        guard !guarded.isEmpty else { return nil }
        return LintHit(rule: .guardBypassed, entries: guarded, detail: .guardBypassed(how: how, prompts: prompts))
    }

    /// Appends to `hits` the ``lintViolations(_:)`` of this state, in the same order, without
    /// writing their messages; `rules` is `LintRuleMask(options)`, decided once per run. Under a
    /// tab bar each tab's stack is judged too, as it shows when selected (<doc:TabBars>): a menu
    /// defect of a tab off screen is one the user meets on switching to it.
    package func lintHits(_ options: LintOptions, rules: LintRuleMask, into hits: inout [LintHit]) {
        onScreenLintHits(options, rules: rules, into: &hits)
        offScreenTabLintHits(options, rules: rules, into: &hits)
    }

    /// The hits of each tab off screen, judged as its stack shows when selected (<doc:TabBars>).
    package func offScreenTabLintHits(_ options: LintOptions, rules: LintRuleMask, into hits: inout [LintHit]) {
        guard let tabBar else { return }
        for (index, tab) in tabBar.tabs.enumerated() where index != tabBar.selectedIndex {
            guard !tabBar.parked[index].entries.isEmpty, let view = try? viewingTab(tab.id) else { continue }
            view.onScreenLintHits(options, rules: rules, into: &hits)
        }
    }

    /// ``lintHits(_:rules:into:)`` of the layers on screen alone.
    private func onScreenLintHits(_ options: LintOptions, rules: LintRuleMask, into hits: inout [LintHit]) {
        if rules.contains(.blankMenuRow) || rules.contains(.untitledMenuRow) || rules.contains(.duplicateMenuRows),
            let positions = backMenuPositions
        {
            menuHits(positions, rules: rules, into: &hits)
        }
        if rules.contains(.ignoredBackSetting) {
            for layer in layers {
                for entry in layer.entries {
                    if let hit = Self.ignoredSettingHit(entry) { hits.append(hit) }
                }
            }
        }
        topLintHits(options, rules: rules, into: &hits)
    }

    /// The rules judged on the top of the top layer alone, O(1) per version: `no-way-back`,
    /// `untitled-screen` and the rules about the back button (`label-lost-on-ios26`, `label-falls-back`,
    /// `custom-label-truncated`).
    package func topLintHits(_ options: LintOptions, rules: LintRuleMask, into hits: inout [LintHit]) {
        // A hidden navigation bar hides its left items with it: under it, a left item is no way back.
        if rules.contains(.noWayBack), let reason = noBackButtonReason, reason != .atRoot, let top = topEntry,
            top.item.leftBarButtonItems == 0 || reason == .barHidden
        {
            hits.append(LintHit(rule: .noWayBack, entries: [top.id], detail: .noWayBack(reason)))
        }
        if rules.contains(.untitledScreen), let top = topEntry, !topLayer.navigationBarHidden,
            top.item.title?.isEmpty ?? true
        {
            hits.append(
                LintHit(rule: .untitledScreen, entries: [top.id], detail: .untitledScreen(empty: top.item.title != nil))
            )
        }
        buttonHits(options, rules: rules, into: &hits)
    }

    /// The `ignored-back-setting` hit of `entry` (judged on every live entry), or `nil`.
    package static func ignoredSettingHit(_ entry: Entry) -> LintHit? {
        let item = entry.item
        guard let custom = item.backBarButtonItem,
            item.backButtonTitle != nil || item.backButtonDisplayMode != .default
        else { return nil }
        return LintHit(
            rule: .ignoredBackSetting, entries: [entry.id],
            detail: .ignoredSetting(
                customTitle: custom.title, backButtonTitle: item.backButtonTitle, mode: item.backButtonDisplayMode))
    }

    /// The hits of `entry`'s own back-menu row, when it is one (`blank-menu-row`,
    /// `untitled-menu-row`), appended to `hits`; returns the row's title and its source
    /// (``NavigationItem/backMenuTitleResolution``).
    @discardableResult
    package static func rowHits(_ entry: Entry, rules: LintRuleMask, into hits: inout [LintHit]) -> String {
        let (title, source) = entry.item.backMenuTitleResolution
        if rules.contains(.blankMenuRow), title.isEmpty {
            hits.append(LintHit(rule: .blankMenuRow, entries: [entry.id], detail: .blankRow(source)))
        }
        if rules.contains(.untitledMenuRow), source == .placeholder {
            hits.append(LintHit(rule: .untitledMenuRow, entries: [entry.id], detail: .untitledRow))
        }
        return title
    }

    /// The menu rules (`blank-menu-row`, `untitled-menu-row`, `duplicate-menu-rows`) over the
    /// rows of ``backMenu``, whose entries are the top layer's `positions` (``backMenuPositions``),
    /// nearest first; each row's title and its source are ``NavigationItem/backMenuTitleResolution``.
    private func menuHits(_ positions: ClosedRange<Int>, rules: LintRuleMask, into hits: inout [LintHit]) {
        let entries = topLayer.entries
        var titles: [String] = []
        titles.reserveCapacity(positions.count)
        for index in positions.reversed() {
            titles.append(Self.rowHits(entries[index], rules: rules, into: &hits))
        }
        guard rules.contains(.duplicateMenuRows), titles.count >= 2 else { return }
        let upper = positions.upperBound
        for rows in Self.sharedTitles(titles) {
            hits.append(
                LintHit(
                    rule: .duplicateMenuRows, entries: rows.map { entries[upper - $0].id },
                    detail: .duplicateRows(title: titles[rows[0]])))
        }
    }

    /// The groups of rows (0-based, nearest first) that share a non-empty title, compared with
    /// `==` as the menu shows them: each group's rows in order, the groups in the order of their
    /// nearest rows. Pairwise for a short menu, through a dictionary for a long one.
    private static func sharedTitles(_ titles: [String]) -> [[Int]] {
        var groups: [[Int]] = []
        guard titles.count > 32 else {
            for (row, title) in titles.enumerated() where !title.isEmpty {
                guard let next = titles[(row + 1)...].firstIndex(of: title), !titles[..<row].contains(title) else {
                    continue
                }
                groups.append([row] + (next..<titles.count).filter { titles[$0] == title })
            }
            return groups
        }
        var group: [String: Int] = [:]
        for (row, title) in titles.enumerated() where !title.isEmpty {
            if let index = group[title] {
                groups[index].append(row)
            } else {
                group[title] = groups.count
                groups.append([row])
            }
        }
        return groups.filter { $0.count > 1 }
    }

    /// The rules about the back button: `label-lost-on-ios26`, `label-falls-back` and
    /// `custom-label-truncated`, judged under `options.platform ?? platform`.
    private func buttonHits(_ options: LintOptions, rules: LintRuleMask, into hits: inout [LintHit]) {
        let generation = options.platform ?? platform
        // The button under the session's generation, made once for every rule below.
        guard let button = backButton(under: generation) else { return }
        if rules.contains(.labelLostOnIOS26), generation == .ios14, !button.label.isEmpty,
            let later = backButton(under: .ios26), later.label != button.label
        {
            let backItem = topLayer.entries[topLayer.entries.count - 2]
            hits.append(
                LintHit(
                    rule: .labelLostOnIOS26, entries: [backItem.id],
                    detail: .labelLost(now: button.label, later: later.label)))
        }
        guard let width = options.width, rules.contains(.labelFallsBack) || rules.contains(.customLabelTruncated)
        else { return }
        let entries = topLayer.entries
        let back = entries.count - 2  // (read in place: a copy of the entry costs its retains)
        if rules.contains(.labelFallsBack) {
            let shown = button.label(fitting: width)
            if shown != button.label {
                hits.append(
                    LintHit(
                        rule: .labelFallsBack, entries: [entries[back].id],
                        detail: .labelFallsBack(label: button.label, shown: shown, width: width)))
            }
        }
        if rules.contains(.customLabelTruncated), entries[back].item.backBarButtonItem != nil,
            !LintText.fits(button.label, width: width)
        {
            hits.append(
                LintHit(
                    rule: .customLabelTruncated, entries: [entries[back].id],
                    detail: .customLabelTruncated(label: button.label, width: width)))
        }
    }
}
