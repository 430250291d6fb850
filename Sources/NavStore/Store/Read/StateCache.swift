/// The current state of the sessions written or read most recently, each valid while the session's
/// version in the database equals the cached one. A few entries searched in order: a plain array
/// of a struct, where a dictionary keyed by session cost a measurable part of a one-shot
/// `push` process (its generic metadata is built at run time).
package struct StateCache {
    private struct Item {
        package var session: Int64
        package var version: Int
        package var state: SessionState
    }
    private var items: [Item] = []
    /// How many sessions are kept.
    package static let capacity = 8

    /// The cached state of `session` at `version`, if any.
    package func state(session: Int64, version: Int) -> SessionState? {
        items.first { $0.session == session && $0.version == version }?.state
    }

    /// Keeps `state` as `session`'s state at `version`, most recent first.
    package mutating func store(_ state: SessionState, version: Int, session: Int64) {
        items.removeAll { $0.session == session }
        items.insert(Item(session: session, version: version, state: state), at: 0)
        if items.count > Self.capacity { items.removeLast() }
    }

    /// Forgets everything (after a failed transaction, whose versions may be reused).
    package mutating func removeAll() { items.removeAll() }
}
