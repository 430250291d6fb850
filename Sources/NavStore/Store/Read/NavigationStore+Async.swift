import Dispatch

// The `async` forms of what an app calls from the main thread, as GRDB offers `read` both ways:
// each runs its synchronous form on a global queue and resumes the caller with its result, so a
// `Task` on the main actor waits without blocking the main thread. Each is the synchronous form's
// work exactly (the same transaction, the same errors); none is cancelled once started, since the
// store's calls are short and a restore must count its attempt whole or not at all.

extension NavigationStore {
    /// ``sessions()-4v78l``, off the caller's thread.
    /// - Throws: as ``sessions()-4v78l``.
    public func sessions() async throws(StoreError) -> [SessionInfo] {
        try await offCallerThread { () throws(StoreError) in try self.sessions() }
    }

    /// ``sessionInfo(_:)``, off the caller's thread.
    /// - Throws: as ``sessionInfo(_:)``: ``StoreError/sessionNotFound(_:)``, database errors.
    public func sessionInfo(_ key: String) async throws(StoreError) -> SessionInfo {
        try await offCallerThread { () throws(StoreError) in try self.sessionInfo(key) }
    }

    /// ``state(session:at:platform:)-9dytn``, off the caller's thread.
    /// - Throws: as ``state(session:at:platform:)-9dytn``.
    public func state(session key: String, at point: HistoryPoint? = nil, platform: PlatformGeneration? = nil)
        async throws(StoreError) -> VersionedState
    {
        try await offCallerThread { () throws(StoreError) in try self.state(session: key, at: point, platform: platform) }
    }

    /// ``version(session:at:)``, off the caller's thread.
    /// - Throws: as ``version(session:at:)``.
    public func version(session key: String, at point: HistoryPoint) async throws(StoreError) -> Int {
        try await offCallerThread { () throws(StoreError) in try self.version(session: key, at: point) }
    }

    /// The events ``events(session:filter:_:)`` visits, collected in order (oldest first), off the
    /// caller's thread. Use a `filter` with a version or time range on a long log: every event
    /// it keeps is held in memory.
    /// - Throws: as ``events(session:filter:_:)``.
    public func events(session key: String?, filter: EventFilter = EventFilter()) async throws -> [Event] {
        let result: Result<[Event], any Error> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(
                    returning: Result {
                        var events: [Event] = []
                        try self.events(session: key, filter: filter) { events.append($0) }
                        return events
                    })
            }
        }
        return try result.get()
    }

    /// ``restore(session:mark:at:expectedVersion:deliver:)``, off the caller's thread: the call an
    /// app makes once per launch, counted as an attempt once it returns (there is no `deliver`:
    /// the payload is delivered by returning it).
    /// - Throws: as ``restore(session:mark:at:expectedVersion:deliver:)``.
    public func restore(session key: String, mark: Bool = false, at: Int64? = nil, expectedVersion: Int? = nil)
        async throws(StoreError) -> RestorePayload
    {
        try await offCallerThread { () throws(StoreError) in
            try self.restore(session: key, mark: mark, at: at, expectedVersion: expectedVersion)
        }
    }

    /// ``previewRestore(session:)-6cfdz``, off the caller's thread.
    /// - Throws: as ``previewRestore(session:)-6cfdz``.
    public func previewRestore(session key: String) async throws(StoreError) -> RestorePayload {
        try await offCallerThread { () throws(StoreError) in try self.previewRestore(session: key) }
    }

    /// ``acknowledgeRestore(session:at:)-7vb6n``, off the caller's thread.
    /// - Throws: as ``acknowledgeRestore(session:at:)-7vb6n``.
    @discardableResult
    public func acknowledgeRestore(session key: String, at: Int64? = nil) async throws(StoreError)
        -> RestoreAcknowledgement
    {
        try await offCallerThread { () throws(StoreError) in try self.acknowledgeRestore(session: key, at: at) }
    }

    /// Runs `work` on a global queue of `userInitiated` quality (what an app waits for) and
    /// returns its result to the caller.
    private func offCallerThread<T: Sendable>(_ work: @escaping @Sendable () throws(StoreError) -> T)
        async throws(StoreError) -> T
    {
        let result: Result<T, StoreError> = await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: Result { () throws(StoreError) -> T in try work() })
            }
        }
        return try result.get()
    }
}
