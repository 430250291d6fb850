import NavStore

extension ReportPage {
    /// The versions of a report as the elements of a JSON array, written by NavStore's own JSON
    /// writer (`PayloadWriter`: the keys of each type's `Codable` form, unset ones left out), in
    /// pieces of `chunk` versions each escaped as ``embed(_:)`` escapes: the same data as
    /// `JSONEncoder` writes, faster and without its tree of values.
    static func versionParts(_ versions: [ReportVersion], chunk: Int = 256) -> [String] {
        var parts: [String] = []
        var start = 0
        while start < versions.count {
            var writer = PayloadWriter(capacity: 64 * 1024)
            for index in start..<min(start + chunk, versions.count) {
                if index > 0 { writer.raw(",") }
                write(versions[index], into: &writer)
            }
            parts.append(writer.bytes.withBytes { escaped($0) })
            start += chunk
        }
        return parts
    }

    private static func write(_ version: ReportVersion, into writer: inout PayloadWriter) {
        writer.raw("{\"at\":")
        writer.integer(version.at)
        writer.raw(",\"changes\":[")
        for (index, change) in version.changes.enumerated() {
            if index > 0 { writer.raw(",") }
            write(change, into: &writer)
        }
        writer.raw("]")
        if let count = version.layerCount {
            writer.raw(",\"layerCount\":")
            writer.integer(count)
        }
        if let fields = version.layerFields {
            writer.raw(",\"layerFields\":")
            integers(fields, into: &writer)
        }
        if let layers = version.layers {
            writer.raw(",\"layers\":")
            write(layers, into: &writer)
        }
        if let splices = version.splices {
            writer.raw(",\"splices\":")
            integers(splices, into: &writer)
        }
        writer.raw(",\"summary\":")
        writer.string(version.summary)
        writer.raw(",\"type\":")
        writer.string(version.type)
        writer.raw(",\"version\":")
        writer.integer(version.version)
        if let veto = version.veto { writer.raw(veto ? ",\"veto\":true" : ",\"veto\":false") }
        if let view = version.view {
            writer.raw(",\"view\":")
            write(view, into: &writer)
        }
        writer.raw("}")
    }

    /// A keyframe's layers, `[{"entries":[...],"modalInPresentation":...,"navigationBarHidden":...}]`.
    private static func write(_ layers: [ReportLayer], into writer: inout PayloadWriter) {
        writer.raw("[")
        for (index, layer) in layers.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"entries\":")
            integers([layer.entries], into: &writer, flat: true)
            writer.raw(layer.modalInPresentation ? ",\"modalInPresentation\":true" : ",\"modalInPresentation\":false")
            writer.raw(layer.navigationBarHidden ? ",\"navigationBarHidden\":true}" : ",\"navigationBarHidden\":false}")
        }
        writer.raw("]")
    }

    /// A version's view, `{"button":...,"menu":[...],...}`, its unset keys left out.
    private static func write(_ view: ReportView, into writer: inout PayloadWriter) {
        writer.raw("{")
        var first = true
        func key(_ name: StaticString) {
            writer.key(name, first: first)
            first = false
        }
        if let button = view.button {
            key("button")
            writer.integer(button)
        }
        if let menu = view.menu {
            key("menu")
            integers([menu], into: &writer, flat: true)
        }
        if let reason = view.noBackButton {
            key("noBackButton")
            writer.string(reason)
        }
        if let reason = view.noBackMenu {
            key("noBackMenu")
            writer.string(reason)
        }
        if let tabs = view.tabs {
            key("tabs")
            write(tabs, into: &writer)
        }
        writer.raw("}")
    }

    /// A view's tab bar, `{"selected":N,"tabs":[{"id":...,"title":...}]}`.
    private static func write(_ tabs: ReportTabs, into writer: inout PayloadWriter) {
        writer.raw("{\"selected\":")
        writer.integer(tabs.selected)
        writer.raw(",\"tabs\":[")
        for (index, tab) in tabs.tabs.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"id\":")
            writer.string(tab.id)
            writer.raw(",\"title\":")
            if let title = tab.title { writer.string(title) } else { writer.raw("null") }
            writer.raw("}")
        }
        writer.raw("]}")
    }

    private static func write(_ change: ReportChange, into writer: inout PayloadWriter) {
        writer.raw("{")
        var first = true
        func key(_ name: StaticString) {
            writer.key(name, first: first)
            first = false
        }
        if let after = change.after {
            key("after")
            writer.write(value: after)
        }
        if let after = change.afterText {
            key("afterText")
            writer.string(after)
        }
        if let before = change.before {
            key("before")
            writer.write(value: before)
        }
        if let before = change.beforeText {
            key("beforeText")
            writer.string(before)
        }
        if let entry = change.entry {
            key("entry")
            writer.string(entry)
        }
        if let field = change.field {
            key("field")
            writer.string(field)
        }
        key("kind")
        writer.string(change.kind.rawValue)
        if let layer = change.layer {
            key("layer")
            writer.integer(layer)
        }
        if let position = change.position {
            key("position")
            writer.integer(position)
        }
        if let row = change.row {
            key("row")
            writer.integer(row)
        }
        writer.raw("}")
    }

    /// `[[1,2],[3]]`, or with `flat` the one array of `lists` (`[1,2]`).
    private static func integers(_ lists: [[Int]], into writer: inout PayloadWriter, flat: Bool = false) {
        if !flat { writer.raw("[") }
        for (index, list) in lists.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("[")
            for (position, value) in list.enumerated() {
                if position > 0 { writer.raw(",") }
                writer.integer(value)
            }
            writer.raw("]")
        }
        if !flat { writer.raw("]") }
    }
}
