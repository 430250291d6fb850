import NavStore

/// A trace's row of `trace_imports` (Migrations/0008_trace_imports.sql).
struct TraceRecord {
    /// The lines up to the one that made the trace's first event, and their chain's digest.
    var firstLines: Int
    var firstDigest: String
    /// The lines the longest import of the trace read, and their chain's digest.
    var lines: Int
    var digest: String
}

/// Appends the commands a trace's lines make to one session, inside the caller's transaction:
/// a UIKit callback trace's (through ``NavigationControllerObserver``) or a SwiftUI path trace's
/// (through ``NavigationPathObserver``).
///
/// **What identifies a line.** A trace's line is identified by its JSON (`identity(of:)`) and
/// every non-blank line before it, in the session it is imported into: the events a line makes
/// take ids derived from a SHA-256 chain over the session key and those lines (version 8 UUIDs, RFC 9562
/// §5.8), and the first event an import appends takes an id derived from the first line alone
/// (the trace's anchor). An import that finds its anchor in the session replays the trace from
/// the state before it and checks, event by event, that the session holds what each line makes,
/// under the line's id: the same trace imported again does nothing; a longer trace whose lines
/// up to some point were imported appends what follows them; a trace that begins with the same
/// line and then differs, or a session that moved on between the imported part and what the
/// trace adds, is refused. An event's id covers every line up to the one that made it, except
/// the anchor's (the first line alone), and no id covers the lines after the last line that made
/// an event: `trace_imports` keeps, per trace, the lines up to the one that made the anchor and
/// the lines the longest import read, with their chains' digests, which an import checks when it
/// reaches the anchor and when it has read as many lines.
struct TraceImporter {
    let core: StoreCore
    let key: String
    let platform: PlatformGeneration?
    private var write: SessionWrite?
    private var created = false
    private var callbacks = 0
    private var imported = 0
    private var skipped = 0
    /// The time of the line before, in ms since the Unix epoch.
    private var previousAt: Int64?
    /// Whether the line before had no `at` of its own (it was stamped with the import's clock).
    private var previousWasStamped = false
    /// The chain's digest through the last line read (before the first: the format and the key).
    private var chain: [UInt8]
    /// The id of the first event an import of this trace appends, from the first line alone.
    private var anchor = ""
    /// Whether the next event the trace makes is its first (it takes ``anchor``).
    private var atFirstEvent = true
    /// Checking an earlier import of the trace: the version checked so far and the state after it.
    private var verified: (version: Int, state: SessionState)?
    /// What the earlier imports of this trace recorded (`trace_imports`): the lines (blank lines
    /// aside) up to the one that made its first event and the longest import read, and the
    /// digests of their chains, in hexadecimal.
    private var recorded: TraceRecord?
    /// The lines up to the one that made the trace's first event (the anchor), and their chain's
    /// digest: the anchor's id follows from the first line alone. Set once the session holds the
    /// anchor (found or appended), so `trace_imports` may name the trace by it.
    private var anchorLines: (lines: Int, digest: String)?
    /// The number, in this input, of the trace's first line.
    private var firstLine = 0
    /// The number of the last line whose events were found stored under their ids: it and every
    /// line before it are the earlier import's, as an event's id follows from them all.
    private var confirmedLine = 0
    /// Whether a line's `at` may be more than ``Timestamp/futureLimit`` ahead of the clock.
    let allowingFutureTimes: Bool

    /// What every refusal of a trace that differs from one imported before advises.
    static let advice =
        "import another trace into another session (a trace's lines are identified by their JSON and the lines before them)"

    /// An importer of a trace in the format `format` (`uikit-trace`, `swiftui-path`: part of
    /// each line's identity) into session `key`.
    init(core: StoreCore, key: String, platform: PlatformGeneration?, format: String, allowingFutureTimes: Bool) {
        self.core = core
        self.key = key
        self.platform = platform
        self.allowingFutureTimes = allowingFutureTimes
        var seed = SHA256()
        for part in ["navstore.trace", format, key] {
            seed.update(part.utf8)
            seed.update(CollectionOfOne(0))
        }
        chain = seed.finalize()
    }

