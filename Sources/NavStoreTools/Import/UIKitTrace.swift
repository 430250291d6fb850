#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import NavStore

/// One line of a UIKit callback trace (<doc:Recording>, "How a pop happened"): a callback and when it happened.
///
/// `{"callback": "didShow", "at": 1767225600000, "stack": [...], "layer": 0}`: `callback` names
/// one of ``NavigationCallback/names``, `at` is in milliseconds since the Unix epoch (optional:
/// a line without it is timed at the import), `layer` is 0 for the base stack (optional: the top
/// layer), and the other keys are the callback's own:
///
/// | callback | keys |
/// |---|---|
/// | `didShow` | `stack` (required): entries as `stack --json` prints them |
/// | `shouldPop` | `id` (required), `answer` (bool) |
/// | `didPop` | `id` (required) |
/// | `programmatic` | `call` (required): one of ``ProgrammaticCall`` |
/// | `interactivePop` | `phase` (required): began, cancelled, finished; `recognizer`: edge (default), content |
/// | `itemChanged` | `id`, `item` (both required) |
/// | `present` | `stack` (required), `modalInPresentation` (bool) |
/// | `dismissAttempt`, `didDismiss`, `dismiss` | none |
/// | `setTabs` | `tabs` (required): `[{"id", "title", "reselect"}]` (<doc:TabBars>) |
/// | `didSelectTab`, `selectTab` | `id` (required): the tab tapped, or selected by the app |
/// | `tabStack` | `tab`, `stack` (both required): a tab's stack off screen |
public struct UIKitTraceLine: Sendable, Hashable, Decodable {
    /// The callback.
    public var callback: NavigationCallback
    /// When it happened, in ms since the Unix epoch; `nil` when the line has no `at`.
    public var at: Int64?

    /// A line.
    public init(callback: NavigationCallback, at: Int64? = nil) {
        self.callback = callback
        self.at = at
    }

    /// Decodes a line, refusing an unknown callback, a key the callback does not take and a
    /// missing required key.
    /// - Throws: `DecodingError` naming the key and what is accepted.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        func key(_ name: String) -> FieldKey { FieldKey(name) }
        let name = try c.decode(String.self, forKey: key("callback"))
        /// A whole number in `field`, or `nil` when absent: a fraction or a number past Int64 is
        /// named with the field and what is accepted, not taken for text that is not JSON.
        func wholeNumber(_ field: String, _ accepted: String) throws -> Int64? {
            guard c.contains(key(field)) else { return nil }
            if let value = try? c.decode(Int64.self, forKey: key(field)) { return value }
            let found = (try? c.decode(Double.self, forKey: key(field))).map { "the number \($0)" } ?? "another value"
            throw DecodingError.dataCorruptedError(
                forKey: key(field), in: c, debugDescription: "expected \(accepted), found \(found)")
        }
        at = try wholeNumber("at", "a whole number of milliseconds since the Unix epoch")
        let layer = try wholeNumber("layer", "a whole number, the layer's index (0 = base)").map { Int(clamping: $0) }
        if let layer, layer < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: key("layer"), in: c, debugDescription: "layer \(layer) is negative (0 = base)")
        }
        var keys = ["callback", "at", "layer"]
        func required<T: Decodable>(_ type: T.Type, _ field: String) throws -> T {
            keys.append(field)
            guard c.contains(key(field)) else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: c.codingPath, debugDescription: "\(name) needs '\(field)'"))
            }
            return try c.decode(type, forKey: key(field))
        }
        func optional<T: Decodable>(_ type: T.Type, _ field: String) throws -> T? {
            keys.append(field)
            return try c.decodeIfPresent(type, forKey: key(field))
        }
        switch name {
        case "didShow":
            callback = .didShow(stack: try required([Entry].self, "stack"), layer: layer)
        case "shouldPop":
            callback = .shouldPop(
                id: try required(String.self, "id"), answer: try optional(Bool.self, "answer"), layer: layer)
        case "didPop":
            callback = .didPop(id: try required(String.self, "id"), layer: layer)
        case "programmatic":
            callback = .programmatic(call: try required(Choice<ProgrammaticCall>.self, "call").value, layer: layer)
        case "interactivePop":
            callback = .interactivePop(
                phase: try required(Choice<InteractivePopPhase>.self, "phase").value,
                recognizer: try optional(Choice<PopRecognizer>.self, "recognizer")?.value ?? .edge, layer: layer)
        case "itemChanged":
            if layer != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: key("layer"), in: c,
                    debugDescription:
                        "an itemChanged line takes no 'layer': the item is found by its id, in whichever layer holds it"
                )
            }
            callback = .itemChanged(
                id: try required(String.self, "id"), item: try required(NavigationItem.self, "item"))
        case "present":
            callback = .present(
                stack: try required([Entry].self, "stack"),
                modalInPresentation: try optional(Bool.self, "modalInPresentation") ?? false, layer: layer)
        case "dismissAttempt":
            callback = .dismissAttempt(layer: layer)
        case "didDismiss":
            callback = .didDismiss(layer: layer)
        case "dismiss":
            callback = .dismiss(layer: layer)
        case "setTabs", "didSelectTab", "selectTab", "tabStack":
            if layer != nil {
                throw DecodingError.dataCorruptedError(
                    forKey: key("layer"), in: c,
                    debugDescription: "a \(name) line takes no 'layer': a tab bar is the base layer's")
            }
            switch name {
            case "setTabs": callback = .setTabs(try required([Tab].self, "tabs"))
            case "didSelectTab": callback = .didSelectTab(id: try required(String.self, "id"))
            case "selectTab": callback = .selectTab(id: try required(String.self, "id"))
            default:
                callback = .tabStack(tab: try required(String.self, "tab"), stack: try required([Entry].self, "stack"))
            }
        default:
            throw DecodingError.dataCorruptedError(
                forKey: key("callback"), in: c,
                debugDescription:
                    "unknown callback '\(DisplayText.escaped(name, quote: "'"))' (known: \(NavigationCallback.names.joined(separator: ", ")))"
            )
        }
        try requireKnownKeys(c, known: keys, of: "key of a \(name) line")
    }

    /// An enum's case read from its raw value, refusing another text with the accepted ones.
    private struct Choice<Value: RawRepresentable & CaseIterable>: Decodable where Value.RawValue == String {
        var value: Value
        init(from decoder: any Decoder) throws {
            let name = String(describing: Value.self)
            value = try Value.decodeCase(
                from: decoder, name: name.prefix(1).lowercased() + name.dropFirst())
        }
    }
}

