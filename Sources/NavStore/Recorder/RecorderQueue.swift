/// The calls a recorder accepted and its writer has not taken yet, with the tickets that number
/// them. Beyond ``capacity`` a call is not queued but counted in its session's drop note (one
/// per session at most, after the full queue), which the writer records as `calls.dropped`.
package struct RecorderQueue {
    /// The calls, oldest first; past ``capacity`` only drop notes.
    package private(set) var calls: [RecorderCall]
    /// How many calls the queue holds before it drops (``RecorderOptions/queueCapacity``).
    package let capacity: Int
    /// The last ticket handed out (tickets count from 1; a drop note has the ticket of the call
    /// before it).
    package private(set) var enqueued: UInt64 = 0

    /// An empty queue of `capacity` calls (room for up to 4,096 made at once).
    package init(capacity: Int) {
        self.capacity = capacity
        calls = []
        calls.reserveCapacity(Swift.min(capacity, 4_096))
    }

    /// Queues a call with the next ticket, or counts it in its session's drop note when the
    /// queue is full.
    @inline(__always)
    package mutating func append(_ kind: RecorderCall.Kind, session: String, at: Int64) {
        if calls.count < capacity {
            enqueued += 1
            calls.append(RecorderCall(session: session, at: at, ticket: enqueued, kind: kind))
        } else {
            countDrop(session: session, at: at)
        }
    }

    /// Adds a dropped call of `session` to its drop note after the full queue (or starts one).
    private mutating func countDrop(session: String, at: Int64) {
        var index = capacity
        while index < calls.count {
            if calls[index].session.hasSameScalars(as: session),
                case .dropped(let count, let first, let last) = calls[index].kind
            {
                calls[index].kind = .dropped(count: count + 1, firstAt: first, lastAt: max(last, at))
                return
            }
            index += 1
        }
        calls.append(
            RecorderCall(session: session, at: at, ticket: enqueued, kind: .dropped(count: 1, firstAt: at, lastAt: at)))
    }

    /// Swaps the queued calls into `taken` (which must be empty): the queue is then empty and
    /// keeps `taken`'s buffer, so the writer and the callers reuse two buffers.
    package mutating func take(into taken: inout [RecorderCall]) {
        swap(&calls, &taken)
    }

    /// Moves every queued call to the end of `taken`.
    package mutating func takeAll(appendingTo taken: inout [RecorderCall]) {
        taken.append(contentsOf: calls)
        calls.removeAll()
    }
}
