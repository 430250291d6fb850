/// What one command of a ``RecordingBatch`` did.
package enum RecordedOutcome {
    /// The command's event was appended (a veto too): its session version.
    case appended(version: Int)
    /// The rules accept the command and it changes nothing: nothing was appended.
    case unchanged
    /// The rules refused the command: nothing was appended, the batch goes on.
    case refused(NavigationError)
}

/// One write transaction over any number of sessions, for a recorder's writer
/// (``NavigationRecorder``): each command is decided against its session's running state (the
/// commands before it in the batch applied), a refused one is skipped and reported, and the
/// projections and session rows are written once per session at the end. `decide` runs before
/// anything of the command is written, so a refusal needs no rollback; an error of the database
/// fails the whole transaction, which then wrote nothing.
///
/// Made by ``NavigationStore/recordBatch(_:)`` only, inside its `BEGIN IMMEDIATE` transaction.
package struct RecordingBatch {
    private let core: StoreCore
    /// The session the last command went to, kept out of ``parked`` so that its running state is
    /// uniquely referenced and appends never copy it.
    private var current: SessionWrite?
    private var parked: [ExactKey: SessionWrite] = [:]
    /// How many events the batch appended.
    private(set) var appended = 0

    fileprivate init(core: StoreCore) { self.core = core }

    /// The running state of session `key`; a session that does not exist is started first
    /// (`session.started` at `at`, under `platform`).
    /// - Throws: database errors, ``StoreError/timeOutOfRange(session:given:)``.
    package mutating func state(of key: String, startingAt at: Int64, platform: PlatformGeneration) throws -> SessionState {
        try select(key, startingAt: at, platform: platform)
        return current!.state
    }

    /// Decides `command` against session `key`'s running state and appends its event at `at` (ms
    /// since the Unix epoch; a time before the session's previous event becomes that event's
    /// time, as times never go backwards). A session that does not exist is started first.
    /// - Throws: database errors only; a refusal is the outcome ``RecordedOutcome/refused(_:)``.
    package mutating func record(
        _ command: consuming NavigationCommand, session key: String, at: Int64, platform: PlatformGeneration
    ) throws -> RecordedOutcome {
        try select(key, startingAt: at, platform: platform)
        let body: EventBody?
        do throws(NavigationError) { body = try current!.state.decide(command) } catch { return .refused(error) }
        return try append(body, session: key, at: at)
    }

    /// Records what NavStore records itself (``StoreCommand``) as the form taking a
    /// ``NavigationCommand`` records a command.
    /// - Throws: database errors only; a refusal is the outcome ``RecordedOutcome/refused(_:)``.
    package mutating func record(
        _ command: StoreCommand, session key: String, at: Int64, platform: PlatformGeneration
    ) throws -> RecordedOutcome {
        try select(key, startingAt: at, platform: platform)
        let body: EventBody
        do throws(NavigationError) { body = try current!.state.decide(command) } catch { return .refused(error) }
        return try append(body, session: key, at: at)
    }

    /// Appends `body` (`nil`: nothing to record) to the selected session `key` at `at`.
    private mutating func append(_ body: EventBody?, session key: String, at: Int64) throws -> RecordedOutcome {
        guard let body else { return .unchanged }
        let time = max(at, current!.lastAt)
        guard Timestamp.accepted.contains(time) else { throw StoreError.timeOutOfRange(session: key, given: time) }
        guard try core.appendEvent(body, to: &current!, at: time, eventID: nil) != nil else {
            throw StoreError.eventIDExists("")
        }
        appended += 1
        return .appended(version: current!.version)
    }

    /// Makes `key`'s write ``current``, reading or starting the session.
    private mutating func select(_ key: String, startingAt at: Int64, platform: PlatformGeneration) throws {
        if let current, current.row.key.hasSameScalars(as: key) { return }
        if let previous = current { parked[ExactKey(previous.row.key)] = previous }
        current = nil
        if let write = parked.removeValue(forKey: ExactKey(key)) {
            current = write
            return
        }
        if let row = try core.sessionRow(key) {
            current = try core.beginWrite(row)
            return
        }
        guard !key.isEmpty else { throw StoreError.emptySessionKey }
        guard Timestamp.accepted.contains(at) else { throw StoreError.timeOutOfRange(session: key, given: at) }
        let row = try core.createSession(key: key, name: nil, at: at, platform: platform)
        var write = try core.beginWrite(row, state: SessionState())
        guard
            try core.appendEvent(.sessionStarted(name: nil, platform: platform), to: &write, at: at, eventID: nil)
                != nil
        else { throw StoreError.eventIDExists("") }
        appended += 1
        current = write
    }

    /// Writes each session's projection and row, once.
    fileprivate mutating func finish() throws {
        if let current { try core.finishWrite(current) }
        for write in parked.values { try core.finishWrite(write) }
        current = nil
        parked.removeAll()
    }
}

extension NavigationStore {
    /// Runs `body` with a ``RecordingBatch`` in one `BEGIN IMMEDIATE` transaction and commits it:
    /// the recorder's writer appends every command it has queued, of any session, at once.
    ///
    /// On PostgreSQL a transaction that lost a race runs `body` again from the start: `body` must
    /// begin from the same inputs each time.
    /// - Throws: what `body` throws, and database errors; nothing is written then.
    package func recordBatch<R>(_ body: (inout RecordingBatch) throws -> R) throws(StoreError) -> R {
        try withCore { core in
            try core.db.inTransaction(.write) {
                var batch = RecordingBatch(core: core)
                let result = try body(&batch)
                try batch.finish()
                return result
            }
        }
    }
}

extension NavigationStore {
    /// Makes every transaction committed so far survive a power loss, where commits are not
    /// synced themselves (SQLite at ``StoreOptions/Synchronous/normal``: the write-ahead log is
    /// synced, as a commit at `full` would sync it); nothing on PostgreSQL. The recorder's
    /// ``NavigationRecorder/flush()`` calls it (<doc:Recording>, "What a crash or a power loss
    /// costs").
    /// - Throws: ``StoreError`` when the sync fails (an I/O error).
    package func makeCommitsDurable() throws(StoreError) {
        try withCore { core in try core.maintenance?.makeCommitsDurable() }
    }
}
