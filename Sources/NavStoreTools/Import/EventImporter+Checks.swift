import NavStore

/// The checks of an import line that need no database, and those of the texts it would store
/// in columns (``StoredTextCheck``).
extension EventImporter {
    /// Refuses a `previous` that does not fit the event's version: `null` only for version 1, an
    /// event id (a UUID) for every later version.
    static func checkContinuation(_ continuation: Continuation, of event: Event, line: Int) throws {
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
    }

    /// Refuses a time outside ``Timestamp/accepted`` (the years 0000 through 9999, what `--at` and
    /// `--time` read and every output writes in four digits), as a Firefox `lastAccess` is: a
    /// later time would stamp every later event of the session at least as late, and any other
    /// time of a line (a base's `truncatedAt`, a `calls.dropped`'s `firstAt` and `lastAt`) would
    /// be written in a form no reader takes back.
    /// - Parameters:
    ///   - at: the time, in ms since the Unix epoch.
    ///   - what: whose time it is (`version 3 of session 's'`).
    ///   - field: the time's key in the line (`at`, `payload.truncatedAt`, `payload.firstAt`).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` naming `what`, `field` and the time.
    static func checkTime(_ at: Int64, of what: String, field: String = "at", line: Int) throws {
        guard !Timestamp.accepted.contains(at) else { return }
        throw StoreError.invalidImport(
            line: line,
            reason:
                "\(what): \(field) \(at) is outside the years 0000 through 9999 in which times are read and written (\(Timestamp.accepted.lowerBound) through \(Timestamp.accepted.upperBound) ms since the Unix epoch, \(Timestamp.format(Timestamp.accepted.lowerBound)) through \(Timestamp.format(Timestamp.accepted.upperBound)))"
        )
    }

    /// Refuses an event whose `at`, or a time its payload holds (a `calls.dropped`'s `firstAt` and
    /// `lastAt`), is outside the years 0000 through 9999 (``checkTime(_:of:field:line:)``).
    static func checkTimes(of event: Event, line: Int) throws {
        let what = "version \(event.version) of session '\(event.session)'"
        try checkTime(event.at, of: what, line: line)
        guard case .callsDropped(_, let firstAt, let lastAt) = event.body else { return }
        try checkTime(firstAt, of: what, field: "payload.firstAt", line: line)
        try checkTime(lastAt, of: what, field: "payload.lastAt", line: line)
    }

    /// Refuses a `session.restored` that no restore could have recorded as this version
    /// (``RestoreMarker/unrecordableProblem(asVersion:)``), and the event after an acknowledged
    /// marker when it is another marker: `restore --ack` appends its marker with the events that
    /// bring the log to the acknowledged state, in one transaction. `event` is the next event of
    /// its session, about to be appended.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` naming the version and the value.
    mutating func checkRestoreMarker(_ event: Event, line: Int) throws {
        let what = "version \(event.version) of session '\(event.session)'"
        if !unfollowedAcknowledgements.isEmpty,
            let marker = unfollowedAcknowledgements.removeValue(forKey: ExactKey(event.session)),
            case .sessionRestored = event.body
        {
            throw StoreError.invalidImport(
                line: line,
                reason:
                    "\(what) is a session.restored right after the acknowledged marker of line \(marker): restore --ack follows its marker with the events that bring the log to the acknowledged state (a dismissal, a replaced stack, a presentation, a push, a layer update, a tab bar's events)"
            )
        }
        guard case .sessionRestored(let marker) = event.body else { return }
        if let problem = marker.unrecordableProblem(asVersion: event.version) {
            throw StoreError.invalidImport(line: line, reason: "\(what): session.restored: \(problem)")
        }
        if marker.acknowledged { unfollowedAcknowledgements[ExactKey(event.session)] = line }
    }

    /// Refuses the import when a session ends with an acknowledged marker (the earliest line is
    /// named): `restore --ack` never appends its marker alone.
    /// - Throws: ``StoreError/invalidImport(line:reason:)``.
    func checkAcknowledgementsFollowed() throws {
        guard let (key, line) = unfollowedAcknowledgements.min(by: { $0.value < $1.value }) else { return }
        throw StoreError.invalidImport(
            line: line,
            reason:
                "session '\(key.text)' ends with this acknowledged session.restored (restore --ack), with nothing after it: restore --ack appends its marker with the events that bring the log to the acknowledged state, in one transaction"
        )
    }

