import NavStore

extension NavigationStore {
    /// Imports the tabs of a Firefox for Android session-restore file (`import --format
    /// firefox-session`), each as a session whose stack is the tab's history up to and including
    /// its current entry, in one `BEGIN IMMEDIATE` transaction.
    ///
    /// The file is the JSON Mozilla's android-components `browser-session-storage` writes
    /// (format version 1 with `selectedSessionIndex`, version 2 with `selectedTabId`):
    /// `sessionStateTuples[]` of `{"session": {"uuid", "title", "url", "lastAccess"},
    /// "engineSession": {"GECKO_STATE": "<JSON text>"}}`, where `GECKO_STATE` holds
    /// `history.entries[].{title, url}` and `history.index`, the 1-based current entry
    /// (https://github.com/mozilla-mobile/android-components, `RestoringBrowsingSessionsTest.kt`).
    ///
    /// Each tab becomes the session keyed by its `uuid` and named by its title: `session.started`,
    /// then one `entry.pushed` per history entry from the first to the current one, with ids
    /// `"1"`, `"2"`, ... by position, the entry's `title` exactly as in the file (`""` stays `""`,
    /// an absent title is `nil` and shows as "Back" in the back menu) and its `url` as `route`.
    /// A tab without engine state (`"engineSession": {}`) is the single entry of its session's
    /// `url` and `title`. Every event of a tab is timed at the tab's `lastAccess` (ms since the
    /// Unix epoch) when it is present and positive, else at `at`, or now.
    ///
    /// A tab whose session exists (an earlier file of the same tabs) is brought up to date; the
    /// session's events are kept and counted as skipped. When its stack already equals the tab's
    /// history nothing is appended; otherwise the entries above the longest common bottom part are popped
    /// (`entries.popped`, programmatic) and the tab's further pages pushed, or, when even the
    /// first page differs, the stack is replaced (`stack.replaced`). These events are timed at the
    /// tab's `lastAccess` (never before the session's last event). A file whose `lastAccess` is
    /// before the session's last event is older than what was imported: that tab is refused.
    /// The session's name stays the one of its first import.
    ///
    /// Event ids are derived from SHA-256 of the tab's uuid, the version and the event's type and
    /// payload (formatted as a version 8 UUID), so two databases importing the same files in the
    /// same order hold the same ids, and importing the same file twice is a no-op. A session that
    /// holds an event with another id (one a Firefox import did not write) is refused, except a
    /// `session.restored` marker (`restore --mark`), which changes no state: the re-import
    /// continues after it.
    ///
    /// - Parameters:
    ///   - data: the file's bytes (UTF-8 JSON).
    ///   - at: the time of tabs without a `lastAccess`, in ms since the Unix epoch; now when `nil`.
    /// - Returns: the tabs (sessions), events imported and events skipped.
    /// - Throws: ``StoreError/invalidImportFile(reason:)`` for a file that is not such JSON (with
    ///   the decoding path) or an unsupported format version, and naming the tab (position, title
    ///   and uuid) for a tab that cannot be imported: bad `GECKO_STATE`, a current index outside
    ///   its history, a uuid an earlier tab of the file has (naming both tabs), a session holding events no Firefox import wrote, a file older than the
    ///   session, on PostgreSQL a uuid, title or url holding U+0000, which its text cannot store;
    ///   database errors. Nothing is written when it throws.
    @discardableResult
    public func importFirefoxSession(data: some Collection<UInt8>, at: Int64? = nil) throws(StoreError) -> ImportReport
    {
        try importFirefoxTabs(try FirefoxSessionFile.tabs(from: Data(data)), at: at)
    }

