/// What an app needs to rebuild its `UINavigationController`s after a restart (DESIGN §5, §6).
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

    /// The payload of a past point, as ``NavigationStore/state(session:at:)`` read it: no attempt
    /// counted (`attempts` 0), no fallback (`navdb restore --at P`).
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

    init(session: String, version: Int, restoredVersion: Int, layers: [Layer], backButton: BackButton?,
         backMenu: [BackMenuRow]?, attempts: Int, fallback: String?) {
        self.session = session
        self.version = version
        self.restoredVersion = restoredVersion
        self.layers = layers
        self.backButton = backButton
        self.backMenu = backMenu
        self.attempts = attempts
        self.fallback = fallback
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
    /// Returns the state to restore and counts the attempt (crash-loop protection, DESIGN §5).
    ///
    /// States are named by the version of the event that produced them: the session's newest
    /// event other than a `session.restored` marker (markers change nothing). Each call counts one
    /// restore of the state it hands out; ``acknowledgeRestore(session:)`` clears the count. Once
    /// ``StoreOptions/restoreAttemptLimit`` restores of the current state went unacknowledged, that
    /// state is marked failed and is not handed out again until the session moves on: restore
    /// returns the newest earlier acknowledged state instead (said in ``RestorePayload/fallback``),
    /// and, with none or when that one too goes unacknowledged as often, the base layer's root
    /// alone (``RestorePayload/restoredVersion`` 0).
    ///
    /// The session *moves on* when an event other than `session.restored` is appended after the
    /// failed state: its new state is counted from 0, and the failed marks no longer apply.
    /// Markers appended by `mark` (on every launch, say) do not move it on.
    /// - Parameters:
    ///   - session: the session key.
    ///   - mark: also append `session.restored`, so history shows where the app restarted.
    ///   - at: the marker's time (ms since the Unix epoch); now when `nil`.
    ///   - expectedVersion: optimistic concurrency: the version the caller last saw. When the
    ///     session is at another version, nothing is appended and no attempt is counted.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/versionConflict(session:expected:actual:)``,
    ///   ``StoreError/timeBeforePrevious(session:given:previous:)``, database errors.
    /// - Complexity: one indexed read of the projection and one of the log's newest events; an
    ///   earlier state costs at most K applies.
    public func restore(
        session key: String, mark: Bool = false, at: Int64? = nil, expectedVersion: Int? = nil
    ) throws(StoreError) -> RestorePayload {
        try withSessionWrite(key, at: at, expectedVersion: expectedVersion) { core, session, time in
            var row = session
            let current = try core.currentState(row)
            let head = try core.stateVersion(of: row)
            var status = try core.restoreStatus(sessionID: row.id)
            if let failed = status.failedVersion, try core.movedOn(sessionID: row.id, after: failed) {
                status.failedVersion = nil
            }
            let limit = max(1, options.restoreAttemptLimit)
            let restoredVersion = status.countRestore(head: head, limit: limit)
            var state = current
            var fallback: String?
            if restoredVersion != head {
                let failedHead = "version \(head) went unacknowledged \(limit) time\(limit == 1 ? "" : "s") in a row"
                if restoredVersion > 0 {
                    (state, _) = try core.state(of: row, atVersion: restoredVersion)
                    fallback = "\(failedHead); returning version \(restoredVersion), the newest earlier acknowledged state"
                } else {
                    let root = current.layers[0].entries.first
                    state = SessionState(layers: [Layer(entries: root.map { [$0] } ?? [])])
                    let earlier = status.acknowledgedVersion.flatMap { $0 < head ? $0 : nil }
                    fallback = failedHead + (earlier.map { ", and version \($0), the newest earlier acknowledged state, \(limit) time\(limit == 1 ? "" : "s") too" }
                        ?? " and no earlier state was acknowledged")
                        + (root.map { "; returning the base root '\($0.id)' alone" } ?? "; returning an empty stack (the base layer has no entries)")
                }
            }
            if mark {
                let event = try core.append(.sessionRestored, to: row, state: current, at: time, eventID: nil)
                row.version = event.version
            }
            try core.saveRestoreStatus(sessionID: row.id, status)
            return RestorePayload(session: key, version: row.version, restoredVersion: restoredVersion,
                                  layers: state.layers, backButton: state.backButton, backMenu: state.backMenu,
                                  attempts: status.attempts, fallback: fallback)
        }
    }

    /// Reports that the last restore worked: clears its attempt count, and, unless it handed out
    /// the base root alone, remembers the version it handed out as the newest acknowledged state
    /// (the one restore falls back to).
    ///
    /// When that restore was a fallback (an earlier state than the session's newest), the app now
    /// shows that earlier state, so the log is brought in line with it: `session.restored`, then
    /// the programmatic dismissals, `stack.replaced` and presentations and pushes that lead from
    /// the newest state to the restored one, in one transaction. Navigation recorded afterwards
    /// continues from what the user sees, and the state at the new version is the acknowledged one.
    /// - Parameter at: the time of those events (ms since the Unix epoch); now when `nil`.
    /// - Returns: what was acknowledged: a version's state, or the base root alone, and the
    ///   version at which the log now holds it.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    @discardableResult
    public func acknowledgeRestore(session key: String, at: Int64? = nil) throws(StoreError) -> RestoreAcknowledgement {
        try withCore { core in
            try core.db.transaction(.immediate) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                var status = try core.restoreStatus(sessionID: row.id)
                let head = try core.stateVersion(of: row)
                let acknowledged = status.attemptedVersion ?? head
                status.attempts = 0
                if acknowledged >= 1 { status.acknowledgedVersion = acknowledged }
                var aligned: Int?
                if acknowledged != head {
                    let current = try core.currentState(row)
                    let target: SessionState
                    if acknowledged >= 1 {
                        (target, _) = try core.state(of: row, atVersion: acknowledged)
                    } else {
                        target = SessionState(layers: [Layer(entries: current.layers[0].entries.prefix(1).map { $0 })])
                    }
                    if let version = try core.align(row, from: current, to: target, at: at) {
                        aligned = version
                        // The log's newest state is now the acknowledged one: it is what restore
                        // hands out next, and what it falls back to.
                        status.attemptedVersion = version
                        status.acknowledgedVersion = version
                        status.failedVersion = nil
                    }
                }
                try core.saveRestoreStatus(sessionID: row.id, status)
                return RestoreAcknowledgement(session: key, version: acknowledged,
                                              newestAcknowledgedVersion: status.acknowledgedVersion, alignedVersion: aligned)
            }
        }
    }
}