    /// The version 8 UUID text of the digest of `chain` and `label` (RFC 9562 §5.8).
    private static func eventID(_ chain: [UInt8], _ label: String) -> String {
        var hasher = SHA256()
        hasher.update(chain)
        hasher.update(label.utf8)
        return SHA256.uuidVersion8(hasher.finalize())
    }

    /// The text that identifies a line in the chain: the line read as JSON and written back in
    /// NavStore's own form (keys sorted by their UTF-8 bytes, no whitespace, strings with the
    /// fewest escapes, as stored payloads are written: <doc:Events>; a number that is a whole
    /// number within Int64 as that integer, as the line's decoder reads `0.0`, `1e3` or `1000`),
    /// so that another key order, spacing, a byte order mark, another escape of the same
    /// character or another spelling of the same number is the same line. A line that reader
    /// leaves to `JSONDecoder` (an exponent, an escaped key) is read by `JSONDecoder` as a
    /// ``JSONValue``; one that is not JSON at all keeps its text without the byte order mark.
    static func identity(of line: String) -> String {
        var text = line
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        let canonical = text.withUTF8 { bytes -> String? in
            // NavStore's reader first (every line of a trace a recorder writes); what it leaves
            // (an exponent, an escaped key) to `JSONDecoder`, which the line was decoded with.
            var value: JSONValue?
            if var reader = PayloadReader(bytes), let read = reader.value(), reader.atEnd() { value = read }
            if value == nil { value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }
            guard let value else { return nil }
            var writer = PayloadWriter(capacity: bytes.count)
            writer.write(value: wholeNumbersAsIntegers(value) ?? value)
            return writer.text
        }
        return canonical ?? text
    }