/// What a trace import did (``NavigationStore/importUIKitTrace(lines:session:platform:allowingFutureTimes:)``).
public struct TraceImportReport: Sendable, Hashable, Codable {
    /// The session key.
    public var session: String
    /// Whether the import started the session.
    public var created: Bool
    /// The callback lines read (blank lines not counted).
    public var callbacks: Int
    /// Events appended (a `session.started` included when the import started the session).
    public var imported: Int
    /// Events the trace makes that the session already holds from an earlier import of the same
    /// lines (a `session.started` included when that import started the session): skipped.
    public var skipped: Int
    /// The session's version after the import.
    public var version: Int
}

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

/// A trace's row of `trace_imports` (Migrations/0008_trace_imports.sql).
struct TraceRecord {
    /// The lines up to the one that made the trace's first event, and their chain's digest.
    var firstLines: Int
    var firstDigest: String
    /// The lines the longest import of the trace read, and their chain's digest.
    var lines: Int
    var digest: String
}

/// Appends the commands a trace's lines make to one session, inside the caller's transaction:
/// a UIKit callback trace's (through ``NavigationControllerObserver``) or a SwiftUI path trace's
/// (through ``NavigationPathObserver``).
///
/// **What identifies a line.** A trace's line is identified by its JSON (`identity(of:)`) and
/// every non-blank line before it, in the session it is imported into: the events a line makes
/// take ids derived from a SHA-256 chain over the session key and those lines (version 8 UUIDs, RFC 9562
/// §5.8), and the first event an import appends takes an id derived from the first line alone
/// (the trace's anchor). An import that finds its anchor in the session replays the trace from
/// the state before it and checks, event by event, that the session holds what each line makes,
/// under the line's id: the same trace imported again does nothing; a longer trace whose lines
/// up to some point were imported appends what follows them; a trace that begins with the same
/// line and then differs, or a session that moved on between the imported part and what the
/// trace adds, is refused. An event's id covers every line up to the one that made it, except
/// the anchor's (the first line alone), and no id covers the lines after the last line that made
/// an event: `trace_imports` keeps, per trace, the lines up to the one that made the anchor and
/// the lines the longest import read, with their chains' digests, which an import checks when it
/// reaches the anchor and when it has read as many lines.
struct TraceImporter {
    let core: StoreCore
    let key: String
    let platform: PlatformGeneration?
    private var write: SessionWrite?
    private var created = false
    private var callbacks = 0
    private var imported = 0
    private var skipped = 0
    /// The time of the line before, in ms since the Unix epoch.
    private var previousAt: Int64?
    /// Whether the line before had no `at` of its own (it was stamped with the import's clock).
    private var previousWasStamped = false
    /// The chain's digest through the last line read (before the first: the format and the key).
    private var chain: [UInt8]
    /// The id of the first event an import of this trace appends, from the first line alone.
    private var anchor = ""
    /// Whether the next event the trace makes is its first (it takes ``anchor``).
    private var atFirstEvent = true
    /// Checking an earlier import of the trace: the version checked so far and the state after it.
    private var verified: (version: Int, state: SessionState)?
    /// What the earlier imports of this trace recorded (`trace_imports`): the lines (blank lines
    /// aside) up to the one that made its first event and the longest import read, and the
    /// digests of their chains, in hexadecimal.
    private var recorded: TraceRecord?
    /// The lines up to the one that made the trace's first event (the anchor), and their chain's
    /// digest: the anchor's id follows from the first line alone. Set once the session holds the
    /// anchor (found or appended), so `trace_imports` may name the trace by it.
    private var anchorLines: (lines: Int, digest: String)?
    /// The number, in this input, of the trace's first line.
    private var firstLine = 0
    /// The number of the last line whose events were found stored under their ids: it and every
    /// line before it are the earlier import's, as an event's id follows from them all.
    private var confirmedLine = 0
    /// Whether a line's `at` may be more than ``Timestamp/futureLimit`` ahead of the clock.
    let allowingFutureTimes: Bool

