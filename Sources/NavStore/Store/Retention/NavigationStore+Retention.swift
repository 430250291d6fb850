extension NavigationStore {
    /// Deletes a session (<doc:Retention>): its events, projection, snapshots, base and restore
    /// counters, in one `BEGIN IMMEDIATE` transaction through the maintenance path that the
    /// append-only triggers allow, with `PRAGMA secure_delete = ON`
    /// (https://sqlite.org/pragma.html#pragma_secure_delete) so that the deleted rows' bytes are
    /// overwritten with zeros, also in index and freelist pages. The write-ahead log is then
    /// checkpointed and truncated (https://sqlite.org/c3ref/wal_checkpoint_v2.html), and every
    /// byte of the file that no row uses is zeroed (what B-tree rebalancing copied out of moved
    /// cells lies there, past `secure_delete`; <doc:Retention>), so no byte
    /// of the session's key, name, titles, routes, params, prompts or entry ids remains in the
    /// database, `-wal` or `-shm` files. The key may be started again as a new session. The
    /// removed `seq` numbers are recorded, so `check` accepts that gap.
    /// - Parameters:
    ///   - key: the session key.
    ///   - expectedVersion: optimistic concurrency: delete only when the session is at this
    ///     version (a racing append makes it a conflict, and nothing is deleted).
    ///   - dryRun: only report what would go, reading without writing a byte (`vacuum` is then
    ///     ignored).
    ///   - vacuum: also `VACUUM` the file, so it shrinks.
    /// - Returns: the session removed (or that would be), with its events and bytes.
    /// - Complexity: the rows removed, plus one read of every page of the file (the free-space
    ///   pass; a `VACUUM` would write every page).
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/versionConflict(session:expected:actual:)``,
    ///   database errors. Nothing is deleted when it throws.
    @discardableResult
    public func deleteSession(
        _ key: String, expectedVersion: Int? = nil, dryRun: Bool = false, vacuum: Bool = false
    ) throws(StoreError) -> RetentionReport {
        let select = { (core: StoreCore) throws -> (SessionRow, RemovedSession) in
            guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
            if let expectedVersion, expectedVersion != row.version {
                throw StoreError.versionConflict(session: key, expected: expectedVersion, actual: row.version)
            }
            return (row, try core.measure(row, belowVersion: nil))
        }
        if dryRun {
            return try withCore { core in
                try core.db.inTransaction(.read) { RetentionReport(removed: [try select(core).1], dryRun: true) }
            }
        }
        return try removing(vacuum: vacuum) { core, now in
            let (row, removed) = try select(core)
            try core.deleteSession(row, at: now)
            return [removed]
        }
    }

    /// Deletes every session whose newest event is older than `time` (<doc:Retention>), as
    /// ``deleteSession(_:expectedVersion:dryRun:vacuum:)`` does, all in one transaction: a session
    /// written while the prune waits for the lock is judged by its new time.
    /// - Parameters:
    ///   - time: milliseconds since the Unix epoch; sessions whose last event is at or after it stay.
    ///   - dryRun: only report what would go, reading without writing a byte.
    ///   - vacuum: also `VACUUM` the file (ignored with `dryRun`).
    /// - Returns: the sessions removed (or that would be), ordered by key, with events and bytes.
    /// - Throws: database errors. Nothing is deleted when it throws.
    @discardableResult
    public func prune(before time: Int64, dryRun: Bool = false, vacuum: Bool = false) throws(StoreError)
        -> RetentionReport
    {
        let select = { (core: StoreCore) throws -> [(SessionRow, RemovedSession)] in
            let rows = try core.sessionRows(
                sql: "SELECT \(SessionRow.columns) FROM sessions WHERE updated_at < ? ORDER BY key",
                arguments: [.integer(time)])
            return try rows.map { ($0, try core.measure($0, belowVersion: nil)) }
        }
        if dryRun {
            return try withCore { core in
                try core.db.inTransaction(.read) {
                    RetentionReport(removed: try select(core).map(\.1), dryRun: true)
                }
            }
        }
        return try removing(vacuum: vacuum) { core, now in
            let chosen = try select(core)
            for (row, _) in chosen { try core.deleteSession(row, at: now) }
            return chosen.map(\.1)
        }
    }

    /// Truncates a session's history (<doc:Retention>, EventStoreDB's truncate-before): drops its
    /// events below version `before` and keeps the state after `before - 1` as the session's
    /// base. Versions keep their numbers; ``state(session:at:platform:)-9dytn`` at the base or later returns
    /// what it returned before; an earlier point is refused naming the base and when it was
    /// truncated. The dropped events' bytes are erased as ``deleteSession(_:expectedVersion:dryRun:vacuum:)``
    /// erases a session's (text still live at the base stays, in the base).
    /// - Parameters:
    ///   - key: the session key.
    ///   - before: the first version to keep, in `base + 1 ... version` (`base` is 0 for a
    ///     session never truncated); `base + 1` drops nothing and changes nothing.
    ///   - expectedVersion: optimistic concurrency, as for ``deleteSession(_:expectedVersion:dryRun:vacuum:)``.
    ///   - vacuum: also `VACUUM` the file.
    /// - Returns: the session with its new base version, and the events and bytes removed.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, ``StoreError/versionConflict(session:expected:actual:)``,
    ///   ``StoreError/truncationOutOfRange(session:before:accepted:)`` for a `before` outside the
    ///   range above, ``StoreError/truncationBelowRestore(session:before:restoreVersion:)`` when restore may still fall
    ///   back to a version below `before - 1`, database errors. Nothing changes when it throws.
    @discardableResult
    public func truncateSession(_ key: String, before: Int, expectedVersion: Int? = nil, vacuum: Bool = false)
        throws(StoreError) -> RetentionReport
    {
        try removing(vacuum: vacuum) { core, now in
            guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
            if let expectedVersion, expectedVersion != row.version {
                throw StoreError.versionConflict(session: key, expected: expectedVersion, actual: row.version)
            }
            let base = try core.base(of: row)
            let baseVersion = base?.version ?? 0
            guard before > baseVersion, before <= row.version else {
                throw StoreError.truncationOutOfRange(
                    session: key, before: before,
                    accepted: core.truncationRange(row, base: base))
            }
            if before == baseVersion + 1 { return [] }
            if let needed = try core.oldestRestoreVersion(sessionID: row.id), needed < before - 1 {
                throw StoreError.truncationBelowRestore(session: key, before: before, restoreVersion: needed)
            }
            var removed = try core.measure(row, belowVersion: before)
            removed.baseVersion = before - 1
            try core.truncate(row, before: before, at: now)
            return [removed]
        }
    }

    /// Shrinks the file (`VACUUM`, https://sqlite.org/lang_vacuum.html) and truncates the
    /// write-ahead log; nothing in the log changes.
    /// - Returns: an empty report with ``RetentionReport/vacuumed`` set and, when the backend
    ///   measures them, the bytes before and after (``RetentionReport/storage``).
    /// - Throws: database errors.
    @discardableResult
    public func vacuum() throws(StoreError) -> RetentionReport {
        try removing(vacuum: true) { _, _ in [] }
    }

    /// The base of a truncated session, or `nil` when the session was never truncated.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func base(session key: String) throws(StoreError) -> SessionBase? {
        try withCore { core in
            try core.db.inTransaction(.read) {
                guard let row = try core.sessionRow(key) else { throw StoreError.sessionNotFound(key) }
                return try core.base(of: row)
            }
        }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction with `secure_delete` on and the
    /// maintenance flag raised, lowers the flag before the commit, then checkpoints and truncates
    /// the WAL (and vacuums when asked).
    private func removing(vacuum: Bool, _ body: (StoreCore, Int64) throws -> [RemovedSession]) throws(StoreError)
        -> RetentionReport
    {
        try withCore { core in
            try core.maintenance?.enableSecureDelete()
            let removed = try core.db.inTransaction(.write) {
                try core.setMaintenance(true)
                let removed = try body(core, Timestamp.now())
                try core.setMaintenance(false)
                return removed
            }
            core.cache.removeAll()
            var report = RetentionReport(removed: removed, dryRun: false)
            var before: (bytes: Int64, measured: StorageChange.Measured)?
            if vacuum, let maintenance = core.maintenance {
                before = try maintenance.storageSize()
                try maintenance.vacuum()
                report.vacuumed = true
            }
            // Always, also when nothing was removed: running a command again finishes a
            // checkpoint that a reader blocked the first time.
            report.walTruncated = try core.maintenance?.truncateWriteAheadLog() ?? true
            // What B-tree rebalancing copied out of the deleted rows' cells before lies outside
            // any row: zeroed, unless the vacuum rewrote every page. A call that removed nothing
            // changes no byte (a pass that a writer or reader kept from running is finished by
            // the next call that removes something, or by the vacuum).
            if !report.vacuumed, !removed.isEmpty, let maintenance = core.maintenance {
                report.freeSpaceZeroed =
                    try report.walTruncated
                    && maintenance.scrubFreeSpace(busyTimeoutMilliseconds: core.options.busyTimeoutMilliseconds)
            } else {
                report.freeSpaceZeroed = true
            }
            if let before, let after = try core.maintenance?.storageSize() {
                report.storage = StorageChange(before: before.bytes, after: after.bytes, measured: before.measured)
            }
            // A killed import's copy of the events beside the file would keep what was removed.
            if core.maintenance != nil { ImportTemporaryFiles.removeAbandoned(besides: path) }
            return report
        }
    }
}

extension RetentionReport {
    package init(removed: [RemovedSession], dryRun: Bool) {
        sessions = removed.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        events = removed.reduce(0) { $0 + $1.events }
        bytes = removed.reduce(0) { $0 + $1.bytes }
        self.dryRun = dryRun
        walTruncated = false
        freeSpaceZeroed = false
        vacuumed = false
    }
}

extension NavigationStore {
    /// The bases of the truncated sessions: of `session` only (none when it was never
    /// truncated), or of every session ordered by key when `nil`.
    /// - Throws: ``StoreError/sessionNotFound(_:)``, database errors.
    public func bases(session key: String?) throws(StoreError) -> [SessionBase] {
        if let key { return try base(session: key).map { [$0] } ?? [] }
        return try withCore { core in
            try core.db.inTransaction(.read) { try core.allBases() }
        }
    }
}
