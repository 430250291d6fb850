/// Writing: starting a session and appending the event a command decides (<doc:Rules>, <doc:Events>).
extension NavigationStore {
    /// Starts a session: creates the stream and appends `session.started` (version 1).
    /// - Parameters:
    ///   - key: the session key (stream name), any non-empty text.
    ///   - name: a human label, optional.
    ///   - platform: the generation of rules the session follows (<doc:PlatformGenerations>), recorded in its
    ///     `session.started` event and fixed from then on; ``PlatformGeneration/ios14`` by default.
    ///   - at: the event time in ms since the Unix epoch; now when `nil`.
    ///   - expectedVersion: optimistic concurrency, as for every write: the version the caller
    ///     last saw. A session that does not exist yet is at version 0, so 0 is the only value
    ///     that lets the start go through (on an existing session, 0 is a conflict).
    ///   - eventID: the event's UUID (8-4-4-4-12 hexadecimal digits, either letter case; stored
    ///     in lowercase); a new one when `nil`.
    /// - Throws: ``StoreError/versionConflict(session:expected:actual:)`` (checked first; `actual`
    ///   is 0 for a new session), ``StoreError/sessionExists(_:)``, ``StoreError/emptySessionKey``,
    ///   ``StoreError/timeOutOfRange(session:given:)`` for an `at` outside the years 0000-9999,
    ///   ``StoreError/rules(_:)`` with ``NavigationError/invalidEvent(_:)`` for an `eventID` that
    ///   is not a UUID, database errors.
    @discardableResult
    public func startSession(
        _ key: String, name: String? = nil, platform: PlatformGeneration = .default, at: Int64? = nil,
        expectedVersion: Int? = nil, eventID: String? = nil
    ) throws(StoreError) -> AppendResult {
        guard !key.isEmpty else { throw .emptySessionKey }
        if let at, !Timestamp.accepted.contains(at) { throw .timeOutOfRange(session: key, given: at) }
        let eventID = try Self.normalizedEventID(eventID)
        return try withCore { core in
            try core.db.inTransaction(.write) {
                let existing = try core.sessionRow(key)
                if let expectedVersion, expectedVersion != (existing?.version ?? 0) {
                    throw StoreError.versionConflict(
                        session: key, expected: expectedVersion, actual: existing?.version ?? 0)
                }
                if existing != nil { throw StoreError.sessionExists(key) }
                let time = at ?? Timestamp.now()
                let row = try core.createSession(key: key, name: name, at: time, platform: platform)
                let event = try core.append(
                    .sessionStarted(name: name, platform: platform), to: row, state: SessionState(), at: time,
                    eventID: eventID)
                return AppendResult(session: key, version: event.version, outcome: .ok, event: event)
            }
        }
    }

    /// Validates `command` against the session's current state and appends the event it produces,
    /// updating the projection in the same `BEGIN IMMEDIATE` transaction.
    /// - Parameters:
    ///   - command: the action, checked by ``SessionState/decide(_:)`` (<doc:Rules>).
    ///   - session: the session key.
    ///   - at: the event time in ms since the Unix epoch, never earlier than the previous event;
    ///     now when `nil` (clamped to the previous event's time).
    ///   - expectedVersion: optimistic concurrency: the version the caller last saw.
    ///   - eventID: the event's UUID (8-4-4-4-12 hexadecimal digits, either letter case; stored
    ///     in lowercase); a new one when `nil`.
    /// - Returns: the new version and outcome; the version is unchanged when the command changed nothing.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/rules(_:)`` (refused: nothing
    ///   appended; ``NavigationError/invalidEvent(_:)`` for an `eventID` that is not a UUID),
    ///   ``StoreError/versionConflict(session:expected:actual:)``,
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``,
    ///   ``StoreError/timeOutOfRange(session:given:)`` for an `at` outside the years 0000-9999, database errors.
    @discardableResult
    public func execute(
        _ command: NavigationCommand, session: String, at: Int64? = nil,
        expectedVersion: Int? = nil, eventID: String? = nil
    ) throws(StoreError) -> AppendResult {
        try write(session: session, at: at, expectedVersion: expectedVersion, eventID: eventID) {
            state throws(NavigationError) in
            try state.decide(command)
        }
    }

    /// Records what NavStore records itself (``StoreCommand``: a restore's marker, a note of
    /// dropped calls) as ``execute(_:session:at:expectedVersion:eventID:)`` records a command.
    /// For the store's own paths and tests; an app cannot make these.
    /// - Throws: as ``execute(_:session:at:expectedVersion:eventID:)``.
    @discardableResult
    package func execute(_ command: StoreCommand, session: String, at: Int64? = nil) throws(StoreError) -> AppendResult {
        try write(session: session, at: at, expectedVersion: nil, eventID: nil) { state throws(NavigationError) in
            try state.decide(command)
        }
    }

