import NavStore

extension StoreCore {
    /// Whether `event` is the content of `stored` (whose payload column holds `payload`): the same
    /// session, version, type and time, and the same payload text as the store writes it,
    /// compared by bytes. Swift's `==` would take a title changed to a canonically equivalent
    /// spelling for the same; the store keeps text exactly, so that is other content.
    func isSameEvent(_ stored: Event, payload: String, as event: Event) -> Bool {
        guard stored.session.hasSameScalars(as: event.session), stored.version == event.version,
            stored.at == event.at, stored.type == event.type
        else { return false }
        let text = payloadText(event.body)
        // The stored text as written; or, for a payload an earlier version wrote in another layout,
        // the stored body written as the store writes it now (decoding keeps every scalar).
        if payload.utf8.elementsEqual(text.utf8) { return true }
        return payloadText(stored.body).utf8.elementsEqual(text.utf8)
    }

    /// The stored event whose id is `eventID` in any letter case, with its session key, and its
    /// payload column's text; `nil` when there is none.
    ///
    /// Ids are stored in lowercase (``EventIDGenerator/normalized(_:)``), found with one read of
    /// the `event_id` index; an earlier version stored them as given, so an id in upper case is
    /// looked up next, and one in mixed case last, with a scan of the table (only reached when
    /// the id is not stored in either form, just before an import fails for another reason).
    func storedEvent(eventID: String) throws -> (event: Event, payload: String)? {
        let id = EventIDGenerator.normalized(eventID) ?? eventID
        for (index, form) in [id, id.uppercased()].enumerated() where index == 0 || form != id {
            if let found = try storedEvent(where: "e.event_id = ?", form) { return found }
        }
        return try storedEvent(where: "e.event_id = ? COLLATE NOCASE", id)
    }

    private func storedEvent(where condition: String, _ eventID: String) throws -> (event: Event, payload: String)? {
        guard
            let row = try db.fetchOne(
                sql: """
                    SELECT e.seq, s.key, e.version, e.at, e.type, e.payload, e.event_id
                    FROM events AS e JOIN sessions AS s ON s.id = e.session_id WHERE \(condition) LIMIT 1
                    """,
                arguments: [.text(eventID)])
        else { return nil }
        let payload: String = try row[5]
        let body = try EventBody(type: try row[4], payload: Array(payload.utf8))
        return (
            Event(
                seq: try row[0], session: try row[1], version: try row[2], at: try row[3], eventID: try row[6],
                body: body), payload
        )
    }
}

/// One NDJSON line of an import, decoded in one pass: the ``EventRecord`` fields, with the payload
/// decoded straight into its ``EventBody`` by the type named on the same line; or a truncated
/// session's base (a `session.truncated` record, ``SessionBase/record()``).
struct ImportLine: Decodable {
    var event: Event
    /// The base, when the line is a `session.truncated` record (``event`` is then a placeholder).
    var base: SessionBase?
    /// What the line says it continues (its `previous` key).
    var continuation: Continuation

    private enum CodingKeys: String, CodingKey {
        case seq, session, version, type, at, time, eventID, previous, payload
    }

