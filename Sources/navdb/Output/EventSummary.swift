import NavStore
import NavStoreTools

/// One-line human summaries of events for `history` and `replay`, e.g. `push Inbox [A]`,
/// `push Address [address] {popGuard="Discard?"}` (every item setting that is not its default),
/// `popped C, B (back-menu)`, `vetoed pop of D: "Discard draft?"`, `update layer 1:
/// modalInPresentation=true`, `cancelled pop of B (gesture): ...`. Popped and dismissed ids are
/// listed top first, the order they leave the screen.
enum EventSummary {
    static func summary(_ body: EventBody) -> String {
        switch body {
        case .sessionStarted(let name, let platform):
            return (name.map { "started \(Text.quoted($0))" } ?? "started") + " (platform \(platform.rawValue))"
        case .entryPushed(let entry):
            return "push \(Text.display(entry.item.title)) [\(Text.escaped(entry.id))]" + settings(entry.item)
                + route(entry)
        case .entriesPopped(let source, let ids, let confirmed):
            return "popped \(list(ids.reversed())) (\(source.rawValue)\(confirmed ? ", confirmed" : ""))"
        case .popVetoed(let entry, let prompt, let source):
            return "vetoed pop of \(Text.escaped(entry)): \(Text.quoted(prompt))"
                + (source == .backButton ? "" : " (\(source.rawValue))")
        case .stackReplaced(let entries, let observed):
            let stack =
                "["
                + entries.map { entry in
                    Text.escaped(entry.id) + settings(entry.item, includingTitle: true) + route(entry)
                }.joined(separator: ", ") + "]"
            guard let observed else { return "set stack " + stack }
            // A fact the rules refused (NavStore.docc/Recording.md): the mark and the reason.
            return "set stack " + (observed.layer.map { "of layer \($0) " } ?? "") + stack
                + " (observed; the rules refused it: \(Text.escaped(observed.reason)))"
        case .itemUpdated(let id, let item, let fields):
            let changes = fields.map { "\($0)=\(ItemText.value(of: $0, in: item))" }
            return "update \(Text.escaped(id))"
                + (changes.isEmpty ? " (no change)" : ": " + changes.joined(separator: ", "))
        case .layerPresented(let entry, let modal):
            return "present \(Text.display(entry.item.title)) [\(Text.escaped(entry.id))]" + settings(entry.item)
                + route(entry)
                + (modal ? " (modal in presentation)" : "")
        case .layerDismissed(let source, let ids):
            return "dismissed [\(list(ids))] (\(source.rawValue))"
        case .dismissVetoed(let entry, let source):
            return "vetoed dismissal of [\(Text.escaped(entry))] (\(source.rawValue)): modal in presentation"
        case .sessionRestored(let marker):
            return restored(marker)
        case .layerUpdated(let layer, let hidden, let modal, let fields):
            let values = fields.map { field in
                "\(field.rawValue)=\(field == .navigationBarHidden ? hidden : modal)"
            }
            return "update layer \(layer): " + values.joined(separator: ", ")
        case .popCancelled(let entry, let source):
            return "cancelled pop of \(Text.escaped(entry)) (\(source.rawValue)): the swipe began and was let go"
        case .callsDropped(let count, let firstAt, let lastAt):
            let span =
                firstAt == lastAt
                ? "at \(Timestamp.format(firstAt))" : "from \(Timestamp.format(firstAt)) to \(Timestamp.format(lastAt))"
            return "dropped \(count) recorder call\(count == 1 ? "" : "s") (queue full) \(span)"
        case .tabsReplaced(let tabs) where tabs.isEmpty:
            return "tab bar removed"
        case .tabsReplaced(let tabs):
            return "tabs [\(tabs.map(StateText.tabText).joined(separator: ", "))]"
        case .tabSelected(let id, let source):
            return "select tab \(Text.escaped(id)) (\(source.rawValue))"
        case .inTab(let tab, let event):
            // Which tab's stack, off screen, the event changed (<doc:TabBars>).
            return "in tab \(Text.escaped(tab)): " + summary(event)
        }
    }

    /// `restored version 3 (attempt 1)`, `restored version 3 (fallback: version 5 went
    /// unacknowledged; attempt 1)`, `acknowledged the restore of version 3; the events after
    /// this bring the log in line`; `restored` for a marker that names no version.
    static func restored(_ marker: RestoreMarker) -> String {
        guard let version = marker.restoredVersion else { return "restored" }
        let state = version == 0 ? "the base root alone" : "version \(version)"
        if marker.acknowledged {
            return "acknowledged the restore of \(state); the events after this bring the log in line"
        }
        var notes: [String] = []
        if marker.isFallback {
            let failed = marker.failedVersions.map(String.init)
            notes.append(
                "fallback: version\(failed.count == 1 ? "" : "s") \(failed.joined(separator: " and ")) went unacknowledged"
            )
        }
        if let attempt = marker.attempt { notes.append("attempt \(attempt)") }
        return "restored \(state)" + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")")
    }

    private static func list(_ ids: some Sequence<String>) -> String {
        ids.map(Text.escaped).joined(separator: ", ")
    }

    /// ` {backButtonTitle=Shop, popGuard="Discard?"}`: every item setting that differs from its
    /// default (NavStore.docc/Rules.md), the title left out where the summary shows it already; `""` when none.
    private static func settings(_ item: NavigationItem, includingTitle: Bool = false) -> String {
        let keys = NavigationItem().changedFields(to: item).filter { includingTitle || $0 != "title" }
        guard !keys.isEmpty else { return "" }
        return " {" + keys.map { "\($0)=\(ItemText.value(of: $0, in: item))" }.joined(separator: ", ") + "}"
    }

    private static func route(_ entry: Entry) -> String {
        entry.route.map { " → \(Text.display($0))" } ?? ""
    }
}

/// Human text of navigation items: the fields that are set, by their NavStore.docc/Rules.md names.
enum ItemText {
    /// The value of the field named `key` (a NavStore.docc/Rules.md JSON key) in `item`, for display
    /// (``NavigationItemField/displayValue(in:)``).
    static func value(of key: String, in item: NavigationItem) -> String {
        NavigationItemField.named(key)?.displayValue(in: item) ?? "?"
    }

    /// The set fields other than the title, e.g. `backButtonTitle=Mailboxes displayMode=minimal`;
    /// `-` when none is set.
    static func details(_ item: NavigationItem) -> String {
        let unset = NavigationItem()
        let keys = unset.changedFields(to: item).filter { $0 != "title" }
        return keys.isEmpty ? "-" : keys.map { "\($0)=\(value(of: $0, in: item))" }.joined(separator: " ")
    }
}

/// Human event lines in fixed-width columns (so they stream without a first pass):
/// version, time, type, summary.
enum EventLines {
    static let header =
        Text.padded("version", to: 8) + "  " + Text.padded("time", to: 24) + "  " + Text.padded("type", to: 16)
        + "  summary"

    static func human(_ event: Event) -> String {
        let version = String(event.version)
        return String(repeating: " ", count: max(7 - version.count, 0)) + version + "   "
            + Timestamp.format(event.at) + "  " + Text.padded(event.type, to: 16) + "  "
            + EventSummary.summary(event.body)
    }
}
