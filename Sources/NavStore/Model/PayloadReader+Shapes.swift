/// The store's own shapes: items, entries, states and event payloads (see ``PayloadReader``).
extension PayloadReader {
    // MARK: The store's shapes

    static let itemKeys: [StaticString] = [
        "title", "backButtonTitle", "backBarButtonItem", "backButtonDisplayMode", "hidesBackButton",
        "leftBarButtonItems", "leftItemsSupplementBackButton", "style", "menuTitle", "popGuard",
    ]

    /// A navigation item as ``NavigationItem/init(from:)`` reads it; `nil` defers.
    mutating func item() -> NavigationItem? {
        let (opened, isEmpty) = openObject()
        guard opened else { return nil }
        var item = NavigationItem()
        if isEmpty { return item }
        let ok = members(Self.itemKeys) { reader, key in
            switch key {
            case 0:
                guard let v = reader.optionalString() else { return false }
                item.title = v
            case 1:
                guard let v = reader.optionalString() else { return false }
                item.backButtonTitle = v
            case 2:
                if reader.skipSpaceAndPeek() == UInt8(ascii: "n") {
                    guard reader.literal("null") else { return false }
                    item.backBarButtonItem = nil
                } else {
                    guard let custom = reader.backBarButtonItem() else { return false }
                    item.backBarButtonItem = custom
                }
            case 3:
                guard let v = reader.optionalString() else { return false }
                guard let v else {
                    item.backButtonDisplayMode = .default
                    return true
                }
                guard let mode = BackButtonDisplayMode(rawValue: v) else { return false }
                item.backButtonDisplayMode = mode
            case 4:
                guard let v = reader.optionalFlag() else { return false }
                item.hidesBackButton = v
            case 5:
                if reader.skipSpaceAndPeek() == UInt8(ascii: "n") {
                    guard reader.literal("null") else { return false }
                    item.leftBarButtonItems = 0
                } else {
                    guard let count = reader.integer(), count >= 0 else { return false }
                    item.leftBarButtonItems = Int(count)
                }
            case 6:
                guard let v = reader.optionalFlag() else { return false }
                item.leftItemsSupplementBackButton = v
            case 7:
                guard let v = reader.optionalString() else { return false }
                guard let v else {
                    item.style = .navigator
                    return true
                }
                guard let style = NavigationItemStyle(rawValue: v) else { return false }
                item.style = style
            case 8:
                guard let v = reader.optionalString() else { return false }
                item.menuTitle = v
            default:
                if reader.skipSpaceAndPeek() == UInt8(ascii: "n") {
                    guard reader.literal("null") else { return false }
                    item.popGuard = nil
                } else {
                    let (opened, isEmpty) = reader.openObject()
                    guard opened, !isEmpty else { return false }
                    var prompt: String?
                    guard
                        reader.members(
                            ["prompt"],
                            { reader, _ in
                                guard let text = reader.string() else { return false }
                                prompt = text
                                return true
                            }), let prompt
                    else { return false }
                    item.popGuard = PopGuard(prompt: prompt)
                }
            }
            return true
        }
        return ok ? item : nil
    }

