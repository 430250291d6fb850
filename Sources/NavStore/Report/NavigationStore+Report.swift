extension NavigationStore {
    /// The report of a session's history (DESIGN §11): every version from `from` through `to`
    /// with the state, back button, back menu and changes after it, built by streaming the log
    /// through a ``ReportBuilder``.
    /// - Parameters:
    ///   - key: the session key.
    ///   - from: the first version (1-based; default 1).
    ///   - to: the last version (default the latest).
    ///   - summary: the one-line summary of an event for the timeline.
    /// - Throws: ``StoreError/sessionNotFound(_:)``; ``StoreError/pointOutOfRange(session:point:accepted:)``
    ///   when `from` or `to` is not a version of the session or `from` is after `to`; database errors.
    /// - Complexity: O(K + events × depth) for K = the snapshot interval.
    public func report(session key: String, from: Int? = nil, to: Int? = nil, summary: (Event) -> String) throws -> SessionReport {
        let info = try sessionInfo(key)
        let first = from ?? 1, last = to ?? info.version
        let accepted = "versions 1 through \(info.version)"
        guard (1...info.version).contains(first) else {
            throw StoreError.pointOutOfRange(session: info.key, point: "first version \(first)", accepted: accepted)
        }
        guard (1...info.version).contains(last) else {
            throw StoreError.pointOutOfRange(session: info.key, point: "last version \(last)", accepted: accepted)
        }
        guard first <= last else {
            throw StoreError.pointOutOfRange(session: info.key, point: "first version \(first), after the last version \(last),", accepted: "a first version at or before the last")
        }
        let start = first > 1 ? try state(session: info.key, at: .version(first - 1)).state : SessionState()
        var builder = ReportBuilder(startingAt: start)
        try events(session: info.key, filter: EventFilter(fromVersion: first, toVersion: last)) { event in
            builder.add(event, summary: summary(event))
        }
        return builder.report(session: info.key, name: info.name, latestVersion: info.version)
    }
}
