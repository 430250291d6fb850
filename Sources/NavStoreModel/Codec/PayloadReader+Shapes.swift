/// The store's own shapes: items, entries, states and event payloads (see ``PayloadReader``).
extension PayloadReader {
    // MARK: The store's shapes

    /// The JSON keys of ``NavigationItemField/all``, in its order.
    package static let itemKeys: [StaticString] = NavigationItemField.all.map { $0.key }

    package static let entryKeys: [StaticString] = ["id", "route", "params", "item"]

    /// A navigation item as ``NavigationItem/init(from:)`` reads it, a walk over
    /// ``NavigationItemField/all`` by each field's kind; `nil` defers.
    package mutating func item() -> NavigationItem? {
        var item = NavigationItem()
        return readItem(into: &item) ? item : nil
    }

    /// Reads an item as ``item()`` does, into `item` (a new `NavigationItem()`), so that it is
    /// built where its entry or event holds it, not copied there; `false` defers.
    package mutating func readItem(into item: inout NavigationItem) -> Bool {
        let (opened, isEmpty) = openObject()
        guard opened else { return false }
        if isEmpty { return true }
        let kinds = NavigationItemField.kinds
        return members(Self.itemKeys) { reader, key in reader.field(kinds[key], into: &item) }
    }

    /// The value of a field of this kind, set in `item`; `false` defers.
    private mutating func field(_ kind: NavigationItemField.Kind, into item: inout NavigationItem) -> Bool {
        switch kind {
        case .text(_, let set):
            guard let text = optionalString() else { return false }
            item.write(set, text)
        case .flag(_, let set):
            guard let flag = optionalFlag() else { return false }
            item.write(set, flag)
        case .count(_, let set):
            if skipSpaceAndPeek() == UInt8(ascii: "n") {
                guard literal("null") else { return false }
                item.write(set, 0)
            } else {
                guard let count = integer(), count >= 0 else { return false }
                item.write(set, Int(count))
            }
        case .choice(let choice):
            guard let value = optionalString() else { return false }
            return choice.set(&item, value ?? choice.cases[0])
        case .button(_, let set):
            return optionalBackBarButtonItem(into: &item, set)
        case .popGuard(_, let set):
            return optionalPopGuard(into: &item, set)
        }
        return true
    }

    /// An item's `backBarButtonItem`: `null` or an object; `false` defers.
    private mutating func optionalBackBarButtonItem(
        into item: inout NavigationItem, _ set: ItemSetter<BackBarButtonItem?>
    ) -> Bool {
        if skipSpaceAndPeek() == UInt8(ascii: "n") {
            guard literal("null") else { return false }
            item.write(set, nil)
        } else {
            guard let custom = backBarButtonItem() else { return false }
            item.write(set, custom)
        }
        return true
    }

    /// An item's `popGuard`: `null` or `{"prompt":…}`; `false` defers.
    private mutating func optionalPopGuard(
        into item: inout NavigationItem, _ set: ItemSetter<PopGuard?>
    ) -> Bool {
        if skipSpaceAndPeek() == UInt8(ascii: "n") {
            guard literal("null") else { return false }
            item.write(set, nil)
            return true
        }
        let (opened, isEmpty) = openObject()
        guard opened, !isEmpty else { return false }
        var prompt: String?
        guard
            members(
                ["prompt"],
                { reader, _ in
                    guard let text = reader.string() else { return false }
                    prompt = text
                    return true
                }), let prompt
        else { return false }
        item.write(set, PopGuard(prompt: prompt))
        return true
    }

    /// A custom back bar button item as ``BackBarButtonItem/init(from:)`` reads it; `nil` defers.
    package mutating func backBarButtonItem() -> BackBarButtonItem? {
        let (opened, isEmpty) = openObject()
        guard opened else { return nil }
        var custom = BackBarButtonItem()
        if isEmpty { return custom }
        let ok = members(["title", "image", "menuSuppressed"]) { reader, key in
            switch key {
            case 0:
                guard let v = reader.optionalString() else { return false }
                custom.title = v
            case 1:
                guard let v = reader.optionalFlag() else { return false }
                custom.image = v
            default:
                guard let v = reader.optionalFlag() else { return false }
                custom.menuSuppressed = v
            }
            return true
        }
        return ok ? custom : nil
    }