    /// The keys of an event's line, sorted as an export writes them.
    static let eventKeys = ["at", "eventID", "payload", "previous", "seq", "session", "time", "type", "version"]
    /// The keys of a truncated session's base line (``SessionBase/record()``): no `seq` (it is
    /// not an event of the log) and no `previous` (it is the session's first line).
    static let baseKeys = ["at", "eventID", "payload", "session", "time", "type", "version"]

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
        // A misspelt key is refused, never dropped: what import accepts reads back as given.
        let isBase = type == SessionBase.recordType
        try requireKnownKeys(
            decoder.container(keyedBy: FieldKey.self), known: isBase ? Self.baseKeys : Self.eventKeys,
            of: isBase ? "key of a \(SessionBase.recordType) record" : "key")
        // `time` is informative (`at` is the time), but a line whose two disagree is not an
        // export of the store's: refused rather than half believed.
        if let time = try c.decodeIfPresent(String.self, forKey: .time), c.contains(.at) {
            let at = try c.decode(Int64.self, forKey: .at)
            if Timestamp.parse(time) != at && time != Timestamp.format(at) {
                throw NavigationError.invalidEvent(
                    "its time \"\(time)\" is not the instant of its at \(at) (\(Timestamp.format(at))); time must agree with at, or be left out"
                )
            }
        }
        if type == SessionBase.recordType {
            let record = EventRecord(
                seq: nil, session: try c.decode(String.self, forKey: .session),
                version: try c.decode(Int.self, forKey: .version),
                type: type, at: try c.decode(Int64.self, forKey: .at), time: nil,
                eventID: try c.decode(String.self, forKey: .eventID),
                payload: try c.decode(JSONValue.self, forKey: .payload))
            let base = try SessionBase(record: record)
            self.base = base
            event = Event(
                seq: nil, session: base.session, version: base.version, at: base.at, eventID: base.eventID,
                body: .sessionRestored(RestoreMarker()))
            continuation = .unstated
            return
        }
        event = Event(
            seq: try c.decodeIfPresent(Int64.self, forKey: .seq),
            session: try c.decode(String.self, forKey: .session),
            version: try c.decode(Int.self, forKey: .version),
            at: try c.decode(Int64.self, forKey: .at),
            eventID: try c.decode(String.self, forKey: .eventID),
            body: try Self.body(type: type, payload: try c.superDecoder(forKey: .payload)))
        if !c.contains(.previous) {
            continuation = .unstated
        } else if let previous = try c.decodeIfPresent(String.self, forKey: .previous) {
            continuation = .after(previous)
        } else {
            continuation = .first
        }
    }

    private static func body(type: String, payload: any Decoder) throws -> EventBody {
        do {
            return try EventBody(type: type, payloadFrom: payload)
        } catch let error as NavigationError {
            throw error
        } catch {
            throw NavigationError.invalidEvent("bad \(type) payload: \(describePayloadError(error, payload: payload))")
        }
    }

    /// What is wrong with a payload `Codable` refused. On Linux, Foundation's decoder refuses a
    /// number that is not a whole number within `Int64` where an integer is expected with an
    /// error that names neither the field nor the number (`numberIsNotRepresentableInSwift`): the
    /// field is found in the payload (the first such number outside `params`, which may hold any
    /// number), as `integerProblem(in:)` finds it in the record.
    static func describePayloadError(_ error: any Error, payload: any Decoder) -> String {
        let text = String(describing: error)
        guard !(error is DecodingError), let marker = text.firstRange(of: "numberIsNotRepresentableInSwift(parsed: \""),
            let end = text[marker.upperBound...].firstIndex(of: "\""),
            let parsed = Double(text[marker.upperBound..<end])
        else { return describeDecodingError(error) }
        func find(_ value: JSONValue, _ path: String) -> String? {
            switch value {
            case .number(let number) where number == parsed: return path
            case .object(let members):
                for key in members.keys.sorted() where key != "params" {
                    if let found = find(members[key]!, path + "." + key) { return found }
                }
            case .array(let items):
                for (index, item) in items.enumerated() {
                    if let found = find(item, path + "[\(index)]") { return found }
                }
            default: break
            }
            return nil
        }
        let path = (try? JSONValue(from: payload)).flatMap { find($0, "payload") }
        return "expected an integer\(path.map { " at \($0)" } ?? ""), found \(parsed)"
    }

    /// What is wrong with a line that is JSON but that Foundation refused as "not valid JSON": on
    /// Linux its decoder says so, with no path, for a number that is not a whole number within
    /// `Int64` where an integer is expected (`"at":1.5`, `"seq":1e30`). `nil` when the line is
    /// not a JSON object at all (it then is not JSON).
    static func integerProblem(in line: String) -> String? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8)) else {
            return nil
        }
        for key in [CodingKeys.seq, .version, .at] {
            guard let value = object[key.stringValue] else { continue }
            if case .number(let number) = value { return "expected an integer at \(key.stringValue), found \(number)" }
        }
        return
            "not an event record: a number that is not a whole number within Int64 stands where an integer is expected"
    }
}
