#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON payload of each event type (<doc:Events>). One struct per type keeps the shapes in one place.
private enum Payload {
    /// `{"name", "platform"}`: an absent platform is `ios14` (<doc:PlatformGenerations>); it is always written.
    package struct SessionStarted: Codable {
        package var name: String?
        package var platform: PlatformGeneration?
    }
    package struct EntryPushed: Codable { var entry: Entry }
    package struct EntriesPopped: Codable {
        package var source: PopSource
        package var ids: [String]
        package var confirmed: Bool?
    }
    package struct PopVetoed: Codable {
        package var entry: String
        package var prompt: String
        package var source: PopSource
    }
    package struct StackReplaced: Codable {
        package var entries: [Entry]
        package var observed: StackObservation?
    }
    package struct ItemUpdated: Codable {
        package var id: String
        package var item: NavigationItem
        package var fields: [String]?
    }
    package struct LayerPresented: Codable {
        package var entry: Entry
        package var modalInPresentation: Bool?
    }
    package struct LayerDismissed: Codable {
        package var source: DismissSource
        package var ids: [String]
    }
    package struct DismissVetoed: Codable {
        package var entry: String
        package var source: DismissSource
    }
    /// `{"layer", "navigationBarHidden", "modalInPresentation", "fields"}`: every value, and the
    /// fields that changed.
    package struct LayerUpdated: Codable {
        package var layer: Int
        package var navigationBarHidden: Bool
        package var modalInPresentation: Bool
        package var fields: [LayerField]
    }
    package struct PopCancelled: Codable {
        package var entry: String
        package var source: PopSource
    }
    package struct TabsReplaced: Codable { var tabs: [Tab] }
    package struct TabSelected: Codable {
        package var id: String
        package var source: TabSelectionSource
    }
    /// The `"tab"` member of an event recorded in a tab's stack off screen (``EventBody/inTab(_:_:)``).
    package struct InTab: Codable { var tab: String? }
    /// An event's payload and its `"tab"`, encoded into one object.
    package struct Tabbed: Encodable {
        package var tab: String
        package var event: EventBody
        package func encode(to encoder: any Encoder) throws {
            try event.encodePayload(to: encoder)
            try InTab(tab: tab).encode(to: encoder)
        }
    }
    /// An event's payload alone.
    package struct Untabbed: Encodable {
        package var event: EventBody
        package func encode(to encoder: any Encoder) throws { try event.encodePayload(to: encoder) }
    }
    package struct CallsDropped: Codable {
        package var count: Int
        package var firstAt: Int64
        package var lastAt: Int64
    }
}

extension EventBody {
    /// The payload as stored in `events.payload`: compact JSON, unset fields left out, keys sorted
    /// by their UTF-8 bytes (<doc:Events>), written by NavStore's own writer, so the text is the
    /// same on every platform and OS release.
    /// - Throws: nothing today (params cannot hold a non-finite number); kept for callers that
    ///   were written against the `JSONEncoder` form.
    public func payloadJSON() throws -> String {
        PayloadWriter.json(self)
    }

    /// The payload encoded with `encoder` (whose `userInfo` may ask for explicit keys).
    /// - Throws: `EncodingError` as ``payloadJSON()``.
    public func payloadData(_ encoder: JSONEncoder) throws -> Data {
        if case .inTab(let tab, let event) = self { return try encoder.encode(Payload.Tabbed(tab: tab, event: event)) }
        return try encoder.encode(Payload.Untabbed(event: self))
    }

