/// The recorder's failures handed to every ``NavigationRecorder/failures`` sequence, the newest
/// kept for a sequence that starts late.
package struct FailureBroadcast {
    /// How many failures a new sequence starts with.
    package static let backlogLimit = 64

    /// The sequences' continuations, by id.
    private var subscribers: [UInt64: AsyncStream<RecorderFailure>.Continuation] = [:]
    /// The last id given to a sequence.
    private var lastID: UInt64 = 0
    /// The newest failures (at most ``backlogLimit``), oldest first.
    private(set) var backlog: [RecorderFailure] = []

    package init() {}

    /// Keeps `failures` (the newest ``backlogLimit``) and returns the sequences to hand them to.
    package mutating func add(_ failures: [RecorderFailure]) -> [AsyncStream<RecorderFailure>.Continuation] {
        backlog += failures
        if backlog.count > Self.backlogLimit { backlog.removeFirst(backlog.count - Self.backlogLimit) }
        return Array(subscribers.values)
    }

    /// Starts `continuation` with the kept failures and, unless the writer has `finished` (then
    /// it ends at once), adds it to the sequences; its id.
    package mutating func subscribe(_ continuation: AsyncStream<RecorderFailure>.Continuation, finished: Bool)
        -> UInt64
    {
        for failure in backlog { continuation.yield(failure) }
        lastID += 1
        if finished {
            continuation.finish()
        } else {
            subscribers[lastID] = continuation
        }
        return lastID
    }

    /// Drops the sequence `id` (its consumer ended it).
    package mutating func unsubscribe(_ id: UInt64) {
        subscribers.removeValue(forKey: id)
    }

    /// Removes and returns every sequence, to be finished: the writer has ended.
    package mutating func takeAll() -> [AsyncStream<RecorderFailure>.Continuation] {
        defer { subscribers.removeAll() }
        return Array(subscribers.values)
    }
}
