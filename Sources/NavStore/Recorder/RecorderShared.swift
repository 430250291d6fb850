import Dispatch

/// What the callers of a recorder and its writer share, behind one lock that is never held
/// across I/O: the queue of calls, the flush waiters, the subscribers of failures, and the
/// signal of commits for live readers.
package final class RecorderShared: Sendable {
    package struct State {
        /// The calls not taken by the writer yet; beyond ``capacity`` only drop notes, one per
        /// session at most.
        package var calls: [RecorderCall]
        package let capacity: Int
        /// The last ticket handed out.
        package var enqueued: UInt64 = 0
        /// The last ticket whose call is committed (or given up).
        package var committed: UInt64 = 0
        /// The last ticket whose call is committed and survives a power loss (or given up): at
        /// ``StoreOptions/Synchronous/normal`` the writer syncs the log for a flush
        /// (``NavigationStore/makeCommitsDurable()``); at the other levels each commit is as
        /// durable as it will be.
        package var durable: UInt64 = 0
        /// How many times the writer synced the log for a flush (for tests and the bench).
        package var syncs = 0
        /// The writer waits for work: the next call wakes it.
        package var writerIdle = false
        /// The writer waits before trying again: only a flush wakes it early.
        package var writerBackingOff = false
        package var stopping = false
        /// What a flush throws while the recorder is suspended (``NavigationRecorder/suspend()``):
        /// the writer writes nothing and keeps no connection until ``resume()``. `nil` otherwise.
        package var suspension: (any Error)?
        /// The writer has closed its connection for the suspension and waits for the resume.
        package var writerSuspended = false
        package var suspendWaiters: [CheckedContinuation<Void, Never>] = []
        /// The writer has ended (after ``stop()``): the store is closed.
        package var finished = false
        /// What a flush of calls the ended writer did not commit throws.
        package var finishedError: (any Error)?
        package var closeWaiters: [CheckedContinuation<Void, Never>] = []
        package var waiters: [(id: UInt64, ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        package var nextWaiter: UInt64 = 0
        package var subscribers: [UInt64: AsyncStream<RecorderFailure>.Continuation] = [:]
        package var nextSubscriber: UInt64 = 0
        /// The newest failures, for a subscriber that comes late.
        package var backlog: [RecorderFailure] = []
    }

    /// How many failures a new ``NavigationRecorder/failures`` sequence starts with.
    package static let backlogLimit = 64

    package let state: Lock<State>
    /// Wakes the writer (idle, or backing off for a flush).
    package let wake = DispatchSemaphore(value: 0)
    /// Bumped after each commit, for live readers of this process.
    package let commits = CommitSignal()

    package init(capacity: Int) {
        var calls: [RecorderCall] = []
        calls.reserveCapacity(Swift.min(capacity, 4_096))
        state = Lock(State(calls: calls, capacity: capacity))
    }

    // MARK: Callers

    /// Queues a call, or counts it as dropped when the queue is full. Never blocks beyond the
    /// lock, which the writer holds only to swap the queue out.
    @inline(__always)
    package func enqueue(_ kind: RecorderCall.Kind, session: String, at: Int64) {
        let wakeWriter = state.withLock { state -> Bool in
            // After close() nothing more is written (see NavigationRecorder.close()).
            if state.stopping { return false }
            if state.calls.count < state.capacity {
                state.enqueued += 1
                state.calls.append(RecorderCall(session: session, at: at, ticket: state.enqueued, kind: kind))
            } else {
                Self.countDrop(session: session, at: at, in: &state)
            }
            guard state.writerIdle else { return false }
            state.writerIdle = false
            return true
        }
        if wakeWriter { wake.signal() }
    }

    /// Adds a dropped call of `session` to its drop note after the full queue (or starts one).
    private static func countDrop(session: String, at: Int64, in state: inout State) {
        var index = state.capacity
        while index < state.calls.count {
            if state.calls[index].session.hasSameScalars(as: session),
                case .dropped(let count, let first, let last) = state.calls[index].kind
            {
                state.calls[index].kind = .dropped(count: count + 1, firstAt: first, lastAt: max(last, at))
                return
            }
            index += 1
        }
        state.calls.append(
            RecorderCall(
                session: session, at: at, ticket: state.enqueued, kind: .dropped(count: 1, firstAt: at, lastAt: at)))
    }

    /// Waits until every call accepted before it is committed and as durable as a flush promises.
    /// - Throws: the writer's error when its next attempt fails; `CancellationError` when the
    ///   task is cancelled.
    package func flush() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (done, wakeWriter, closed) = state.withLock { state -> (Bool, Bool, (any Error)?) in
                    let ticket = state.enqueued
                    if ticket <= state.durable { return (true, false, nil) }
                    // Suspended: nothing is written until resume(); a flush must not wait for it.
                    if let suspension = state.suspension { return (false, false, suspension) }
                    // The writer has ended: nobody will commit these calls any more.
                    if state.finished { return (false, false, state.finishedError) }
                    state.waiters.append((id, ticket, continuation))
                    guard state.writerIdle || state.writerBackingOff else { return (false, false, nil) }
                    state.writerIdle = false
                    state.writerBackingOff = false
                    return (false, true, nil)
                }
                if let closed {
                    continuation.resume(throwing: closed)
                    return
                }
                if done { continuation.resume() }
                if wakeWriter { wake.signal() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    // MARK: The writer

    /// Swaps the queued calls into `calls` (which must be empty) and says whether the recorder
    /// is stopping.
    package func take(into calls: inout [RecorderCall]) -> Bool {
        state.withLock { state in
            swap(&state.calls, &calls)
            return state.stopping
        }
    }

    /// Says whether the recorder is stopping and, when it is, moves the calls still queued behind
    /// `calls` (none is accepted after the stop), so that the writer's last attempt covers them all.
    package func takeRestIfStopping(appendingTo calls: inout [RecorderCall]) -> Bool {
        state.withLock { state in
            guard state.stopping else { return false }
            calls.append(contentsOf: state.calls)
            state.calls.removeAll()
            return true
        }
    }

    /// Waits for a call (or a flush, or the stop) when none is queued and no flush waits for a
    /// sync; returns at once otherwise.
    package func waitForWork() {
        let idle = state.withLock { state -> Bool in
            guard state.calls.isEmpty, !state.stopping, state.suspension == nil, !Self.wantsSync(state) else {
                return false
            }
            state.writerIdle = true
            return true
        }
        if idle { wake.wait() }
    }

    /// Waits `milliseconds` before the writer tries again, or less when a flush asks. A flush
    /// that waits already (it came while the writer was writing) ends the wait at once.
    package func backOff(milliseconds: Int) {
        let waits = state.withLock { state -> Bool in
            guard !state.stopping, state.suspension == nil, state.waiters.isEmpty else { return false }
            state.writerBackingOff = true
            return true
        }
        guard waits else { return }
        _ = wake.wait(timeout: .now() + .milliseconds(milliseconds))
        state.withLock { $0.writerBackingOff = false }
    }

    /// The calls through `ticket` are committed (or given up), and survive a power loss when
    /// `durable` (else a flush waits for ``madeDurable(through:)``): live readers are woken, and
    /// the flushes now durable return.
    package func committed(through ticket: UInt64, durable: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.committed = max(state.committed, ticket)
            if durable { state.durable = max(state.durable, ticket) }
            return Self.takeReady(&state)
        }
        for continuation in ready { continuation.resume() }
        commits.bump()
    }

    /// Whether a flush waits for calls that are committed but not synced yet: the writer syncs
    /// the log before it waits for work.
    package func wantsSync() -> Bool {
        state.withLock { Self.wantsSync($0) }
    }

    private static func wantsSync(_ state: State) -> Bool {
        state.waiters.contains { $0.ticket > state.durable && $0.ticket <= state.committed }
    }

    /// The last ticket committed: what a sync made now covers.
    package var committedTicket: UInt64 { state.withLock { $0.committed } }

    /// The log was synced after the calls through `ticket` were committed: they survive a power
    /// loss, and their flushes return.
    package func madeDurable(through ticket: UInt64, synced: Bool) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.durable = max(state.durable, ticket)
            if synced { state.syncs += 1 }
            return Self.takeReady(&state)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Removes and returns the flushes whose calls are all durable.
    private static func takeReady(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        let durable = state.durable
        let ready = state.waiters.filter { $0.ticket <= durable }.map(\.continuation)
        state.waiters.removeAll { $0.ticket <= durable }
        return ready
    }

    /// An attempt failed: every waiting flush throws `error` (the calls stay queued).
    package func failWaiters(_ error: any Error) {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.continuation)
        }
        for continuation in waiting { continuation.resume(throwing: error) }
    }

    // MARK: Suspension

    /// Asks the writer to close its connection and write nothing until ``resume()``; waiting
    /// flushes throw `error`, and so do new ones meanwhile. Returns once the writer has closed it
    /// (at once when the writer has ended).
    package func suspend(error: any Error) async {
        let (waiting, wakeWriter) = state.withLock { state -> ([CheckedContinuation<Void, any Error>], Bool) in
            state.suspension = error
            defer { state.waiters.removeAll() }
            let wakeWriter = state.writerIdle || state.writerBackingOff
            state.writerIdle = false
            state.writerBackingOff = false
            return (state.waiters.map(\.continuation), wakeWriter)
        }
        for continuation in waiting { continuation.resume(throwing: error) }
        if wakeWriter { wake.signal() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.finished || state.writerSuspended || state.suspension == nil { return true }
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
            let wakeWriter = state.writerSuspended || state.writerIdle
            state.writerIdle = false
            return wakeWriter
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
            state.writerSuspended = true
            defer { state.suspendWaiters.removeAll() }
            return state.suspendWaiters
        }
        for continuation in waiting { continuation.resume() }
        while true {
            let suspended = state.withLock { state -> Bool in
                guard state.suspension != nil, !state.stopping else {
                    state.writerSuspended = false
                    return false
                }
                state.writerIdle = true
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
            $0.writerIdle = false
            $0.writerBackingOff = false
        }
        wake.signal()
    }

    /// ``stop()``, then waits until the writer has ended and closed the store.
    package func stopAndWait() async {
        stop()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.finished { return true }
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
            state.finished = true
            state.finishedError = error
            defer {
                state.closeWaiters.removeAll()
                state.suspendWaiters.removeAll()
                state.waiters.removeAll()
                state.subscribers.removeAll()
            }
            return (
                state.closeWaiters + state.suspendWaiters, state.waiters.map(\.continuation),
                Array(state.subscribers.values)
            )
        }
        for continuation in waiting { continuation.resume(throwing: error) }
        for subscriber in subscribers { subscriber.finish() }
        for continuation in closers { continuation.resume() }
    }

    // MARK: Failures

    /// Hands `failures` to every subscriber and keeps the newest for later ones.
    package func report(_ failures: [RecorderFailure]) {
        guard !failures.isEmpty else { return }
        let subscribers = state.withLock { state -> [AsyncStream<RecorderFailure>.Continuation] in
            state.backlog += failures
            if state.backlog.count > Self.backlogLimit {
                state.backlog.removeFirst(state.backlog.count - Self.backlogLimit)
            }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { for failure in failures { subscriber.yield(failure) } }
    }

    /// A new sequence of failures: the kept ones first, then each new one.
    package func failureStream() -> AsyncStream<RecorderFailure> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1_024)) { continuation in
            let id = state.withLock { state -> UInt64 in
                for failure in state.backlog { continuation.yield(failure) }
                state.nextSubscriber += 1
                if state.finished {
                    continuation.finish()
                } else {
                    state.subscribers[state.nextSubscriber] = continuation
                }
                return state.nextSubscriber
            }
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
            }
        }
    }
}
