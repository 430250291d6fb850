#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension NavigationStore {
    /// Imports NDJSON event records into the database at `path`, as
    /// ``importNDJSON(lines:progress:)`` does, creating the database only when the input holds an
    /// event: an input without one (empty, or blank lines only) imports nothing and leaves a
    /// missing database missing, as a refused import leaves nothing behind. An existing database
    /// is still opened (a file that is not a navdb database is refused as on any opening), so an
    /// empty import into it is a successful no-op.
    /// - Parameters:
    ///   - path: the database file, or a PostgreSQL connection URI (always opened).
    ///   - lines: the NDJSON lines (without their newlines), read once, in order.
    ///   - options: timeouts, snapshot interval, durability.
    ///   - progress: as for ``importNDJSON(lines:progress:)``.
    /// - Returns: sessions named, events imported and events skipped (all 0 for an empty input).
    /// - Throws: what ``init(path:create:options:)`` and ``importNDJSON(lines:progress:)`` throw.
    ///   Nothing is written when it throws.
    @discardableResult
    public static func importNDJSON(
        into path: String, lines: some Sequence<String>, options: StoreOptions = StoreOptions(),
        progress: ProgressHandler? = nil
    ) throws(StoreError) -> ImportReport {
        var rest = lines.makeIterator()
        var blank = 0
        var first: String?
        while let line = rest.next() {
            if !isBlankLine(line) {
                first = line
                break
            }
            blank += 1
        }
        guard let first else {
            try openIfPresent(path, options: options)
            progress?(blank, 0)
            return ImportReport(sessions: 0, imported: 0, skipped: 0)
        }
        let store = try NavigationStore(path: path, create: true, options: options)
        // The lines read here go to the import again, so its line numbers stay the file's.
        var skipped = 0
        var firstGiven = false
        let all = AnyIterator<String> {
            if skipped < blank {
                skipped += 1
                return ""
            }
            if !firstGiven {
                firstGiven = true
                return first
            }
            return rest.next()
        }
        return try store.importNDJSON(lines: IteratorSequence(all), progress: progress)
    }

    /// Imports the tabs of a Firefox for Android session-restore file into the database at
    /// `path`, as ``importFirefoxSession(data:at:)`` does, creating the database only when the
    /// file has a tab: a file of no tabs leaves a missing database missing.
    /// - Parameters:
    ///   - path: the database file, or a PostgreSQL connection URI (always opened).
    ///   - data: the file's bytes (UTF-8 JSON).
    ///   - at: the time of tabs without a `lastAccess`, in ms since the Unix epoch; now when `nil`.
    ///   - options: timeouts, snapshot interval, durability.
    /// - Returns: the tabs (sessions), events imported and events skipped.
    /// - Throws: what ``init(path:create:options:)`` and ``importFirefoxSession(data:at:)`` throw;
    ///   the file is read before the database is opened. Nothing is written when it throws.
    @discardableResult
    public static func importFirefoxSession(
        into path: String, data: some Collection<UInt8>, at: Int64? = nil, options: StoreOptions = StoreOptions()
    ) throws(StoreError) -> ImportReport {
        let tabs = try FirefoxSessionFile.tabs(from: Data(data))
        guard !tabs.isEmpty else {
            try openIfPresent(path, options: options)
            return ImportReport(sessions: 0, imported: 0, skipped: 0)
        }
        return try NavigationStore(path: path, create: true, options: options).importFirefoxTabs(tabs, at: at)
    }

    /// Opens the database at `path` when there is one (refusing a file that is not a navdb
    /// database), and creates nothing when there is none; a PostgreSQL URI is always opened.
    private static func openIfPresent(_ path: String, options: StoreOptions) throws(StoreError) {
        do {
            _ = try NavigationStore(path: path, create: PostgreSQLURI.isURI(path), options: options)
        } catch .databaseNotFound {
            return
        }
    }
}
