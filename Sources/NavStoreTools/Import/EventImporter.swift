import NavStore

/// What an imported event says it continues: its line's `previous` key, checked so that a line
/// on top of another history is refused.
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
    private(set) var current: SessionWrite?
    /// The other sessions written so far, by key (compared by bytes, as SQLite compares keys:
    /// canonically equivalent keys are different sessions).
    private(set) var parked: [ExactKey: SessionWrite] = [:]
    /// Keys of sessions the input named.
    private var named: Set<ExactKey> = []
    private var imported = 0
    private var skipped = 0
    /// The input lines of the events appended so far, as runs `(seq, line)` in which both grow by
    /// one per event: an export's lines need a single run, so this does not grow with the input.
    private var lineRuns: [(seq: Int64, line: Int)] = []
    /// Events checked and folded but not inserted yet, when the backend batches inserts
    /// (``SQLDialect/importBatchSize`` above 1); `nil` when each event is inserted as it comes.
    private var batch: EventBatch?
    /// The check of texts bound for columns for U+0000, on a backend whose text cannot hold it;
    /// `nil` on one whose text can (SQLite).
    let storedText: StoredTextCheck?
    /// The entries this import brought onto a stack whose id or route holds U+0000, when
    /// ``storedText`` checks, by session key and entry id: the line and the reason, refused if
    /// still live at the end (``checkLiveEntries(session:)``).
    var broughtText: [ExactKey: [ExactKey: (line: Int, reason: String)]] = [:]
    /// The acknowledged `session.restored` markers appended with no event after them yet, by
    /// session key: the line of each (``checkRestoreMarker(_:line:)``).
    var unfollowedAcknowledgements: [ExactKey: Int] = [:]

    init(core: StoreCore) {
        self.core = core
        let dialect = core.db.dialect
        storedText = dialect.textHoldsNUL ? nil : StoredTextCheck(backend: dialect.name)
        let size = dialect.importBatchSize
        batch = size > 1 ? EventBatch(capacity: size) : nil
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
        try checkStoredKey(key, line: 0)
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
        do { try addEvent(event, continuing: continuation, line: line) } catch let error as StoreError {
            // An event still in the batch comes from an earlier line: its refusal goes first.
            try flush()
            throw error
        }
    }

    private mutating func addEvent(_ event: Event, continuing continuation: Continuation, line: Int) throws {
        guard let eventID = EventIDGenerator.normalized(event.eventID) else {
            throw StoreError.invalidImport(
                line: line, reason: "event id '\(event.eventID)' is not \(EventIDGenerator.uuidShape)")
        }
        var event = event
        event.eventID = eventID
        let key = event.session
        try Self.checkTimes(of: event, line: line)
        try Self.checkContinuation(continuation, of: event, line: line)
        try checkStoredKey(key, line: line)
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
            try checkStoredName(name, of: "version 1 of session '\(key)'", line: line)
            let row = try core.createSession(key: key, name: name, at: event.at, platform: platform)
            current = try core.beginWrite(row, state: SessionState())
            try append(event, line: line)
        } else {
            try addOutOfSequence(event, line: line)
        }
    }

    /// An event that does not come next in its session: skipped when it is already stored as it
    /// is, refused otherwise, naming why (a conflict, a missing start, the base, another history,
    /// a gap).
    private mutating func addOutOfSequence(_ event: Event, line: Int) throws {
        try flush()
        let key = event.session
        if let (stored, payload) = try core.storedEvent(eventID: event.eventID) {
            guard core.isSameEvent(stored, payload: payload, as: event) else {
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
        try Self.checkTime(base.startedAt, of: "the start of session '\(key)'", field: "payload.startedAt", line: line)
        try Self.checkTime(base.at, of: "version \(base.version) of session '\(key)'", line: line)
        try Self.checkTime(
            base.truncatedAt, of: "the base of session '\(key)' at version \(base.version)",
            field: "payload.truncatedAt", line: line)
        try checkStoredKey(key, line: line)
        try flush()
        named.insert(ExactKey(key))
        try select(key)
        guard let write = current else {
            try checkStoredName(base.name, of: "the base of session '\(key)' at version \(base.version)", line: line)
            if let storedText { noteBroughtEntries(of: base, line: line, storedText) }
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
            try flush()
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
        try checkRestoreMarker(event, line: line)
        do throws(NavigationError) { try current!.state.validate(event.body) } catch {
            throw StoreError.invalidImport(
                line: line, reason: "version \(event.version) of session '\(event.session)': \(error.description)")
        }
        imported += 1
        if let storedText { noteBroughtEntries(of: event, line: line, storedText) }
        if batch != nil {
            let payload = core.payloadText(event.body)
            do throws(StoreError) { try StoreCore.checkPayloadSize(payload.utf8.count, of: event.body) } catch {
                throw StoreError.invalidImport(line: line, reason: error.description)
            }
            batch!.append(
                EventBatch.Pending(
                    sessionID: current!.row.id, version: current!.version + 1, type: event.body.type, at: event.at,
                    eventID: event.eventID, payload: payload, line: line))
            try core.fold(event.body, into: &current!, at: event.at, eventID: event.eventID)
            if batch!.isFull { try flush() }
            return
        }
        let appended: (seq: Int64, eventID: AppendedEventID)?
        do {
            appended = try core.appendEvent(
                event.body, to: &current!, at: event.at, eventID: event.eventID, ignoreKnownID: true)
        } catch StoreError.unsupportedValue(let reason) {
            // Past the size an event holds (StoreCore.checkPayloadSize): named with its line.
            throw StoreError.invalidImport(line: line, reason: reason)
        }
        guard let appended else { try refuseKnownID(event.eventID, line: line) }
        noteLine(line, seq: appended.seq)
    }

    /// Inserts the batched events, if any; the first whose event id was already stored is
    /// refused as an unbatched import refuses it.
    private mutating func flush() throws {
        guard batch != nil else { return }
        let outcome = try batch!.flush(core.db)
        for (seq, line) in outcome.stored { noteLine(line, seq: seq) }
        if let refused = outcome.refused { try refuseKnownID(refused.eventID, line: refused.line) }
    }

    /// Notes that input line `line` became `seq`, for ``inputLine(ofSeq:)``.
    private mutating func noteLine(_ line: Int, seq: Int64) {
        if let run = lineRuns.last, Int64(line - run.line) == seq - run.seq { return }
        lineRuns.append((seq, line))
    }

    /// Refuses the event of `line`, whose id `eventID` is already stored with other content.
    private func refuseKnownID(_ eventID: String, line: Int) throws -> Never {
        guard let (stored, _) = try core.storedEvent(eventID: eventID) else {
            throw StoreError.eventIDConflict(line: line, eventID: eventID)
        }
        throw conflict(with: stored, line: line)
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
        try flush()
        try checkAcknowledgementsFollowed()
        try checkLiveEntries()
        if let write = current { try core.finishWrite(write) }
        for write in parked.values { try core.finishWrite(write) }
        current = nil
        parked.removeAll()
        return ImportReport(sessions: named.count, imported: imported, skipped: skipped)
    }
}
