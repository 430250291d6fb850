import Dispatch

/// A counter that live readers wait on: bumped after each commit of the recorder's writer.
package final class CommitSignal: Sendable {
    private struct State {
        package var generation: UInt64 = 0
        package var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        package var nextID: UInt64 = 0
        /// The recorder is suspended: live readers close their connections and wait.
        package var suspended = false
        /// Live readers with a connection open (``ReaderLease``).
        package var openReaders = 0
        package var closedWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// Waits that ended by their time (``timeouts``).
        package var timeouts = 0
    }

    private let state = Lock(State())

    /// The current generation.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Whether the recorder is suspended (``NavigationRecorder/suspend()``).
    package var isSuspended: Bool { state.withLock { $0.suspended } }

    /// How many live readers have a connection open.
    package var openReaders: Int { state.withLock { $0.openReaders } }

    /// Suspends or resumes the live readers, and wakes them to close or reopen their connections.
    package func setSuspended(_ suspended: Bool) {
        state.withLock { $0.suspended = suspended }
        bump()
    }

    /// A live reader opened a connection: held until the lease is released.
    package func openReader() -> ReaderLease {
        state.withLock { $0.openReaders += 1 }
        return ReaderLease(signal: self)
    }

    fileprivate func readerClosed() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.openReaders -= 1
            guard state.openReaders == 0 else { return [] }
            defer { state.closedWaiters.removeAll() }
            return Array(state.closedWaiters.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once no live reader has a connection open, or after `milliseconds`.
    package func waitForReadersClosed(milliseconds: Int) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiting = state.withLock { state -> Bool in
                guard state.openReaders > 0 else { return false }
                state.closedWaiters[id] = continuation
                return true
            }
            guard waiting else {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
                state.withLock { $0.closedWaiters.removeValue(forKey: id) }?.resume()
            }
        }
    }

    /// Moves to the next generation and wakes every waiter.
    package func bump() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Returns when the generation moves past `generation`, after `milliseconds` (never, when
    /// `nil`), or when the task is cancelled, whichever comes first.
    package func wait(after generation: UInt64, milliseconds: Int?) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = state.withLock { state -> Bool in
                    guard state.generation == generation else { return false }
                    state.waiters[id] = continuation
                    return true
                }
                guard waiting else {
                    continuation.resume()
                    return
                }
                guard let milliseconds else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
                    if resume(id) { state.withLock { $0.timeouts += 1 } }
                }
            }
        } onCancel: {
            resume(id)
        }
    }

    /// Resumes waiter `id`; `false` when it was resumed already.
    @discardableResult
    private func resume(_ id: UInt64) -> Bool {
        guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return false }
        waiter.resume()
        return true
    }

    /// How many waits ended by their time rather than a commit: the wake-ups of idle readers.
    package var timeouts: Int { state.withLock { $0.timeouts } }
}

/// A live reader's open connection, counted by its ``CommitSignal`` until the lease is released
/// (the reader closes its connection, or is dropped).
package final class ReaderLease: Sendable {
    private let signal: CommitSignal
    fileprivate init(signal: CommitSignal) { self.signal = signal }
    deinit { signal.readerClosed() }
}