    /// `value` with every number that is a whole number within Int64 (`0.0`, `1e3`) as that
    /// integer; `nil` when it holds none (most lines: nothing is copied then).
    private static func wholeNumbersAsIntegers(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .number(let number):
            return Int64(exactly: number).map(JSONValue.integer)
        case .array(var elements):
            var changed = false
            for index in elements.indices {
                if let element = wholeNumbersAsIntegers(elements[index]) {
                    elements[index] = element
                    changed = true
                }
            }
            return changed ? .array(elements) : nil
        case .object(var members):
            var changed = false
            for (key, member) in members {
                if let member = wholeNumbersAsIntegers(member) {
                    members[key] = member
                    changed = true
                }
            }
            return changed ? .object(members) : nil
        default:
            return nil
        }
    }

    /// Adds one line, `text`, timed `at` (ms; `nil`: the import's clock): `observe` makes its
    /// commands from the session's state (the state before the line; while an earlier import is
    /// checked, the state the trace's imported part left).
    mutating func add(
        at lineAt: Int64?, line number: Int, text: String,
        _ observe: (SessionState) throws(ObservationError) -> [NavigationCommand]
    ) throws {
        callbacks += 1
        if let lineAt { try check(at: lineAt, line: number) }
        extendChain(with: text)
        try start(at: lineAt ?? Timestamp.now(), line: number)
        // The time of the line's appended events, fixed when the first is appended.
        var time: Int64?
        let commands: [NavigationCommand]
        do throws(ObservationError) {
            commands = try observe(verified?.state ?? write!.state)
        } catch {
            throw StoreError.invalidImport(line: number, reason: error.description)
        }
        var index = 0
        for command in commands {
            let body: EventBody?
            do throws(NavigationError) {
                body = try (verified?.state ?? write!.state).decide(command)
            } catch {
                throw StoreError.invalidImport(line: number, reason: error.description)
            }
            guard let body else { continue }
            let eventID = atFirstEvent ? anchor : Self.eventID(chain, "event \(index)")
            atFirstEvent = false
            index += 1
            if eventID == anchor { try madeAnchor(line: number) }
            if try isImported(body, eventID: eventID, at: lineAt, line: number) {
                confirmedLine = number
                continue
            }
            if let recorded, callbacks <= recorded.lines {
                // The earlier import read this far, and everything its lines made is stored up to
                // where this check reached the session's end: this line makes an event it did not.
                throw StoreError.invalidImport(
                    line: number,
                    reason:
                        "this line makes \(body.type), which the trace imported into session '\(key)' before with this first line did not make from the same point: the earlier import read \(recorded.lines) lines (blank lines aside) and made no event after its version \(write!.version); this trace differs from it after line \(max(confirmedLine, firstLine)) (at this line, or in one before it that makes no event); \(Self.advice)"
                )
            }
            if time == nil { time = try appendTime(lineAt, line: number) }
            try append(body, eventID: eventID, at: time!, line: number)
            imported += 1
        }
        if let recorded, callbacks == recorded.lines, SHA256.hex(chain) != recorded.digest {
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "this trace's first \(recorded.lines) lines (blank lines aside) are not the \(recorded.lines) lines of the trace imported into session '\(key)' before (the one with this first line): they differ after line \(max(confirmedLine, firstLine)), in a line that makes no event in one of them (a programmatic call, a shouldPop, a path that changes nothing: such a line is part of the trace too); \(Self.advice)"
            )
        }
        if time == nil, verified == nil { time = try appendTime(lineAt, line: number) }
        if let time = time ?? lineAt {
            previousAt = time
            previousWasStamped = lineAt == nil
        }
    }

    /// Checks a line's `at` before anything is read for it: within the years the store takes,
    /// not too far ahead of the clock (unless allowed), and not before the line before it.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` naming what is wrong with it.
    private func check(at: Int64, line number: Int) throws {
        if !Timestamp.accepted.contains(at) {
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "at \(at) ms is outside the years 0000 through 9999 (accepted: \(Timestamp.accepted.lowerBound) through \(Timestamp.accepted.upperBound))"
            )
        }
        if !allowingFutureTimes, at > Timestamp.now() + Timestamp.futureLimit {
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "at \(Timestamp.format(at)) (\(at)) is more than 24 hours ahead of the clock (now \(Timestamp.format(Timestamp.now()))): every later event of the session would be stamped at least that late; give times at most 24 hours ahead, or allow future times (navdb import --allow-future-time) if they are meant"
            )
        }
        if let previousAt, at < previousAt {
            let before =
                previousWasStamped
                ? "the line before it, which has no \"at\" and was stamped with this import's clock, \(Timestamp.format(previousAt)) (\(previousAt)); give every line an \"at\", or none"
                : "the line before it at \(Timestamp.format(previousAt)) (\(previousAt)); times never go backwards"
            throw StoreError.invalidImport(
                line: number, reason: "at \(Timestamp.format(at)) (\(at)) is earlier than " + before)
        }
    }

    /// Extends ``chain`` with the line `text` (its ``identity(of:)``): the ids of the events the
    /// line makes follow from it.
    private mutating func extendChain(with text: String) {
        var hasher = SHA256()
        hasher.update(chain)
        hasher.update(Self.identity(of: text).utf8)
        chain = hasher.finalize()
    }

    /// Appends `body`, an event the line `number` makes, at `time` under `eventID`.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` when the id is already stored (not as
    ///   the session's next event: an earlier import whose events were pruned or changed since),
    ///   or when the event is past the size an event holds (``StoreCore/checkPayloadSize(_:of:)``).
    private mutating func append(_ body: EventBody, eventID: String, at time: Int64, line number: Int) throws {
        do {
            guard try core.appendEvent(body, to: &write!, at: time, eventID: eventID) != nil else {
                throw StoreError.eventIDExists(eventID)
            }
        } catch StoreError.unsupportedValue(let reason) {
            throw StoreError.invalidImport(line: number, reason: reason)
        } catch StoreError.eventIDExists {
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "the event this line makes is already stored under its id \(eventID), but not as the next event of session '\(key)': this trace was imported before and the session's events since its first line were pruned or changed"
            )
        }
    }

    /// The trace's first event is made by the line just read, `number`: its lines so far are
    /// what the anchor's id stands for; while an earlier import is checked, they must be the lines
    /// that made its first event (the id alone covers the first line only).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` when they are not.
    private mutating func madeAnchor(line number: Int) throws {
        anchorLines = (callbacks, SHA256.hex(chain))
        guard verified != nil, let recorded, recorded.firstLines != callbacks || recorded.firstDigest != SHA256.hex(chain)
        else { return }
        throw StoreError.invalidImport(
            line: number,
            reason:
                "this trace's first event is made by this line, the trace's line \(callbacks) (blank lines aside), and the trace imported into session '\(key)' before with this first line made it by its line \(recorded.firstLines), with other lines before it: they differ after line \(firstLine) (at this line, or in one before it that makes no event: a programmatic call, a shouldPop, a path that changes nothing is part of the trace too); \(Self.advice)"
        )
    }

    /// The time of a line's events when appended: its `at`, or the import's clock (never before
    /// the session's previous event).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` for an `at` before the session's previous event.
    private func appendTime(_ lineAt: Int64?, line number: Int) throws -> Int64 {
        let lastAt = write!.lastAt
        if let lineAt, write!.version > 0, lineAt < lastAt {
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "at \(Timestamp.format(lineAt)) (\(lineAt)) is earlier than the previous event of session '\(key)' at \(Timestamp.format(lastAt)); times never go backwards"
            )
        }
        return max(lineAt ?? Timestamp.now(), lastAt)
    }

    /// While an earlier import of the trace is checked: whether the session holds `body` under
    /// `eventID` as its next version (then it is folded into the checked state, and skipped);
    /// `false` once the checked part reaches the session's end (the rest is appended).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` when the session holds another event there.
    private mutating func isImported(_ body: EventBody, eventID: String, at lineAt: Int64?, line number: Int) throws
        -> Bool
    {
        guard var checked = verified else { return false }
        let version = checked.version + 1
        guard version <= write!.version else {
            verified = nil
            return false
        }
        guard
            let row = try core.db.fetchOne(
                sql: "SELECT event_id, type, payload, at FROM events WHERE session_id = ? AND version = ?",
                arguments: [.integer(write!.row.id), .integer(Int64(version))])
        else { throw StoreError.invalidImport(line: number, reason: "version \(version) of session '\(key)' is missing") }
        let storedID: String = try row[0]
        let type: String = try row[1]
        let payload: String = try row[2]
        let storedAt: Int64 = try row[3]
        let text = core.payloadText(body)
        var same = storedID.lowercased() == eventID && type == body.type
        if same, !payload.utf8.elementsEqual(text.utf8) {
            // A payload an earlier version wrote in another layout: compared as written now.
            same = core.payloadText(try EventBody(type: type, payload: Array(payload.utf8))).utf8.elementsEqual(text.utf8)
        }
        // A line with an `at` put it on each event it appended: another time is another line.
        let sameTime = lineAt == nil || storedAt == lineAt
        guard same, sameTime else {
            func article(_ type: String) -> String { "aeiou".contains(type.first ?? "x") ? "an \(type)" : "a \(type)" }
            let what =
                !same
                ? storedID.lowercased() == eventID
                    ? "\(article(type)) event other than the \(body.type) this line makes now"
                    : "\(article(type)) event that is not this trace's (this line makes \(article(body.type)))"
                : "the \(type) event this line makes, but at \(Timestamp.format(storedAt)) (\(storedAt)), not at this line's \(lineAt!)"
            // Every line up to the last whose events were found is the earlier import's.
            let checkedUpTo = max(confirmedLine, firstLine)
            let from =
                number <= checkedUpTo + 1
                ? "from this line on"
                : "after line \(checkedUpTo) (at this line, or in a line before it that makes no event)"
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "session '\(key)' holds, at version \(version), \(what): a trace beginning with this trace's first line was imported into it before, and this trace differs from it \(from), or the session moved on after it; \(Self.advice)"
            )
        }
        checked.state.apply(body)
        checked.version = version
        verified = checked
        skipped += 1
        return true
    }

    /// Reads the session, or starts it at `at`, on the first line (whose text is in ``chain``):
    /// a session holding the trace's anchor is checked from the version before it.
    private mutating func start(at: Int64, line number: Int) throws {
        guard write == nil else { return }
        anchor = Self.eventID(chain, "first event")
        firstLine = number
        if let row = try core.sessionRow(key) {
            if let platform, platform != row.platform {
                throw StoreError.invalidImportFile(
                    reason:
                        "session '\(key)' follows \(row.platform.rawValue) rules (fixed when it started), not \(platform.rawValue) as --platform says; leave --platform out to import into it"
                )
            }
            write = try core.beginWrite(row)
            let record = try core.db.fetchOne(
                sql:
                    "SELECT first_lines, first_digest, lines, digest FROM trace_imports WHERE session_id = ? AND anchor = ?",
                arguments: [.integer(row.id), .text(anchor)]
            ).map { TraceRecord(firstLines: try $0[0], firstDigest: try $0[1], lines: try $0[2], digest: try $0[3]) }
            let found = try core.storedEvent(eventID: anchor)
            if found == nil, let lines = record?.lines {
                throw StoreError.invalidImport(
                    line: number,
                    reason:
                        "a trace beginning with this trace's first line was imported into session '\(key)' before (\(lines) lines, blank lines aside), and a truncation (session truncate) has removed its first event since: this trace cannot be checked against the session any more; import the lines that import did not read as a trace of their own, or this trace into another session"
                )
            }
            if let found {
                guard found.event.session.hasSameScalars(as: key) else {
                    throw StoreError.invalidImport(
                        line: number,
                        reason:
                            "the id of this trace's first event, \(anchor), is already stored in another session ('\(DisplayText.escaped(found.event.session, quote: "'"))')"
                    )
                }
                // The session was started by the import (its session.started holds the anchor),
                // or the anchor is the first event the trace made in it.
                let startedHere = found.event.version == 1 && found.event.type == "session.started"
                let before = startedHere ? 1 : found.event.version - 1
                let (state, _) = try core.state(of: row, atVersion: before, repairing: false)
                verified = (before, state)
                recorded = record
                if startedHere {
                    anchorLines = (callbacks, SHA256.hex(chain))
                    atFirstEvent = false
                    skipped += 1
                }
            }
            return
        }
        let generation = platform ?? .default
        let row = try core.createSession(key: key, name: nil, at: at, platform: generation)
        write = try core.beginWrite(row, state: SessionState())
        guard
            try core.appendEvent(.sessionStarted(name: nil, platform: generation), to: &write!, at: at, eventID: anchor)
                != nil
        else { throw StoreError.eventIDExists(anchor) }
        atFirstEvent = false
        anchorLines = (callbacks, SHA256.hex(chain))
        created = true
        imported += 1
    }

    /// Ends the import: the session's projection written, and in `trace_imports` the lines read
    /// and their digest, when they are more than an earlier import of the trace read.
    mutating func finish() throws -> TraceImportReport {
        if let write {
            try core.finishWrite(write)
            // Recorded when the lines are this trace's beyond doubt: its events were appended
            // (the log goes on with this trace), or an earlier record's lines were matched
            // and this import read more. An import that only found events it makes (a trace
            // whose record did not come along with an export) leaves the record alone: a
            // trace that differs in a line making no event would be taken for the original.
            if let anchorLines, callbacks > recorded?.lines ?? 0, imported > 0 || recorded != nil {
                try core.db.execute(
                    sql: """
                        INSERT INTO trace_imports (session_id, anchor, first_lines, first_digest, lines, digest)
                        VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (session_id, anchor) DO UPDATE SET lines = excluded.lines, digest = excluded.digest
                        """,
                    arguments: [
                        .integer(write.row.id), .text(anchor), SQLValue(anchorLines.lines), .text(anchorLines.digest),
                        SQLValue(callbacks), .text(SHA256.hex(chain)),
                    ])
            }
        }
        return TraceImportReport(
            session: key, created: created, callbacks: callbacks, imported: imported, skipped: skipped,
            version: write?.version ?? 0)
    }
}
