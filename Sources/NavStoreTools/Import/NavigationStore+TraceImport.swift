import NavStore

extension NavigationStore {
    /// What every trace line is checked for before it is decoded, as import lines are: params
    /// nested too deep (a line wraps them in 3 levels: line, stack, entry), numbers that would
    /// change, keys given twice.
    static let traceLineCheck = JSONTextCheck(wrapperLevels: 3)

    /// Replays a UIKit callback trace (NDJSON, one ``UIKitTraceLine`` a line) through a
    /// ``NavigationControllerObserver`` into the session `key`, in one `BEGIN IMMEDIATE`
    /// transaction: on any error nothing is written.
    ///
    /// The session is started when it does not exist (`session.started` at the first line's
    /// time, under `platform`, default ``PlatformGeneration/ios14``); an existing one keeps its
    /// generation and must follow `platform` when one is given. Each event is timed at its line's
    /// `at`; a line without one is timed now (never before the session's previous event). An
    /// `at` more than 24 hours ahead of the clock (`Timestamp.futureLimit`, the rule of `navdb
    /// --time`) is refused unless `allowingFutureTimes`.
    ///
    /// Importing the same trace twice does nothing the second time: a line is identified by its
    /// JSON (another key order, spacing, byte order mark or escape of the same values is the same
    /// line) and the lines before it (blank lines aside), in this session. The events a line makes
    /// are stored under ids derived from those lines, so an import that finds the trace's first
    /// event checks the session against the trace instead of appending: the part imported before
    /// is skipped (``TraceImportReport/skipped``), what a longer trace adds after it is appended,
    /// and a trace that begins with the same line but then differs (or a session that moved on
    /// between the imported part and what the trace adds) is refused. A line that makes no event
    /// (a programmatic call awaiting its `didShow`) is checked too: the store keeps, per trace,
    /// the lines up to the one that made its first event and the lines its longest import read,
    /// with a digest of each (`trace_imports`, <doc:StorageLayout>), and a trace must match them
    /// as far as it reaches them; a trace shorter than one imported before is checked by the
    /// events it makes, not by its lines after the last that makes one. The record is the
    /// database's own: an export does not carry it (a database filled by an import checks a
    /// trace by its events until an import appends to it), and a trace whose first event a
    /// truncation removed is refused. Lines without `at` are timed by the first import; checking
    /// them again compares the times of timed lines only.
    ///
    /// The input is streamed, as ``importNDJSON(lines:progress:)`` streams it: memory holds the
    /// session's state and one line, never the trace (on PostgreSQL the lines read are also
    /// copied to an anonymous temporary file, for a transaction run again after a lost race).
    /// A line costs what its entries and the events it makes cost: a `didShow` of n entries over
    /// a stack of m is O(n + m), not O(n × m).
    ///
    /// - Parameters:
    ///   - lines: the NDJSON lines (without their newlines), read once, in order; blank lines
    ///     are skipped.
    ///   - key: the session key.
    ///   - platform: the generation of a session the import starts; `nil` for the default, or,
    ///     for an existing session, for whatever it follows.
    ///   - allowingFutureTimes: whether a line's `at` may be more than 24 hours ahead of the clock.
    /// - Returns: the session, whether it was started, the callbacks read, the events appended,
    ///   the events found imported before, and the session's version. An input with no callback writes nothing (no session is
    ///   started).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` with the 1-based line number for a
    ///   line that is not JSON, an unknown callback, a missing or unknown key, a `didShow`
    ///   without a stack, an `at` before the line before it or before the session's previous
    ///   event or (unless `allowingFutureTimes`) more than 24 hours ahead, an id the stack does not hold, a layer the session does not have, or a change
    ///   no event can keep (``ObservationError``), a line where the session holds another event
    ///   than the one this trace imported before, or the line where this trace's lines reach the
    ///   number an earlier import read and differ from them; ``StoreError/invalidImportFile(reason:)``
    ///   for an existing session that follows another generation than `platform`;
    ///   ``StoreError/emptySessionKey``; database errors. Nothing is written when it throws.
    /// - Complexity: O(n) in the number of lines, plus the rules' and the observer's cost per
    ///   callback.
    @discardableResult
    public func importUIKitTrace(
        lines: some Sequence<String>, session key: String, platform: PlatformGeneration?,
        allowingFutureTimes: Bool = false
    ) throws(StoreError) -> TraceImportReport {
        var observer = NavigationControllerObserver()
        return try importTrace(
            lines: lines, session: key, platform: platform, format: "uikit-trace",
            allowingFutureTimes: allowingFutureTimes,
            decode: { line, number, decoder throws(StoreError) in
                try Self.decodeTraceLine(
                    line, as: UIKitTraceLine.self, number: number, decoder: decoder,
                    format: "a UIKit callback trace is NDJSON, one callback object per line", kind: "a UIKit callback")
            },
            at: \.at,
            commands: { decoded, state throws(ObservationError) in try observer.observe(decoded.callback, state: state) })
    }

