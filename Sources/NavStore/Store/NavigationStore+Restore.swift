/// What an app needs to rebuild its `UINavigationController`s after a restart (DESIGN §5, §6).
public struct RestorePayload: Sendable, Hashable, Codable {
    /// The session key.
    public var session: String
    /// The session's current version (after the restart marker, when one was appended).
    public var version: Int
    /// The version whose state `layers` holds: `version` normally, an earlier one after repeated
    /// unacknowledged attempts (see ``fallback``).
    public var restoredVersion: Int
    /// The layers to rebuild, base first, each with its entries (ids, routes, params, items).
    public var layers: [Layer]
    /// The back button those layers show, or `nil`.
    public var backButton: BackButton?
    /// The back menu those layers show, or `nil`.
    public var backMenu: [BackMenuRow]?
    /// Unacknowledged restore attempts, this one included.
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
    /// Each call counts an unacknowledged attempt; ``acknowledgeRestore(session:)`` clears the
    /// count. Once ``StoreOptions/restoreAttemptLimit`` attempts at the current version went
    /// unacknowledged, that version is marked failed and is not handed out again until the session
    /// moves on: restore returns the newest earlier acknowledged state instead (said in
    /// ``RestorePayload/fallback``), or, with none or when that too fails as often, the base
    /// layer's root alone.
    /// - Parameters:
    ///   - session: the session key.
    ///   - mark: also append `session.restored`, so history shows where the app restarted.
    ///   - at: the marker's time (ms since the Unix epoch); now when `nil`.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/timeBeforePrevious(session:given:previous:)``,
    ///   database errors.
    /// - Complexity: one indexed read of the projection; an earlier state costs at most K applies.
    public func restore(session key: String, mark: Bool = false, at: Int64? = nil) throws(StoreError) -> RestorePayload {
        try withCore { core in
            try core.db.transaction(.immediate) {
                guard var row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                let current = try core.currentState(row)
                var status = try core.restoreStatus(sessionID: row.id)
                let limit = max(1, options.restoreAttemptLimit)
                if status.attempts >= limit && status.failedVersion != row.version && status.attemptedVersion == row.version {
                    status.failedVersion = row.version
                }
                var state = current
                var restoredVersion = row.version
                var fallback: String?
                if status.failedVersion == row.version {
                    if let acknowledged = status.acknowledgedVersion, acknowledged >= 1, acknowledged < row.version,
                       status.attempts < 2 * limit {
                        (state, _) = try core.state(of: row, atVersion: acknowledged)
                        restoredVersion = acknowledged
                        fallback = "restoring version \(row.version) failed \(limit) times without acknowledgement; returning version \(acknowledged), the newest acknowledged state"
                    } else {
                        let root = current.layers[0].entries.first
                        state = SessionState(layers: [Layer(entries: root.map { [$0] } ?? [])])
                        restoredVersion = 0
                        fallback = "restoring version \(row.version) failed \(limit) times without acknowledgement and no earlier acknowledged state restores; returning the base root '\(root?.id ?? "")' alone"
                    }
                }
                status.attempts += 1
                status.attemptedVersion = restoredVersion
                if mark {
                    let time = try core.eventTime(at, after: row)
                    let event = try core.append(.sessionRestored, to: row, state: current, at: time, eventID: nil)
                    if status.failedVersion == row.version { status.failedVersion = event.version }
                    if fallback == nil { status.attemptedVersion = event.version; restoredVersion = event.version }
                    row.version = event.version
                }
                try core.saveRestoreStatus(sessionID: row.id, status)
                return RestorePayload(session: key, version: row.version, restoredVersion: restoredVersion,
                                      layers: state.layers, backButton: state.backButton, backMenu: state.backMenu,
                                      attempts: status.attempts, fallback: fallback)
            }
        }
    }

    /// Reports that the last restore worked: clears the attempt count and remembers the version it
    /// handed out as the newest acknowledged state.
    /// - Returns: the acknowledged version (0 when the base root alone was handed out).
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    @discardableResult
    public func acknowledgeRestore(session key: String) throws(StoreError) -> Int {
        try withCore { core in
            try core.db.transaction(.immediate) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                var status = try core.restoreStatus(sessionID: row.id)
                let acknowledged = status.attemptedVersion ?? row.version
                status.attempts = 0
                if acknowledged >= 1 { status.acknowledgedVersion = acknowledged }
                try core.saveRestoreStatus(sessionID: row.id, status)
                return acknowledged
            }
        }
    }
}

extension StoreCore {
    /// A row of `restore_attempts`.
    struct RestoreStatus {
        var attempts = 0
        var attemptedVersion: Int?
        var acknowledgedVersion: Int?
        var failedVersion: Int?
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