    /// Refuses a session key holding U+0000 where the backend's text cannot hold it: the key is
    /// sent with every lookup of its session.
    /// - Throws: ``StoreError/invalidImport(line:reason:)``: `the session key 's\u{0}' contains
    ///   U+0000 (NUL), which PostgreSQL text cannot hold: ...`.
    func checkStoredKey(_ key: String, line: Int) throws(StoreError) {
        guard let storedText, let problem = storedText.problem("the session key", key) else { return }
        throw .invalidImport(line: line, reason: "\(problem): \(storedText.accepted)")
    }

    /// Refuses the name of a session the import creates (`owner`: `version 1 of session 's'`, or
    /// a truncated session's base) when it holds U+0000 where the backend's text cannot hold it.
    /// - Throws: ``StoreError/invalidImport(line:reason:)``.
    func checkStoredName(_ name: String?, of owner: String, line: Int) throws(StoreError) {
        guard let storedText, let problem = storedText.problem("the session name", name) else { return }
        throw .invalidImport(line: line, reason: "\(owner): \(problem): \(storedText.accepted)")
    }

    /// Notes the entries `event` (appended from `line`) brings onto a stack whose id or route
    /// holds U+0000 where the backend's text cannot hold it. They are not refused yet: in the
    /// events and snapshots they are JSON, which holds them, and a later line may pop them; only
    /// the entries still live at the end go to the `entries` projection
    /// (``checkLiveEntries(session:)``).
    mutating func noteBroughtEntries(of event: Event, line: Int, _ storedText: StoredTextCheck) {
        StoredTextCheck.forEachBroughtEntry(of: event.body) { entry in
            guard let problem = storedText.problem(in: entry) else { return }
            broughtText[ExactKey(event.session), default: [:]][ExactKey(entry.id)] = (
                line, "version \(event.version) of session '\(event.session)': \(problem)"
            )
        }
    }

    /// Notes the entries of a truncated session's base, the state the session starts from, as
    /// ``noteBroughtEntries(of:line:_:)`` notes an event's.
    mutating func noteBroughtEntries(of base: SessionBase, line: Int, _ storedText: StoredTextCheck) {
        for entry in base.state.layers.lazy.flatMap(\.entries) {
            guard let problem = storedText.problem(in: entry) else { continue }
            broughtText[ExactKey(base.session), default: [:]][ExactKey(entry.id)] = (
                line, "the base of session '\(base.session)' at version \(base.version): \(problem)"
            )
        }
    }

    /// Refuses the import when an entry noted by ``noteBroughtEntries(of:line:_:)`` is still live in
    /// its session's state (of session `key` only, when given), as it would be written to the
    /// `entries` projection: the one brought by the earliest line is named.
    /// - Throws: ``StoreError/invalidImport(line:reason:)``: `version 3 of session 's': the entry
    ///   id 'B\u{0}' contains U+0000 (NUL), which PostgreSQL text cannot hold, and the entry is
    ///   still on a stack at the end of the import: ...`.
    /// - Complexity: O(live entries) of each session with a noted entry; nothing otherwise.
    func checkLiveEntries(session key: String? = nil) throws(StoreError) {
        guard let storedText else { return }
        var first: (line: Int, reason: String)?
        for (session, brought) in broughtText where key.map({ ExactKey($0) == session }) ?? true {
            let write =
                current.flatMap { ExactKey($0.row.key) == session ? $0 : nil } ?? parked[session]
            for entry in write?.state.layers.lazy.flatMap(\.entries) ?? [] {
                guard let noted = brought[ExactKey(entry.id)], storedText.problem(in: entry) != nil else {
                    continue
                }
                if noted.line < first?.line ?? .max { first = noted }
            }
        }
        guard let first else { return }
        throw .invalidImport(
            line: first.line,
            reason:
                "\(first.reason), and the entry is still on a stack at the end of the import: \(storedText.accepted)"
        )
    }
}
