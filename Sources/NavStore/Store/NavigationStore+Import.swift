#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an import did (``NavigationStore/importNDJSON(lines:progress:)``,
/// ``NavigationStore/importFirefoxSession(data:at:)``).
public struct ImportReport: Sendable, Hashable, Codable {
    /// The number of distinct sessions the input holds events of (imported or skipped).
    public var sessions: Int
    /// Events appended.
    public var imported: Int
    /// Events skipped because they were already stored: same event id and the same content
    /// (session, version, type, time and payload). Importing the same input twice skips everything.
    public var skipped: Int

    /// Creates a report.
    public init(sessions: Int, imported: Int, skipped: Int) {
        self.sessions = sessions
        self.imported = imported
        self.skipped = skipped
    }
}

extension NavigationStore {
    /// Imports NDJSON event records (the output of ``exportNDJSON(session:redact:keepIDs:_:)``;
    /// see <doc:Events>) in one `BEGIN IMMEDIATE` transaction: on any error nothing is written.
    ///
    /// Each non-blank line is an ``EventRecord``; `seq` and `time` are informative (`at`, in ms
    /// since the Unix epoch, is the time). `previous` says what the event continues (issue 19):
    /// absent, it is not checked (exports of NavStore 0.1 do not have it); `null`, the event must be
    /// version 1; an event id, it must be the session's stored event at the version before (a
    /// line on top of another history is refused, naming both events). Per event, in input order:
    /// - the event id must be a UUID (<doc:Events>): 8-4-4-4-12 hexadecimal digits, of any version,
    ///   in either letter case. UUIDs compare without regard to case, so it is stored in
    ///   lowercase and an upper-case copy of a known id is that id (ids stored in another case by
    ///   an earlier version are found too);
    /// - a known event id with the same content (session, version, type, `at` and payload, texts
    ///   compared exactly: the payload as the store writes it, so a title changed to a
    ///   canonically equivalent spelling is other content) is skipped, so importing the same
    ///   input twice is a no-op (<doc:Events>);
    /// - a known event id with other content is ``StoreError/eventIDConflict(line:eventID:)``,
    ///   or, when the id was first used earlier in the same input, ``StoreError/invalidImport(line:reason:)``
    ///   naming that line;
    /// - otherwise the session must exist, or the event must be its version 1, a
    ///   `session.started` (the session is then created, named and given its platform
    ///   generation by its payload; a payload without one is `ios14`); the version must
    ///   be exactly the session's current version + 1 (a version the session already has,
    ///   under another id, is where the histories differ, and the message names both events);
    ///   `previous`, when given, must name the session's newest event; `at` must not be earlier
    ///   than the session's previous event; and the event must be what the commands would have
    ///   recorded after the state before it (``SessionState/validate(_:)``, which asks
    ///   ``SessionState/decide(_:)``: vetoes are facts and import, an event no command records is
    ///   refused). The event is then stored under its own event id, so an
    ///   export imported in order into an empty database gets the same `seq` numbers back.
    ///
    /// The input is streamed: only the running state of each session it names is held, never the
    /// input, so memory does not grow with its length. Projections and session rows are written
    /// once per session at the end; snapshots every ``StoreOptions/snapshotInterval`` versions.
    ///
    /// - Parameters:
    ///   - lines: the NDJSON lines (without their newlines), read once, in order.
    ///   - progress: called every 10,000 lines and at the end with the lines read; `total` is 0
    ///     (a streamed input's length is unknown).
    /// - Returns: sessions named, events imported and events skipped.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` with the 1-based line number and the
    ///   reason (not JSON, a missing key and its path, an event id that is not a UUID, an event id
    ///   repeating an earlier line with other content, an unknown type, a bad payload, a version
    ///   gap naming the session and the expected and found versions, a continuation of another
    ///   history, a time going back, an event the rules refuse with their message, each naming
    ///   the session); ``StoreError/eventIDConflict(line:eventID:)``; database errors.
    ///   Nothing is written when it throws.
    /// - Complexity: O(n) in the number of lines, plus the rules' cost per event.
    @discardableResult
    public func importNDJSON(lines: some Sequence<String>, progress: ProgressHandler? = nil) throws(StoreError)
        -> ImportReport
    {
        try withCore { core in
            try core.db.inTransaction(.write) {
                var importer = EventImporter(core: core)
                let decoder = JSONDecoder()
                var lineNumber = 0
                for line in lines {
                    lineNumber += 1
                    if lineNumber % 10_000 == 0 { progress?(lineNumber, 0) }
                    guard let decoded = try Self.decodeEventLine(line, lineNumber: lineNumber, decoder: decoder) else {
                        continue
                    }
                    if let base = decoded.base {
                        try importer.add(base, line: lineNumber)
                    } else {
                        try importer.add(decoded.event, continuing: decoded.continuation, line: lineNumber)
                    }
                }
                let report = try importer.finish()
                progress?(lineNumber, 0)
                return report
            }
        }
    }
}

