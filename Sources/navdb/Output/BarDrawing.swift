import NavStore
import NavStoreTools

/// The `show` picture: the navigation bar as drawn text (back chevron and the label that fits,
/// the top item's title centred, a `[modal layer N]` marker on a presented layer) and, below it,
/// the back menu as the long press opens it; no bar at all, and a line saying why, when the top
/// layer's bar is hidden. Plain text that reads well pasted into a bug
/// report; ANSI colour only when asked (a terminal without `NO_COLOR`).
struct BarDrawing {
    /// The smallest bar the picture is drawn at, in columns.
    static let minimumWidth = 16
    /// The largest, in columns (`show --bar-width` refuses more).
    static let maximumWidth = 10_000
    /// What `show --bar-width` accepts.
    static let widthRange = minimumWidth...maximumWidth
    /// The bar's width without `show --bar-width`, in columns.
    static let defaultWidth = 40

    var state: SessionState
    /// The bar's width in terminal columns, frame included.
    var width: Int
    var color: Bool

    init(_ state: SessionState, width: Int, color: Bool) {
        self.state = state
        self.width = max(width, Self.minimumWidth)
        self.color = color
    }

    private func paint(_ s: String, _ code: String) -> String {
        color && !s.isEmpty ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s
    }

    /// The whole picture, ending in a newline. A top layer whose navigation bar is hidden gets
    /// no bar: a line saying so, and the screen on show.
    func render() -> String {
        if state.topLayer.navigationBarHidden { return hiddenBar() }
        let inner = width - 4
        var text = topBorder(inner: inner) + "\n"
        text += "│ " + barContent(inner: inner) + " │\n"
        text += "╰" + String(repeating: "─", count: width - 2) + "╯\n"
        text += menu()
        text += "stack: " + Text.escaped(state.stackDescription) + "\n"
        return text
    }

    /// No bar is drawn: `(navigation bar hidden: no back button, no back menu)`, on a modal
    /// layer with its marker, then the screen on show (`screen: Photo [B]`) and the stack.
    private func hiddenBar() -> String {
        let layer = state.topLayerIndex
        var marker = ""
        if layer > 0 {
            marker = "[modal layer \(layer)\(state.topLayer.modalInPresentation ? ", modalInPresentation" : "")] "
        }
        var text = paint(marker, "33") + "(navigation bar hidden: no bar, so no back button and no back menu)\n"
        if let top = state.topEntry {
            text +=
                "screen: " + (top.item.title.map { Text.display($0) + " " } ?? "") + "[" + Text.escaped(top.id) + "]\n"
        } else {
            text += "screen: (empty stack)\n"
        }
        text += "stack: " + Text.escaped(state.stackDescription) + "\n"
        return text
    }

    private func topBorder(inner: Int) -> String {
        let layer = state.topLayerIndex
        guard layer > 0 else { return "╭" + String(repeating: "─", count: width - 2) + "╮" }
        var marker = "[modal layer \(layer)]"
        let long = "[modal layer \(layer), modalInPresentation]"
        if state.topLayer.modalInPresentation && Text.width(long) + 4 <= width { marker = long }
        let rest = width - 3 - Text.width(marker)
        guard rest >= 1 else { return "╭" + String(repeating: "─", count: width - 2) + "╮" }
        return "╭─" + paint(marker, "33") + String(repeating: "─", count: rest) + "╮"
    }

    /// The back button as the bar draws it: the room left of the centred title and the label
    /// the model chooses for that room.
    struct BackLabel {
        /// The back button of the top layer.
        var button: BackButton
        /// The columns left for the label, between the chevron (and image) and the title.
        var room: Int
        /// The label shown: the preferred one, else the first fallback that fits
        /// (``BackButton/label(fitting:columns:)``), measured as drawn (escaped).
        var label: String

        /// The text drawn: ``label`` escaped, cut with `…` only when it has no fallbacks and is
        /// wider than ``room`` (a custom item's title).
        var drawn: String { Text.truncated(Text.escaped(label), to: room) }
        /// Whether the label drawn is not the preferred one whole.
        var isShortened: Bool { label != button.label || drawn != Text.escaped(label) }
        /// The label drawn, unescaped, as `back-menu --json` names it (`fittingLabel`).
        var fitting: String { drawn == Text.escaped(label) ? label : button.drawnLabel(in: room) }
    }

