/// The fields of an item, written as ``PayloadWriter`` documents: keys in sorted order, unset
/// fields left out (each event type's payload is written by its ``EventPayload``).
extension PayloadWriter {
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
        // of its own copied the whole item first.
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
