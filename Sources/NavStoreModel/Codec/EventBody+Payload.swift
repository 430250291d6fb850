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
        /// The payload as a value `JSONEncoder` encodes.
        struct Encoded: Encodable {
            let event: EventBody
            func encode(to encoder: any Encoder) throws { try event.encodePayload(to: encoder) }
        }
        return try encoder.encode(Encoded(event: self))
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
        try self.init(kind: kind, payloadFrom: decoder)
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
