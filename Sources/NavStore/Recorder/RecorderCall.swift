/// One call waiting for a recorder's writer.
package struct RecorderCall: Sendable {
    package enum Kind: Sendable {
        case command(NavigationCommand)
        case callback(NavigationCallback)
        /// A SwiftUI path or sheet value (<doc:SwiftUI>).
        case pathChange(NavigationPathChange)
        /// Calls of the session dropped here because the queue was full (``RecorderOptions/queueCapacity``).
        case dropped(count: Int, firstAt: Int64, lastAt: Int64)
    }

    package var session: String
    /// When the call was made, in ms since the Unix epoch: its event's time.
    package var at: Int64
    /// Its place among the calls accepted (1, 2, ...); a drop note has the ticket of the call
    /// before it. ``NavigationRecorder/flush()`` waits for the tickets handed out before it.
    package var ticket: UInt64
    package var kind: Kind
}
