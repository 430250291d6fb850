extension NavigationStore {
    /// Returns the state to restore and counts the attempt (crash-loop protection, <doc:Restore>).
    /// This is the call an app makes once per launch; to look without counting, use
    /// ``previewRestore(session:)-6cfdz``.
    ///
    /// States are named by the version of the event that produced them: the session's newest
    /// event other than a `session.restored` marker (markers change nothing). Each call counts one
    /// restore of the state it hands out; ``acknowledgeRestore(session:at:)-7vb6n`` clears the count.
    /// Once ``StoreOptions/restoreAttemptLimit`` restores of the current state went unacknowledged,
    /// that state is marked failed and is not handed out again until the session moves on: restore
    /// returns the newest acknowledged state other than the failing one instead (said in
    /// ``RestorePayload/fallback``), and, with none or when that one too goes unacknowledged as
    /// often, the base layer's root alone (``RestorePayload/restoredVersion`` 0; an empty stack
    /// when the base layer has no entries).
    ///
    /// The session *moves on* when an event other than `session.restored` is appended after the
    /// failed state: its new state is counted from 0, and the failed marks no longer apply.
    /// Markers appended by `mark` (on every launch, say) do not move it on.
    /// - Parameters:
    ///   - key: the session key.
    ///   - mark: also append `session.restored`, so history shows where the app restarted; the
    ///     marker records the version handed out, the attempt and the failed states (``RestoreMarker``).
    ///   - at: the marker's time (ms since the Unix epoch); now when `nil`.
    ///   - expectedVersion: optimistic concurrency: the version the caller last saw. When the
    ///     session is at another version, nothing is appended and no attempt is counted.
    ///   - deliver: hands the payload to the app (writes it out) inside the transaction: when it
    ///     throws, the attempt is not counted, nothing is appended, and its error is rethrown. An
    ///     attempt counts only once its payload was delivered.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/versionConflict(session:expected:actual:)``,
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``,
    ///   ``StoreError/timeOutOfRange(session:given:)`` for an `at` outside the years 0000-9999, what `deliver`
    ///   throws, database errors.
    /// - Complexity: one indexed read of the projection and one of the log's newest events; an
    ///   earlier state costs at most K applies.
    public func restore(
        session key: String, mark: Bool = false, at: Int64? = nil, expectedVersion: Int? = nil,
        deliver: (RestorePayload) throws(StoreError) -> Void = { _ in }
    ) throws(StoreError) -> RestorePayload {
        let limit = max(1, options.restoreAttemptLimit)
        return try withSessionWrite(key, at: at, expectedVersion: expectedVersion) { core, session, time in
            var row = session
            let plan = try core.planRestore(row, limit: limit, repairing: true)
            if mark {
                let marker = RestoreMarker(
                    restoredVersion: plan.restoredVersion, attempt: plan.status.attempts,
                    failedVersions: plan.failedVersions)
                let event = try core.append(
                    .sessionRestored(marker), to: row, state: plan.current, at: time, eventID: nil)
                row.version = event.version
            }
            try core.saveRestoreStatus(sessionID: row.id, plan.status)
            let payload = plan.payload(session: key, version: row.version)
            try deliver(payload)
            return payload
        }
    }

    /// What ``restore(session:mark:at:expectedVersion:deliver:)`` would return now, without
    /// counting an attempt or writing anything: the way for a person
    /// to look. ``RestorePayload/attempts`` is the count that restore would reach, and
    /// ``RestorePayload/version`` the session's version now (no marker is appended).
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func previewRestore(session key: String) throws(StoreError) -> RestorePayload {
        let limit = max(1, options.restoreAttemptLimit)
        return try withCore { core in
            try core.db.inTransaction(.read) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                var payload = try core.planRestore(row, limit: limit, repairing: false).payload(
                    session: key, version: row.version)
                payload.nextFallback = payload.fallback
                return payload
            }
        }
    }

    /// Reports that the last restore worked: clears its attempt count and remembers the state it
    /// handed out as acknowledged (restore falls back to the newest acknowledged state other than
    /// a failing one).
    ///
    /// When that restore was a fallback (an earlier state than the session's newest, or the base
    /// root alone, or an empty base layer), the app now shows that earlier state, so the log is
    /// brought in line with it: a `session.restored` marker (``RestoreMarker/acknowledged``), then
    /// the programmatic dismissals, the `stack.replaced` (with no entries for an empty base layer),
    /// and the presentations and pushes that lead from the newest state to the restored one, in one
    /// transaction. Navigation recorded afterwards continues from what the user sees, and the state
    /// at the new version is the acknowledged one.
    ///
    /// With no restore pending (none since the last acknowledgement, or none ever), nothing
    /// changes and the result says so (``RestoreAcknowledgement/version`` `nil`). When the session
    /// moved on since a restore that handed out its newest state, that state is acknowledged as
    /// it is (the app showed it and went on from it); after a fallback, the acknowledgement is
    /// refused (``StoreError/restoreMovedOn(session:handedOut:failed:version:)``): the navigation
    /// recorded since would be thrown away.
    /// - Parameters:
    ///   - key: the session key.
    ///   - at: the time of those events (ms since the Unix epoch); now when `nil`.
    /// - Returns: what was acknowledged and the version at which the log now holds it.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/restoreMovedOn(session:handedOut:failed:version:)``,
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``,
    ///   ``StoreError/timeOutOfRange(session:given:)`` for an `at` outside the years 0000-9999, database errors.
    @discardableResult
    public func acknowledgeRestore(session key: String, at: Int64? = nil) throws(StoreError) -> RestoreAcknowledgement {
        try withCore { core in
            try core.db.inTransaction(.write) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                var status = try core.restoreStatus(sessionID: row.id)
                guard status.attempts > 0, let handedOut = status.attemptedVersion else {
                    return RestoreAcknowledgement(
                        session: key, version: nil,
                        newestAcknowledgedVersion: status.acknowledgedVersion, alignedVersion: nil)
                }
                // The session's newest state when that restore ran: the failed one it stood in
                // for, or the one it handed out.
                let headThen = status.failedVersion ?? handedOut
                let isFallback = handedOut != headThen
                if isFallback, try core.movedOn(sessionID: row.id, after: headThen) {
                    throw StoreError.restoreMovedOn(
                        session: key, handedOut: handedOut, failed: headThen, version: row.version)
                }
                status.attempts = 0
                var aligned: Int?
                if isFallback {
                    let current = try core.currentState(row)
                    let target: SessionState
                    if handedOut >= 1 {
                        (target, _) = try core.state(of: row, atVersion: handedOut, repairing: true)
                    } else {
                        target = current.rootsAlone
                    }
                    if !current.isExactly(target) {
                        let earlier = status.earlierAcknowledged(than: headThen)
                        let marker = RestoreMarker(
                            restoredVersion: handedOut,
                            failedVersions: handedOut == 0 ? [headThen] + (earlier.map { [$0] } ?? []) : [headThen],
                            acknowledged: true)
                        let version = try core.align(row, from: current, to: target, marker: marker, at: at)
                        aligned = version
                        // The log's newest state is now the acknowledged one: it is what restore
                        // hands out next, and what it falls back to.
                        status.attemptedVersion = version
                        status.failedVersion = nil
                        status.acknowledge(version)
                    } else if handedOut >= 1 {
                        status.acknowledge(handedOut)
                    }
                } else if handedOut >= 1 {
                    status.acknowledge(handedOut)
                }
                try core.saveRestoreStatus(sessionID: row.id, status)
                return RestoreAcknowledgement(
                    session: key, version: handedOut,
                    newestAcknowledgedVersion: status.acknowledgedVersion, alignedVersion: aligned)
            }
        }
    }
}
