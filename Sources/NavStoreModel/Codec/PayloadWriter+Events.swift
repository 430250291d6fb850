/// The payload of each event type and the fields of an item, written as ``PayloadWriter`` documents:
/// keys in sorted order, unset fields left out.
extension PayloadWriter {
    /// An event's payload.
    package mutating func write(_ body: EventBody) {
        switch body {
        case .sessionStarted(let name, let platform):
            writeSessionStarted(name: name, platform: platform)
        case .entryPushed(let entry):
            raw("{\"entry\":")
            write(entry)
            raw("}")
        case .entriesPopped(let source, let ids, let confirmed):
            raw("{")
            if confirmed { raw("\"confirmed\":true,") }
            raw("\"ids\":")
            strings(ids)
            raw(",\"source\":")
            string(source.rawValue)
            raw("}")
        case .popVetoed(let entry, let prompt, let source):
            raw("{\"entry\":")
            string(entry)
            raw(",\"prompt\":")
            string(prompt)
            raw(",\"source\":")
            string(source.rawValue)
            raw("}")
        case .stackReplaced(let entries, let observed):
            writeStackReplaced(entries, observed: observed)
        case .itemUpdated(let id, let item, let fields):
            raw("{\"fields\":")
            strings(fields)
            raw(",\"id\":")
            string(id)
            raw(",\"item\":")
            write(item)
            raw("}")
        case .layerPresented(let entry, let modal):
            raw("{\"entry\":")
            write(entry)
            if modal { raw(",\"modalInPresentation\":true") }
            raw("}")
        case .layerDismissed(let source, let ids):
            raw("{\"ids\":")
            strings(ids)
            raw(",\"source\":")
            string(source.rawValue)
            raw("}")
        case .dismissVetoed(let entry, let source):
            raw("{\"entry\":")
            string(entry)
            raw(",\"source\":")
            string(source.rawValue)
            raw("}")
        case .sessionRestored(let marker):
            writeSessionRestored(marker)
        case .layerUpdated(let layer, let hidden, let modal, let fields):
            raw("{\"fields\":[")
            for (index, field) in fields.enumerated() {
                if index > 0 { raw(",") }
                string(field.rawValue)
            }
            raw("],\"layer\":")
            integer(layer)
            raw(modal ? ",\"modalInPresentation\":true" : ",\"modalInPresentation\":false")
            raw(hidden ? ",\"navigationBarHidden\":true}" : ",\"navigationBarHidden\":false}")
        case .popCancelled(let entry, let source):
            raw("{\"entry\":")
            string(entry)
            raw(",\"source\":")
            string(source.rawValue)
            raw("}")
        case .tabsReplaced(let tabs):
            raw("{\"tabs\":[")
            for (index, tab) in tabs.enumerated() {
                raw(index == 0 ? "{\"id\":" : ",{\"id\":")
                string(tab.id)
                raw(",\"reselect\":")
                string(tab.reselect.rawValue)
                if let title = tab.title {
                    raw(",\"title\":")
                    string(title)
                }
                raw("}")
            }
            raw("]}")
        case .tabSelected(let id, let source):
            raw("{\"id\":")
            string(id)
            raw(",\"source\":")
            string(source.rawValue)
            raw("}")
        case .inTab(let tab, let event):
            // The event's own payload with "tab" as its last member: every key of the payloads
            // a tab's stack records sorts before "tab".
            write(event)
            bytes.removeLast(1)
            raw(",\"tab\":")
            string(tab)
            raw("}")
        case .callsDropped(let count, let firstAt, let lastAt):
            raw("{\"count\":")
            integer(count)
            raw(",\"firstAt\":")
            integer(firstAt)
            raw(",\"lastAt\":")
            integer(lastAt)
            raw("}")
        }
    }

