/// What an app needs to rebuild its `UINavigationController`s after a restart (<doc:Restore>).
public struct RestorePayload: Sendable, Hashable, Codable {
    /// The session key.
    public var session: String
    /// The session's current version (after the restart marker, when one was appended).
    public var version: Int
    /// The version whose state `layers` holds: normally the session's newest event other than a
    /// `session.restored` marker (markers change nothing, so after one this is below `version`);
    /// an earlier acknowledged version, or 0 for the base root alone (an empty stack when the
    /// base layer has no entries), after repeated unacknowledged restores (see ``fallback``).
    public var restoredVersion: Int
    /// The layers to rebuild, base first, each with its entries (ids, routes, params, items).
    public var layers: [Layer]
    /// The back button those layers show, or `nil`.
    public var backButton: BackButton?
    /// The back menu those layers show, or `nil`.
    public var backMenu: [BackMenuRow]?
    /// Unacknowledged restores of the state handed out (`restoredVersion`), this one included.
    public var attempts: Int
    /// Why an earlier state was returned instead of the current one, or `nil`.
    public var fallback: String?
    /// Why the next plain restore (``NavigationStore/restore(session:mark:at:expectedVersion:deliver:)``
    /// after this call) will hand out an earlier state than the session's newest, or `nil` when it
    /// will hand out the newest. For ``NavigationStore/previewRestore(session:)`` the next plain
    /// restore is the one previewed, so this equals ``fallback``. Not part of the JSON shape: it is
    /// a hint for a person, for a tool to show beside the payload.
    public var nextFallback: String? = nil

    /// The payload of a past point, as ``NavigationStore/state(session:at:platform:)`` read it: no attempt
    /// counted (`attempts` 0), no fallback (a restore at a past point).
    public init(_ state: VersionedState) {
        session = state.session
        version = state.version
        restoredVersion = state.version
        layers = state.state.layers
        backButton = state.backButton
        backMenu = state.backMenu
        attempts = 0
        fallback = nil
    }

    init(
        session: String, version: Int, restoredVersion: Int, layers: [Layer], backButton: BackButton?,
        backMenu: [BackMenuRow]?, attempts: Int, fallback: String?, nextFallback: String?
    ) {
        self.session = session
        self.version = version
        self.restoredVersion = restoredVersion
        self.layers = layers
        self.backButton = backButton
        self.backMenu = backMenu
        self.attempts = attempts
        self.fallback = fallback
        self.nextFallback = nextFallback
    }

    private enum CodingKeys: String, CodingKey {
        case session, version, restoredVersion, layers, backButton, backMenu, attempts, fallback
    }

    /// Encodes every key (`null` for an absent back button, menu or fallback).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(session, forKey: .session)
        try c.encode(version, forKey: .version)
        try c.encode(restoredVersion, forKey: .restoredVersion)
        try c.encode(layers, forKey: .layers)
        try c.encode(backButton, forKey: .backButton)
        try c.encode(backMenu, forKey: .backMenu)
        try c.encode(attempts, forKey: .attempts)
        try c.encode(fallback, forKey: .fallback)
    }
}

extension NavigationStore {
    /// Returns the state to restore and counts the attempt (crash-loop protection, <doc:Restore>).
    /// This is the call an app makes once per launch; to look without counting, use
    /// ``previewRestore(session:)``.
    ///
    /// States are named by the version of the event that produced them: the session's newest
    /// event other than a `session.restored` marker (markers change nothing). Each call counts one
    /// restore of the state it hands out; ``acknowledgeRestore(session:at:)`` clears the count.
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
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``, what `deliver` throws, database errors.
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
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``, database errors.
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
                        target = SessionState(
                            layers: [Layer(entries: current.layers[0].entries.prefix(1).map { $0 })],
                            platform: current.platform)
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

extension StoreCore {
    /// What a restore of `row` hands out now, and the restore status after counting it (not saved).
    struct RestorePlan {
        /// The session's current state (the newest).
        var current: SessionState
        /// The version naming the current state.
        var head: Int
        /// The status after this restore was counted.
        var status: RestoreStatus
        /// The version whose state is handed out (0: the base root alone).
        var restoredVersion: Int
        /// The state handed out.
        var state: SessionState
        /// The states that went unacknowledged too often, newest first (empty: no fallback).
        var failedVersions: [Int]
        /// Why an earlier state is handed out, or `nil`.
        var fallback: String?
        /// Why the restore after this one will hand out an earlier state, or `nil`.
        var nextFallback: String?

        func payload(session key: String, version: Int) -> RestorePayload {
            RestorePayload(
                session: key, version: version, restoredVersion: restoredVersion, layers: state.layers,
                backButton: state.backButton, backMenu: state.backMenu, attempts: status.attempts,
                fallback: fallback, nextFallback: nextFallback)
        }
    }

