import NavStore
import NavStoreTools

/// Human text of a session's state: the stack, the back button and the back menu.
enum StateText {
    /// `session KEY  version N` (and the time of that version when known).
    static func heading(_ state: VersionedState) -> String {
        var text = "session \(Text.display(state.session))  version \(state.version)"
        if let at = state.at { text += "  at \(Timestamp.format(at))" }
        text += "  platform \(state.state.platform.rawValue)"
        if state.isWhatIf { text += " (what-if; the session records \(state.recordedPlatform.rawValue))" }
        return text
    }

    /// The layers, bottom first, each a table of its entries (position, id, title, route,
    /// params, other item fields).
    static func stack(_ state: SessionState) -> String {
        var text = tabBar(state).map { $0 + "\n" } ?? ""
        text += layers(state)
        // The tabs not on screen, each with its stack (<doc:TabBars>).
        for (index, (tab, stack)) in (state.tabStacks ?? []).enumerated() where index != state.tabBar?.selectedIndex {
            var title = "tab \(Text.display(tab.id)) (not on screen"
            if stack.navigationBarHidden { title += ", navigationBarHidden" }
            text += title + ")\n" + entries(stack.entries)
        }
        return text
    }

    /// `tabs: mail "Mail" | [cal "Calendar" @guarded] | me`: each tab's id (quoted unless it is
    /// letters, digits, `.`, `_` and `-`), its title quoted (none when it has none), a reselect
    /// other than UIKit's default, the selected one in brackets; `nil` without a tab bar.
    static func tabBar(_ state: SessionState) -> String? {
        guard let bar = state.tabBar else { return nil }
        let names = bar.tabs.enumerated().map { index, tab in
            let text = tabText(tab)
            return index == bar.selectedIndex ? "[\(text)]" : text
        }
        return "tabs: " + names.joined(separator: " | ")
    }

    /// A tab as ``tabBar(_:)`` and `history` write it: `cal "Calendar" @guarded`.
    static func tabText(_ tab: Tab) -> String {
        let plain =
            !tab.id.isEmpty
            && tab.id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0)) }
        return (plain ? tab.id : Text.quoted(tab.id)) + (tab.title.map { " " + Text.quoted($0) } ?? "")
            + (tab.reselect == .popToRoot ? "" : " @\(tab.reselect.rawValue)")
    }

    /// The layers on screen, bottom first, each a table of its entries.
    private static func layers(_ state: SessionState) -> String {
        var text = ""
        for (index, layer) in state.layers.enumerated() {
            var title = index == 0 ? "layer 0 (base" : "layer \(index) (modal"
            if index > 0 && layer.modalInPresentation { title += ", modalInPresentation" }
            if layer.navigationBarHidden { title += ", navigationBarHidden" }
            title += ")"
            text += title + "\n" + entries(layer.entries)
        }
        return text
    }

    /// A table of `entries` (position, id, title, route, params, other item fields), or `(no entries)`.
    private static func entries(_ entries: [Entry]) -> String {
        guard !entries.isEmpty else { return "  (no entries)\n" }
        var table = Table(header: ["#", "id", "title", "route", "params", "item"], rightAligned: [0])
        for (position, entry) in entries.enumerated() {
            table.append([
                String(position + 1), Text.display(entry.id), Text.display(entry.item.title),
                Text.display(entry.route), params(entry.params), ItemText.details(entry.item),
            ])
        }
        return table.render(indent: "  ")
    }

    /// `{k: v, ...}` with keys sorted, or `-`.
    static func params(_ params: [String: JSONValue]?) -> String {
        guard let params else { return "-" }
        let parts = params.keys.sorted().map { "\(Text.escaped($0)): \(value(params[$0]!))" }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private static func value(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): String(b)
        case .integer(let i): String(i)
        case .number(let d): String(d)
        case .string(let s): Text.quoted(s)
        case .array(let a): "[" + a.map(Self.value).joined(separator: ", ") + "]"
        case .object(let o): params(o)
        }
    }

    /// `‹ Inbox  (fallbacks: Back, "")`, `none (hidesBackButton is set)`; with `width`, the label
    /// that fits first.
    static func backButton(_ state: SessionState, width: Int? = nil) -> String {
        guard let button = state.backButton else {
            return "none (\(state.noBackButtonReason?.rawValue ?? "no back button"))"
        }
        let text = "‹ " + Text.display(width.map { button.drawnLabel(in: $0) } ?? button.label)
        var notes: [String] = []
        if let width {
            let cut = button.isCut(in: width) ? ", cut: a custom item's title has no fallbacks" : ""
            notes.append(
                "in \(width) columns\(cut); preferred \(Text.display(button.label)), \(Text.width(button.label)) columns"
            )
        }
        if !button.fallbacks.isEmpty {
            notes.append("fallbacks: " + button.fallbacks.map(Text.display).joined(separator: ", "))
        } else {
            notes.append("no fallbacks")
        }
        if button.image { notes.append("image") }
        return text + "  (" + notes.joined(separator: "; ") + ")"
    }

    /// Why there is no back menu, for a state whose `backMenu` is `nil`.
    static func noMenuReason(_ state: SessionState) -> String {
        if let reason = state.noBackButtonReason { return "no back button: \(reason.rawValue)" }
        return "the back item's backBarButtonItem suppresses it"
    }

    /// The numbered rows (row, title, entry), nearest first, or `none (...)`.
    static func backMenu(_ state: SessionState, indent: String = "  ") -> String {
        guard let rows = state.backMenu else { return indent + "none (\(noMenuReason(state)))\n" }
        var table = Table(rightAligned: [0])
        for row in rows {
            table.append([String(row.row), Text.display(row.title), "→ " + Text.display(row.entry)])
        }
        return table.render(indent: indent)
    }

    /// The back button line and the back menu rows, as `back-menu` and `replay` print them.
    static func bar(_ state: SessionState, width: Int? = nil, indent: String = "") -> String {
        var text = indent + "back button  " + backButton(state, width: width) + "\n"
        if state.backMenu == nil {
            text += indent + "back menu    none (\(noMenuReason(state)))\n"
        } else {
            text += indent + "back menu\n" + backMenu(state, indent: indent + "  ")
        }
        return text
    }
}