    /// What every refusal of a trace that differs from one imported before advises.
    static let advice =
        "import another trace into another session (a trace's lines are identified by their JSON and the lines before them)"

    /// An importer of a trace in the format `format` (`uikit-trace`, `swiftui-path`: part of
    /// each line's identity) into session `key`.
    init(core: StoreCore, key: String, platform: PlatformGeneration?, format: String, allowingFutureTimes: Bool) {
        self.core = core
        self.key = key
        self.platform = platform
        self.allowingFutureTimes = allowingFutureTimes
        var seed = SHA256()
        for part in ["navstore.trace", format, key] {
            seed.update(part.utf8)
            seed.update(CollectionOfOne(0))
        }
        chain = seed.finalize()
    }

    /// The version 8 UUID text of the digest of `chain` and `label` (RFC 9562 §5.8).
    private static func eventID(_ chain: [UInt8], _ label: String) -> String {
        var hasher = SHA256()
        hasher.update(chain)
        hasher.update(label.utf8)
        return SHA256.uuidVersion8(hasher.finalize())
    }

    /// The text that identifies a line in the chain: the line read as JSON and written back in
    /// NavStore's own form (keys sorted by their UTF-8 bytes, no whitespace, strings with the
    /// fewest escapes, as stored payloads are written: <doc:Events>; a number that is a whole
    /// number within Int64 as that integer, as the line's decoder reads `0.0`, `1e3` or `1000`),
    /// so that another key order, spacing, a byte order mark, another escape of the same
    /// character or another spelling of the same number is the same line. A line that reader
    /// leaves to `JSONDecoder` (an exponent, an escaped key) is read by `JSONDecoder` as a
    /// ``JSONValue``; one that is not JSON at all keeps its text without the byte order mark.
    static func identity(of line: String) -> String {
        var text = line
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        let canonical = text.withUTF8 { bytes -> String? in
            // NavStore's reader first (every line of a trace a recorder writes); what it leaves
            // (an exponent, an escaped key) to `JSONDecoder`, which the line was decoded with.
            var value: JSONValue?
            if var reader = PayloadReader(bytes), let read = reader.value(), reader.atEnd() { value = read }
            if value == nil { value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }
            guard let value else { return nil }
            var writer = PayloadWriter(capacity: bytes.count)
            writer.write(value: wholeNumbersAsIntegers(value) ?? value)
            return writer.text
        }
        return canonical ?? text
    }

