import Dispatch

/// What the callers of a recorder and its writer share, behind one lock that is never held
/// across I/O: the queue of calls (``RecorderQueue``), the flushes waiting (``FlushTickets``),
/// the sequences of failures (``FailureBroadcast``), what the writer is doing (``WriterPhase``)
/// and what it is asked to do, and the signal of commits for live readers.
package final class RecorderShared: Sendable {
    /// What the writer is doing. Only the writer moves itself into a phase other than
    /// ``writing``; the callers only wake it (``State/wakeWriter(forFlush:)``).
    package enum WriterPhase {
        /// Taking and writing calls, or about to.
        case writing
        /// Waiting for work: the next call, a flush, a suspension or the stop wakes it.
        case idle
        /// Waiting before it tries again after a failure: only a flush, a suspension or the stop
        /// wakes it early.
        case backingOff
        /// Its connection closed for a suspension (``NavigationRecorder/suspend()``); `asleep`
        /// while it waits for the resume or the stop.
        case suspended(asleep: Bool)
        /// Ended after the stop, the store closed: a flush of calls it did not commit throws
        /// `error`.
        case finished(error: any Error)
    }

    package struct State {
        /// The calls not taken by the writer yet.
        package var queue: RecorderQueue
        /// How far the writer has got, and the flushes waiting.
        package var tickets = FlushTickets()
        /// The sequences of failures.
        package var failures = FailureBroadcast()
        /// What the writer is doing.
        package var writer = WriterPhase.writing
        /// The recorder is closing: no call is accepted, and the writer finishes what is queued.
        package var stopping = false
        /// What a flush throws while the recorder is suspended (``NavigationRecorder/suspend()``):
        /// the writer writes nothing and keeps no connection until ``resume()``. `nil` otherwise.
        package var suspension: (any Error)?
        /// The ``suspend(error:)`` calls waiting for the writer to close its connection.
        package var suspendWaiters: [CheckedContinuation<Void, Never>] = []
        /// The ``stopAndWait()`` calls waiting for the writer to end.
        package var closeWaiters: [CheckedContinuation<Void, Never>] = []

        /// Whether the writer has ended.
        package var isFinished: Bool {
            if case .finished = writer { return true }
            return false
        }

        /// Whether the writer has closed its connection for a suspension (asleep or not).
        package var isSuspended: Bool {
            if case .suspended = writer { return true }
            return false
        }

        /// Marks an asleep writer awake and says whether to signal it: a writer waiting for work
        /// (idle, or asleep in a suspension) and, when `forFlush`, one backing off.
        package mutating func wakeWriter(forFlush: Bool) -> Bool {
            switch writer {
            case .idle:
                writer = .writing
            case .backingOff where forFlush:
                writer = .writing
            case .suspended(asleep: true):
                writer = .suspended(asleep: false)
            default:
                return false
            }
            return true
        }
    }

    package let state: Lock<State>
    /// Wakes the writer (idle, or backing off for a flush).
    package let wake = DispatchSemaphore(value: 0)
    /// Bumped after each commit, for live readers of this process.
    package let commits = CommitSignal()

    package init(capacity: Int) {
        state = Lock(State(queue: RecorderQueue(capacity: capacity)))
    }

    // MARK: Callers

    /// Queues a call, or counts it as dropped when the queue is full. Never blocks beyond the
    /// lock, which the writer holds only to swap the queue out.
    @inline(__always)
    package func enqueue(_ kind: RecorderCall.Kind, session: String, at: Int64) {
        let wakeWriter = state.withLock { state -> Bool in
            // After close() nothing more is written (see NavigationRecorder.close()).
            if state.stopping { return false }
            state.queue.append(kind, session: session, at: at)
            return state.wakeWriter(forFlush: false)
        }
        if wakeWriter { wake.signal() }
    }

    /// Waits until every call accepted before it is committed and as durable as a flush promises.
    /// - Throws: the writer's error when its next attempt fails; `CancellationError` when the
    ///   task is cancelled.
    package func flush() async throws {
        let id = state.withLock { $0.tickets.nextID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (done, wakeWriter, closed) = state.withLock { state -> (Bool, Bool, (any Error)?) in
                    let ticket = state.queue.enqueued
                    if ticket <= state.tickets.durable { return (true, false, nil) }
                    // Suspended: nothing is written until resume(); a flush must not wait for it.
                    if let suspension = state.suspension { return (false, false, suspension) }
                    // The writer has ended: nobody will commit these calls any more.
                    if case .finished(let error) = state.writer { return (false, false, error) }
                    state.tickets.wait((id, ticket, continuation))
                    return (false, state.wakeWriter(forFlush: true), nil)
                }
                if let closed {
                    continuation.resume(throwing: closed)
                    return
                }
                if done { continuation.resume() }
                if wakeWriter { wake.signal() }
            }
        } onCancel: {
            let cancelled = state.withLock { $0.tickets.take(id: id) }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    // MARK: The writer

    /// Swaps the queued calls into `calls` (which must be empty) and says whether the recorder
    /// is stopping.
    package func take(into calls: inout [RecorderCall]) -> Bool {
        state.withLock { state in
            state.queue.take(into: &calls)
            return state.stopping
        }
    }

    /// Says whether the recorder is stopping and, when it is, moves the calls still queued behind
    /// `calls` (none is accepted after the stop), so that the writer's last attempt covers them all.
    package func takeRestIfStopping(appendingTo calls: inout [RecorderCall]) -> Bool {
        state.withLock { state in
            guard state.stopping else { return false }
            state.queue.takeAll(appendingTo: &calls)
            return true
        }
    }

    /// Waits for a call (or a flush, or the stop) when none is queued and no flush waits for a
    /// sync; returns at once otherwise.
    package func waitForWork() {
        let idle = state.withLock { state -> Bool in
            guard state.queue.calls.isEmpty, !state.stopping, state.suspension == nil, !state.tickets.wantsSync
            else { return false }
            state.writer = .idle
            return true
        }
        if idle { wake.wait() }
    }

    /// Waits `milliseconds` before the writer tries again, or less when a flush asks. A flush
    /// that waits already (it came while the writer was writing) ends the wait at once.
    package func backOff(milliseconds: Int) {
        let waits = state.withLock { state -> Bool in
            guard !state.stopping, state.suspension == nil, state.tickets.waiters.isEmpty else { return false }
            state.writer = .backingOff
            return true
        }
        guard waits else { return }
        _ = wake.wait(timeout: .now() + .milliseconds(milliseconds))
        state.withLock { $0.writer = .writing }
    }

    /// The calls through `ticket` are committed (or given up), and survive a power loss when
    /// `durable` (else a flush waits for ``madeDurable(through:)``): live readers are woken, and
    /// the flushes now durable return.
    package func committed(through ticket: UInt64, durable: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.tickets.committed = max(state.tickets.committed, ticket)
            if durable { state.tickets.durable = max(state.tickets.durable, ticket) }
            return state.tickets.takeReady()
        }
        for continuation in ready { continuation.resume() }
        commits.bump()
    }

    /// Whether a flush waits for calls that are committed but not synced yet: the writer syncs
    /// the log before it waits for work.
    package func wantsSync() -> Bool {
        state.withLock { $0.tickets.wantsSync }
    }

    /// The last ticket committed: what a sync made now covers.
    package var committedTicket: UInt64 { state.withLock { $0.tickets.committed } }

    /// The log was synced after the calls through `ticket` were committed: they survive a power
    /// loss, and their flushes return.
    package func madeDurable(through ticket: UInt64, synced: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.tickets.durable = max(state.tickets.durable, ticket)
            if synced { state.tickets.syncs += 1 }
            return state.tickets.takeReady()
        }
        for continuation in ready { continuation.resume() }
    }

    /// An attempt failed: every waiting flush throws `error` (the calls stay queued).
    package func failWaiters(_ error: any Error) {
        let waiting = state.withLock { $0.tickets.takeAll() }
        for continuation in waiting { continuation.resume(throwing: error) }
    }

    // MARK: Suspension

    /// Asks the writer to close its connection and write nothing until ``resume()``; waiting
    /// flushes throw `error`, and so do new ones meanwhile. Returns once the writer has closed it
    /// (at once when the writer has ended).
    package func suspend(error: any Error) async {
        let (waiting, wakeWriter) = state.withLock { state -> ([CheckedContinuation<Void, any Error>], Bool) in
            state.suspension = error
            return (state.tickets.takeAll(), state.wakeWriter(forFlush: true))
        }
        for continuation in waiting { continuation.resume(throwing: error) }
        if wakeWriter { wake.signal() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.isFinished || state.isSuspended || state.suspension == nil { return true }
                state.suspendWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Ends a suspension: the writer opens the store again and writes what was queued meanwhile.
    package func resume() {
        let wakeWriter = state.withLock { state -> Bool in
            state.suspension = nil
            // A suspended writer is signalled even when awake: it then finds the suspension over.
            if case .suspended = state.writer {
                state.writer = .suspended(asleep: false)
                return true
            }
            return state.wakeWriter(forFlush: false)
        }
        if wakeWriter { wake.signal() }
    }

    /// Whether the writer is asked to suspend (and the recorder is not stopping).
    package func suspensionAsked() -> Bool {
        state.withLock { $0.suspension != nil && !$0.stopping }
    }

    /// The writer has closed its connection: the waiting ``suspend(error:)`` calls return; then
    /// it waits, taking no call, until the resume or the stop.
    package func waitWhileSuspended() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.writer = .suspended(asleep: false)
            defer { state.suspendWaiters.removeAll() }
            return state.suspendWaiters
        }
        for continuation in waiting { continuation.resume() }
        while true {
            let suspended = state.withLock { state -> Bool in
                guard state.suspension != nil, !state.stopping else {
                    state.writer = .writing
                    return false
                }
                state.writer = .suspended(asleep: true)
                return true
            }
            guard suspended else { return }
            wake.wait()
        }
    }

    /// Asks the writer to finish what is queued and end.
    package func stop() {
        state.withLock {
            $0.stopping = true
            _ = $0.wakeWriter(forFlush: true)
        }
        wake.signal()
    }

    /// ``stop()``, then waits until the writer has ended and closed the store.
    package func stopAndWait() async {
        stop()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.isFinished { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// The writer has ended and closed the store: waiting closes return, flushes still waiting
    /// throw `error`, and the sequences of failures end.
    package func writerFinished(leaving error: any Error) {
        let (closers, waiting, subscribers) = state.withLock { state in
            state.writer = .finished(error: error)
            defer {
                state.closeWaiters.removeAll()
                state.suspendWaiters.removeAll()
            }
            return (state.closeWaiters + state.suspendWaiters, state.tickets.takeAll(), state.failures.takeAll())
        }
        for continuation in waiting { continuation.resume(throwing: error) }
        for subscriber in subscribers { subscriber.finish() }
        for continuation in closers { continuation.resume() }
    }

    // MARK: Failures

    /// Hands `failures` to every subscriber and keeps the newest for later ones.
    package func report(_ failures: [RecorderFailure]) {
        guard !failures.isEmpty else { return }
        let subscribers = state.withLock { $0.failures.add(failures) }
        for subscriber in subscribers { for failure in failures { subscriber.yield(failure) } }
    }

    /// A new sequence of failures: the kept ones first, then each new one.
    package func failureStream() -> AsyncStream<RecorderFailure> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1_024)) { continuation in
            let id = state.withLock { $0.failures.subscribe(continuation, finished: $0.isFinished) }
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { $0.failures.unsubscribe(id) }
            }
        }
    }
}