    /// Encodes the payload's members into `encoder`'s keyed container.
    fileprivate func encodePayload(to encoder: any Encoder) throws {
        func put(_ value: some Encodable) throws { try value.encode(to: encoder) }
        switch self {
        case .sessionStarted(let name, let platform):
            try put(Payload.SessionStarted(name: name, platform: platform))
        case .entryPushed(let entry): try put(Payload.EntryPushed(entry: entry))
        case .entriesPopped(let source, let ids, let confirmed):
            try put(Payload.EntriesPopped(source: source, ids: ids, confirmed: confirmed ? true : nil))
        case .popVetoed(let entry, let prompt, let source):
            try put(Payload.PopVetoed(entry: entry, prompt: prompt, source: source))
        case .stackReplaced(let entries, let observed):
            try put(Payload.StackReplaced(entries: entries, observed: observed))
        case .itemUpdated(let id, let item, let fields):
            try put(Payload.ItemUpdated(id: id, item: item, fields: fields))
        case .layerPresented(let entry, let modal):
            try put(Payload.LayerPresented(entry: entry, modalInPresentation: modal ? true : nil))
        case .layerDismissed(let source, let ids): try put(Payload.LayerDismissed(source: source, ids: ids))
        case .dismissVetoed(let entry, let source):
            try put(Payload.DismissVetoed(entry: entry, source: source))
        case .sessionRestored(let marker): try put(marker)
        case .layerUpdated(let layer, let hidden, let modal, let fields):
            try put(
                Payload.LayerUpdated(
                    layer: layer, navigationBarHidden: hidden, modalInPresentation: modal, fields: fields))
        case .popCancelled(let entry, let source):
            try put(Payload.PopCancelled(entry: entry, source: source))
        case .callsDropped(let count, let firstAt, let lastAt):
            try put(Payload.CallsDropped(count: count, firstAt: firstAt, lastAt: lastAt))
        case .tabsReplaced(let tabs): try put(Payload.TabsReplaced(tabs: tabs))
        case .tabSelected(let id, let source): try put(Payload.TabSelected(id: id, source: source))
        case .inTab(let tab, let event): try put(Payload.Tabbed(tab: tab, event: event))
        }
    }

    /// Decodes an event body from its type name and JSON payload.
    /// - Parameters:
    ///   - type: one of ``typeNames``.
    ///   - payload: the UTF-8 JSON object stored with the event.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming the type and what is wrong.
    public init(type: String, payload: some DataProtocol) throws(NavigationError) {
        // The store's own payloads are read without JSONDecoder; anything else goes to it.
        if let body = payload.withContiguousStorageIfAvailable({ PayloadReader.body(type: type, payload: $0) }) ?? nil {
            self = body
            return
        }
        try self.init(referenceType: type, payload: payload)
    }

    /// Decodes an event body from its type name and the bytes of its JSON payload, as
    /// ``init(type:payload:)-(_,DataProtocol)`` does, for bytes read in place (a column of a
    /// database row): no generic dispatch, no copy.
    /// - Parameters:
    ///   - type: one of ``typeNames``.
    ///   - payload: the UTF-8 JSON object stored with the event, valid during the call.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming the type and what is wrong.
    public init(type: String, payload: UnsafeRawBufferPointer) throws(NavigationError) {
        guard let kind = PayloadReader.kinds.value(named: type) else {
            try self.init(referenceType: type, payload: payload)
            return
        }
        try self.init(kind: kind, payload: payload.assumingMemoryBound(to: UInt8.self))
    }

    /// Decodes an event body from the UTF-8 bytes of its type name and of its JSON payload, as
    /// ``init(type:payload:)-(_,DataProtocol)`` does, for both columns of a database row read in
    /// place: the type is matched on its bytes, no `String` is made of it.
    /// - Parameters:
    ///   - type: the bytes of one of ``typeNames``, valid during the call.
    ///   - payload: the UTF-8 JSON object stored with the event, valid during the call.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming the type and what is wrong.
    public init(type: UnsafeRawBufferPointer, payload: UnsafeRawBufferPointer) throws(NavigationError) {
        guard let kind = PayloadReader.kinds.value(type.assumingMemoryBound(to: UInt8.self)) else {
            try self.init(referenceType: String(decoding: type, as: UTF8.self), payload: payload)
            return
        }
        try self.init(kind: kind, payload: payload.assumingMemoryBound(to: UInt8.self))
    }