extension NavigationStore {
    /// One NDJSON line of an export as an event or a truncated session's base, or `nil` for a
    /// blank line (spaces, tabs, CR only); shared by ``importNDJSON(lines:progress:)`` and
    /// ``lintNDJSON(lines:sessions:options:progress:)``.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` naming `lineNumber` and what is wrong.
    /// What every line is checked for before it is decoded: params nested deeper than
    /// ``JSONValue/maximumDepth`` (a line wraps them in up to 6 levels of its own: record,
    /// payload, state, layers, layer, entries, entry for a truncated session's base), numbers
    /// that would change, keys given twice.
    static let lineCheck = JSONTextCheck(wrapperLevels: 6)

    static func decodeEventLine(_ line: String, lineNumber: Int, decoder: JSONDecoder = JSONDecoder())
        throws(StoreError) -> ImportLine?
    {
        if line.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }) { return nil }
        if let problem = lineCheck.problem(in: line) { throw .invalidImport(line: lineNumber, reason: problem) }
        do {
            return try decoder.decode(ImportLine.self, from: Data(line.utf8))
        } catch let error as NavigationError {
            throw .invalidImport(line: lineNumber, reason: error.description)
        } catch {
            if isNotJSON(error) {
                let start = line.prefix(40)
                throw .invalidImport(
                    line: lineNumber,
                    reason: """
                        not JSON: it reads "\(start.count < line.count ? start + "..." : start)" \
                        (navdb imports NDJSON, one JSON event object per line, as 'navdb export' writes)
                        """)
            }
            throw .invalidImport(line: lineNumber, reason: "not an event record: \(describeDecodingError(error))")
        }
    }
}

/// What an imported event says it continues: its line's `previous` key (issue 19).
enum Continuation: Equatable {
    /// No `previous` key (a line of an export made before the key existed, or one made by hand):
    /// what the event continues is not checked, as before.
    case unstated
    /// `"previous": null`: the event continues nothing, so it must be version 1.
    case first
    /// `"previous": "<event id>"`: the event continues the session's event with this id, which
    /// must be the local event at the version before it.
    case after(String)
}

/// Adds imported events to the log inside the caller's transaction, holding only each named
/// session's running state (shared by NDJSON and Firefox imports).
struct EventImporter {
    let core: StoreCore
    /// The session the last event went to, kept out of ``parked`` so that its state is uniquely
    /// referenced and appends never copy it.
    private var current: SessionWrite?
    /// The other sessions written so far, by key (compared by bytes, as SQLite compares keys:
    /// canonically equivalent keys are different sessions).
    private var parked: [ExactKey: SessionWrite] = [:]
    /// Keys of sessions the input named.
    private var named: Set<ExactKey> = []
    private var imported = 0
    private var skipped = 0
    /// The input lines of the events appended so far, as runs `(seq, line)` in which both grow by
    /// one per event: an export's lines need a single run, so this does not grow with the input.
    private var lineRuns: [(seq: Int64, line: Int)] = []

    init(core: StoreCore) {
        self.core = core
    }

    /// Makes `key`'s write ``current`` (parking the previous one); `nil` when the session does
    /// not exist yet.
    private mutating func select(_ key: String) throws {
        if let current, current.row.key.hasSameScalars(as: key) { return }
        if let previous = current { parked[ExactKey(previous.row.key)] = previous }
        current = nil
        if let write = parked.removeValue(forKey: ExactKey(key)) {
            current = write
        } else if let row = try core.sessionRow(key) {
            current = try core.beginWrite(row)
        }
    }

