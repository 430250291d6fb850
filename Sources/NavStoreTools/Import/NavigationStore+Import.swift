import NavStore

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
    /// since the Unix epoch, is the time). `previous` says what the event continues:
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
    /// input, so memory does not grow with its length. On PostgreSQL, whose transaction runs again
    /// after it lost a race with another writer (a serialization failure), the lines read are also
    /// copied to an anonymous temporary file (`tmpfile(3)`), so the run again reads the input
    /// from its first line and the report counts every event once. Projections and session rows
    /// are written once per session at the end; snapshots every ``StoreOptions/snapshotInterval``
    /// versions.
    ///
    /// - Parameters:
    ///   - lines: the NDJSON lines (without their newlines), read once, in order.
    ///   - progress: called every 10,000 lines and at the end with the lines read; `total` is 0
    ///     (a streamed input's length is unknown).
    /// - Returns: sessions named, events imported and events skipped.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` with the 1-based line number and the
    ///   reason (not JSON, a missing key and its path, a key that is none of the format's and its
    ///   path, an event id that is not a UUID, an event id repeating an earlier line with other
    ///   content, an unknown type, a bad payload, a time outside the years 0000-9999, a
    ///   `session.restored` no restore records (<doc:Restore>), a version
    ///   gap naming the session and the expected and found versions, a continuation of another
    ///   history, a time going back, an event the rules refuse with their message, each naming
    ///   the session; on PostgreSQL, whose text cannot store U+0000, a session key or name holding
    ///   it, or an entry id or route holding it on an entry still on a stack at the end of the
    ///   import, naming the line that brought it and the field);
    ///   ``StoreError/eventIDConflict(line:eventID:)``; database errors.
    ///   Nothing is written when it throws.
    /// - Complexity: O(n) in the number of lines, plus the rules' cost per event.
    @discardableResult
    public func importNDJSON(lines: some Sequence<String>, progress: ProgressHandler? = nil) throws(StoreError)
        -> ImportReport
    {
        try withCore { core in
            // A backend that runs the transaction again after a lost race (PostgreSQL after a
            // serialization failure): each run reads the input from its first line.
            let source = ReplayableLines(lines.makeIterator(), copying: core.db.dialect.writesMayRunAgain)
            return try core.db.inTransaction(.write) {
                try source.rewind()
                var importer = EventImporter(core: core)
                let decoder = JSONDecoder()
                var lineNumber = 0
                for line in source {
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
                try source.finish()
                let report = try importer.finish()
                progress?(lineNumber, 0)
                return report
            }
        }
    }
}

extension NavigationStore {
    /// What every line is checked for before it is decoded: params nested deeper than
    /// ``JSONValue/maximumDepth`` (a line wraps them in up to 6 levels of its own: record,
    /// payload, state, layers, layer, entries, entry for a truncated session's base), numbers
    /// that would change, keys given twice.
    static let lineCheck = JSONTextCheck(wrapperLevels: 6)

    /// Whether an NDJSON line is blank (spaces, tabs, CR only): it holds no event and is skipped.
    static func isBlankLine(_ line: String) -> Bool {
        line.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    }

    /// One NDJSON line of an export as an event or a truncated session's base, or `nil` for a
    /// blank line (spaces, tabs, CR only); shared by ``importNDJSON(lines:progress:)`` and
    /// ``lintNDJSON(lines:sessions:options:progress:)``.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` naming `lineNumber` and what is wrong.
    static func decodeEventLine(_ line: String, lineNumber: Int, decoder: JSONDecoder = JSONDecoder())
        throws(StoreError) -> ImportLine?
    {
        if isBlankLine(line) { return nil }
        if let problem = lineCheck.problem(in: line) { throw .invalidImport(line: lineNumber, reason: problem) }
        do {
            return try decoder.decode(ImportLine.self, from: Data(line.utf8))
        } catch let error as NavigationError {
            throw .invalidImport(line: lineNumber, reason: error.description)
        } catch {
            if isNotJSON(error), let problem = ImportLine.integerProblem(in: line) {
                throw .invalidImport(line: lineNumber, reason: problem)
            }
            if isNotJSON(error) {
                let start = line.prefix(40)
                throw .invalidImport(
                    line: lineNumber,
                    reason: """
                        not JSON: it reads "\(start.count < line.count ? start + "..." : start)" \
                        (an import reads NDJSON, one JSON event object per line, as an export writes)
                        """)
            }
            throw .invalidImport(line: lineNumber, reason: "not an event record: \(describeDecodingError(error))")
        }
    }
}
