extension NavigationStore {
    /// Validates and appends many commands to one session in a single `BEGIN IMMEDIATE`
    /// transaction: the bulk path (<doc:Events>, <doc:StorageLayout>).
    ///
    /// Each command is decided against the state the commands before it left (as if they had
    /// been run one by one with ``execute(_:session:at:expectedVersion:eventID:)``): a command that
    /// changes nothing appends nothing, a veto (`pop.vetoed`, `dismiss.vetoed`) is appended as an
    /// event, and a command the rules refuse aborts the whole batch, which then writes nothing.
    /// Events are inserted with one cached statement; the projection diff, the session row and
    /// the cache are written once at the end; a snapshot is written every
    /// ``StoreOptions/snapshotInterval`` versions, as single appends do.
    ///
    /// - Parameters:
    ///   - commands: the actions (``NavigationCommand``), in order; an empty sequence appends nothing.
    ///   - key: the session key.
    ///   - at: the time of every appended event, in ms since the Unix epoch, never earlier than the
    ///     session's previous event; now when `nil` (clamped to the previous event's time).
    ///   - expectedVersion: optimistic concurrency: the version the caller last saw before the batch.
    /// - Returns: the session's version after the batch (unchanged when nothing was appended), the
    ///   last appended event (or `nil`), and `vetoed` when at least one command was vetoed.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/rules(_:)`` (the first refused
    ///   command; nothing appended), ``StoreError/versionConflict(session:expected:actual:)``,
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``,
    ///   ``StoreError/timeOutOfRange(session:given:)`` for an `at` outside the years 0000-9999, database errors.
    /// - Complexity: O(n) inserts for n commands, plus the rules' own cost per command (O(live
    ///   entries)) and one projection diff.
    @discardableResult
    public func append(
        contentsOf commands: some Sequence<NavigationCommand>, session key: String, at: Int64? = nil,
        expectedVersion: Int? = nil
    ) throws(StoreError) -> AppendResult {
        try withSessionWrite(key, at: at, expectedVersion: expectedVersion) { core, row, time in
            var batch = BatchWrite(write: try core.beginWrite(row), time: time)
            // An array's commands are walked in place: the generic iterator of an unspecialized
            // `Sequence` is costly for every command. Each command is copied
            // out once and consumed by the rules, which move its entry or item into the event
            // (the compiler copied a borrowed command anyway, then the event copied the entry).
            // The loop is the batch's own, not this closure's, which captures `batch`.
            let walked: Void? = try commands.withContiguousStorageIfAvailable { buffer in
                try batch.append(contentsOf: buffer, core: core)
            }
            if walked == nil {
                for command in commands { try batch.append(command, keep: true, core: core) }
            }
            try core.finishWrite(batch.write)
            return try batch.result(session: key, core: core)
        }
    }
}

/// The running write of ``NavigationStore/append(contentsOf:session:at:expectedVersion:)``: a
/// value mutated in place, where variables captured by a local function were checked for
/// exclusive access at run time, three times per command.
private struct BatchWrite {
    package var write: SessionWrite
    /// The time of every event of the batch, in ms since the Unix epoch.
    package let time: Int64
    /// The last event's parts: its ``Event`` is made once, by ``result(session:core:)``. Fields of
    /// their own, not an optional tuple: replacing a tuple destroyed the old one through the
    /// runtime's generic `tuple_destroy`, once per event.
    package var lastSeq: Int64 = 0
    package var lastEventID: AppendedEventID?
    /// The body of event `lastSeq` when it was kept: only the last command of a buffer keeps its
    /// body (every command of another sequence does), so that every other body moves into the
    /// running state instead of being copied there and destroyed later. `nil` when the last command appended nothing.
    package var lastBody: EventBody?
    package var vetoed = false

    /// Decides `command` against the running state and appends its event, if any; the event's
    /// body is kept for ``result(session:core:)`` when `keep`, else moved into the state.
    /// - Throws: ``StoreError/rules(_:)`` for a refused command, the append's errors.
    package mutating func append(_ command: consuming NavigationCommand, keep: Bool, core: StoreCore) throws {
        guard let body = try Self.decide(command, by: write.state) else { return }
        let isVeto = body.isVeto
        guard keep else {
            guard let appended = try core.appendEvent(consume body, to: &write, at: time, eventID: nil) else { return }
            (lastSeq, lastEventID) = (appended.seq, appended.eventID)
            if isVeto { vetoed = true }
            return
        }
        guard let appended = try core.appendEvent(copy body, to: &write, at: time, eventID: nil) else { return }
        (lastSeq, lastEventID) = (appended.seq, appended.eventID)
        if isVeto { vetoed = true }
        lastBody = consume body
    }

    /// `state`'s decision on `command`; its refusal as ``StoreError/rules(_:)``.
    private static func decide(_ command: consuming NavigationCommand, by state: borrowing SessionState)
        throws(StoreError) -> EventBody?
    {
        do throws(NavigationError) { return try state.decide(command) } catch { throw StoreError.rules(error) }
    }

    /// ``append(_:keep:core:)`` for each command of `buffer`, in order: only the last one keeps
    /// its body.
    package mutating func append(contentsOf buffer: UnsafeBufferPointer<NavigationCommand>, core: StoreCore) throws {
        let last = buffer.count - 1
        for index in buffer.indices { try append(buffer[index], keep: index == last, core: core) }
    }

    /// The batch's result for session `key`. The last event's body is the one kept, or, when the
    /// batch's last command appended nothing, read back from the log (`events` row `lastSeq`).
    /// - Throws: database errors and ``NavigationError/invalidEvent(_:)`` of that read.
    package func result(session key: String, core: StoreCore) throws -> AppendResult {
        var event: Event?
        if let lastEventID {
            let body = try lastBody ?? core.eventBody(seq: lastSeq)
            if let body {
                event = Event(
                    seq: lastSeq, session: key, version: write.version, at: time, eventID: lastEventID.text, body: body)
            }
        }
        return AppendResult(session: key, version: write.version, outcome: vetoed ? .vetoed : .ok, event: event)
    }
}
