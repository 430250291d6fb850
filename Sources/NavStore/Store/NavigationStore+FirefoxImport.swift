#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// Unix epoch) when it is present and positive, else at `at`, or now; a tab imported before
    /// without a `lastAccess` keeps the time it was given then.
    ///
    /// Event ids are derived from SHA-256 of the tab's uuid, the version and the event's type and
    /// payload (formatted as a version 8 UUID), so importing the same file twice is a no-op
    /// (everything skipped), and a newer file of the same tabs appends only the entries pushed
    /// since. A tab whose session already holds other events is an error.
    ///
    /// - Parameters:
    ///   - data: the file's bytes (UTF-8 JSON).
    ///   - at: the time of tabs without a `lastAccess`, in ms since the Unix epoch; now when `nil`.
    /// - Returns: the tabs (sessions), events imported and events skipped.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` with line 1 for a file that is not such
    ///   JSON (with the decoding path) or an unsupported format version, and naming the tab for a
    ///   tab that cannot be imported (bad `GECKO_STATE`, a current index outside its history, a
    ///   session that holds other events); ``StoreError/eventIDConflict(line:eventID:)``; database
    ///   errors. Nothing is written when it throws.
    @discardableResult
    public func importFirefoxSession(data: some Collection<UInt8>, at: Int64? = nil) throws(StoreError) -> ImportReport {
        let tabs = try FirefoxSessionFile.tabs(from: Data(data))
        let fallbackTime = at ?? Timestamp.now()
        return try withCore { core in
            try core.db.transaction(.immediate) {
                var importer = EventImporter(core: core)
                for tab in tabs {
                    do {
                        try tab.add(to: &importer, fallbackTime: fallbackTime)
                    } catch StoreError.invalidImport(_, let reason) {
                        throw StoreError.invalidImport(line: 1, reason: "\(tab.label): \(reason)")
                    } catch StoreError.eventIDConflict(_, let eventID) {
                        throw StoreError.eventIDConflict(line: 1, eventID: eventID)
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

    /// How errors name the tab.
    var label: String { "tab \(position) ('\(uuid)')" }

    /// The tab's events in order, with their deterministic ids; `at` is set by the caller.
    func events(at time: Int64) -> [Event] {
        var bodies: [EventBody] = [.sessionStarted(name: title)]
        for (index, page) in stack.enumerated() {
            bodies.append(.entryPushed(Entry(id: String(index + 1), route: page.url, item: NavigationItem(title: page.title))))
        }
        return bodies.enumerated().map { offset, body in
            Event(session: uuid, version: offset + 1, at: time, eventID: Self.eventID(tab: uuid, version: offset + 1, body: body), body: body)
        }
    }

    /// SHA-256 of `navstore.firefox-session`, the tab uuid, the version, the type and the payload
    /// (NUL-separated), its first 16 bytes as a version 8 UUID (RFC 9562 §5.8).
    static func eventID(tab: String, version: Int, body: EventBody) -> String {
        let payload = PayloadWriter.json(body) ?? ((try? body.payloadJSON()) ?? "")
        var hasher = SHA256()
        for part in ["navstore.firefox-session", tab, String(version), body.type, payload] {
            hasher.update(part.utf8)
            hasher.update(CollectionOfOne(0))
        }
        var octets = Array(hasher.finalize().prefix(16))
        octets[6] = 0x80 | (octets[6] & 0x0F)
        octets[8] = 0x80 | (octets[8] & 0x3F)
        return EventIDGenerator.uuidText(octets)
    }

    /// Adds the tab's events; a tab already imported is skipped event by event.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` when its session holds other events.
    func add(to importer: inout EventImporter, fallbackTime: Int64) throws {
        var time = fallbackTime
        if let lastAccess {
            time = lastAccess
        } else if let createdAt = try importer.createdAt(of: uuid) {
            time = createdAt
        }
        let events = events(at: time)
        for event in events { try importer.add(event, line: 1) }
        if let version = try importer.version(of: uuid), version != events.count {
            throw StoreError.invalidImport(line: 1, reason: "session '\(uuid)' already holds \(version) events, not the \(events.count) this tab describes (it changed after an earlier import)")
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

        private enum CodingKeys: String, CodingKey { case uuid, title, url, lastAccess }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            uuid = try c.decode(String.self, forKey: .uuid)
            title = try c.decodeIfPresent(String.self, forKey: .title)
            url = try c.decodeIfPresent(String.self, forKey: .url)
            if let whole = try? c.decodeIfPresent(Int64.self, forKey: .lastAccess) {
                lastAccess = whole
            } else {
                lastAccess = try c.decodeIfPresent(Double.self, forKey: .lastAccess).map { Int64($0.rounded()) }
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

    /// The tabs of the file in `data`.
    /// - Throws: ``StoreError/invalidImport(line:reason:)`` (line 1) when it is not such a file,
    ///   or a tab's history cannot be read.
    static func tabs(from data: Data) throws(StoreError) -> [FirefoxTab] {
        let file: FirefoxSessionFile
        do {
            file = try JSONDecoder().decode(FirefoxSessionFile.self, from: data)
        } catch {
            throw .invalidImport(line: 1, reason: "not a Firefox for Android session-restore file: \(describeDecodingError(error))")
        }
        guard file.version == 1 || file.version == 2 else {
            throw .invalidImport(line: 1, reason: "Firefox session-restore format version \(file.version) is not supported (accepted: 1, 2)")
        }
        var tabs: [FirefoxTab] = []
        for (offset, tuple) in file.sessionStateTuples.enumerated() {
            let session = tuple.session
            var tab = FirefoxTab(position: offset + 1, uuid: session.uuid, title: session.title,
                                 lastAccess: session.lastAccess.flatMap { $0 > 0 ? $0 : nil }, stack: [])
            if let problem = tuple.engineSession?.geckoStateError {
                throw .invalidImport(line: 1, reason: "\(tab.label): \(problem)")
            }
            if let history = tuple.engineSession?.geckoState?.history, !history.entries.isEmpty {
                let current = history.index ?? history.entries.count
                guard current >= 1, current <= history.entries.count else {
                    throw .invalidImport(line: 1, reason: "\(tab.label): history.index \(current) is outside its \(history.entries.count) entries (accepted: 1...\(history.entries.count), 1-based)")
                }
                tab.stack = history.entries.prefix(current).map { ($0.title, $0.url) }
            } else {
                tab.stack = [(session.title, session.url)]
            }
            guard !tab.uuid.isEmpty else { throw .invalidImport(line: 1, reason: "\(tab.label): the tab has an empty uuid") }
            tabs.append(tab)
        }
        return tabs
    }
}