extension StoreCore {
    /// Appends, after `session.restored`, the commands that take `current` to `target`: dismiss
    /// every modal layer, replace the base stack, present and push the target's modal layers.
    /// Each is decided by the rules like any command. Returns the new version, or `nil` when
    /// the target's base layer is empty (the session's first version: nothing to restore to).
    func align(_ row: SessionRow, from current: SessionState, to target: SessionState, at: Int64?) throws -> Int? {
        guard !target.layers[0].entries.isEmpty else { return nil }
        var commands: [NavigationCommand] = [.markRestored]
        commands += Array(repeating: .dismiss(source: .programmatic), count: current.layers.count - 1)
        commands.append(.setStack(target.layers[0].entries))
        for layer in target.layers.dropFirst() {
            guard let root = layer.entries.first else { continue }
            commands.append(.present(root, modalInPresentation: layer.modalInPresentation))
            commands += layer.entries.dropFirst().map { .push($0) }
        }
        let time = try eventTime(at, after: row)
        var write = try beginWrite(row, state: current)
        for command in commands {
            if let body = try write.state.decide(command) {
                try appendEvent(body, to: &write, at: time, eventID: nil)
            }
        }
        try finishWrite(write)
        return write.version
    }
}

/// What ``NavigationStore/acknowledgeRestore(session:)`` acknowledged.
public struct RestoreAcknowledgement: Sendable, Hashable, Codable {
    /// The session key.
    public var session: String
    /// The version whose state the acknowledged restore handed out; 0 when it handed out the base
    /// root alone (see ``isBaseRootOnly``).
    public var version: Int
    /// The state restore falls back to from now on (the newest acknowledged version), or `nil`
    /// when no version's state was ever acknowledged.
    public var newestAcknowledgedVersion: Int?
    /// When a fallback was acknowledged: the version at which the log now holds the restored
    /// state (after the events that bring it in line); `nil` when the newest state was acknowledged.
    public var alignedVersion: Int?

