/// One lint rule holding at one version for one subject, before versions are joined into runs
/// (``LintFinding``).
public struct LintViolation: Sendable, Hashable {
    /// The rule that holds.
    public var rule: LintRule
    /// The subject: the entry ids named (see ``LintFinding/entries``).
    public var entries: [String]
    /// What is wrong, naming the offending value (see ``LintFinding/message``).
    public var message: String

    /// Creates a violation.
    public init(rule: LintRule, entries: [String], message: String) {
        self.rule = rule
        self.entries = entries
        self.message = message
    }
}

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
    public func guardBypass(by event: EventBody) -> LintViolation? {
        let removed: [String]
        let how: String
        switch event {
        case .entriesPopped(let source, let ids, _):
            switch source {
            case .backMenu: how = "a back-menu selection (entries.popped, source back-menu)"
            case .gesture: how = "the interactive swipe back (entries.popped, source gesture)"
            case .contentGesture: how = "the iOS 26 content swipe (entries.popped, source content-gesture)"
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
        var guarded: [(id: String, prompt: String)] = []
        for id in removed {
            if let entry = top.last(where: { $0.id.hasSameScalars(as: id) }), let popGuard = entry.item.popGuard {
                guarded.append((id, popGuard.prompt))
            }
        }
        guard !guarded.isEmpty else { return nil }
        let named = guarded.map { "\(LintText.id($0.id)) (popGuard \(LintText.value($0.prompt)))" }
        return LintViolation(
            rule: .guardBypassed, entries: guarded.map(\.id),
            message: "\(how) removed \(LintText.list(named)) without consulting the guard")
    }

    /// The violations of the rules judged on this state alone (all but `guard-bypassed`) that
    /// `options` runs, in <doc:Lint> order.
    ///
    /// The menu rules and the width rules judge the top layer's back menu and back button as the
    /// model resolves them (``backMenu``, ``NavigationItem/backMenuTitleResolution``,
    /// ``backButton``, ``BackButton/label(fitting:columns:)``); `no-way-back` the top layer's top entry
    /// (``noBackButtonReason``); `ignored-back-setting` every live entry, in every layer;
    /// `label-lost-on-ios26` compares ``backButton(under:)`` for both generations, in a session
    /// judged under ``PlatformGeneration/ios14`` (``LintOptions/platform``, else ``platform``).
    /// - Complexity: O(n) in the number of live entries.
    public func lintViolations(_ options: LintOptions) -> [LintViolation] {
        var found: [LintViolation] = []
        let blank = options.runs(.blankMenuRow)
        let untitled = options.runs(.untitledMenuRow)
        let duplicates = options.runs(.duplicateMenuRows)
        if blank || untitled || duplicates, let menu = backMenu {
            let entries = topLayer.entries
            for row in menu where blank || untitled {
                guard let entry = entries.last(where: { $0.id.hasSameScalars(as: row.entry) }) else { continue }
                let (title, source) = entry.item.backMenuTitleResolution
                if blank, title.isEmpty {
                    found.append(
                        LintViolation(
                            rule: .blankMenuRow, entries: [row.entry],
                            message: "blank back-menu row: \(source.rawValue) \"\" on entry \(LintText.id(row.entry))"))
                }
                if untitled, source == .placeholder {
                    found.append(
                        LintViolation(
                            rule: .untitledMenuRow, entries: [row.entry],
                            message:
                                "back-menu row says \"Back\": entry \(LintText.id(row.entry)) has no menuTitle, backBarButtonItem title, backButtonTitle or title"
                        ))
                }
            }
            if duplicates, menu.count >= 2 {
                var seen: Set<String> = []
                for (index, row) in menu.enumerated() where !row.title.isEmpty && !seen.contains(row.title) {
                    let same = menu[(index + 1)...].filter { $0.title == row.title }
                    guard !same.isEmpty else { continue }
                    seen.insert(row.title)
                    let ids = [row.entry] + same.map(\.entry)
                    found.append(
                        LintViolation(
                            rule: .duplicateMenuRows, entries: ids,
                            message:
                                "\(ids.count) back-menu rows say \(LintText.value(row.title)): entries \(LintText.list(ids.map(LintText.id)))"
                        ))
                }
            }
        }
        if options.runs(.noWayBack), let reason = noBackButtonReason, reason != .atRoot, let top = topEntry,
            top.item.leftBarButtonItems == 0
        {
            found.append(
                LintViolation(
                    rule: .noWayBack, entries: [top.id],
                    message:
                        "entry \(LintText.id(top.id)) is above its layer's root but has no back button (\(reason.rawValue)) and no left items"
                ))
        }
        if options.runs(.ignoredBackSetting) {
            for layer in layers {
                for entry in layer.entries {
                    guard let custom = entry.item.backBarButtonItem else { continue }
                    var ignored: [String] = []
                    if let title = entry.item.backButtonTitle {
                        ignored.append("backButtonTitle \(LintText.value(title))")
                    }
                    if entry.item.backButtonDisplayMode != .default {
                        ignored.append("backButtonDisplayMode \(entry.item.backButtonDisplayMode.rawValue)")
                    }
                    guard !ignored.isEmpty else { continue }
                    let customTitle = custom.title.map { "title \(LintText.value($0))" } ?? "no title"
                    found.append(
                        LintViolation(
                            rule: .ignoredBackSetting, entries: [entry.id],
                            message:
                                "entry \(LintText.id(entry.id)) has a backBarButtonItem (\(customTitle)), so UIKit ignores its \(ignored.joined(separator: " and "))"
                        ))
                }
            }
        }
        let generation = options.platform ?? platform
        if options.runs(.labelLostOnIOS26), generation == .ios14, let now = backButton(under: .ios14),
            !now.label.isEmpty,
            let later = backButton(under: .ios26), later.label != now.label
        {
            let backItem = topLayer.entries[topLayer.entries.count - 2]
            found.append(
                LintViolation(
                    rule: .labelLostOnIOS26, entries: [backItem.id],
                    message:
                        "back button label \(LintText.value(now.label)) (from entry \(LintText.id(backItem.id))) would not show on iOS 26: \(later.label.isEmpty ? "the chevron alone shows there" : LintText.value(later.label) + " shows there")"
                ))
        }
        if let width = options.width, options.runs(.labelFallsBack) || options.runs(.customLabelTruncated),
            let button = backButton(under: generation)
        {
            let entries = topLayer.entries
            let backItem = entries[entries.count - 2]
            if options.runs(.labelFallsBack) {
                let shown = button.label(fitting: width)
                if shown != button.label {
                    found.append(
                        LintViolation(
                            rule: .labelFallsBack, entries: [backItem.id],
                            message:
                                "back button label \(LintText.value(button.label)) (from entry \(LintText.id(backItem.id))) does not fit \(width) columns: \(shown.isEmpty ? "the chevron alone" : LintText.value(shown)) shows instead"
                        ))
                }
            }
            if options.runs(.customLabelTruncated), backItem.item.backBarButtonItem != nil,
                !LintText.fits(button.label, width: width)
            {
                found.append(
                    LintViolation(
                        rule: .customLabelTruncated, entries: [backItem.id],
                        message:
                            "custom back item title \(LintText.value(button.label)) on entry \(LintText.id(backItem.id)) is wider than \(width) columns and has no fallbacks: it is cut"
                    ))
            }
        }
        return found
    }
}

/// How lint messages show text from the log.
enum LintText {
    /// The longest text a message quotes whole, in characters; longer text is cut with `…`.
    static let maximumQuoted = 80

    /// `"text"`: control characters, line and paragraph separators and bidirectional controls
    /// escaped Swift-style (`\n`, `\u{1B}`), `"` and `\` escaped, cut at ``maximumQuoted``
    /// characters with `…`. `""` stays visibly empty.
    static func value(_ text: String) -> String { "\"" + escaped(text, quote: "\"") + "\"" }

    /// `'id'`, escaped as ``value(_:)`` with `'` as the quote.
    static func id(_ text: String) -> String { "'" + escaped(text, quote: "'") + "'" }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }

    /// Whether `text` fits `width`, measured as the model measures labels
    /// (``BackButton/label(fitting:columns:)``), so that lint and `show` agree on what fits.
    static func fits(_ text: String, width: Int) -> Bool {
        BackButton(label: text, fallbacks: [""]).label(fitting: width) == text
    }

    /// `text` escaped for a message (``DisplayText/escaped(_:quote:)``), cut after
    /// ``maximumQuoted`` characters with `…`.
    private static func escaped(_ text: String, quote: Unicode.Scalar) -> String {
        let cut = text.count > maximumQuoted
        return DisplayText.escaped(cut ? String(text.prefix(maximumQuoted)) : text, quote: quote) + (cut ? "…" : "")
    }
}