    /// A session as this import has it so far (its row, running state, version and newest event
    /// time), or `nil` when it does not exist.
    mutating func existingSession(_ key: String) throws -> (
        row: SessionRow, state: SessionState, version: Int, lastAt: Int64
    )? {
        try select(key)
        return current.map { ($0.row, $0.state, $0.version, $0.lastAt) }
    }

    /// Counts `events` events of session `key` as already stored (skipped), the session as named.
    mutating func skip(_ key: String, events: Int) {
        named.insert(ExactKey(key))
        skipped += events
    }

    /// Skips `event` when it is already stored, or validates it against its session's running
    /// state (and, when its line names it, the event it continues) and appends it under its own
    /// event id.
    /// - Throws: ``StoreError/invalidImport(line:reason:)``, ``StoreError/eventIDConflict(line:eventID:)``.
    mutating func add(_ event: Event, continuing continuation: Continuation = .unstated, line: Int) throws {
        guard let eventID = EventIDGenerator.normalized(event.eventID) else {
            throw StoreError.invalidImport(
                line: line, reason: "event id '\(event.eventID)' is not \(EventIDGenerator.uuidShape)")
        }
        var event = event
        event.eventID = eventID
        let key = event.session
        switch continuation {
        case .unstated: break
        case .first where event.version != 1:
            throw StoreError.invalidImport(
                line: line,
                reason:
                    "version \(event.version) of session '\(key)' has \"previous\": null, which only version 1 may have; a later version names the event id it continues"
            )
        case .first: break
        case .after(let previous):
            guard EventIDGenerator.normalized(previous) != nil else {
                throw StoreError.invalidImport(
                    line: line, reason: "previous '\(previous)' is not \(EventIDGenerator.uuidShape)")
            }
            if event.version == 1 {
                throw StoreError.invalidImport(
                    line: line,
                    reason:
                        "version 1 of session '\(key)' names previous \(previous), but version 1 continues nothing (previous is null or left out)"
                )
            }
        }
        named.insert(ExactKey(key))
        try select(key)
        if current != nil, event.version == current!.version + 1 {
            if case .after(let previous) = continuation {
                try requireContinuation(of: event, after: previous, line: line)
            }
            try append(event, line: line)
        } else if current == nil, event.version == 1 {
            guard !key.isEmpty else { throw StoreError.invalidImport(line: line, reason: "the session key is empty") }
            guard case .sessionStarted(let name, let platform) = event.body else {
                throw StoreError.invalidImport(
                    line: line,
                    reason:
                        "session '\(key)' does not exist and its version 1 is \(event.type); a session's log starts with session.started"
                )
            }
            let row = try core.createSession(key: key, name: name, at: event.at, platform: platform)
            current = try core.beginWrite(row, state: SessionState())
            try append(event, line: line)
        } else {
            if let (stored, payload) = try core.storedEvent(eventID: event.eventID) {
                guard try core.isSameEvent(stored, payload: payload, as: event) else {
                    throw conflict(with: stored, line: line)
                }
                skipped += 1
                return
            }
            guard let write = current else {
                throw StoreError.invalidImport(
                    line: line,
                    reason:
                        "session '\(key)' does not exist and this event is its version \(event.version); a session's log starts at version 1, or at a session.truncated base"
                )
            }
            if let base = try core.base(of: write.row), event.version <= base.version {
                throw StoreError.invalidImport(
                    line: line,
                    reason:
                        "version \(event.version) of session '\(key)' is at or below its base version \(base.version): the session was truncated at \(Timestamp.format(base.truncatedAt)) and the events up to its base were deleted; import an export made after the truncation"
                )
            }
            if event.version <= write.version, let here = try localEvent(of: write, version: event.version) {
                throw StoreError.invalidImport(
                    line: line,
                    reason:
                        "version \(event.version) of session '\(key)' here is \(here.eventID) (\(here.type)), the file has \(event.eventID) (\(event.type)) at that version: the two histories differ; a file continuing a session starts right after its newest version, \(write.version)"
                )
            }
            throw StoreError.invalidImport(
                line: line,
                reason:
                    "session '\(key)' is at version \(write.version) here, so the next version is \(write.version + 1), but this line is version \(event.version); versions go 1, 2, 3... without gaps"
            )
        }
    }