    /// An entry as ``Entry/init(from:)`` reads it (`id` required); `nil` defers.
    package mutating func entry() -> Entry? {
        var entry = Entry(id: "")
        return readEntry(into: &entry) ? entry : nil
    }

    /// Reads an entry as ``entry()`` does, into `entry` (a new `Entry(id: "")`), so that it is
    /// built where the event holds it; `false` defers.
    package mutating func readEntry(into entry: inout Entry) -> Bool {
        let (opened, isEmpty) = openObject()
        guard opened, !isEmpty else { return false }
        var id: String?
        let ok = members(Self.entryKeys) { reader, key in
            switch key {
            case 0:
                guard let v = reader.string() else { return false }
                id = v
            case 1:
                guard let v = reader.optionalString() else { return false }
                entry.route = v
            case 2:
                if let (text, isCanonical) = reader.plainParamsText() {
                    entry.storedParams = .text(text, isCanonical: isCanonical)
                } else {
                    guard let v = reader.optionalParams() else { return false }
                    entry.params = v
                }
            default:
                if reader.skipSpaceAndPeek() == UInt8(ascii: "n") {
                    guard reader.literal("null") else { return false }
                    entry.item = NavigationItem()
                } else {
                    guard reader.readItem(into: &entry.item) else { return false }
                }
            }
            return true
        }
        guard ok, let id else { return false }
        entry.id = id
        return true
    }

    /// An array of entries; `nil` defers.
    package mutating func entries() -> [Entry]? {
        guard consume(Self.openBracket) else { return nil }
        var result: [Entry] = []
        if consume(Self.closeBracket) { return result }
        while true {
            guard let entry = entry() else { return nil }
            result.append(entry)
            if consume(Self.comma) { continue }
            return consume(Self.closeBracket) ? result : nil
        }
    }

    /// A state as ``SessionState/init(from:)`` reads it; `nil` defers.
    package mutating func state() -> SessionState? {
        let (opened, isEmpty) = openObject()
        guard opened, !isEmpty else { return nil }
        var layers: [Layer]?
        var platform = PlatformGeneration.default
        let ok = members(["layers", "platform"]) { reader, key in
            if key == 1 {
                guard let value = reader.caseValue(Self.platforms) else { return false }
                platform = value
                return true
            }
            guard reader.consume(Self.openBracket) else { return false }
            var result: [Layer] = []
            if reader.consume(Self.closeBracket) {
                layers = result
                return true
            }
            while true {
                guard let layer = reader.layer() else { return false }
                result.append(layer)
                if reader.consume(Self.comma) { continue }
                guard reader.consume(Self.closeBracket) else { return false }
                layers = result
                return true
            }
        }
        guard ok, let layers else { return nil }
        return SessionState(layers: layers, platform: platform)
    }

    /// A layer as ``Layer/init(from:)`` reads it (`entries` required); `nil` defers.
    package mutating func layer() -> Layer? {
        let (opened, isEmpty) = openObject()
        guard opened, !isEmpty else { return nil }
        var entries: [Entry]?
        var modal = false
        var hidden = false
        let ok = members(["entries", "modalInPresentation", "navigationBarHidden"]) { reader, key in
            switch key {
            case 0:
                guard let v = reader.entries() else { return false }
                entries = v
            case 1:
                guard let v = reader.optionalFlag() else { return false }
                modal = v
            default:
                guard let v = reader.optionalFlag() else { return false }
                hidden = v
            }
            return true
        }
        guard ok, let entries else { return nil }
        return Layer(entries: entries, modalInPresentation: modal, navigationBarHidden: hidden)
    }
}
