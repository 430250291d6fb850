/// Writes an event's payload as compact JSON without `JSONEncoder`: the hot path of appends,
/// batches and imports, where `JSONEncoder` was most of the cost of an event.
///
/// The output is the JSON ``EventBody/payloadJSON()`` produces: the same keys, unset fields left
/// out, keys sorted by their UTF-8 bytes (the order `JSONEncoder`'s `.sortedKeys` uses in
/// swift-foundation), `/` not escaped, control characters as `\b \t \n \f \r` or `\u00XX`.
/// `PayloadWriterTests` checks it byte for byte against `JSONEncoder` for every event type. A
/// params value holding a non-integer number is left to `JSONEncoder` (``write(_:)`` returns
/// `nil`), whose number formatting is not reproduced here.
struct PayloadWriter {
    private var bytes: [UInt8] = []

    /// The payload of `body` as JSON text, or `nil` when it holds a value this writer leaves to
    /// `JSONEncoder` (a non-integer number in params).
    static func json(_ body: EventBody) -> String? {
        var writer = PayloadWriter()
        writer.bytes.reserveCapacity(160)
        guard writer.write(body) else { return nil }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The payload text the store keeps for `body`: this writer's, or `JSONEncoder`'s (sorted
    /// keys, slashes unescaped) when it leaves the body to it (a non-integer number in params).
    /// - Throws: `EncodingError` only for values JSON cannot hold.
    static func storedText(_ body: EventBody) throws -> String {
        if let text = json(body) { return text }
        return try body.payloadJSON()
    }

    /// A snapshot's state as JSON text, the same bytes as `JSONEncoder` with sorted keys
    /// (`{"layers":[{"entries":[...],"modalInPresentation":false}],"platform":"ios14"}`), or `nil` when a params
    /// value is left to `JSONEncoder`.
    static func json(_ state: SessionState) -> String? {
        var writer = PayloadWriter()
        writer.bytes.reserveCapacity(64 + 96 * state.depth)
        writer.raw("{\"layers\":[")
        for (index, layer) in state.layers.enumerated() {
            writer.raw(index == 0 ? "{\"entries\":[" : ",{\"entries\":[")
            for (position, entry) in layer.entries.enumerated() {
                if position > 0 { writer.raw(",") }
                guard writer.write(entry) else { return nil }
            }
            writer.raw(
                layer.modalInPresentation ? "],\"modalInPresentation\":true}" : "],\"modalInPresentation\":false}")
        }
        writer.raw("],\"platform\":")
        writer.string(state.platform.rawValue)
        writer.raw("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A projection row's item as JSON text (set fields only, sorted keys), as `JSONEncoder` writes it.
    static func json(_ item: NavigationItem) -> String {
        var writer = PayloadWriter()
        writer.write(item)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A projection row's params as JSON text, or `nil` when a value is left to `JSONEncoder`.
    static func json(_ params: [String: JSONValue]) -> String? {
        var writer = PayloadWriter()
        guard writer.write(object: params) else { return nil }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The NDJSON line of `event` with this writer's compact payload (``EventRecord/line(_:payload:previous:)``),
    /// or `nil` when the payload is left to `JSONEncoder`.
    static func recordLine(_ event: Event, previous: String? = nil) -> String? {
        var writer = PayloadWriter()
        writer.bytes.reserveCapacity(320)
        let written = writer.line(
            at: event.at, eventID: event.eventID, previous: previous, seq: event.seq, session: event.session,
            time: Timestamp.format(event.at), type: event.type, version: event.version
        ) { $0.write(event.body) }
        return written ? String(decoding: writer.bytes, as: UTF8.self) : nil
    }

    /// The one writer of an NDJSON event line (`export`, `history --json`, `replay --json`, a
    /// truncated session's base): `{"at","eventID","payload","previous","seq","session","time",
    /// "type","version"}` in this (sorted) order, `previous`, `seq` and `time` left out when
    /// `nil`, the payload written by `payload` (`false` gives up).
    mutating func line(
        at: Int64, eventID: String, previous: String?, seq: Int64?, session: String, time: String?, type: String,
        version: Int, payload: (inout PayloadWriter) -> Bool
    ) -> Bool {
        raw("{\"at\":")
        raw(String(at))
        raw(",\"eventID\":")
        string(eventID)
        raw(",\"payload\":")
        guard payload(&self) else { return false }
        if let previous {
            raw(",\"previous\":")
            string(previous)
        }
        if let seq {
            raw(",\"seq\":")
            raw(String(seq))
        }
        raw(",\"session\":")
        string(session)
        if let time {
            raw(",\"time\":")
            string(time)
        }
        raw(",\"type\":")
        string(type)
        raw(",\"version\":")
        raw(String(version))
        raw("}")
        return true
    }

    /// `{"id","item","params","route"}` with the unset ones left out, as `Entry.encode(to:)`.
    mutating func write(_ entry: Entry) -> Bool {
        raw("{\"id\":")
        string(entry.id)
        if entry.item != NavigationItem() {
            raw(",\"item\":")
            write(entry.item)
        }
        if case .text(let text, isCanonical: true) = entry.storedParams {
            // Read from the store as this writer writes it: copied, not decoded and written again.
            raw(",\"params\":")
            raw(text)
        } else if let params = entry.params {
            raw(",\"params\":")
            guard write(object: params) else { return false }
        }
        if let route = entry.route {
            raw(",\"route\":")
            string(route)
        }
        raw("}")
        return true
    }

    mutating func write(object: [String: JSONValue]) -> Bool {
        raw("{")
        // Sorted as members, not as keys looked up again: each lookup hashed its key.
        let members = object.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (index, member) in members.enumerated() {
            key(member.key, first: index == 0)
            guard write(value: member.value) else { return false }
        }
        raw("}")
        return true
    }

    private mutating func write(value: JSONValue) -> Bool {
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .integer(let number): raw(String(number))
        case .number: return false
        case .string(let text): string(text)
        case .array(let values):
            raw("[")
            for (index, element) in values.enumerated() {
                if index > 0 { raw(",") }
                guard write(value: element) else { return false }
            }
            raw("]")
        case .object(let object):
            return write(object: object)
        }
        return true
    }

    mutating func key(_ name: String, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// The text written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func strings(_ values: [String]) {
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        raw("]")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` escaped, control characters as short escapes or `\u00XX`.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most texts need no escaping: copy their UTF-8 in one go.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x08:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "b"))
            case 0x09:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "t"))
            case 0x0A:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "n"))
            case 0x0C:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "f"))
            case 0x0D:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "r"))
            case 0x00..<0x20:
                bytes.append(contentsOf: [
                    UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)],
                ])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