    /// Whether the acknowledged restore handed out the base layer's root alone (the last
    /// fallback), not a version's whole state.
    public var isBaseRootOnly: Bool { version == 0 }

    /// A value with these fields.
    public init(session: String, version: Int, newestAcknowledgedVersion: Int?, alignedVersion: Int? = nil) {
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
        /// The current state, marked failed: not handed out again until the session moves on.
        var failedVersion: Int?

        /// Counts one restore when the session's current state is `head` (the failed mark
        /// already cleared when the session moved on) and returns the state to hand out: `head`;
        /// once `head` went `limit` times unacknowledged, the newest earlier acknowledged state;
        /// once that went `limit` times unacknowledged too, or with none, 0 (the base root alone).
        /// Each state's count starts at 0 when restore moves to it.
        mutating func countRestore(head: Int, limit: Int) -> Int {
            let earlier = acknowledgedVersion.flatMap { $0 < head ? $0 : nil }
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
    }

    /// The version that names the session's current state: its newest event other than a
    /// `session.restored` marker (markers change nothing). One indexed read, backwards over the
    /// trailing markers.
    func stateVersion(of row: SessionRow) throws -> Int {
        let statement = try db.cachedStatement("""
            SELECT version FROM events WHERE session_id = ? AND type <> 'session.restored'
            ORDER BY version DESC LIMIT 1
            """)
        statement.bind(row.id, at: 1)
        defer { statement.reset() }
        return try statement.step() ? statement.int(at: 0) : row.version
    }

    /// Whether the session moved on after `version`: an event other than `session.restored` was
    /// appended after it. One indexed query.
    func movedOn(sessionID: Int64, after version: Int) throws -> Bool {
        let statement = try db.cachedStatement("""
            SELECT EXISTS(SELECT 1 FROM events WHERE session_id = ? AND version > ? AND type <> 'session.restored')
            """)
        statement.bind(sessionID, at: 1)
        statement.bind(version, at: 2)
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int(at: 0) != 0
    }


    func restoreStatus(sessionID: Int64) throws -> RestoreStatus {
        let statement = try db.cachedStatement("""
            SELECT attempts, attempted_version, acknowledged_version, failed_version
            FROM restore_attempts WHERE session_id = ?
            """)
        statement.bind(sessionID, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return RestoreStatus() }
        func optional(_ column: Int32) -> Int? { statement.isNull(at: column) ? nil : statement.int(at: column) }
        return RestoreStatus(attempts: statement.int(at: 0), attemptedVersion: optional(1),
                             acknowledgedVersion: optional(2), failedVersion: optional(3))
    }

    func saveRestoreStatus(sessionID: Int64, _ status: RestoreStatus) throws {
        let statement = try db.cachedStatement("""
            INSERT OR REPLACE INTO restore_attempts (session_id, attempts, attempted_version, acknowledged_version, failed_version)
            VALUES (?, ?, ?, ?, ?)
            """)
        statement.bind(sessionID, at: 1)
        statement.bind(status.attempts, at: 2)
        statement.bind(status.attemptedVersion, at: 3)
        statement.bind(status.acknowledgedVersion, at: 4)
        statement.bind(status.failedVersion, at: 5)
        try statement.run()
    }
}
