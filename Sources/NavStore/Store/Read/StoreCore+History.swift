/// History points: the version a point names, resolved against the session's base and times.
extension StoreCore {
    /// The version a point names: 1...current (base...current for a truncated session), or the
    /// newest at or before a time.
    package func resolve(_ point: HistoryPoint?, in row: SessionRow) throws -> Int {
        switch point {
        case nil:
            return row.version
        case .version(let version):
            let base = try base(of: row)
            let low = base?.version ?? 1
            guard version >= low, version <= row.version else {
                throw StoreError.pointOutOfRange(
                    session: row.key, point: "version \(version)",
                    accepted: "versions \(low)...\(row.version)" + Self.truncationNote(base))
            }
            return version
        case .time(let time):
            guard let found = try lastVersion(of: row, atOrBefore: time) else {
                let base = try base(of: row)
                let from =
                    base.map { "times from \(Timestamp.format($0.at)), the time of the base version \($0.version)" }
                    ?? "times from \(Timestamp.format(row.createdAt)), when the session began"
                throw StoreError.pointOutOfRange(
                    session: row.key, point: "time \(Timestamp.format(time))",
                    accepted: from + "; later times give the newest state" + Self.truncationNote(base))
            }
            return found
        }
    }

    /// `; the session was truncated at T: version B is its base and earlier events were deleted`,
    /// or `""` for a session never truncated.
    package static func truncationNote(_ base: SessionBase?) -> String {
        guard let base else { return "" }
        return
            "; the session was truncated at \(Timestamp.format(base.truncatedAt)): version \(base.version) is its base and the events before it were deleted"
    }

    /// The newest version whose event is at or before `time` (the base version when `time` is at
    /// or after the base's time but before the first remaining event), or `nil` when the session
    /// began (or its base is) later. Times never go backwards within a session, so this is a
    /// binary search over versions on the `UNIQUE(session_id, version)` index: O(log n) point
    /// reads and no index on `at`.
    package func lastVersion(of row: SessionRow, atOrBefore time: Int64) throws -> Int? {
        let base = try base(of: row)
        let firstVersion = (base?.version ?? 0) + 1
        if row.version >= firstVersion, let first = try eventTime(sessionID: row.id, version: firstVersion),
            first <= time
        {
            var low = firstVersion
            var high = row.version
            while low < high {
                let middle = low + (high - low + 1) / 2
                if let at = try eventTime(sessionID: row.id, version: middle), at <= time {
                    low = middle
                } else {
                    high = middle - 1
                }
            }
            return low
        }
        if let base, time >= base.at { return base.version }
        return nil
    }

    /// The oldest version whose event is at or after `time` (`row.version + 1` when none is).
    package func firstVersion(of row: SessionRow, atOrAfter time: Int64) throws -> Int {
        guard let last = try lastVersion(of: row, atOrBefore: time - 1) else { return 1 }
        return last + 1
    }
}
