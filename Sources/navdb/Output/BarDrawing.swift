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
    /// The largest, in columns (`show --width` refuses more).
    static let maximumWidth = 10_000

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

    /// The line inside the frame: `‹ Label` at the leading edge, the top item's title centred.
    /// The label is the preferred one or the first fallback that fits, whole, the room left of
    /// the centred title (a custom item's label, which has no fallbacks, is cut with `…` between
    /// grapheme clusters); an over-long title is cut so that a chevron and a few columns keep
    /// their room. Widths in terminal columns, wide characters and emoji taking two
    /// (``TerminalWidth``).
    private func barContent(inner: Int) -> String {
        guard let top = state.topEntry else {
            return Text.padded(Text.truncated("(empty stack)", to: inner), to: inner)
        }
        let button = state.backButton
        let title = Text.truncated(top.item.title.map(Text.escaped) ?? "", to: max(inner - (button == nil ? 0 : 8), 1))
        let titleStart = (inner - Text.width(title)) / 2
        guard let button else {
            return String(repeating: " ", count: titleStart) + paint(title, "1")
                + String(repeating: " ", count: inner - titleStart - Text.width(title))
        }
        let image = button.image ? "▣ " : ""
        let room = max(titleStart - 3 - Text.width(image), 0)
        // A generated label is drawn whole or replaced by a fallback; only a custom item's title
        // (no fallbacks) is cut, as the label rules say. Widths are those of the escaped text drawn.
        let label = Text.truncated(Text.escaped(button.label(fitting: room) { Text.width(Text.escaped($0)) }), to: room)
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