    /// Counts one restore of `row` (in memory) and reads the state it hands out; with `repairing`
    /// false, a stale snapshot is read past rather than rebuilt, so nothing is written.
    func planRestore(_ row: SessionRow, limit: Int, repairing: Bool) throws -> RestorePlan {
        let current = try currentState(row)
        let head = try stateVersion(of: row)
        var status = try restoreStatus(sessionID: row.id)
        if let failed = status.failedVersion, try movedOn(sessionID: row.id, after: failed) {
            status.failedVersion = nil
        }
        let restoredVersion = status.countRestore(head: head, limit: limit)
        let root = current.layers[0].entries.first
        var state = current
        var failedVersions: [Int] = []
        if restoredVersion != head {
            failedVersions = [head]
            if restoredVersion > 0 {
                (state, _) = try self.state(of: row, atVersion: restoredVersion, repairing: repairing)
            } else {
                state = SessionState(layers: [Layer(entries: root.map { [$0] } ?? [])], platform: current.platform)
                if let earlier = status.earlierAcknowledged(than: head) { failedVersions.append(earlier) }
            }
        }
        var next = status
        let nextVersion = next.countRestore(head: head, limit: limit)
        return RestorePlan(
            current: current, head: head, status: status, restoredVersion: restoredVersion, state: state,
            failedVersions: failedVersions,
            fallback: status.fallbackReason(head: head, restored: restoredVersion, limit: limit, root: root),
            nextFallback: next.fallbackReason(head: head, restored: nextVersion, limit: limit, root: root))
    }

    /// Appends, after a `session.restored` carrying `marker`, the commands that take `current` to
    /// `target`: dismiss every modal layer, replace the base stack (with no entries when the
    /// target's base layer is empty, as a session's is at its start), present and push the
    /// target's modal layers. Each is decided by the rules like any command. Returns the new version.
    func align(
        _ row: SessionRow, from current: SessionState, to target: SessionState, marker: RestoreMarker, at: Int64?
    ) throws -> Int {
        let time = try eventTime(at, after: row)
        var write = try beginWrite(row, state: current)
        func append(_ body: EventBody?) throws {
            guard let body else { return }
            try write.state.validate(body)
            try appendEvent(body, to: &write, at: time, eventID: nil)
        }
        try append(.sessionRestored(marker))
        for _ in current.layers.dropFirst() { try append(try write.state.decide(.dismiss(source: .programmatic))) }
        let base = target.layers[0].entries
        if !(write.state.layers[0].entries.count == base.count
            && zip(write.state.layers[0].entries, base).allSatisfy { $0.isExactly($1) })
        {
            // An empty base layer is a state like any other (a session's first): replacing the
            // stack refuses an empty list, so this event is appended as the fact it is.
            try append(base.isEmpty ? .stackReplaced([]) : try write.state.decide(.setStack(base)))
        }
        for layer in target.layers.dropFirst() {
            guard let root = layer.entries.first else { continue }
            try append(try write.state.decide(.present(root, modalInPresentation: layer.modalInPresentation)))
            for entry in layer.entries.dropFirst() { try append(try write.state.decide(.push(entry))) }
        }
        try finishWrite(write)
        return write.version
    }
}

/// What ``NavigationStore/acknowledgeRestore(session:at:)`` acknowledged.
public struct RestoreAcknowledgement: Sendable, Hashable, Codable {
    /// The session key.
    public var session: String
    /// The version whose state the acknowledged restore handed out; 0 when it handed out the base
    /// root alone (see ``isBaseRootOnly``); `nil` when no restore was pending (nothing changed).
    public var version: Int?
    /// The state restore falls back to from now on (the newest acknowledged version), or `nil`
    /// when no version's state was ever acknowledged.
    public var newestAcknowledgedVersion: Int?
    /// When a fallback was acknowledged: the version at which the log now holds the restored
    /// state (after the events that bring it in line); `nil` when the log already held it.
    public var alignedVersion: Int?

    /// Whether a restore was waiting for its acknowledgement (else nothing changed).
    public var wasPending: Bool { version != nil }

    /// Whether the acknowledged restore handed out the base layer's root alone (the last
    /// fallback), not a version's whole state.
    public var isBaseRootOnly: Bool { version == 0 }

    /// A value with these fields.
    public init(session: String, version: Int?, newestAcknowledgedVersion: Int?, alignedVersion: Int? = nil) {
        self.session = session
        self.version = version
        self.newestAcknowledgedVersion = newestAcknowledgedVersion
        self.alignedVersion = alignedVersion
    }
}

extension StoreCore {
    /// A row of `restore_attempts`. Versions name states: the version of the (non-marker) event
    /// that produced the state, 0 for the base root alone.
    struct RestoreStatus: Equatable {
        /// Unacknowledged restores of `attemptedVersion`.
        var attempts = 0
        /// The state the last restore handed out.
        var attemptedVersion: Int?
        /// The newest state whose restore was acknowledged (never 0).
        var acknowledgedVersion: Int?
        /// The acknowledged state before ``acknowledgedVersion`` (older, never 0).
        var previousAcknowledgedVersion: Int?
        /// The current state, marked failed: not handed out again until the session moves on.
        var failedVersion: Int?

        /// The newest acknowledged state other than `head` (older than it), or `nil`.
        func earlierAcknowledged(than head: Int) -> Int? {
            [acknowledgedVersion, previousAcknowledgedVersion].compactMap { $0 }.first { $0 < head }
        }