    /// Changes the navigation item of the live entry `entryID` (rule 13): `change` edits a copy of
    /// the current item inside the write transaction, so concurrent updates are not lost. Under
    /// a tab bar (<doc:TabBars>) the entry is one of the screen on show, or of tab `tab`'s stack
    /// when one is named.
    /// - Throws: as ``execute(_:session:at:expectedVersion:eventID:)``; ``NavigationError/entryNotLive(id:stack:)``
    ///   when the entry is not live there, ``NavigationError/entryInOtherTab(id:tab:)`` when it is
    ///   live in another tab's stack; ``NavigationError/noTabBar(action:)``
    ///   and ``NavigationError/unknownTab(id:tabs:)`` for a `tab` the session does not have.
    @discardableResult
    public func updateItem(
        _ entryID: String, session: String, tab: String? = nil, at: Int64? = nil, expectedVersion: Int? = nil,
        eventID: String? = nil, _ change: (inout NavigationItem) -> Void
    ) throws(StoreError) -> AppendResult {
        try write(session: session, at: at, expectedVersion: expectedVersion, eventID: eventID) {
            state throws(NavigationError) in
            // Under a tab bar (<doc:TabBars>): the screen on show, or the stack of the tab named.
            let view = try tab.map { tab throws(NavigationError) in try state.viewingTab(tab) } ?? state
            guard let entry = view.layers.lazy.flatMap(\.entries).first(where: { $0.id.hasSameScalars(as: entryID) })
            else {
                if let other = state.parkedTab(holding: entryID) ?? (state.location(of: entryID) != nil ? state.selectedTab : nil),
                    !(tab.map { other.hasSameScalars(as: $0) } ?? false)
                {
                    throw .entryInOtherTab(id: entryID, tab: other)
                }
                throw .entryNotLive(id: entryID, stack: view.stackDescription(against: entryID))
            }
            var item = entry.item
            change(&item)
            let command = NavigationCommand.update(entryID: entryID, item: item)
            return try state.decide(tab.map { .inTab($0, command) } ?? command)
        }
    }

    private func write(
        session key: String, at: Int64?, expectedVersion: Int?, eventID: String?,
        _ decide: (SessionState) throws(NavigationError) -> EventBody?
    ) throws(StoreError) -> AppendResult {
        let eventID = try Self.normalizedEventID(eventID)
        return try withSessionWrite(key, at: at, expectedVersion: expectedVersion) { core, row, time in
            let state = try core.currentState(row)
            let body: EventBody?
            do { body = try decide(state) } catch let error as NavigationError { throw StoreError.rules(error) }
            guard let body else { return AppendResult(session: key, version: row.version, outcome: .ok, event: nil) }
            let event = try core.append(body, to: row, state: state, at: time, eventID: eventID)
            var result = AppendResult(
                session: key, version: event.version, outcome: body.isVeto ? .vetoed : .ok, event: event)
            if at == nil {
                let clock = Timestamp.now()
                if clock < time { result.clockBehind = clock }
            }
            return result
        }
    }

    /// A client-supplied event id as stored: checked to be UUID text, as imports check it, and
    /// lowercased (UUIDs compare without regard to case, <doc:Events>).
    /// - Throws: ``StoreError/rules(_:)`` with ``NavigationError/invalidEvent(_:)`` (exit 65)
    ///   naming the value and the accepted shape.
    package static func normalizedEventID(_ eventID: String?) throws(StoreError) -> String? {
        guard let eventID else { return nil }
        guard let normalized = EventIDGenerator.normalized(eventID) else {
            throw .invalidEventID(eventID)
        }
        return normalized
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction on session `key`, after the checks every
    /// write makes: the session exists, its version is the expected one, and the event time
    /// (`at`, or now) is not earlier than its previous event. `body` gets the session's row and
    /// that time.
    package func withSessionWrite<R>(
        _ key: String, at: Int64?, expectedVersion: Int?, _ body: (StoreCore, SessionRow, Int64) throws -> R
    ) throws(StoreError) -> R {
        try withCore { core in
            try core.db.inTransaction(.write) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                if let expectedVersion, expectedVersion != row.version {
                    throw StoreError.versionConflict(session: key, expected: expectedVersion, actual: row.version)
                }
                return try body(core, row, try core.eventTime(at, after: row))
            }
        }
    }
}
