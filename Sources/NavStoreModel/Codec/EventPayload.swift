/// One event type's payload (<doc:Events>), defined once: its members, its `Codable` form (the
/// reference, and what `navdb export --json` and a hand-written payload go through), the bytes the
/// store keeps (``write(_:to:)``, keys sorted by their UTF-8 bytes, never `JSONEncoder`), the fast
/// read of those bytes (``read(from:)``) and the event it records (``init(_:)``, ``body``).
///
/// Adding an event type is a case of ``EventBody`` and ``EventBody/Kind``, a type conforming to
/// this protocol in `EventPayloads.swift`, a line of ``EventBody/Kind/visitPayloadType(_:)`` and
/// the type's entry in `Schemas/common.schema.json`; `CodingTests` fails when a type lacks any of
/// them, or when its forms disagree.
package protocol EventPayload: Codable {
    /// The event type this payload is the payload of.
    static var kind: EventBody.Kind { get }
    /// Whether an event of this type may be recorded in a tab's stack off screen, its payload
    /// then carrying a `"tab"` member (``EventBody/inTab(_:_:)``, <doc:TabBars>). Every key of such
    /// a payload sorts before `"tab"`, which ``PayloadWriter`` writes last.
    static var carriesTab: Bool { get }
    /// The payload's keys, sorted as they are written: the `Codable` form refuses any other
    /// key, and a `"tab"` unless ``carriesTab``, naming it and these (a misspelt key is never
    /// dropped without a word).
    static var keys: [String] { get }
    /// The payload of `body`; `nil` when `body` is an event of another type.
    init?(_ body: EventBody)
    /// The event this payload records.
    var body: EventBody { get }
    /// Writes the payload of `event`, an event of this type, as the store keeps it: compact, keys
    /// in the order of their UTF-8 bytes, unset optional members left out, the bytes `Codable`
    /// with `.sortedKeys` writes in swift-foundation (`PayloadWriterTests`). It reads the event's
    /// values in place: making the payload value first copied each of them.
    static func write(_ event: EventBody, to writer: inout PayloadWriter)
    /// Reads the payload object at the reader's position (its `{` not yet read) as the event the
    /// `Codable` form decodes, or `nil` to hand it to that reference (``PayloadReader``'s
    /// contract: never another value).
    static func read(from reader: inout PayloadReader) -> EventBody?
}

extension EventPayload {
    package static var carriesTab: Bool { false }

    /// Stops on an event of another type handed to ``write(_:to:)`` or encoded as this type: a line of
    /// ``EventBody/Kind/visitPayloadType(_:)`` leads to the wrong type (`CodingTests` checks each).
    package static func mismatched(_ event: EventBody) -> Never {
        preconditionFailure("\(event.kind.rawValue) is written as \(kind.rawValue)")
    }
}

/// A generic operation on an event type's payload type, chosen by ``EventBody/Kind/visitPayloadType(_:)``:
/// the one place a type name leads to its payload's definition, specialised for each type (no
/// existential box on the append path).
package protocol EventPayloadTypeVisitor {
    /// What the operation returns.
    associatedtype Result
    /// What the operation throws (`Never` for the writer and the fast reader).
    associatedtype Failure: Error
    /// The operation on the payload type `type`.
    mutating func visit<P: EventPayload>(_ type: P.Type) throws(Failure) -> Result
}

extension EventBody.Kind {
    /// Calls `visitor` with this event type's payload type: the one switch from event types to
    /// their payloads, read and written.
    /// - Throws: what `visitor` throws.
    @inline(__always)
    package func visitPayloadType<Visitor: EventPayloadTypeVisitor>(
        _ visitor: inout Visitor
    ) throws(Visitor.Failure) -> Visitor.Result {
        switch self {
        case .sessionStarted: try visitor.visit(Payload.SessionStarted.self)
        case .entryPushed: try visitor.visit(Payload.EntryPushed.self)
        case .entriesPopped: try visitor.visit(Payload.EntriesPopped.self)
        case .popVetoed: try visitor.visit(Payload.PopVetoed.self)
        case .stackReplaced: try visitor.visit(Payload.StackReplaced.self)
        case .itemUpdated: try visitor.visit(Payload.ItemUpdated.self)
        case .layerPresented: try visitor.visit(Payload.LayerPresented.self)
        case .layerDismissed: try visitor.visit(Payload.LayerDismissed.self)
        case .dismissVetoed: try visitor.visit(Payload.DismissVetoed.self)
        case .sessionRestored: try visitor.visit(Payload.SessionRestored.self)
        case .layerUpdated: try visitor.visit(Payload.LayerUpdated.self)
        case .popCancelled: try visitor.visit(Payload.PopCancelled.self)
        case .callsDropped: try visitor.visit(Payload.CallsDropped.self)
        case .tabsReplaced: try visitor.visit(Payload.TabsReplaced.self)
        case .tabSelected: try visitor.visit(Payload.TabSelected.self)
        }
    }
}

extension EventBody {
    /// The event and the tab whose stack off screen it was recorded in (``inTab(_:_:)``), if any.
    package var untabbed: (event: EventBody, tab: String?) {
        if case .inTab(let tab, let event) = self { (event, tab) } else { (self, nil) }
    }
}

/// The payload of an event, by its type.
private func payload<P: EventPayload>(_: P.Type, of event: EventBody) -> P {
    guard let payload = P(event) else { P.mismatched(event) }
    return payload
}

// MARK: The operations

