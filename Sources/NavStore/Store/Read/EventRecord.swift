/// One event as a line of NDJSON (`history --json`, `export`, `import`):
/// `{"seq","session","version","type","at","time","eventID","previous","payload"}` where `at` is
/// milliseconds since the Unix epoch, `time` the same instant as ISO-8601 text (informative; `at`
/// wins on import), `previous` the event id of the session's event before it (in an export), and
/// `payload` the event's JSON object (<doc:Events>).
public struct EventRecord: Sendable, Hashable, Codable {
    /// The global sequence number in the database it came from (informative on import).
    public var seq: Int64?
    /// The session key.
    public var session: String
    /// The 1-based version within the session.
    public var version: Int
    /// The event type, e.g. `entry.pushed`.
    public var type: String
    /// Milliseconds since the Unix epoch, UTC.
    public var at: Int64
    /// ISO-8601 text of `at`.
    public var time: String?
    /// The event's UUID.
    public var eventID: String
    /// The event id of the event this one continues: the session's event at `version - 1`.
    /// `export` writes it on every line after a session's version 1, so that `import` can refuse
    /// a continuation of another history. `nil` (left out of the line) for version 1,
    /// and in lines that do not say (event lines written without it, exports of NavStore before 0.2): `import`
    /// then does not check what the line continues.
    public var previous: String?
    /// The payload object.
    public var payload: JSONValue

    /// A record from its fields.
    public init(
        seq: Int64?, session: String, version: Int, type: String, at: Int64, time: String?, eventID: String,
        payload: JSONValue
    ) {
        self.seq = seq
        self.session = session
        self.version = version
        self.type = type
        self.at = at
        self.time = time
        self.eventID = eventID
        self.payload = payload
        previous = nil
    }

    /// The record of a stored event, continuing the event whose id is `previous` (see ``previous``).
    /// - Throws: `EncodingError` only for payload values JSON cannot hold.
    public init(_ event: Event, previous: String? = nil) throws {
        self.previous = previous
        seq = event.seq
        session = event.session
        version = event.version
        type = event.type
        at = event.at
        time = Timestamp.format(event.at)
        eventID = event.eventID
        payload = try JSONDecoder().decode(JSONValue.self, from: event.body.payloadData(JSONEncoder()))
    }

    /// The event this record describes.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` when the type or payload is not valid.
    public func event() throws(NavigationError) -> Event {
        let data: Data
        do { data = try JSONEncoder().encode(payload) } catch {
            throw .invalidEvent("payload cannot be encoded: \(error)")
        }
        return Event(
            seq: seq, session: session, version: version, at: at, eventID: eventID,
            body: try EventBody(type: type, payload: data))
    }

    /// One compact JSON line with sorted keys (no newline at the end), written by the one line
    /// writer (``line(_:payload:previous:)``); `seq`, `time` and `previous` left out when `nil`.
    /// - Throws: `EncodingError` only for payload values JSON cannot hold.
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload = String(decoding: try encoder.encode(payload), as: UTF8.self)
        return Self.line(
            at: at, eventID: eventID, previous: previous, seq: seq, session: session, time: time, type: type,
            version: version, payload: payload)
    }

    /// The NDJSON line of `event` around `payload`, its payload's JSON text as the caller wants it
    /// (stored, or with every item field written for `--json`): the shape of every event line,
    /// `{"at","eventID","payload","previous","seq","session","time","type","version"}` with
    /// sorted keys, `time` the ISO-8601 text of `at`, `previous` and `seq` left out when `nil`
    /// (`Schemas/event.schema.json`).
    public static func line(_ event: Event, payload: String, previous: String? = nil) -> String {
        line(
            at: event.at, eventID: event.eventID, previous: previous, seq: event.seq, session: event.session,
            time: Timestamp.format(event.at), type: event.type, version: event.version, payload: payload)
    }

    private static func line(
        at: Int64, eventID: String, previous: String?, seq: Int64?, session: String, time: String?, type: String,
        version: Int, payload: String
    ) -> String {
        var writer = PayloadWriter()
        _ = writer.line(
            at: at, eventID: eventID, previous: previous, seq: seq, session: session, time: time, type: type,
            version: version
        ) { writer in
            writer.rawText(payload)
            return true
        }
        return writer.text
    }
}