    /// Imports tabs read by ``FirefoxSessionFile/tabs(from:)``, as ``importFirefoxSession(data:at:)``.
    func importFirefoxTabs(_ tabs: [FirefoxTab], at: Int64?) throws(StoreError) -> ImportReport {
        let fallbackTime = at ?? Timestamp.now()
        return try withCore { core in
            try core.db.inTransaction(.write) {
                var importer = EventImporter(core: core)
                for tab in tabs {
                    do {
                        try tab.add(to: &importer, fallbackTime: fallbackTime)
                        // Its pages stay on the stack: refused now, so the message names the tab.
                        try importer.checkLiveEntries(session: tab.uuid)
                    } catch StoreError.invalidImport(_, let reason) {
                        throw StoreError.invalidImportFile(reason: "\(tab.label): \(reason)")
                    } catch StoreError.eventIDConflict(_, let eventID) {
                        throw StoreError.invalidImportFile(
                            reason: "\(tab.label): event id \(eventID) is already stored with different content")
                    }
                }
                return try importer.finish()
            }
        }
    }
}

/// One tab of a Firefox session-restore file, reduced to what is imported.
struct FirefoxTab {
    /// The 1-based position of the tab in `sessionStateTuples`.
    var position: Int
    /// `session.uuid`: the session key.
    var uuid: String
    /// `session.title`: the session name.
    var title: String?
    /// `session.lastAccess` when present and positive (ms since the Unix epoch).
    var lastAccess: Int64?
    /// The history from the first entry to the current one, as (title, url).
    var stack: [(title: String?, url: String?)]

    /// How errors name the tab: its position, title and uuid.
    var label: String {
        "tab \(position)" + (title.map { " '\($0)'" } ?? "") + " (uuid '\(uuid)')"
    }

    /// The tab's history as entries: ids `"1"`, `"2"`, ... by position, titles and urls as routes.
    var entries: [Entry] {
        stack.enumerated().map { index, page in
            Entry(id: String(index + 1), route: page.url, item: NavigationItem(title: page.title))
        }
    }

    /// The tab's events for a new session, in order, with their deterministic ids.
    func events(at time: Int64) -> [Event] {
        let bodies: [EventBody] = [.sessionStarted(name: title)] + entries.map { .entryPushed($0) }
        return bodies.enumerated().map { offset, body in event(body, version: offset + 1, at: time) }
    }

    /// `body` as version `version` of the tab's session, under its deterministic id.
    func event(_ body: EventBody, version: Int, at time: Int64) -> Event {
        Event(
            session: uuid, version: version, at: time, eventID: Self.eventID(tab: uuid, version: version, body: body),
            body: body)
    }

    /// SHA-256 of `navstore.firefox-session`, the tab uuid, the version, the type and the payload
    /// (NUL-separated), its first 16 bytes as a version 8 UUID (RFC 9562 §5.8).
    static func eventID(tab: String, version: Int, body: EventBody) -> String {
        let payload = PayloadWriter.json(body)
        var hasher = SHA256()
        for part in ["navstore.firefox-session", tab, String(version), body.type, payload] {
            hasher.update(part.utf8)
            hasher.update(CollectionOfOne(0))
        }
        return SHA256.uuidVersion8(hasher.finalize())
    }

    /// The events that take `stored` (the session's base stack) to the tab's history: none when
    /// equal; pops above the longest common bottom part, then pushes of the tab's further pages;
    /// or, when the first page differs, one `stack.replaced`.
    func bodies(from stored: [Entry]) -> [EventBody] {
        let wanted = entries
        // Exactly, not `==`: a title changed to a canonically equivalent spelling is a change.
        guard stored.count != wanted.count || !zip(stored, wanted).allSatisfy({ $0.isExactly($1) }) else { return [] }
        let common = zip(stored, wanted).prefix { $0.isExactly($1) }.count
        guard common > 0 else { return [.stackReplaced(wanted)] }
        var bodies: [EventBody] = []
        if stored.count > common {
            bodies.append(.entriesPopped(source: .programmatic, ids: stored[common...].map(\.id), confirmed: false))
        }
        bodies += wanted[common...].map { .entryPushed($0) }
        return bodies
    }

