/// Which events ``NavigationStore/events(session:filter:_:)`` streams.
public struct EventFilter: Sendable, Hashable {
    /// Only these event types (e.g. `entry.pushed`); `nil` for all.
    public var types: Set<String>?
    /// Only events that name this entry id (pushed, popped, updated, ...).
    public var entry: String?
    /// Only events at or after this time (ms since the Unix epoch).
    public var since: Int64?
    /// Only events at or before this time (ms since the Unix epoch).
    public var until: Int64?
    /// Only versions at or above this one.
    public var fromVersion: Int?
    /// Only versions at or below this one.
    public var toVersion: Int?
    /// At most this many events (after the other filters).
    public var limit: Int?
    /// Newest first.
    public var reverse: Bool

    /// A filter; every argument defaults to "no restriction".
    public init(
        types: Set<String>? = nil, entry: String? = nil, since: Int64? = nil, until: Int64? = nil,
        fromVersion: Int? = nil, toVersion: Int? = nil, limit: Int? = nil, reverse: Bool = false
    ) {
        self.types = types
        self.entry = entry
        self.since = since
        self.until = until
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.limit = limit
        self.reverse = reverse
    }
}

/// Thrown inside a stream to stop it when the caller's closure failed.
package struct StreamStopped: Error {}