    /// Decodes an event body of `kind` from the bytes of its JSON payload, as the initialisers
    /// above do once the type is known.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming the type and what is wrong.
    @inline(__always)
    package init(kind: Kind, payload: UnsafeBufferPointer<UInt8>) throws(NavigationError) {
        if let body = PayloadReader.body(kind: kind, payload: payload) {
            self = body
            return
        }
        try self.init(referenceType: kind.rawValue, payload: payload)
    }

    /// Decodes an event body with Foundation's `JSONDecoder` alone: the reference that
    /// ``PayloadReader`` matches (see ``init(type:payload:)``).
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming the type and what is wrong.
    package init(referenceType type: String, payload: some DataProtocol) throws(NavigationError) {
        let decoder = JSONDecoder()
        decoder.userInfo[TypedPayload.typeKey] = type
        do {
            self = try decoder.decode(TypedPayload.self, from: Data(payload)).body
        } catch let error as NavigationError {
            throw error
        } catch {
            throw .invalidEvent("bad \(type) payload: \(describeDecodingError(error))")
        }
    }

    /// Decodes the payload of an event of `type` from `decoder`, positioned on the payload object
    /// (e.g. the `payload` key of an NDJSON line), so a line is parsed once.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` for an unknown type; `DecodingError` for a
    ///   payload of the wrong shape.
    public init(type: String, payloadFrom decoder: any Decoder) throws {
        guard let kind = Kind(rawValue: type) else {
            throw NavigationError.invalidEvent(
                "unknown event type '\(type)' (known: \(EventBody.typeNames.joined(separator: ", ")))")
        }
        switch kind {
        case .sessionStarted:
            let p = try Payload.SessionStarted(from: decoder)
            self = .sessionStarted(name: p.name, platform: p.platform ?? .default)
        case .entryPushed:
            self = .entryPushed(try Payload.EntryPushed(from: decoder).entry)
        case .entriesPopped:
            let p = try Payload.EntriesPopped(from: decoder)
            self = .entriesPopped(source: p.source, ids: p.ids, confirmed: p.confirmed ?? false)
        case .popVetoed:
            let p = try Payload.PopVetoed(from: decoder)
            self = .popVetoed(entry: p.entry, prompt: p.prompt, source: p.source)
        case .stackReplaced:
            let p = try Payload.StackReplaced(from: decoder)
            self = .stackReplaced(p.entries, observed: p.observed)
        case .itemUpdated:
            let p = try Payload.ItemUpdated(from: decoder)
            self = .itemUpdated(id: p.id, item: p.item, fields: p.fields ?? [])
        case .layerPresented:
            let p = try Payload.LayerPresented(from: decoder)
            self = .layerPresented(p.entry, modalInPresentation: p.modalInPresentation ?? false)
        case .layerDismissed:
            let p = try Payload.LayerDismissed(from: decoder)
            self = .layerDismissed(source: p.source, ids: p.ids)
        case .dismissVetoed:
            let p = try Payload.DismissVetoed(from: decoder)
            self = .dismissVetoed(entry: p.entry, source: p.source)
        case .sessionRestored:
            self = .sessionRestored(try RestoreMarker(from: decoder))
        case .layerUpdated:
            let p = try Payload.LayerUpdated(from: decoder)
            self = .layerUpdated(
                layer: p.layer, navigationBarHidden: p.navigationBarHidden, modalInPresentation: p.modalInPresentation,
                fields: p.fields)
        case .popCancelled:
            let p = try Payload.PopCancelled(from: decoder)
            self = .popCancelled(entry: p.entry, source: p.source)
        case .callsDropped:
            let p = try Payload.CallsDropped(from: decoder)
            self = .callsDropped(count: p.count, firstAt: p.firstAt, lastAt: p.lastAt)
        case .tabsReplaced:
            self = .tabsReplaced(try Payload.TabsReplaced(from: decoder).tabs)
        case .tabSelected:
            let p = try Payload.TabSelected(from: decoder)
            self = .tabSelected(id: p.id, source: p.source)
        }
        // The events a tab's stack off screen records carry its id (DESIGN §15).
        switch kind {
        case .entryPushed, .entriesPopped, .stackReplaced, .itemUpdated, .layerUpdated:
            if let tab = try Payload.InTab(from: decoder).tab { self = .inTab(tab, self) }
        default:
            break
        }
    }
}