    /// Adds the tab: a new session with its whole history, or the events that bring an existing
    /// session up to date (see ``NavigationStore/importFirefoxSession(data:at:)``).
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` (the caller names the tab) when the
    ///   session holds events no Firefox import wrote, or the file is older than the session.
    func add(to importer: inout EventImporter, fallbackTime: Int64) throws {
        guard let session = try importer.existingSession(uuid) else {
            for event in events(at: lastAccess ?? fallbackTime) { try importer.add(event, line: 0) }
            return
        }
        var foreign: Event?
        try importer.core.streamEvents(session: session.row, filter: EventFilter()) { event in
            // A restart marker (`restore --mark`) changes no state: re-imports continue after it.
            if case .sessionRestored = event.body { return }
            if foreign == nil, event.eventID != Self.eventID(tab: uuid, version: event.version, body: event.body) {
                foreign = event
            }
        }
        if let foreign {
            throw StoreError.invalidImport(
                line: 0,
                reason:
                    "session '\(uuid)' holds events no Firefox session import wrote (version \(foreign.version), \(foreign.type)), so the tab cannot be brought up to date from this file"
            )
        }
        let stored = session.state.layers.count == 1 ? session.state.layers[0].entries : []
        let bodies = bodies(from: stored)
        if bodies.isEmpty {
            importer.skip(uuid, events: session.version)
            return
        }
        if let lastAccess, lastAccess < session.lastAt {
            throw StoreError.invalidImport(
                line: 0,
                reason:
                    "the tab's history in this file differs from the session imported before at version \(session.version), and this file is older: its lastAccess \(Timestamp.format(lastAccess)) is before the session's last event at \(Timestamp.format(session.lastAt))"
            )
        }
        // The session's events stay as they are: counted as skipped, as for an unchanged tab.
        importer.skip(uuid, events: session.version)
        let time = max(lastAccess ?? fallbackTime, session.lastAt)
        for (offset, body) in bodies.enumerated() {
            try importer.add(event(body, version: session.version + offset + 1, at: time), line: 0)
        }
    }
}

/// The JSON of a Firefox for Android session-restore file (formats 1 and 2).
struct FirefoxSessionFile: Decodable {
    var version: Int
    var selectedSessionIndex: Int?
    var selectedTabId: String?
    var sessionStateTuples: [Tuple]

    struct Tuple: Decodable {
        var session: Session
        var engineSession: EngineSession?
    }

    struct Session: Decodable {
        var uuid: String
        var title: String?
        var url: String?
        var lastAccess: Int64?
        /// Why `lastAccess` is not a time the store can keep, when it is not (the caller names the tab).
        var lastAccessProblem: String?

        private enum CodingKeys: String, CodingKey { case uuid, title, url, lastAccess }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            uuid = try c.decode(String.self, forKey: .uuid)
            title = try c.decodeIfPresent(String.self, forKey: .title)
            url = try c.decodeIfPresent(String.self, forKey: .url)
            if let whole = try? c.decodeIfPresent(Int64.self, forKey: .lastAccess) {
                lastAccess = whole
            } else if let number = try c.decodeIfPresent(Double.self, forKey: .lastAccess) {
                // A number with a fraction or an exponent: rounded to a whole millisecond, and
                // checked, since `Int64(_:)` traps on a value outside its range (1e19, 1e300).
                if let whole = Int64(exactly: number.rounded()) {
                    lastAccess = whole
                } else {
                    lastAccessProblem =
                        "lastAccess \(number) is not a time in ms since the Unix epoch (accepted: a whole number within \(Timestamp.earliest)...\(Timestamp.latest), years 0000-9999)"
                }
            }
            if let lastAccess, lastAccess > 0, !Timestamp.accepted.contains(lastAccess) {
                lastAccessProblem =
                    "lastAccess \(lastAccess) is not a time in ms since the Unix epoch (accepted: \(Timestamp.earliest)...\(Timestamp.latest), years 0000-9999)"
            }
        }
    }

    /// `engineSession`: `GECKO_STATE` as JSON text (as Fenix writes it) or as an object.
    struct EngineSession: Decodable {
        var geckoState: GeckoState?
        /// Why `GECKO_STATE` could not be read, if it could not.
        var geckoStateError: String?

        private enum CodingKeys: String, CodingKey { case geckoState = "GECKO_STATE" }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard c.contains(.geckoState), try !c.decodeNil(forKey: .geckoState) else { return }
            if let text = try? c.decode(String.self, forKey: .geckoState) {
                if let problem = FirefoxSessionFile.check.problem(in: text) {
                    geckoStateError = "its GECKO_STATE text cannot be read: \(problem)"
                    return
                }
                do {
                    geckoState = try JSONDecoder().decode(GeckoState.self, from: Data(text.utf8))
                } catch {
                    geckoStateError = "its GECKO_STATE text is not the expected JSON: \(describeDecodingError(error))"
                }
            } else {
                geckoState = try c.decode(GeckoState.self, forKey: .geckoState)
            }
        }
    }

    struct GeckoState: Decodable {
        var history: History?
    }

    struct History: Decodable {
        var entries: [HistoryEntry]
        var index: Int?
    }

    struct HistoryEntry: Decodable {
        var title: String?
        var url: String?
    }

    /// The nesting a session file may have (its own format needs about ten levels): deeper JSON
    /// is refused before decoding, with that reason. Numbers and keys are left to the reader
    /// (`lastAccess` is checked where it is read).
    static let check = JSONTextCheck(maximumDepth: JSONValue.maximumDepth, exactNumbers: false, uniqueKeys: false)

    /// The tabs of the file in `data`.
    /// - Throws: ``StoreError/invalidImportFile(reason:)`` when it is not such a file, or a tab's
    ///   history cannot be read.
    static func tabs(from data: Data) throws(StoreError) -> [FirefoxTab] {
        let file: FirefoxSessionFile
        if let problem = data.withUnsafeBytes({ check.problem(in: $0.bindMemory(to: UInt8.self)) }) {
            throw .invalidImportFile(reason: "not a Firefox for Android session-restore file: \(problem)")
        }
        do {
            file = try JSONDecoder().decode(FirefoxSessionFile.self, from: data)
        } catch {
            throw .invalidImportFile(
                reason: "not a Firefox for Android session-restore file: \(describeDecodingError(error))")
        }
        guard file.version == 1 || file.version == 2 else {
            throw .invalidImportFile(
                reason: "Firefox session-restore format version \(file.version) is not supported (accepted: 1, 2)")
        }
        var tabs: [FirefoxTab] = []
        // Tab indexes by uuid, compared by bytes as session keys are: a uuid listed twice would
        // be imported, then counted as already stored, in the same run.
        var byUUID: [[UInt8]: Int] = [:]
        for (offset, tuple) in file.sessionStateTuples.enumerated() {
            let session = tuple.session
            var tab = FirefoxTab(
                position: offset + 1, uuid: session.uuid, title: session.title,
                lastAccess: session.lastAccess.flatMap { $0 > 0 ? $0 : nil }, stack: [])
            if let problem = session.lastAccessProblem {
                throw .invalidImportFile(reason: "\(tab.label): \(problem)")
            }
            if let problem = tuple.engineSession?.geckoStateError {
                throw .invalidImportFile(reason: "\(tab.label): \(problem)")
            }
            if let history = tuple.engineSession?.geckoState?.history, !history.entries.isEmpty {
                let current = history.index ?? history.entries.count
                guard current >= 1, current <= history.entries.count else {
                    throw .invalidImportFile(
                        reason:
                            "\(tab.label): history.index \(current) is outside its \(history.entries.count) entries (accepted: 1...\(history.entries.count), 1-based)"
                    )
                }
                tab.stack = history.entries.prefix(current).map { ($0.title, $0.url) }
            } else {
                tab.stack = [(session.title, session.url)]
            }
            guard !tab.uuid.isEmpty else { throw .invalidImportFile(reason: "\(tab.label): the tab has an empty uuid") }
            if let earlier = byUUID.updateValue(tabs.count, forKey: Array(tab.uuid.utf8)) {
                throw .invalidImportFile(
                    reason:
                        "\(tab.label): \(tabs[earlier].label) has the same uuid; a session-restore file lists each tab once"
                )
            }
            tabs.append(tab)
        }
        return tabs
    }
}