    /// The top item's title as drawn: escaped, and cut so that a back chevron and a few columns
    /// keep their room when there is a back button.
    private func drawnTitle(_ top: Entry, inner: Int) -> String {
        Text.truncated(top.item.title.map(Text.escaped) ?? "", to: max(inner - (state.backButton == nil ? 0 : 8), 1))
    }

    /// The back button's label in this bar, or `nil` when the bar shows none (no back button, a
    /// hidden bar or an empty stack).
    var backLabel: BackLabel? {
        guard !state.topLayer.navigationBarHidden, let top = state.topEntry, let button = state.backButton else {
            return nil
        }
        let inner = width - 4
        let title = drawnTitle(top, inner: inner)
        let titleStart = (inner - Text.width(title)) / 2
        let room = max(titleStart - 3 - (button.image ? 2 : 0), 0)
        // A generated label is drawn whole or replaced by a fallback; only a custom item's title
        // (no fallbacks) is cut, as the label rules say. Widths are those of the escaped text drawn.
        return BackLabel(button: button, room: room, label: button.label(fitting: room) { Text.width(Text.escaped($0)) })
    }

    /// What the bar shows in place of the preferred back label, when it does not fit: `the back
    /// label "Apple Account" (13 columns) does not fit the 11 columns left of the title in a
    /// 40-column bar; UIKit shows "Back" ('back-menu --width 11' shows the same)`, or `nil` when
    /// the preferred label is drawn whole.
    var labelNote: String? {
        guard let back = backLabel, back.isShortened else { return nil }
        let preferred = back.button.label
        var note =
            "the back label \(Text.quoted(preferred)) (\(Text.width(Text.escaped(preferred))) columns) does not fit the \(back.room) column\(back.room == 1 ? "" : "s") left of the title in a \(width)-column bar; "
        if back.label != preferred {
            note += back.label.isEmpty ? "UIKit shows the chevron alone (\"\")" : "UIKit shows \(Text.quoted(back.label))"
            note += " ('back-menu --width \(back.room)' shows the same)"
        } else {
            note += "a custom backBarButtonItem title has no fallbacks, so it is cut to \(Text.quoted(back.drawn))"
        }
        return note
    }

    /// The line inside the frame: `‹ Label` at the leading edge, the top item's title centred.
    /// The label is ``backLabel``: the preferred one or the first fallback that fits, whole, the
    /// room left of the centred title (a custom item's label, which has no fallbacks, is cut with
    /// `…` between grapheme clusters); an over-long title is cut so that a chevron and a few
    /// columns keep their room. Widths in terminal columns, wide characters and emoji taking two
    /// (``TerminalWidth``).
    private func barContent(inner: Int) -> String {
        guard let top = state.topEntry else {
            return Text.padded(Text.truncated("(empty stack)", to: inner), to: inner)
        }
        let title = drawnTitle(top, inner: inner)
        let titleStart = (inner - Text.width(title)) / 2
        guard let back = backLabel else {
            return String(repeating: " ", count: titleStart) + paint(title, "1")
                + String(repeating: " ", count: inner - titleStart - Text.width(title))
        }
        let image = back.button.image ? "▣ " : ""
        let label = back.drawn
        let leftWidth = 2 + Text.width(image) + Text.width(label)
        let start = max(titleStart, leftWidth + 1)
        let shownTitle = Text.truncated(title, to: max(inner - start, 0))
        return paint("‹ " + image + label, "34") + String(repeating: " ", count: start - leftWidth)
            + paint(shownTitle, "1") + String(repeating: " ", count: max(inner - start - Text.width(shownTitle), 0))
    }

    /// The back menu as a boxed list under the back button, nearest first, each row's entry id
    /// beside it; blank rows are drawn blank, as UIKit shows them, and marked outside the box.
    private func menu() -> String {
        guard let rows = state.backMenu else {
            if let reason = state.noBackButtonReason {
                return "  (no back button, so no back menu: \(reason.rawValue))\n"
            }
            return "  (no back menu: the back item's backBarButtonItem suppresses it)\n"
        }
        let titles = rows.map { Text.escaped($0.title) }
        let boxInner = max(titles.map(Text.width).max() ?? 0, 8)
        var text = "  ╭" + String(repeating: "─", count: boxInner + 2) + "╮\n"
        for (row, title) in zip(rows, titles) {
            var note = "  → " + Text.display(row.entry)
            if row.title.isEmpty { note += " (blank title \"\")" }
            text += "  │ " + Text.padded(title, to: boxInner) + " │" + paint(note, "2") + "\n"
        }
        text += "  ╰" + String(repeating: "─", count: boxInner + 2) + "╯\n"
        return text
    }
}
