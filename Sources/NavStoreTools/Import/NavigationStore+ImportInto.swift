import NavStore

extension NavigationStore {
    /// Imports NDJSON event records into the database at `path`, as
    /// ``importNDJSON(lines:progress:)`` does, creating the database only when the input holds an
    /// event and the import succeeds: a refused import, and an input without an event (empty, or
    /// blank lines only), leave a missing database missing. A new database appears at `path`
    /// whole, with every imported event, never empty or in between (it is built under a
    /// temporary name in the same folder and linked into place). An existing database
    /// is still opened (a file that is not a NavStore database is refused as on any opening), so an
    /// empty import into it is a successful no-op.
    /// - Parameters:
    ///   - path: the database file, or a URI of a registered backend (``init(path:create:options:)``;
    ///     an empty database of a backend counts as a missing one: its tables are created in the
    ///     import's transaction, so a refused import leaves it empty).
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
        guard let all = withFirstLineRead(lines, blank: { blank in progress?(blank, 0) }) else {
            try openIfPresent(path, options: options)
            return ImportReport(sessions: 0, imported: 0, skipped: 0)
        }
        return try importCreatingIfMissing(path, options: options) { store throws(StoreError) in
            try store.importNDJSON(lines: all, progress: progress)
        }
    }

    /// Imports the tabs of a Firefox for Android session-restore file into the database at
    /// `path`, as ``importFirefoxSession(data:at:)`` does, creating the database only when the
    /// file has a tab: a file of no tabs leaves a missing database missing.
    /// - Parameters:
    ///   - path: the database file, or a URI of a registered backend (an empty database of a
    ///     backend counts as a missing one, and a refused import leaves it empty).
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
        return try importCreatingIfMissing(path, options: options) { store throws(StoreError) in
            try store.importFirefoxTabs(tabs, at: at)
        }
    }

    /// `lines` read up to their first line that is not blank, without reading further: `nil` when
    /// there is none (`blank` is then called with the number of blank lines read), else the lines
    /// again from the first, so that line numbers stay the input's and the rest streams.
    static func withFirstLineRead(_ lines: some Sequence<String>, blank report: (Int) -> Void = { _ in })
        -> IteratorSequence<AnyIterator<String>>?
    {
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
            report(blank)
            return nil
        }
        var given = 0
        return IteratorSequence(
            AnyIterator<String> {
                defer { given += 1 }
                if given < blank { return "" }
                if given == blank { return first }
                return rest.next()
            })
    }

    /// Runs `body` on the store at `path`. When there is no file there yet, `body` imports into
    /// a new database under a temporary name in the same folder, and the file appears at `path`
    /// only once the import succeeded, whole (`link(2)`, which never replaces a file): a refused
    /// import leaves no file behind and needs no clean-up that could remove a database another
    /// process created in the meantime. When one did (`link` finds `path` taken), or the file
    /// system has no hard links, the imported events are imported again into the database at
    /// `path` from the temporary one (by event id: what is already there is skipped), holding
    /// them in memory. A backend's database without NavStore's tables gets them inside the
    /// import's own transaction (``StoreBackend/open(_:displayName:create:schemaInFirstWrite:options:)``),
    /// so a refused import, or one whose process dies, leaves it empty, as a refused import leaves
    /// no file.
    ///
    /// An import that can run again from its input (`again`: a trace import, whose lines were
    /// copied as they were read) runs again into the database at `path` instead, so that it
    /// does there what it does to any existing database (a trace another process imported
    /// meanwhile is found and skipped, not imported a second time with other times).
    static func importCreatingIfMissing(
        _ path: String, options: StoreOptions, _ body: (NavigationStore) throws(StoreError) -> ImportReport,
        again: ((NavigationStore) throws(StoreError) -> ImportReport)? = nil
    ) throws(StoreError) -> ImportReport {
        if !StoreBackends.isFilePath(path) {
            return try body(NavigationStore(path: path, create: true, options: options, schemaInFirstWrite: true))
        }
        var info = stat()
        guard stat(path, &info) != 0, errno == ENOENT else {
            return try body(NavigationStore(path: path, create: true, options: options))
        }
        let target = Connection.danglingLinkTarget(path) ?? path
        ImportTemporaryFiles.removeAbandoned(besides: target)
        let temporary = ImportTemporaryFiles.begin(for: target)
        defer { ImportTemporaryFiles.end(temporary) }
        let report: ImportReport
        do {
            report = try importIntoFile(temporary, options: options, body)
        } catch {
            throw error.naming(path, for: temporary, file: target)
        }
        if link(temporary, target) == 0 { return report }
        if errno == ENOENT, access(temporary, F_OK) != 0 {
            throw StoreError.interrupted(
                path: path,
                reason:
                    "the new database built beside it was removed by another process before it was put in place; nothing was imported"
            )
        }
        if let again { return try again(NavigationStore(path: path, create: true, options: options)) }
        var lines: [String] = []
        do {
            try NavigationStore(path: temporary, create: false, options: options).exportNDJSON(session: nil) {
                lines.append($0)
            }
        } catch {
            throw StoreError.from(error, path: temporary, options: options)
        }
        let again = try NavigationStore(path: path, create: true, options: options).importNDJSON(lines: lines)
        return ImportReport(sessions: report.sessions, imported: again.imported, skipped: again.skipped)
    }

    /// Creates the database at `path`, runs `body` on it and checkpoints its -wal into the file,
    /// so that the file alone holds every imported event; the store is closed on return.
    private static func importIntoFile(
        _ path: String, options: StoreOptions, _ body: (NavigationStore) throws(StoreError) -> ImportReport
    ) throws(StoreError) -> ImportReport {
        let store = try NavigationStore(path: path, create: true, options: options)
        let report = try body(store)
        let complete = try store.withCore { core in try core.maintenance?.truncateWriteAheadLog() ?? true }
        // Nobody else knows the temporary file, so no reader can hold the checkpoint back.
        guard complete else {
            throw StoreError.cannotOpen(
                path: path, reason: "its write-ahead log could not be checkpointed into the file")
        }
        return report
    }

    /// Whether `path` names a database file that does not exist (not a backend's URI).
    static func isMissingFile(_ path: String) -> Bool {
        guard StoreBackends.isFilePath(path) else { return false }
        var info = stat()
        return stat(path, &info) != 0 && errno == ENOENT
    }

    /// Opens the database at `path` when there is one (refusing a file that is not a NavStore
    /// database), and creates nothing when there is none: no file, or a backend's database without
    /// NavStore's tables, which stays empty.
    static func openIfPresent(_ path: String, options: StoreOptions) throws(StoreError) {
        do {
            _ = try NavigationStore(path: path, create: false, options: options)
        } catch .databaseNotFound {
            return
        }
    }

    /// Whether a database exists at `path`, so that a command refused before it writes can leave
    /// a missing one missing: for a file, whether anything is there (a dangling symbolic link does
    /// not count, `stat(2)`); for a URI of a registered backend, whether its database holds
    /// NavStore's tables (an empty one does not count; an older schema is migrated, as on any
    /// opening).
    /// - Parameters:
    ///   - path: the database file, or a URI of a registered backend.
    ///   - options: how a backend's database is opened to look (timeouts); unused for a file.
    /// - Returns: whether a database is there.
    /// - Throws: for a URI, what ``init(path:create:options:)`` throws other than
    ///   ``StoreError/databaseNotFound(path:)`` (the server cannot be reached, a foreign schema,
    ///   a scheme no backend registered opens).
    public static func databaseExists(at path: String, options: StoreOptions = StoreOptions()) throws(StoreError)
        -> Bool
    {
        guard !StoreBackends.isFilePath(path) else {
            var info = stat()
            return stat(path, &info) == 0
        }
        do {
            _ = try NavigationStore(path: path, create: false, options: options)
            return true
        } catch .databaseNotFound {
            return false
        }
    }
}

extension StoreError {
    /// The error with `path` in place of `temporary`, the name a new database was built under,
    /// and `file` (the file `path` names, through a link) in place of it in the reasons: a
    /// message names the database the user gave.
    fileprivate func naming(_ path: String, for temporary: String, file: String) -> StoreError {
        switch self {
        case .cannotOpen(_, let reason): .cannotOpen(path: path, reason: reason.replacing(temporary, with: file))
        case .openFailed(_, .sqlite(let cause)):
            .openFailed(
                path: path,
                cause: .sqlite(
                    SQLiteError(
                        extendedResultCode: cause.extendedResultCode,
                        message: cause.message.replacing(temporary, with: file), sql: cause.sql)))
        case .openFailed(_, let cause): .openFailed(path: path, cause: cause)
        case .readOnly(_, let cause): .readOnly(path: path, cause: cause)
        case .diskFull(_, let cause): .diskFull(path: path, cause: cause)
        case .busy(_, let milliseconds, let cause): .busy(path: path, milliseconds: milliseconds, cause: cause)
        case .interrupted(_, let reason): .interrupted(path: path, reason: reason)
        default: self
        }
    }
}
