/// One lint rule holding at one version for one subject, with what its message will say but not
/// the message itself: the linter judges every rule after every version, and writes a message
/// only when a run of versions opens (``SessionLinter``), so most versions build no text.
package struct LintHit {
    /// The rule that holds.
    package var rule: LintRule
    /// The subject: the entry ids named (see ``LintFinding/entries``).
    package var entries: [String]
    /// The values the message names.
    package var detail: Detail

    /// What a rule's message names, besides the subject's ids.
    package enum Detail {
        /// `blank-menu-row`: the field that gave the row its `""`.
        case blankRow(BackMenuTitleSource)
        /// `untitled-menu-row`.
        case untitledRow
        /// `untitled-screen`: whether the title is `""` (else `nil`).
        case untitledScreen(empty: Bool)
        /// `duplicate-menu-rows`: the title the rows share.
        case duplicateRows(title: String)
        /// `guard-bypassed`: how the entries were removed (a fixed phrase) and each one's prompt.
        case guardBypassed(how: StaticString, prompts: [String])
        /// `no-way-back`: why there is no back button.
        case noWayBack(NoBackButtonReason)
        /// `ignored-back-setting`: the custom item's title and the settings UIKit ignores.
        case ignoredSetting(customTitle: String?, backButtonTitle: String?, mode: BackButtonDisplayMode)
        /// `label-lost-on-ios26`: the label shown now and the one iOS 26 would show.
        case labelLost(now: String, later: String)
        /// `label-falls-back`: the preferred label, the one shown instead, and the width.
        case labelFallsBack(label: String, shown: String, width: Int)
        /// `custom-label-truncated`: the custom item's title and the width.
        case customLabelTruncated(label: String, width: Int)
        /// `model-divergence`: the layer replaced and the rules' reason.
        case modelDivergence(layer: Int, reason: String)
    }

    /// The violation this hit is, its message written.
    package var violation: LintViolation { LintViolation(rule: rule, entries: entries, message: message) }

    /// What is wrong, naming the offending value (``LintFinding/message``).
    package var message: String {
        let first = entries.first.map(LintText.id) ?? ""
        switch detail {
        case .blankRow(let source):
            return "blank back-menu row: \(source.rawValue) \"\" on entry \(first)"
        case .untitledRow:
            return
                "back-menu row says \"Back\": entry \(first) has no menuTitle, backBarButtonItem title, backButtonTitle or title"
        case .untitledScreen(let empty):
            return "entry \(first) is on screen with no title (title is \(empty ? "\"\"" : "nil")): its navigation bar shows none"
        case .duplicateRows(let title):
            return
                "\(entries.count) back-menu rows say \(LintText.value(title)): entries \(LintText.ids(entries))"
        case .guardBypassed(let how, let prompts):
            let named = zip(entries, prompts).prefix(LintText.maximumListed).map {
                "\(LintText.id($0)) (popGuard \(LintText.value($1)))"
            }
            return "\(how) removed \(LintText.list(named, total: entries.count)) without consulting the guard"
        case .noWayBack(.barHidden):
            return
                "entry \(first) is above its layer's root but the navigation bar is hidden: no back button and no left items show"
        case .noWayBack(let reason):
            return
                "entry \(first) is above its layer's root but has no back button (\(reason.rawValue)) and no left items"
        case .ignoredSetting(let customTitle, let backButtonTitle, let mode):
            var ignored: [String] = []
            if let backButtonTitle { ignored.append("backButtonTitle \(LintText.value(backButtonTitle))") }
            if mode != .default { ignored.append("backButtonDisplayMode \(mode.rawValue)") }
            let custom = customTitle.map { "title \(LintText.value($0))" } ?? "no title"
            return
                "entry \(first) has a backBarButtonItem (\(custom)), so UIKit ignores its \(ignored.joined(separator: " and "))"
        case .labelLost(let now, let later):
            return
                "back button label \(LintText.value(now)) (from entry \(first)) would not show on iOS 26: \(later.isEmpty ? "the chevron alone shows there" : LintText.value(later) + " shows there")"
        case .labelFallsBack(let label, let shown, let width):
            return
                "back button label \(LintText.value(label)) (from entry \(first)) does not fit \(width) columns: \(shown.isEmpty ? "the chevron alone" : LintText.value(shown)) shows instead"
        case .customLabelTruncated(let label, let width):
            return
                "custom back item title \(LintText.value(label)) on entry \(first) is wider than \(width) columns and has no fallbacks: it is cut"
        case .modelDivergence(let layer, let reason):
            return
                "UIKit was observed to change layer \(layer) (entries \(LintText.ids(entries))) in a way the rules refuse: \(LintText.value(reason)); the log keeps the observed stack (stack.replaced, observed)"
        }
    }
}

/// The rules a lint run judges, as bits (one per ``LintRule``), decided once from its
/// ``LintOptions`` rather than looked up in a set at every version.
package struct LintRuleMask {
    private var bits: UInt32 = 0

    /// The rules that `options` runs (``LintOptions/runs(_:)``).
    package init(_ options: LintOptions) {
        for rule in LintRule.allCases where options.runs(rule) { bits |= Self.bit(rule) }
    }

    /// Whether `rule` runs.
    package func contains(_ rule: LintRule) -> Bool { bits & Self.bit(rule) != 0 }

    private static func bit(_ rule: LintRule) -> UInt32 {
        switch rule {
        case .blankMenuRow: 1 << 0
        case .untitledMenuRow: 1 << 1
        case .duplicateMenuRows: 1 << 2
        case .guardBypassed: 1 << 3
        case .noWayBack: 1 << 4
        case .ignoredBackSetting: 1 << 5
        case .labelFallsBack: 1 << 6
        case .customLabelTruncated: 1 << 7
        case .labelLostOnIOS26: 1 << 8
        case .modelDivergence: 1 << 9
        case .untitledScreen: 1 << 10
        }
    }
}