/// A payload decoded with its event type taken from the decoder's `userInfo`.
private struct TypedPayload: Decodable {
    package static let typeKey = CodingUserInfoKey(rawValue: "navstore.eventType")!
    package var body: EventBody

    package init(from decoder: any Decoder) throws {
        body = try EventBody(type: decoder.userInfo[Self.typeKey] as? String ?? "", payloadFrom: decoder)
    }
}

/// A one-line description of a `DecodingError`: the coding path and what was wrong, in JSON's
/// terms (`expected an object at entry.item, found a string`). Text that is not JSON at all is
/// described as `not JSON`, instead of Foundation's "The given data was not valid JSON.".
package func describeDecodingError(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    func path(_ context: DecodingError.Context) -> String {
        let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return p.isEmpty ? "" : " at \(p.hasPrefix(".") ? String(p.dropFirst()) : p)"
    }
    /// A Swift type as JSON names it.
    func jsonName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") || name == "JSONValue" { return "an object" }
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("String") { return "a string" }
        if name.hasPrefix("Int") || name.hasPrefix("UInt") { return "an integer" }
        if name == "Double" || name == "Float" || name == "Decimal" { return "a number" }
        if name == "Bool" { return "true or false" }
        return name
    }
    /// `, found an array` from Foundation's "Expected to decode X but found an array instead.".
    func found(_ context: DecodingError.Context) -> String {
        let text = context.debugDescription
        guard let start = text.firstRange(of: "but found ") else { return "" }
        var rest = text[start.upperBound...]
        if let end = rest.firstRange(of: " instead") { rest = rest[..<end.lowerBound] }
        while rest.last == "." || rest.last == " " { rest = rest.dropLast() }
        var kind = String(rest)
        for article in ["a ", "an "] where kind.hasPrefix(article) { kind = String(kind.dropFirst(article.count)) }
        switch kind {
        case "dictionary", "object": return ", found an object"
        case "array": return ", found an array"
        case "null", "true", "false", "": return kind.isEmpty ? "" : ", found " + kind
        case "bool": return ", found true or false"
        default: return ", found a " + kind
        }
    }
    switch error {
    case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(path(context))"
    case .typeMismatch(let type, let context): return "expected \(jsonName(type))\(path(context))\(found(context))"
    case .valueNotFound(let type, let context): return "missing \(jsonName(type)) value\(path(context))"
    case .dataCorrupted(let context):
        if isNotJSON(error) { return "not JSON" }
        return "\(context.debugDescription)\(path(context))"
    @unknown default: return String(describing: error)
    }
}

/// Whether a decoding error says the text was not JSON at all (rather than JSON of the wrong shape).
package func isNotJSON(_ error: any Error) -> Bool {
    guard case .dataCorrupted(let context)? = error as? DecodingError else { return false }
    return context.codingPath.isEmpty
        && (context.underlyingError != nil || context.debugDescription.contains("not valid JSON"))
}

extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// Decodes a case from its raw value; another string is refused with the values accepted, as
    /// `unknown backButtonDisplayMode 'tiny' (known: default, generic, minimal)` (control characters and `'` escaped), where
    /// Foundation's own message names the Swift type and lists nothing.
    ///
    /// - Parameters:
    ///   - decoder: the decoder positioned at the value (its coding path goes into the error).
    ///   - name: the value's name in the JSON, for the message.
    /// - Throws: `DecodingError.dataCorrupted` for a string that is no case; what the decoder
    ///   throws for a value that is not a string.
    package static func decodeCase(from decoder: any Decoder, name: String) throws -> Self {
        let text = try decoder.singleValueContainer().decode(String.self)
        if let value = Self(rawValue: text) { return value }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription:
                    "unknown \(name) '\(DisplayText.escaped(text, quote: "'"))' (known: \(allCases.map(\.rawValue).joined(separator: ", ")))"
            ))
    }
}
