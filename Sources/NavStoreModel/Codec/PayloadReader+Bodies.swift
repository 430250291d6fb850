/// The payload of each event type (see ``PayloadReader``), one function a type.
extension PayloadReader {
    /// The payload of an event of `kind` as `EventBody(type:payloadFrom:)` reads it, straight
    /// into the event; `nil` defers (`session.restored`, rare, always goes to the reference).
    package mutating func body(kind: EventBody.Kind) -> EventBody? {
        let (opened, isEmpty) = openObject()
        guard opened else { return nil }
        // Only `session.started` may be `{}`; every other payload has required members.
        guard !isEmpty else { return kind == .sessionStarted ? .sessionStarted(name: nil) : nil }
        switch kind {
        case .entryPushed:
            var entry = Entry(id: "")
            guard onlyMember("entry"), readEntry(into: &entry), closeObject() else { return nil }
            return .entryPushed(entry)
        case .entriesPopped:
            return entriesPoppedBody()
        case .itemUpdated:
            return itemUpdatedBody()
        case .layerPresented:
            return layerPresentedBody()
        case .layerDismissed:
            return layerDismissedBody()
        case .stackReplaced:
            return stackReplacedBody()
        case .sessionStarted:
            return sessionStartedBody()
        case .popVetoed:
            return popVetoedBody()
        case .dismissVetoed:
            return dismissVetoedBody()
        case .callsDropped:
            return callsDroppedBody()
        case .sessionRestored, .tabsReplaced:
            // Rare: they go to the reference (so does any payload with "tab", DESIGN §15).
            return nil
        case .tabSelected:
            return tabSelectedBody()
        case .layerUpdated:
            return layerUpdatedBody()
        case .popCancelled:
            return popCancelledBody()
        }
    }

    /// The key of the first member of an object whose `{` was read, which must be `name` (the
    /// only key of its object: the caller reads the value, then ``closeObject()``); `false` for
    /// any other key.
    @inline(__always)
    package mutating func onlyMember(_ name: StaticString) -> Bool {
        guard let (start, count) = schemaKey() else { return false }
        return bytes(at: start, count: count, equal: name)
    }

    /// The `}` after an object's last member; `false` for anything else (a second member is
    /// either a repeated or an unknown key: the reference reads it).
    @inline(__always)
    package mutating func closeObject() -> Bool {
        guard consume(Self.closeBrace) else { return false }
        depth -= 1
        return true
    }

    /// The payload of `stack.replaced` after its opening brace (a non-empty object): `entries`,
    /// and `observed` when the replacement was observed.
    private mutating func stackReplacedBody() -> EventBody? {
        var entries: [Entry]?
        var observed: StackObservation?
        guard
            members(
                ["entries", "observed"],
                { reader, key in
                    if key == 0 {
                        entries = reader.entries()
                        return entries != nil
                    }
                    observed = reader.observation()
                    return observed != nil
                }), let entries
        else { return nil }
        return .stackReplaced(entries, observed: observed)
    }

    /// `{"layer", "reason"}` of an observed `stack.replaced`, `layer` optional.
    private mutating func observation() -> StackObservation? {
        let (opened, isEmpty) = openObject()
        guard opened, !isEmpty else { return nil }
        var layer: Int?
        var reason: String?
        guard
            members(
                ["layer", "reason"],
                { reader, key in
                    if key == 0 {
                        guard let value = reader.integer() else { return false }
                        layer = Int(value)
                        return true
                    }
                    reason = reader.string()
                    return reason != nil
                }), let reason
        else { return nil }
        return StackObservation(reason: reason, layer: layer)
    }

