// The `Date` and `URL` forms of what an app passes and reads, beside the milliseconds since the
// Unix epoch and the path strings the log and the command line use. A `Date` is taken to the
// millisecond below it (the log's unit, <doc:Events>).

extension HistoryPoint {
    /// ``time(_:)`` at `date`: the state after the last event at or before it, to the millisecond
    /// below (a date before 1970 or past the year 292,277,026 is taken as the nearest
    /// representable time, which the store then refuses as out of range).
    public static func date(_ date: Date) -> HistoryPoint {
        .time(Timestamp.milliseconds(date))
    }
}

extension Timestamp {
    /// `date` in milliseconds since the Unix epoch, rounded down; clamped to `Int64`.
    package static func milliseconds(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        guard milliseconds.isFinite else { return milliseconds < 0 ? .min : .max }
        if milliseconds >= Double(Int64.max) { return .max }  // 2^63: no Int64 holds it
        if milliseconds <= Double(Int64.min) { return .min }
        return Int64(milliseconds)
    }

    /// The `Date` of `milliseconds` since the Unix epoch.
    package static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }
}

extension Event {
    /// ``at`` as a `Date`.
    public var date: Date { Timestamp.date(at) }
}

extension VersionedState {
    /// ``at`` as a `Date`; `nil` for version 0.
    public var date: Date? { at.map(Timestamp.date) }
}

extension SessionInfo {
    /// ``createdAt`` as a `Date`.
    public var createdDate: Date { Timestamp.date(createdAt) }
    /// ``updatedAt`` as a `Date`.
    public var updatedDate: Date { Timestamp.date(updatedAt) }
}

extension NavigationStore {
    /// ``init(path:create:options:)`` with a URL: a file URL's path, or the URI of a registered
    /// backend (`postgresql://...`) as written.
    /// - Throws: what ``init(path:create:options:)`` throws.
    public convenience init(url: URL, create: Bool = true, options: StoreOptions = StoreOptions()) throws(StoreError) {
        try self.init(path: url.isFileURL ? url.path : url.absoluteString, create: create, options: options)
    }
}

extension NavigationRecorder {
    /// ``init(path:options:)`` with a URL: a file URL's path (`Application Support/nav.sqlite`,
    /// say), or the URI of a registered backend as written.
    public convenience init(url: URL, options: RecorderOptions = RecorderOptions()) {
        self.init(path: url.isFileURL ? url.path : url.absoluteString, options: options)
    }
}