    /// Adds a truncated session's base (a `session.truncated` record, <doc:Retention>): a session that
    /// does not exist is created at the base, and its events go on at `base.version + 1`; an
    /// existing session whose state at the base's version is exactly the base's is left as it is
    /// (the record is skipped, so an export imports twice as a no-op, and a truncated export
    /// merges into the untruncated file it came from). Anything else is refused: the session
    /// holds another state there, or cannot show its state there (it is shorter, or was
    /// truncated later).
    /// - Throws: ``StoreError/invalidImport(line:reason:)``.
    mutating func add(_ base: SessionBase, line: Int) throws {
        guard let eventID = EventIDGenerator.normalized(base.eventID) else {
            throw StoreError.invalidImport(
                line: line, reason: "event id '\(base.eventID)' is not \(EventIDGenerator.uuidShape)")
        }
        let key = base.session
        guard !key.isEmpty else { throw StoreError.invalidImport(line: line, reason: "the session key is empty") }
        named.insert(ExactKey(key))
        try select(key)
        guard let write = current else {
            let row = try core.createSession(
                key: key, name: base.name, at: base.startedAt, platform: base.state.platform)
            try core.insertBase(
                sessionID: row.id,
                base: SessionBase(
                    session: key, version: base.version, at: base.at, eventID: eventID, state: base.state,
                    truncatedAt: base.truncatedAt, name: base.name, startedAt: base.startedAt))
            var started = try core.beginWrite(row, state: SessionState())
            started.state = base.state
            started.version = base.version
            started.lastAt = base.at
            started.lastEventID = eventID
            current = started
            return
        }
        let own = try core.base(of: write.row)
        let low = own?.version ?? 1
        guard base.version >= low, base.version <= write.version else {
            throw StoreError.invalidImport(
                line: line,
                reason: "session '\(key)' holds versions \(low)...\(write.version)"
                    + StoreCore.truncationNote(own)
                    + "; it cannot show its state at this base version \(base.version), so the base cannot be checked")
        }
        let state =
            base.version == write.version
            ? write.state : try core.state(of: write.row, atVersion: base.version, repairing: true).0
        guard state.isExactly(base.state) else {
            throw StoreError.invalidImport(
                line: line,
                reason:
                    "the base of session '\(key)' at version \(base.version) differs from the state the database holds there"
                    + (state.firstDifference(from: base.state, name: "the database", expectedName: "the base").map {
                        ": \($0)"
                    } ?? ""))
        }
        skipped += 1
    }

    /// Refuses `event` (the next version of ``current``) when the event it names as its previous
    /// one is not the session's newest event here: the file continues another history.
    private mutating func requireContinuation(of event: Event, after previous: String, line: Int) throws {
        let newest: String
        if let known = current!.lastEventID {
            newest = known
        } else {
            newest =
                try localEvent(of: current!, version: current!.version)?.eventID
                ?? core.base(of: current!.row).flatMap { $0.version == current!.version ? $0.eventID : nil } ?? ""
            current!.lastEventID = newest
        }
        let expected = EventIDGenerator.normalized(newest) ?? newest
        guard EventIDGenerator.normalized(previous) != expected else { return }
        throw StoreError.invalidImport(
            line: line,
            reason:
                "version \(current!.version) of session '\(event.session)' here is \(newest), the file continues \(previous) with version \(event.version) (\(event.eventID)): the file continues another history, which diverged from this one at or before version \(current!.version)"
        )
    }

    /// The stored event at `version` of the session `write` writes (its id and type).
    private func localEvent(of write: SessionWrite, version: Int) throws -> (eventID: String, type: String)? {
        try core.db.fetchOne(
            sql: "SELECT event_id, type FROM events WHERE session_id = ? AND version = ?",
            arguments: [.integer(write.row.id), SQLValue(version)]
        ).map { (try $0[0], try $0[1]) }
    }