    /// The payload of `calls.dropped` after its opening brace (a non-empty object).
    private mutating func callsDroppedBody() -> EventBody? {
        var values: [Int64?] = [nil, nil, nil]
        guard
            members(
                ["count", "firstAt", "lastAt"],
                { reader, key in
                    values[key] = reader.integer()
                    return values[key] != nil
                }), let count = values[0], let firstAt = values[1], let lastAt = values[2]
        else { return nil }
        return .callsDropped(count: Int(count), firstAt: firstAt, lastAt: lastAt)
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
                        source = reader.caseValue(Self.popSources)
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
        var item = NavigationItem()
        var hasItem = false
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
                        hasItem = reader.readItem(into: &item)
                        return hasItem
                    default:
                        if reader.skipSpaceAndPeek() == UInt8(ascii: "n") {
                            fields = []
                            return reader.literal("null")
                        }
                        guard let v = reader.strings() else { return false }
                        fields = v
                        return true
                    }
                }), let id, hasItem
        else { return nil }
        return .itemUpdated(id: id, item: item, fields: fields)
    }

    /// The payload of `layer.presented` after its opening brace (a non-empty object).
    private mutating func layerPresentedBody() -> EventBody? {
        var entry = Entry(id: "")
        var hasEntry = false
        var modal = false
        guard
            members(
                ["entry", "modalInPresentation"],
                { reader, key in
                    if key == 0 {
                        hasEntry = reader.readEntry(into: &entry)
                        return hasEntry
                    }
                    guard let v = reader.optionalFlag() else { return false }
                    modal = v
                    return true
                }), hasEntry
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
                        source = reader.caseValue(Self.dismissSources)
                        return source != nil
                    }
                    ids = reader.strings()
                    return ids != nil
                }), let source, let ids
        else { return nil }
        return .layerDismissed(source: source, ids: ids)
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
                        guard let value = reader.caseValue(Self.platforms) else { return false }
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
                        source = reader.caseValue(Self.popSources)
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
                    source = reader.caseValue(Self.dismissSources)
                    return source != nil
                }), let entry, let source
        else { return nil }
        return .dismissVetoed(entry: entry, source: source)
    }

    /// The payload of `layer.updated` after its opening brace (a non-empty object): every member
    /// required, as `JSONDecoder` reads it; a layer index that is no `Int`, or a field name
    /// that is no ``LayerField``, defers.
    private mutating func layerUpdatedBody() -> EventBody? {
        var layer: Int?
        var hidden: Bool?
        var modal: Bool?
        var fields: [LayerField]?
        guard
            members(
                ["layer", "navigationBarHidden", "modalInPresentation", "fields"],
                { reader, key in
                    switch key {
                    case 0:
                        guard let value = reader.integer(), let index = Int(exactly: value) else { return false }
                        layer = index
                    case 1:
                        hidden = reader.bool()
                        return hidden != nil
                    case 2:
                        modal = reader.bool()
                        return modal != nil
                    default:
                        guard reader.consume(Self.openBracket) else { return false }
                        var names: [LayerField] = []
                        if !reader.consume(Self.closeBracket) {
                            while true {
                                guard let field = reader.caseValue(Self.layerFields) else { return false }
                                names.append(field)
                                if reader.consume(Self.comma) { continue }
                                guard reader.consume(Self.closeBracket) else { return false }
                                break
                            }
                        }
                        fields = names
                    }
                    return true
                }), let layer, let hidden, let modal, let fields
        else { return nil }
        return .layerUpdated(layer: layer, navigationBarHidden: hidden, modalInPresentation: modal, fields: fields)
    }

    /// The payload of `pop.cancelled` after its opening brace (a non-empty object).
    private mutating func popCancelledBody() -> EventBody? {
        var entry: String?
        var source: PopSource?
        guard
            members(
                ["entry", "source"],
                { reader, key in
                    if key == 0 {
                        entry = reader.string()
                        return entry != nil
                    }
                    source = reader.caseValue(Self.popSources)
                    return source != nil
                }), let entry, let source
        else { return nil }
        return .popCancelled(entry: entry, source: source)
    }

    /// The payload of `tab.selected` after its opening brace: `id`, `source`.
    private mutating func tabSelectedBody() -> EventBody? {
        var id: String?
        var source: TabSelectionSource?
        guard
            members(
                ["id", "source"],
                { reader, key in
                    if key == 0 {
                        id = reader.string()
                        return id != nil
                    }
                    source = reader.caseValue(Self.tabSelectionSources)
                    return source != nil
                }), let id, let source
        else { return nil }
        return .tabSelected(id: id, source: source)
    }
}