extension PayloadWriter {
    /// An event's payload as the store keeps it (the payload type's ``EventPayload/write(_:to:)``),
    /// with `"tab"` as its last member for an event of a tab's stack off screen.
    package mutating func write(_ body: EventBody) {
        if case .inTab(let tab, let event) = body {
            write(event)
            bytes.removeLast(1)
            raw(",\"tab\":")
            string(tab)
            raw("}")
            return
        }
        /// The event is read where it is (a copy of an event copies every value it holds).
        struct Write: EventPayloadTypeVisitor {
            var writer: PayloadWriter
            let event: UnsafePointer<EventBody>
            mutating func visit<P: EventPayload>(_ type: P.Type) {
                type.write(event.pointee, to: &writer)
            }
        }
        withUnsafePointer(to: body) { event in
            var write = Write(writer: self, event: event)
            body.kind.visitPayloadType(&write)
            self = write.writer
        }
    }
}

extension PayloadReader {
    /// The payload of an event of `kind` read by its payload type's ``EventPayload/read(from:)``;
    /// `nil` defers (so does any payload with a `"tab"`, rare: <doc:TabBars>).
    package mutating func body(kind: EventBody.Kind) -> EventBody? {
        struct Read: EventPayloadTypeVisitor {
            var reader: PayloadReader
            mutating func visit<P: EventPayload>(_ type: P.Type) -> EventBody? {
                type.read(from: &reader)
            }
        }
        var read = Read(reader: self)
        let body = kind.visitPayloadType(&read)
        self = read.reader
        return body
    }

    /// Reads the members of the object at the reader's position: `member` is called with each
    /// key's index in `keys` and must read its value. `true` for `{}`; `false` defers (no object,
    /// an unknown or repeated key, a value `member` refused).
    @inline(__always)
    package mutating func object(_ keys: [StaticString], _ member: (inout PayloadReader, Int) -> Bool) -> Bool {
        let (opened, isEmpty) = openObject()
        guard opened else { return false }
        return isEmpty || members(keys, member)
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
}

extension EventBody {
    /// Encodes the payload's members into `encoder` (the payload type's `Codable` form), and the
    /// `"tab"` of an event of a tab's stack off screen.
    /// - Throws: what `encoder` throws.
    package func encodePayload(to encoder: any Encoder) throws {
        struct Encode: EventPayloadTypeVisitor {
            let event: EventBody
            let encoder: any Encoder
            func visit<P: EventPayload>(_ type: P.Type) throws(any Error) {
                try payload(type, of: event).encode(to: encoder)
            }
        }
        let (event, tab) = untabbed
        var encode = Encode(event: event, encoder: encoder)
        try event.kind.visitPayloadType(&encode)
        if let tab { try Payload.InTab(tab: tab).encode(to: encoder) }
    }

    /// Decodes the payload of an event of `kind` from `decoder` (the payload type's `Codable`
    /// form), with the `"tab"` of a type that may carry one.
    /// - Throws: `DecodingError` for a payload of the wrong shape: a key that is none of the
    ///   type's ``EventPayload/keys`` (a `"tab"` on a type that is never recorded in a tab's
    ///   stack), a missing key, a value of the wrong type.
    package init(kind: Kind, payloadFrom decoder: any Decoder) throws {
        struct Decode: EventPayloadTypeVisitor {
            let decoder: any Decoder
            func visit<P: EventPayload>(_ type: P.Type) throws(any Error) -> EventBody {
                try requirePayloadKeys(of: type, in: decoder)
                let body = try type.init(from: decoder).body
                guard type.carriesTab, let tab = try Payload.InTab(from: decoder).tab else { return body }
                return .inTab(tab, body)
            }
        }
        var decode = Decode(decoder: decoder)
        self = try kind.visitPayloadType(&decode)
    }
}

extension EventBody.Kind {
    /// Whether an event of this type may be recorded in a tab's stack off screen
    /// (``EventPayload/carriesTab``).
    package var carriesTab: Bool {
        struct CarriesTab: EventPayloadTypeVisitor {
            func visit<P: EventPayload>(_ type: P.Type) -> Bool { P.carriesTab }
        }
        var visitor = CarriesTab()
        return visitPayloadType(&visitor)
    }
}

/// Refuses a payload object holding a key that is none of `type`'s ``EventPayload/keys`` (nor
/// `"tab"` for a type that may be recorded in a tab's stack): first a `"tab"` the type cannot
/// carry, then the first other key in sorted order.
/// - Throws: `DecodingError.dataCorrupted` at the key: `unknown payload key 'extra' (known:
///   entry, tab)`, `a calls.dropped event takes no "tab" (only entry.pushed, ... are recorded in a
///   tab's stack off screen)`.
private func requirePayloadKeys<P: EventPayload>(of type: P.Type, in decoder: any Decoder) throws {
    // Not an object: the payload type's own decoding says so.
    guard let container = try? decoder.container(keyedBy: FieldKey.self) else { return }
    if !type.carriesTab, let tab = container.allKeys.first(where: { $0.stringValue == "tab" }) {
        let carriers = EventBody.Kind.allCases.filter(\.carriesTab).map(\.rawValue)
        throw DecodingError.dataCorruptedError(
            forKey: tab, in: container,
            debugDescription:
                "a \(type.kind.rawValue) event takes no \"tab\" (only \(carriers.joined(separator: ", ")) are recorded in a tab's stack off screen)"
        )
    }
    try requireKnownKeys(container, known: type.keys + (type.carriesTab ? ["tab"] : []), of: "payload key")
}