        /// Records `version` (1 or more) as acknowledged, keeping the two newest.
        mutating func acknowledge(_ version: Int) {
            let known = Set([acknowledgedVersion, previousAcknowledgedVersion, version].compactMap { $0 }).sorted(by: >)
            acknowledgedVersion = known.first
            previousAcknowledgedVersion = known.dropFirst().first
        }

        /// Counts one restore when the session's current state is `head` (the failed mark
        /// already cleared when the session moved on) and returns the state to hand out: `head`;
        /// once `head` went `limit` times unacknowledged, the newest acknowledged state other than
        /// `head`; once that went `limit` times unacknowledged too, or with none, 0 (the base
        /// root alone). Each state's count starts at 0 when restore moves to it.
        mutating func countRestore(head: Int, limit: Int) -> Int {
            let earlier = earlierAcknowledged(than: head)
            var candidate: Int
            if failedVersion == nil {
                candidate = head
            } else if attemptedVersion == 0 {
                candidate = 0  // the earlier acknowledged state failed too, or there is none
            } else {
                candidate = earlier ?? 0
            }
            if attemptedVersion == candidate && attempts >= limit {
                if candidate == head {
                    failedVersion = head
                    candidate = earlier ?? 0
                } else {
                    candidate = 0
                }
            }
            if attemptedVersion != candidate { attempts = 0 }
            attempts += 1
            attemptedVersion = candidate
            return candidate
        }

        /// Why a restore that hands out `restored` while the newest state is `head` falls back:
        /// which state failed, which acknowledged state is used or why none is. `nil` when
        /// `restored` is `head`. `root` is the base layer's root (nil: the base layer is empty).
        func fallbackReason(head: Int, restored: Int, limit: Int, root: Entry?) -> String? {
            guard restored != head else { return nil }
            let times = "\(limit) time\(limit == 1 ? "" : "s")"
            let failedHead = "version \(head) went unacknowledged \(times) in a row"
            if restored > 0 {
                let headAcknowledged =
                    acknowledgedVersion == head
                    ? " (it was acknowledged before, but it is the state that fails now)" : ""
                return
                    "\(failedHead)\(headAcknowledged); returning version \(restored), the newest acknowledged state before it"
            }
            let rootText =
                root.map { "returning the base root '\($0.id)' alone" }
                ?? "returning an empty stack (the base layer has no entries)"
            if let earlier = earlierAcknowledged(than: head) {
                return
                    "\(failedHead), and version \(earlier), the newest acknowledged state before it, \(times) too; \(rootText)"
            }
            if acknowledgedVersion == head {
                return
                    "\(failedHead); it is the only acknowledged state on record (it restored before, and fails now); \(rootText)"
            }
            return "\(failedHead) and no state was ever acknowledged; \(rootText)"
        }
    }

    /// The version that names the session's current state: its newest event other than a
    /// `session.restored` marker (markers change nothing). One indexed read, backwards over the
    /// trailing markers.
    func stateVersion(of row: SessionRow) throws -> Int {
        try db.fetchOne(
            sql: """
                SELECT version FROM events WHERE session_id = ? AND type <> 'session.restored'
                ORDER BY version DESC LIMIT 1
                """,
            arguments: [.integer(row.id)]
        ).map { try $0[0] } ?? row.version
    }

    /// Whether the session moved on after `version`: an event other than `session.restored` was
    /// appended after it. One indexed query.
    func movedOn(sessionID: Int64, after version: Int) throws -> Bool {
        try count(
            "SELECT EXISTS(SELECT 1 FROM events WHERE session_id = ? AND version > ? AND type <> 'session.restored')",
            arguments: [.integer(sessionID), SQLValue(version)]) != 0
    }

    func restoreStatus(sessionID: Int64) throws -> RestoreStatus {
        guard
            let row = try db.fetchOne(
                sql: """
                    SELECT attempts, attempted_version, acknowledged_version, previous_acknowledged_version, failed_version
                    FROM restore_attempts WHERE session_id = ?
                    """,
                arguments: [.integer(sessionID)])
        else { return RestoreStatus() }
        return RestoreStatus(
            attempts: try row[0], attemptedVersion: try row[1], acknowledgedVersion: try row[2],
            previousAcknowledgedVersion: try row[3], failedVersion: try row[4])
    }

    func saveRestoreStatus(sessionID: Int64, _ status: RestoreStatus) throws {
        try db.execute(
            sql: """
                INSERT INTO restore_attempts
                    (session_id, attempts, attempted_version, acknowledged_version, previous_acknowledged_version, failed_version)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (session_id) DO UPDATE SET attempts = excluded.attempts,
                    attempted_version = excluded.attempted_version, acknowledged_version = excluded.acknowledged_version,
                    previous_acknowledged_version = excluded.previous_acknowledged_version,
                    failed_version = excluded.failed_version
                """,
            arguments: [
                .integer(sessionID), SQLValue(status.attempts), SQLValue(status.attemptedVersion),
                SQLValue(status.acknowledgedVersion), SQLValue(status.previousAcknowledgedVersion),
                SQLValue(status.failedVersion),
            ])
    }
}