    /// A custom back bar button item as ``BackBarButtonItem/init(from:)`` reads it; `nil` defers.
    mutating func backBarButtonItem() -> BackBarButtonItem? {
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
    mutating func entry() -> Entry? {
        let (opened, isEmpty) = openObject()
        guard opened, !isEmpty else { return nil }
        var id: String?
        var entry = Entry(id: "")
        let ok = members(["id", "route", "params", "item"]) { reader, key in
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
                    guard let item = reader.item() else { return false }
                    entry.item = item
                }
            }
            return true
        }
        guard ok, let id else { return nil }
        entry.id = id
        return entry
    }

    /// An array of entries; `nil` defers.
    mutating func entries() -> [Entry]? {
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
    mutating func state() -> SessionState? {
        let (opened, isEmpty) = openObject()
        guard opened, !isEmpty else { return nil }
        var layers: [Layer]?
        var platform = PlatformGeneration.default
        let ok = members(["layers", "platform"]) { reader, key in
            if key == 1 {
                guard let text = reader.string(), let value = PlatformGeneration(rawValue: text) else { return false }
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
    mutating func layer() -> Layer? {
        let (opened, isEmpty) = openObject()
        guard opened, !isEmpty else { return nil }
        var entries: [Entry]?
        var modal = false
        let ok = members(["entries", "modalInPresentation"]) { reader, key in
            if key == 0 {
                guard let v = reader.entries() else { return false }
                entries = v
            } else {
                guard let v = reader.optionalFlag() else { return false }
                modal = v
            }
            return true
        }
        guard ok, let entries else { return nil }
        return Layer(entries: entries, modalInPresentation: modal)
    }

    /// The payload of an event of `type` as `EventBody(type:payloadFrom:)` reads it; `nil` defers
    /// (`session.restored`, rare, always goes to the reference).
    mutating func body(type: String) -> EventBody? {
        let (opened, isEmpty) = openObject()
        guard opened else { return nil }
        switch type {
        case "entry.pushed":
            guard !isEmpty else { return nil }
            var entry: Entry?
            guard
                members(
                    ["entry"],
                    { reader, _ in
                        entry = reader.entry()
                        return entry != nil
                    }), let entry = entry.take()
            else { return nil }
            return .entryPushed(entry)
        case "entries.popped":
            guard !isEmpty else { return nil }
            var source: PopSource?
            var ids: [String]?
            var confirmed = false
            guard
                members(
                    ["source", "ids", "confirmed"],
                    { reader, key in
                        switch key {
                        case 0:
                            source = reader.string().flatMap(PopSource.init(rawValue:))
                            return source != nil
                        case 1:
                            ids = reader.strings()
                            return ids != nil
                        default:
                            guard let v = reader.optionalFlag() else { return false }
                            confirmed = v
                            return true
                        }
                    }), let source, let ids
            else { return nil }
            return .entriesPopped(source: source, ids: ids, confirmed: confirmed)
        case "item.updated":
            guard !isEmpty else { return nil }
            var id: String?
            var item: NavigationItem?
            var fields: [String] = []
            guard
                members(
                    ["id", "item", "fields"],
                    { reader, key in
                        switch key {
                        case 0:
                            id = reader.string()
                            return id != nil
                        case 1:
                            item = reader.item()
                            return item != nil
                        default:
                            if reader.skipSpaceAndPeek() == UInt8(ascii: "n") {
                                fields = []
                                return reader.literal("null")
                            }
                            guard let v = reader.strings() else { return false }
                            fields = v
                            return true
                        }
                    }), let id, let item
            else { return nil }
            return .itemUpdated(id: id, item: item, fields: fields)
        case "layer.presented":
            guard !isEmpty else { return nil }
            var entry: Entry?
            var modal = false
            guard
                members(
                    ["entry", "modalInPresentation"],
                    { reader, key in
                        if key == 0 {
                            entry = reader.entry()
                            return entry != nil
                        }
                        guard let v = reader.optionalFlag() else { return false }
                        modal = v
                        return true
                    }), let entry
            else { return nil }
            return .layerPresented(entry, modalInPresentation: modal)
        case "layer.dismissed":
            guard !isEmpty else { return nil }
            var source: DismissSource?
            var ids: [String]?
            guard
                members(
                    ["source", "ids"],
                    { reader, key in
                        if key == 0 {
                            source = reader.string().flatMap(DismissSource.init(rawValue:))
                            return source != nil
                        }
                        ids = reader.strings()
                        return ids != nil
                    }), let source, let ids
            else { return nil }
            return .layerDismissed(source: source, ids: ids)
        case "stack.replaced":
            guard !isEmpty else { return nil }
            var entries: [Entry]?
            guard
                members(
                    ["entries"],
                    { reader, _ in
                        entries = reader.entries()
                        return entries != nil
                    }), let entries
            else { return nil }
            return .stackReplaced(entries)
        case "session.started":
            var name: String?
            var platform = PlatformGeneration.default
            if isEmpty { return .sessionStarted(name: nil) }
            guard
                members(
                    ["name", "platform"],
                    { reader, key in
                        if key == 1 {
                            guard let text = reader.string(), let value = PlatformGeneration(rawValue: text) else {
                                return false
                            }
                            platform = value
                            return true
                        }
                        guard let v = reader.optionalString() else { return false }
                        name = v
                        return true
                    })
            else { return nil }
            return .sessionStarted(name: name, platform: platform)
        case "pop.vetoed":
            guard !isEmpty else { return nil }
            var entry: String?
            var prompt: String?
            var source: PopSource?
            guard
                members(
                    ["entry", "prompt", "source"],
                    { reader, key in
                        switch key {
                        case 0:
                            entry = reader.string()
                            return entry != nil
                        case 1:
                            prompt = reader.string()
                            return prompt != nil
                        default:
                            source = reader.string().flatMap(PopSource.init(rawValue:))
                            return source != nil
                        }
                    }), let entry, let prompt, let source
            else { return nil }
            return .popVetoed(entry: entry, prompt: prompt, source: source)
        case "dismiss.vetoed":
            guard !isEmpty else { return nil }
            var entry: String?
            var source: DismissSource?
            guard
                members(
                    ["entry", "source"],
                    { reader, key in
                        if key == 0 {
                            entry = reader.string()
                            return entry != nil
                        }
                        source = reader.string().flatMap(DismissSource.init(rawValue:))
                        return source != nil
                    }), let entry, let source
            else { return nil }
            return .dismissVetoed(entry: entry, source: source)
        default:
            return nil
        }
    }
}
