/// How far the recorder's writer has got, by ticket (``RecorderQueue/enqueued``), and the
/// flushes waiting for it: a flush waits for the tickets handed out before it to be committed
/// and as durable as a flush promises.
package struct FlushTickets {
    /// A waiting ``NavigationRecorder/flush()``: its id (for a cancellation), the last ticket it
    /// waits for, and how it is resumed.
    package typealias Waiter = (id: UInt64, ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)

    /// The last ticket whose call is committed (or given up).
    package var committed: UInt64 = 0
    /// The last ticket whose call is committed and survives a power loss (or given up): at
    /// ``StoreOptions/Synchronous/normal`` the writer syncs the log for a flush
    /// (``NavigationStore/makeCommitsDurable()``); at the other levels each commit is as
    /// durable as it will be.
    package var durable: UInt64 = 0
    /// How many times the writer synced the log for a flush (for tests and the bench).
    package var syncs = 0
    /// The flushes waiting, in the order they came.
    package private(set) var waiters: [Waiter] = []
    /// The last id given to a flush.
    private var lastID: UInt64 = 0

    package init() {}

    /// A new flush's id.
    package mutating func nextID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Adds a waiting flush.
    package mutating func wait(_ waiter: Waiter) {
        waiters.append(waiter)
    }

    /// Whether a flush waits for calls that are committed but not synced yet.
    package var wantsSync: Bool {
        waiters.contains { $0.ticket > durable && $0.ticket <= committed }
    }

    /// Removes and returns the flushes whose calls are all durable.
    package mutating func takeReady() -> [CheckedContinuation<Void, any Error>] {
        let durable = durable
        let ready = waiters.filter { $0.ticket <= durable }.map(\.continuation)
        waiters.removeAll { $0.ticket <= durable }
        return ready
    }

    /// Removes and returns every waiting flush.
    package mutating func takeAll() -> [CheckedContinuation<Void, any Error>] {
        defer { waiters.removeAll() }
        return waiters.map(\.continuation)
    }

    /// Removes and returns the flush `id` (cancelled), or `nil` when it returned already.
    package mutating func take(id: UInt64) -> CheckedContinuation<Void, any Error>? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
    }
}