    /// Replays the lines of a trace into session `key` in one write transaction (the import of
    /// a UIKit callback trace and of a SwiftUI path trace): each non-blank line decoded by
    /// `decode` (with its 1-based number), timed by `at`, and turned into commands by `commands`
    /// against the session's state.
    /// - Throws: what `decode` throws, ``StoreError/invalidImport(line:reason:)`` for a refused
    ///   line, ``StoreError/emptySessionKey``, database errors; nothing is written then.
    func importTrace<Line>(
        lines: some Sequence<String>, session key: String, platform: PlatformGeneration?, format: String,
        allowingFutureTimes: Bool, decode: (String, Int, JSONDecoder) throws(StoreError) -> Line, at: (Line) -> Int64?,
        commands: (Line, SessionState) throws(ObservationError) -> [NavigationCommand]
    ) throws(StoreError) -> TraceImportReport {
        guard !key.isEmpty else { throw .emptySessionKey }
        return try withCore { core in
            // Streamed as an NDJSON import is: each run of the transaction (PostgreSQL runs it
            // again after a serialization failure) reads the input from its first line.
            let source = ReplayableLines(lines.makeIterator(), copying: core.db.dialect.writesMayRunAgain)
            return try core.db.inTransaction(.write) {
                try source.rewind()
                var importer = TraceImporter(
                    core: core, key: key, platform: platform, format: format, allowingFutureTimes: allowingFutureTimes)
                let decoder = JSONDecoder()
                var number = 0
                for line in source {
                    number += 1
                    if Self.isBlankLine(line) { continue }
                    let decoded = try decode(line, number, decoder)
                    try importer.add(at: at(decoded), line: number, text: line) { state throws(ObservationError) in
                        try commands(decoded, state)
                    }
                }
                try source.finish()
                return try importer.finish()
            }
        }
    }

    /// ``importUIKitTrace(lines:session:platform:allowingFutureTimes:)`` into the database at `path`, creating the
    /// database only when the trace holds a callback and the import succeeds (as
    /// ``importNDJSON(into:lines:options:progress:)`` does): a refused import, or an empty
    /// trace, leaves a missing database missing.
    /// - Throws: what ``init(path:create:options:)`` and ``importUIKitTrace(lines:session:platform:allowingFutureTimes:)``
    ///   throw. Nothing is written when it throws.
    @discardableResult
    public static func importUIKitTrace(
        into path: String, lines: some Sequence<String>, session key: String, platform: PlatformGeneration?,
        allowingFutureTimes: Bool = false, options: StoreOptions = StoreOptions()
    ) throws(StoreError) -> TraceImportReport {
        try importTrace(into: path, lines: lines, session: key, options: options) { store, all throws(StoreError) in
            try store.importUIKitTrace(
                lines: all, session: key, platform: platform, allowingFutureTimes: allowingFutureTimes)
        }
    }

    /// A trace import into the database at `path` (`replay` on the store opened there), creating
    /// the database only when the trace holds a line and the import succeeds.
    ///
    /// When there is no database yet, the lines are copied to an anonymous temporary file as
    /// they are read: an import that finds the database created by another process when it puts
    /// its own in place (two processes importing into a missing file at once) runs again into
    /// that database from the copy, where the trace is checked as on any later import (the same
    /// trace: skipped, with `created` false).
    /// - Throws: what opening the database and `replay` throw. Nothing is written when it throws.
    static func importTrace(
        into path: String, lines: some Sequence<String>, session key: String, options: StoreOptions,
        replay: @escaping (NavigationStore, IteratorSequence<AnyIterator<String>>) throws(StoreError) -> TraceImportReport
    ) throws(StoreError) -> TraceImportReport {
        // Streamed: only the lines up to the first that is not blank are read before the import.
        guard let all = withFirstLineRead(lines) else {
            try openIfPresent(path, options: options)
            return TraceImportReport(session: key, created: false, callbacks: 0, imported: 0, skipped: 0, version: 0)
        }
        let source = ReplayableLines(all.makeIterator(), copying: isMissingFile(path))
        var report: TraceImportReport?
        func run(_ store: NavigationStore) throws(StoreError) -> ImportReport {
            do {
                try source.rewind()
                report = try replay(store, IteratorSequence(AnyIterator(source)))
                try source.finish()
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError.interrupted(path: path, reason: "\(error)")
            }
            return ImportReport(sessions: 1, imported: report!.imported, skipped: report!.skipped)
        }
        _ = try importCreatingIfMissing(path, options: options, run, again: run)
        return report!
    }

    /// One trace line decoded as `Line`, or the error naming its line: not JSON (`format` says
    /// what the input is), or not `kind`.
    static func decodeTraceLine<Line: Decodable>(
        _ line: String, as type: Line.Type, number: Int, decoder: JSONDecoder, format: String, kind: String
    ) throws(StoreError) -> Line {
        if let problem = traceLineCheck.problem(in: line) { throw .invalidImport(line: number, reason: problem) }
        do {
            return try decoder.decode(Line.self, from: Data(line.utf8))
        } catch let error as NavigationError {
            throw .invalidImport(line: number, reason: error.description)
        } catch {
            if isNotJSON(error) {
                let start = line.prefix(40)
                throw .invalidImport(
                    line: number,
                    reason: """
                        not JSON: it reads "\(start.count < line.count ? start + "..." : start)" \
                        (\(format))
                        """)
            }
            throw .invalidImport(line: number, reason: "not \(kind): \(describeDecodingError(error))")
        }
    }
}
