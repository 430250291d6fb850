/// Reading: the sessions, a state now or at a point of its history, and the events (<doc:TimeTravel>).
extension NavigationStore {
    /// Every session, ordered by key.
    /// - Throws: database errors.
    public func sessions() throws(StoreError) -> [SessionInfo] {
        try withCore { core in
            var result: [SessionInfo] = []
            try core.db.forEachRow(sql: Self.sessionInfoSQL + " ORDER BY s.key", arguments: []) { row in
                result.append(try Self.sessionInfo(row))
            }
            return result
        }
    }

    /// One session's summary: one indexed read of its row (the key's unique index) and counts of
    /// its layers and entries (their session index).
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func sessionInfo(_ key: String) throws(StoreError) -> SessionInfo {
        guard !key.isEmpty else { throw .sessionNotFound(key) }
        let found = try withCore { core in
            try core.db.firstValue(sql: Self.sessionInfoSQL + " WHERE s.key = ?", arguments: [.text(key)]) { row in
                try Self.sessionInfo(row)
            }
        }
        guard let found, found.key.hasSameScalars(as: key) else { throw .sessionNotFound(key) }
        return found
    }

    /// The summary columns of ``sessions()-4v78l`` and ``sessionInfo(_:)``: the session row, then its
    /// layer and entry counts.
    private static let sessionInfoSQL = """
        SELECT \(SessionRow.aliasedColumns),
               (SELECT count(*) FROM layers AS l WHERE l.session_id = s.id),
               (SELECT count(*) FROM entries AS e WHERE e.session_id = s.id)
        FROM sessions AS s
        """

    private static func sessionInfo(_ row: Row) throws -> SessionInfo {
        let session = try SessionRow(row)
        if let unreadable = session.unreadablePlatform { throw unreadable }
        return SessionInfo(
            key: session.key, name: session.name, version: session.version, layers: try row[7],
            depth: try row[8], createdAt: session.createdAt, updatedAt: session.updatedAt,
            platform: session.platform)
    }

    /// The session's state now, or at a point in its history.
    ///
    /// The current state is one indexed read of the projection. A past version reads the nearest
    /// snapshot at or below it (written under the current rules) and applies at most
    /// ``StoreOptions/snapshotInterval`` events. It never writes: where the snapshots were written
    /// under other rules (by another version of NavStore) it folds from further back, until
    /// `rebuild(verify:progress:)` (NavStoreTools) (`navdb rebuild`) or a write that reads a past state rewrites
    /// them.
    ///
    /// With `platform`, the state is resolved under that generation instead of the session's own
    /// (``VersionedState/isWhatIf``): the same history, the label another generation would show.
    /// The log is not changed; ``VersionedState/recordedPlatform`` keeps the session's own.
    /// - Parameters:
    ///   - key: the session key.
    ///   - point: `nil` for now; a version in 1...current; or a time at or after the session's
    ///     first event (a time after the last event gives the end state).
    ///   - platform: resolve under this generation (a what-if read); `nil` for the session's own.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/pointOutOfRange(session:point:accepted:)``.
    /// - Complexity: O(K + depth) for K = the snapshot interval, whatever the log's length.
    public func state(session key: String, at point: HistoryPoint? = nil, platform: PlatformGeneration? = nil)
        throws(StoreError) -> VersionedState
    {
        try withCore { core in
            try core.db.inTransaction(.read) { () throws -> VersionedState in
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                let version = try core.resolve(point, in: row)
                let state: SessionState
                let at: Int64?
                if version == row.version {
                    (state, at) = (try core.currentState(row), row.updatedAt)
                } else {
                    // Never a write, also where snapshots of other rules stand (written by another
                    // version of NavStore): the read folds from the newest current one, or the
                    // start. The writes that read a past state (a restore's fallback, an import
                    // onto a session, a truncation) rebuild them, and so does rebuild().
                    let read = try core.historicalState(of: row, atVersion: version, repairing: false)
                    (state, at) = (read.state, read.at)
                }
                let result = VersionedState(
                    session: key, version: version, at: at, state: state, recordedPlatform: row.platform)
                return result.resolved(under: platform)
            }
        }
    }

    /// The version `point` names in session `key`, checked as every command that takes a point
    /// or a version checks it (`stack --at`, `replay --from/--to`, ...): a version in
    /// 1...current, or the newest version at or before a time.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/pointOutOfRange(session:point:accepted:)``
    ///   (exit 1) naming the point and the versions the session has.
    /// - Complexity: O(1) for a version, O(log n) point reads for a time.
    public func version(session key: String, at point: HistoryPoint) throws(StoreError) -> Int {
        try withCore { core in
            try core.db.inTransaction(.read) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                return try core.resolve(point, in: row)
            }
        }
    }

    /// Streams a session's events (or every session's, in `seq` order, when `session` is `nil`)
    /// through `body`, without holding the log in memory.
    /// - Parameters:
    ///   - key: the session key, or `nil` for all sessions.
    ///   - filter: types, entry, time range, version range, limit and order.
    ///   - body: called once per event in order; an error it throws stops the stream and is rethrown.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors, or what `body` throws.
    public func events(session key: String?, filter: EventFilter = EventFilter(), _ body: (Event) throws -> Void) throws
    {
        try events(session: key, filter: filter, readingBases: false, bases: { _ in }, body)
    }

    /// ``events(session:filter:_:)``, first handing `bases` the truncated sessions' bases (of
    /// `key`, or of every session) when `readingBases`, read in the same transaction as the events.
    package func events(
        session key: String?, filter: EventFilter = EventFilter(), readingBases: Bool,
        bases: ([SessionBase]) throws -> Void,
        _ body: (Event) throws -> Void
    ) throws {
        var bodyError: (any Error)?
        do {
            try withCore { core in
                try core.db.inTransaction(.read) {
                    var row: SessionRow?
                    if let key {
                        row = try core.sessionRow(key)
                        if row == nil { throw StoreError.sessionNotFound(key) }
                    }
                    if readingBases {
                        let found = try row.map { try core.base(of: $0).map { [$0] } ?? [] } ?? core.allBases()
                        do { try bases(found) } catch {
                            bodyError = error
                            throw StreamStopped()
                        }
                    }
                    try core.streamEvents(session: row, filter: filter) { event in
                        do { try body(event) } catch {
                            bodyError = error
                            throw StreamStopped()
                        }
                    }
                }
            }
        } catch {
            // The store maps what stopped the stream to its own error; the caller's comes first.
            if let bodyError { throw bodyError }
            throw error
        }
        if let bodyError { throw bodyError }
    }
}
