/// The payload of each event type (see ``PayloadReader``), one function a type.
extension PayloadReader {
    /// The payload of an event of `type` as `EventBody(type:payloadFrom:)` reads it; `nil` defers
    /// (`session.restored`, rare, always goes to the reference).
    mutating func body(type: String) -> EventBody? {
        let (opened, isEmpty) = openObject()
        guard opened else { return nil }
        // Only `session.started` may be `{}`; every other payload has required members.
        guard !isEmpty else { return type == "session.started" ? .sessionStarted(name: nil) : nil }
        switch type {
        case "entry.pushed":
            return entryPushedBody()
        case "entries.popped":
            return entriesPoppedBody()
        case "item.updated":
            return itemUpdatedBody()
        case "layer.presented":
            return layerPresentedBody()
        case "layer.dismissed":
            return layerDismissedBody()
        case "stack.replaced":
            return stackReplacedBody()
        case "session.started":
            return sessionStartedBody()
        case "pop.vetoed":
            return popVetoedBody()
        case "dismiss.vetoed":
            return dismissVetoedBody()
        default:
            return nil
        }
    }

    /// The payload of `entry.pushed` after its opening brace (a non-empty object).
    private mutating func entryPushedBody() -> EventBody? {
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
    }

    /// The payload of `entries.popped` after its opening brace (a non-empty object).
    private mutating func entriesPoppedBody() -> EventBody? {
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
    }

    /// The payload of `item.updated` after its opening brace (a non-empty object).
    private mutating func itemUpdatedBody() -> EventBody? {
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
    }

    /// The payload of `layer.presented` after its opening brace (a non-empty object).
    private mutating func layerPresentedBody() -> EventBody? {
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
    }

    /// The payload of `layer.dismissed` after its opening brace (a non-empty object).
    private mutating func layerDismissedBody() -> EventBody? {
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
    }

    /// The payload of `stack.replaced` after its opening brace (a non-empty object).
    private mutating func stackReplacedBody() -> EventBody? {
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
    }

    /// The payload of `session.started` after its opening brace (a non-empty object).
    private mutating func sessionStartedBody() -> EventBody? {
        var name: String?
        var platform = PlatformGeneration.default
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
    }

    /// The payload of `pop.vetoed` after its opening brace (a non-empty object).
    private mutating func popVetoedBody() -> EventBody? {
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
    }

    /// The payload of `dismiss.vetoed` after its opening brace (a non-empty object).
    private mutating func dismissVetoedBody() -> EventBody? {
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
    }
}