    /// `value` with every number that is a whole number within Int64 (`0.0`, `1e3`) as that
    /// integer; `nil` when it holds none (most lines: nothing is copied then).
    private static func wholeNumbersAsIntegers(_ value: JSONValue) -> JSONValue? {
        switch value {
        case .number(let number):
            return Int64(exactly: number).map(JSONValue.integer)
        case .array(var elements):
            var changed = false
            for index in elements.indices {
                if let element = wholeNumbersAsIntegers(elements[index]) {
                    elements[index] = element
                    changed = true
                }
            }
            return changed ? .array(elements) : nil
        case .object(var members):
            var changed = false
            for (key, member) in members {
                if let member = wholeNumbersAsIntegers(member) {
                    members[key] = member
                    changed = true
                }
            }
            return changed ? .object(members) : nil
        default:
            return nil
        }
    }

    /// Adds one line, `text`, timed `at` (ms; `nil`: the import's clock): `observe` makes its
    /// commands from the session's state (the state before the line; while an earlier import is
    /// checked, the state the trace's imported part left).
    mutating func add(
        at lineAt: Int64?, line number: Int, text: String,
        _ observe: (SessionState) throws(ObservationError) -> [NavigationCommand]
    ) throws {
        callbacks += 1
        if let at = lineAt {
            if !Timestamp.accepted.contains(at) {
                throw StoreError.invalidImport(
                    line: number,
                    reason:
                        "at \(at) ms is outside the years 0000 through 9999 (accepted: \(Timestamp.accepted.lowerBound) through \(Timestamp.accepted.upperBound))"
                )
            }
            if !allowingFutureTimes, at > Timestamp.now() + Timestamp.futureLimit {
                throw StoreError.invalidImport(
                    line: number,
                    reason:
                        "at \(Timestamp.format(at)) (\(at)) is more than 24 hours ahead of the clock (now \(Timestamp.format(Timestamp.now()))): every later event of the session would be stamped at least that late; give times at most 24 hours ahead, or allow future times (navdb import --allow-future-time) if they are meant"
                )
            }
            if let previousAt, at < previousAt {
                let before =
                    previousWasStamped
                    ? "the line before it, which has no \"at\" and was stamped with this import's clock, \(Timestamp.format(previousAt)) (\(previousAt)); give every line an \"at\", or none"
                    : "the line before it at \(Timestamp.format(previousAt)) (\(previousAt)); times never go backwards"
                throw StoreError.invalidImport(
                    line: number, reason: "at \(Timestamp.format(at)) (\(at)) is earlier than " + before)
            }
        }
        var hasher = SHA256()
        hasher.update(chain)
        hasher.update(Self.identity(of: text).utf8)
        chain = hasher.finalize()
        try start(at: lineAt ?? Timestamp.now(), line: number)
        // The time of the line's appended events, fixed when the first is appended.
        var time: Int64?
        let commands: [NavigationCommand]
        do throws(ObservationError) {
            commands = try observe(verified?.state ?? write!.state)
        } catch {
            throw StoreError.invalidImport(line: number, reason: error.description)
        }
        var index = 0
        for command in commands {
            let body: EventBody?
            do throws(NavigationError) {
                body = try (verified?.state ?? write!.state).decide(command)
            } catch {
                throw StoreError.invalidImport(line: number, reason: error.description)
            }
            guard let body else { continue }
            let eventID = atFirstEvent ? anchor : Self.eventID(chain, "event \(index)")
            atFirstEvent = false
            index += 1
            if eventID == anchor { try madeAnchor(line: number) }
            if try isImported(body, eventID: eventID, at: lineAt, line: number) {
                confirmedLine = number
                continue
            }
            if let recorded, callbacks <= recorded.lines {
                // The earlier import read this far, and everything its lines made is stored up to
                // where this check reached the session's end: this line makes an event it did not.
                throw StoreError.invalidImport(
                    line: number,
                    reason:
                        "this line makes \(body.type), which the trace imported into session '\(key)' before with this first line did not make from the same point: the earlier import read \(recorded.lines) lines (blank lines aside) and made no event after its version \(write!.version); this trace differs from it after line \(max(confirmedLine, firstLine)) (at this line, or in one before it that makes no event); \(Self.advice)"
                )
            }
            if time == nil { time = try appendTime(lineAt, line: number) }
            do {
                guard try core.appendEvent(body, to: &write!, at: time!, eventID: eventID) != nil else {
                    throw StoreError.eventIDExists(eventID)
                }
            } catch StoreError.eventIDExists {
                throw StoreError.invalidImport(
                    line: number,
                    reason:
                        "the event this line makes is already stored under its id \(eventID), but not as the next event of session '\(key)': this trace was imported before and the session's events since its first line were pruned or changed"
                )
            }
            imported += 1
        }
        if let recorded, callbacks == recorded.lines, SHA256.hex(chain) != recorded.digest {
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "this trace's first \(recorded.lines) lines (blank lines aside) are not the \(recorded.lines) lines of the trace imported into session '\(key)' before (the one with this first line): they differ after line \(max(confirmedLine, firstLine)), in a line that makes no event in one of them (a programmatic call, a shouldPop, a path that changes nothing: such a line is part of the trace too); \(Self.advice)"
            )
        }
        if time == nil, verified == nil { time = try appendTime(lineAt, line: number) }
        if let time = time ?? lineAt {
            previousAt = time
            previousWasStamped = lineAt == nil
        }
    }

    /// The trace's first event is made by the line just read, `number`: its lines so far are
    /// what the anchor's id stands for; while an earlier import is checked, they must be the lines
    /// that made its first event (the id alone covers the first line only).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` when they are not.
    private mutating func madeAnchor(line number: Int) throws {
        anchorLines = (callbacks, SHA256.hex(chain))
        guard verified != nil, let recorded, recorded.firstLines != callbacks || recorded.firstDigest != SHA256.hex(chain)
        else { return }
        throw StoreError.invalidImport(
            line: number,
            reason:
                "this trace's first event is made by this line, the trace's line \(callbacks) (blank lines aside), and the trace imported into session '\(key)' before with this first line made it by its line \(recorded.firstLines), with other lines before it: they differ after line \(firstLine) (at this line, or in one before it that makes no event: a programmatic call, a shouldPop, a path that changes nothing is part of the trace too); \(Self.advice)"
        )
    }

    /// The time of a line's events when appended: its `at`, or the import's clock (never before
    /// the session's previous event).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` for an `at` before the session's previous event.
    private func appendTime(_ lineAt: Int64?, line number: Int) throws -> Int64 {
        let lastAt = write!.lastAt
        if let lineAt, write!.version > 0, lineAt < lastAt {
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "at \(Timestamp.format(lineAt)) (\(lineAt)) is earlier than the previous event of session '\(key)' at \(Timestamp.format(lastAt)); times never go backwards"
            )
        }
        return max(lineAt ?? Timestamp.now(), lastAt)
    }

    /// While an earlier import of the trace is checked: whether the session holds `body` under
    /// `eventID` as its next version (then it is folded into the checked state, and skipped);
    /// `false` once the checked part reaches the session's end (the rest is appended).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` when the session holds another event there.
    private mutating func isImported(_ body: EventBody, eventID: String, at lineAt: Int64?, line number: Int) throws
        -> Bool
    {
        guard var checked = verified else { return false }
        let version = checked.version + 1
        guard version <= write!.version else {
            verified = nil
            return false
        }
        guard
            let row = try core.db.fetchOne(
                sql: "SELECT event_id, type, payload, at FROM events WHERE session_id = ? AND version = ?",
                arguments: [.integer(write!.row.id), .integer(Int64(version))])
        else { throw StoreError.invalidImport(line: number, reason: "version \(version) of session '\(key)' is missing") }
        let storedID: String = try row[0]
        let type: String = try row[1]
        let payload: String = try row[2]
        let storedAt: Int64 = try row[3]
        let text = core.payloadText(body)
        var same = storedID.lowercased() == eventID && type == body.type
        if same, !payload.utf8.elementsEqual(text.utf8) {
            // A payload an earlier version wrote in another layout: compared as written now.
            same = core.payloadText(try EventBody(type: type, payload: Array(payload.utf8))).utf8.elementsEqual(text.utf8)
        }
        // A line with an `at` put it on each event it appended: another time is another line.
        let sameTime = lineAt == nil || storedAt == lineAt
        guard same, sameTime else {
            func article(_ type: String) -> String { "aeiou".contains(type.first ?? "x") ? "an \(type)" : "a \(type)" }
            let what =
                !same
                ? storedID.lowercased() == eventID
                    ? "\(article(type)) event other than the \(body.type) this line makes now"
                    : "\(article(type)) event that is not this trace's (this line makes \(article(body.type)))"
                : "the \(type) event this line makes, but at \(Timestamp.format(storedAt)) (\(storedAt)), not at this line's \(lineAt!)"
            // Every line up to the last whose events were found is the earlier import's.
            let checkedUpTo = max(confirmedLine, firstLine)
            let from =
                number <= checkedUpTo + 1
                ? "from this line on"
                : "after line \(checkedUpTo) (at this line, or in a line before it that makes no event)"
            throw StoreError.invalidImport(
                line: number,
                reason:
                    "session '\(key)' holds, at version \(version), \(what): a trace beginning with this trace's first line was imported into it before, and this trace differs from it \(from), or the session moved on after it; \(Self.advice)"
            )
        }
        checked.state.apply(body)
        checked.version = version
        verified = checked
        skipped += 1
        return true
    }

    /// Reads the session, or starts it at `at`, on the first line (whose text is in ``chain``):
    /// a session holding the trace's anchor is checked from the version before it.
    private mutating func start(at: Int64, line number: Int) throws {
        guard write == nil else { return }
        anchor = Self.eventID(chain, "first event")
        firstLine = number
        if let row = try core.sessionRow(key) {
            if let platform, platform != row.platform {
                throw StoreError.invalidImportFile(
                    reason:
                        "session '\(key)' follows \(row.platform.rawValue) rules (fixed when it started), not \(platform.rawValue) as --platform says; leave --platform out to import into it"
                )
            }
            write = try core.beginWrite(row)
            let record = try core.db.fetchOne(
                sql:
                    "SELECT first_lines, first_digest, lines, digest FROM trace_imports WHERE session_id = ? AND anchor = ?",
                arguments: [.integer(row.id), .text(anchor)]
            ).map { TraceRecord(firstLines: try $0[0], firstDigest: try $0[1], lines: try $0[2], digest: try $0[3]) }
            let found = try core.storedEvent(eventID: anchor)
            if found == nil, let lines = record?.lines {
                throw StoreError.invalidImport(
                    line: number,
                    reason:
                        "a trace beginning with this trace's first line was imported into session '\(key)' before (\(lines) lines, blank lines aside), and a truncation (session truncate) has removed its first event since: this trace cannot be checked against the session any more; import the lines that import did not read as a trace of their own, or this trace into another session"
                )
            }
            if let found {
                guard found.event.session.hasSameScalars(as: key) else {
                    throw StoreError.invalidImport(
                        line: number,
                        reason:
                            "the id of this trace's first event, \(anchor), is already stored in another session ('\(DisplayText.escaped(found.event.session, quote: "'"))')"
                    )
                }
                // The session was started by the import (its session.started holds the anchor),
                // or the anchor is the first event the trace made in it.
                let startedHere = found.event.version == 1 && found.event.type == "session.started"
                let before = startedHere ? 1 : found.event.version - 1
                let (state, _) = try core.state(of: row, atVersion: before, repairing: false)
                verified = (before, state)
                recorded = record
                if startedHere {
                    anchorLines = (callbacks, SHA256.hex(chain))
                    atFirstEvent = false
                    skipped += 1
                }
            }
            return
        }
        let generation = platform ?? .default
        let row = try core.createSession(key: key, name: nil, at: at, platform: generation)
        write = try core.beginWrite(row, state: SessionState())
        guard
            try core.appendEvent(.sessionStarted(name: nil, platform: generation), to: &write!, at: at, eventID: anchor)
                != nil
        else { throw StoreError.eventIDExists(anchor) }
        atFirstEvent = false
        anchorLines = (callbacks, SHA256.hex(chain))
        created = true
        imported += 1
    }

    /// Ends the import: the session's projection written, and in `trace_imports` the lines read
    /// and their digest, when they are more than an earlier import of the trace read.
    mutating func finish() throws -> TraceImportReport {
        if let write {
            try core.finishWrite(write)
            // Recorded when the lines are this trace's beyond doubt: its events were appended
            // (the log goes on with this trace), or an earlier record's lines were matched
            // and this import read more. An import that only found events it makes (a trace
            // whose record did not come along with an export) leaves the record alone: a
            // trace that differs in a line making no event would be taken for the original.
            if let anchorLines, callbacks > recorded?.lines ?? 0, imported > 0 || recorded != nil {
                try core.db.execute(
                    sql: """
                        INSERT INTO trace_imports (session_id, anchor, first_lines, first_digest, lines, digest)
                        VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (session_id, anchor) DO UPDATE SET lines = excluded.lines, digest = excluded.digest
                        """,
                    arguments: [
                        .integer(write.row.id), .text(anchor), SQLValue(anchorLines.lines), .text(anchorLines.digest),
                        SQLValue(callbacks), .text(SHA256.hex(chain)),
                    ])
            }
        }
        return TraceImportReport(
            session: key, created: created, callbacks: callbacks, imported: imported, skipped: skipped,
            version: write?.version ?? 0)
    }
}