    private mutating func writeSessionStarted(name: String?, platform: PlatformGeneration) {
        raw("{")
        if let name {
            key("name", first: true)
            string(name)
        }
        key("platform", first: name == nil)
        string(platform.rawValue)
        raw("}")
    }

    private mutating func writeStackReplaced(_ entries: [Entry], observed: StackObservation?) {
        raw("{\"entries\":[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { raw(",") }
            write(entry)
        }
        raw("]")
        if let observed {
            raw(",\"observed\":{")
            if let layer = observed.layer {
                raw("\"layer\":")
                integer(layer)
                raw(",")
            }
            raw("\"reason\":")
            string(observed.reason)
            raw("}")
        }
        raw("}")
    }

    /// Keys in sorted order: acknowledged, attempt, failedVersions, restoredVersion.
    private mutating func writeSessionRestored(_ marker: RestoreMarker) {
        var first = true
        raw("{")
        if marker.acknowledged {
            key("acknowledged", first: first)
            raw("true")
            first = false
        }
        if let attempt = marker.attempt {
            key("attempt", first: first)
            integer(attempt)
            first = false
        }
        if !marker.failedVersions.isEmpty {
            key("failedVersions", first: first)
            raw("[")
            for (index, version) in marker.failedVersions.enumerated() {
                if index > 0 { raw(",") }
                integer(version)
            }
            raw("]")
            first = false
        }
        if let version = marker.restoredVersion {
            key("restoredVersion", first: first)
            integer(version)
        }
        raw("}")
    }

    /// An item's fields in the order of their keys' UTF-8 bytes (`JSONEncoder`'s `.sortedKeys`):
    /// key and kind only, which copy as plain bytes.
    private static let itemFieldsByKey: [(key: StaticString, kind: NavigationItemField.Kind)] = {
        var fields = NavigationItemField.all.map { (key: $0.key, kind: $0.kind) }
        fields.sort { a, b in a.key.withUTF8Buffer { x in b.key.withUTF8Buffer { x.lexicographicallyPrecedes($0) } } }
        return fields
    }()

    /// The set fields of an item in sorted key order, as `NavigationItem.encode(to:)`: a walk
    /// over ``NavigationItemField/all`` by each field's kind.
    package mutating func write(_ item: NavigationItem) {
        // The item's address taken once for the walk: each read through `withUnsafePointer`
        // of its own copied the whole item first (about 1.2 k instructions a walk before).
        withUnsafePointer(to: item) { write(itemAt: $0) }
    }

    private mutating func write(itemAt item: UnsafePointer<NavigationItem>) {
        raw("{")
        var first = true
        for (name, kind) in Self.itemFieldsByKey {
            switch kind {
            case .text(let get, _):
                guard let text = get(item) else { continue }
                key(name, first: first)
                string(text)
            case .flag(let get, _):
                guard get(item) else { continue }
                key(name, first: first)
                raw("true")
            case .count(let get, _):
                let count = get(item)
                guard count != 0 else { continue }
                key(name, first: first)
                integer(count)
            case .choice(let choice):
                guard let value = choice.setRawValue(at: item) else { continue }
                key(name, first: first)
                string(value)
            case .button(let get, _):
                guard let custom = get(item) else { continue }
                key(name, first: first)
                write(custom)
            case .popGuard(let get, _):
                guard let popGuard = get(item) else { continue }
                key(name, first: first)
                raw("{\"prompt\":")
                string(popGuard.prompt)
                raw("}")
            }
            first = false
        }
        raw("}")
    }

    /// `{"image","menuSuppressed","title"}` with the unset ones left out.
    private mutating func write(_ custom: BackBarButtonItem) {
        raw("{")
        var first = true
        if custom.image {
            key("image", first: first)
            first = false
            raw("true")
        }
        if custom.menuSuppressed {
            key("menuSuppressed", first: first)
            first = false
            raw("true")
        }
        if let title = custom.title {
            key("title", first: first)
            string(title)
        }
        raw("}")
    }
}
