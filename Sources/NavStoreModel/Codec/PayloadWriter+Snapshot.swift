/// A snapshot's state written as JSON, and the params objects it sorted kept as their text.
extension PayloadWriter {
    /// The canonical JSON text of one entry's params object, at `layer` and `position` of the state.
    package struct SortedParams {
        package let layer: Int
        package let position: Int
        package let text: String
    }

    /// A snapshot's state as JSON text, the same bytes as `JSONEncoder` with sorted keys
    /// (`{"layers":[{"entries":[...],"modalInPresentation":false}],"platform":"ios14"}`, a layer's
    /// `"navigationBarHidden":true` after its `modalInPresentation` when set).
    package static func json(_ state: SessionState) -> String {
        snapshot(state, keepingParams: false).json
    }

    /// ``json(_:)-(SessionState)``, and, with `keepingParams`, the text of every params object it
    /// sorted from a decoded value when that text is plain (``plainText(at:)``): the caller's
    /// running state holds it in place of the object (``EntryParams/text(_:isCanonical:)``), so
    /// the next snapshot copies it instead of sorting every live entry's params again.
    package static func snapshot(_ state: SessionState, keepingParams: Bool) -> (json: String, params: [SortedParams]) {
        var writer = PayloadWriter(capacity: 64 + 96 * state.depth)
        var sorted: [SortedParams] = []
        writer.raw("{\"layers\":[")
        for (index, layer) in state.layers.enumerated() {
            writer.raw(index == 0 ? "{\"entries\":[" : ",{\"entries\":[")
            for (position, entry) in layer.entries.enumerated() {
                if position > 0 { writer.raw(",") }
                writer.write(entry)
                if keepingParams, let range = writer.sortedParams, let text = writer.plainText(at: range) {
                    sorted.append(SortedParams(layer: index, position: position, text: text))
                }
            }
            writer.raw(layer.modalInPresentation ? "],\"modalInPresentation\":true" : "],\"modalInPresentation\":false")
            // Written only when set, as `Layer.encode(to:)` does: a state whose bar was never
            // hidden has the bytes it had before the flag existed.
            writer.raw(layer.navigationBarHidden ? ",\"navigationBarHidden\":true}" : "}")
        }
        writer.raw("],\"platform\":")
        writer.string(state.platform.rawValue)
        if let tabBar = state.tabBar {
            // "tabBar" sorts after "platform".
            writer.raw(",\"tabBar\":")
            writer.write(tabBar)
        }
        writer.raw("}")
        return (writer.text, sorted)
    }

    /// A layer as `Layer.encode(to:)` writes it: `{"entries":[...],"modalInPresentation":B}`, and
    /// `"navigationBarHidden":true` when set.
    package mutating func write(_ layer: Layer) {
        raw("{\"entries\":[")
        for (position, entry) in layer.entries.enumerated() {
            if position > 0 { raw(",") }
            write(entry)
        }
        raw(layer.modalInPresentation ? "],\"modalInPresentation\":true" : "],\"modalInPresentation\":false")
        raw(layer.navigationBarHidden ? ",\"navigationBarHidden\":true}" : "}")
    }

    /// A tab bar as `TabBar.encode(to:)` writes it with sorted keys: `{"selected":ID,"tabs":[{"id",
    /// "reselect","stack","title"?}]}`.
    package mutating func write(_ tabBar: TabBar) {
        raw("{\"selected\":")
        string(tabBar.selected.id)
        raw(",\"tabs\":[")
        for (index, tab) in tabBar.tabs.enumerated() {
            raw(index == 0 ? "{\"id\":" : ",{\"id\":")
            string(tab.id)
            raw(",\"reselect\":")
            string(tab.reselect.rawValue)
            if index == tabBar.selectedIndex {
                raw(",\"stack\":null")
            } else {
                raw(",\"stack\":")
                write(tabBar.parked[index])
            }
            if let title = tab.title {
                raw(",\"title\":")
                string(title)
            }
            raw("}")
        }
        raw("]}")
    }

    /// ``write(_:)-(TabBar)`` as text: the `tab_bars` projection's column.
    package static func json(_ tabBar: TabBar) -> String {
        var writer = PayloadWriter()
        writer.write(tabBar)
        return writer.text
    }
}
