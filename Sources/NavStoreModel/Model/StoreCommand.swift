/// A change NavStore records itself, never an app: not a ``NavigationCommand``, so an app cannot
/// record one (the recorder and the restore make them; <doc:Recording>, <doc:Restore>).
package enum StoreCommand: Sendable, Hashable {
    /// The app restarted and restored the session: `session.restored` with a fresh marker.
    case markRestored
    /// `count` (at least 1) calls of a recorder for this session were dropped between `firstAt`
    /// and `lastAt` (ms since the Unix epoch, `firstAt <= lastAt`) because its queue was full:
    /// `calls.dropped`.
    case noteDroppedCalls(count: Int, firstAt: Int64, lastAt: Int64)
}

extension SessionState {
    /// The event `command` records; neither changes the stack.
    /// - Throws: ``NavigationError/invalidDroppedCalls(count:firstAt:lastAt:)`` for a count below 1
    ///   or a `firstAt` after `lastAt`.
    package func decide(_ command: StoreCommand) throws(NavigationError) -> EventBody {
        switch command {
        case .markRestored:
            return .sessionRestored(RestoreMarker())
        case .noteDroppedCalls(let count, let firstAt, let lastAt):
            guard count >= 1, firstAt <= lastAt else {
                throw .invalidDroppedCalls(count: count, firstAt: firstAt, lastAt: lastAt)
            }
            return .callsDropped(count: count, firstAt: firstAt, lastAt: lastAt)
        }
    }
}