    /// Validates `event` against ``current`` and appends it.
    private mutating func append(_ event: Event, line: Int) throws {
        if current!.version > 0 && event.at < current!.lastAt {
            throw StoreError.invalidImport(
                line: line,
                reason:
                    "version \(event.version) of session '\(event.session)' at \(Timestamp.format(event.at)) (\(event.at)) is earlier than the event before it at \(Timestamp.format(current!.lastAt)) (\(current!.lastAt)); times never go backwards"
            )
        }
        if event.version > 1, case .sessionStarted = event.body {
            throw StoreError.invalidImport(
                line: line,
                reason:
                    "session.started can only be version 1 of a session, found at version \(event.version) of session '\(event.session)'"
            )
        }
        do throws(NavigationError) { try current!.state.validate(event.body) } catch {
            throw StoreError.invalidImport(
                line: line, reason: "version \(event.version) of session '\(event.session)': \(error.description)")
        }
        guard
            let appended = try core.appendEvent(
                event.body, to: &current!, at: event.at, eventID: event.eventID, ignoreKnownID: true)
        else {
            guard let (stored, _) = try core.storedEvent(eventID: event.eventID) else {
                throw StoreError.eventIDConflict(line: line, eventID: event.eventID)
            }
            throw conflict(with: stored, line: line)
        }
        if let seq = appended.seq {
            if let run = lineRuns.last, Int64(line - run.line) == seq - run.seq {} else { lineRuns.append((seq, line)) }
        }
        imported += 1
    }

    /// The error for an event whose id is already used by `stored`, with other content: the
    /// input line that used it first when this import appended it, else ``StoreError/eventIDConflict(line:eventID:)``.
    private func conflict(with stored: Event, line: Int) -> StoreError {
        guard let seq = stored.seq, let first = inputLine(ofSeq: seq) else {
            return .eventIDConflict(line: line, eventID: stored.eventID)
        }
        return .invalidImport(
            line: line,
            reason:
                "event id \(stored.eventID) repeats line \(first) of the input with different content (there: version \(stored.version) of session '\(stored.session)', type \(stored.body.type)); every event needs its own id"
        )
    }

    /// The input line of the event this import appended as `seq`, or `nil` when it was stored before.
    /// - Complexity: O(log r) for r runs in ``lineRuns``.
    private func inputLine(ofSeq seq: Int64) -> Int? {
        guard let first = lineRuns.first, seq >= first.seq else { return nil }
        var low = 0
        var high = lineRuns.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineRuns[middle].seq <= seq { low = middle } else { high = middle - 1 }
        }
        return lineRuns[low].line + Int(seq - lineRuns[low].seq)
    }

    /// Writes each session's projection and row once and returns the counts.
    mutating func finish() throws -> ImportReport {
        if let write = current { try core.finishWrite(write) }
        for write in parked.values { try core.finishWrite(write) }
        current = nil
        parked.removeAll()
        return ImportReport(sessions: named.count, imported: imported, skipped: skipped)
    }
}

extension StoreCore {
    /// Whether `event` is the content of `stored` (whose payload column holds `payload`): the same
    /// session, version, type and time, and the same payload text as the store writes it,
    /// compared by bytes. Swift's `==` would take a title changed to a canonically equivalent
    /// spelling for the same; the store keeps text exactly, so that is other content.
    func isSameEvent(_ stored: Event, payload: String, as event: Event) throws -> Bool {
        guard stored.session.hasSameScalars(as: event.session), stored.version == event.version,
            stored.at == event.at, stored.type == event.type
        else { return false }
        let text = try payloadText(event.body)
        // The stored text as written; or, for a payload an earlier version wrote in another layout,
        // the stored body written as the store writes it now (decoding keeps every scalar).
        if payload.utf8.elementsEqual(text.utf8) { return true }
        return try payloadText(stored.body).utf8.elementsEqual(text.utf8)
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

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let type = try c.decode(String.self, forKey: .type)
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
            throw NavigationError.invalidEvent("bad \(type) payload: \(describeDecodingError(error))")
        }
    }
}
