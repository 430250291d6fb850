/// The base of a truncated session (<doc:Retention>): the state after ``version`` is kept, the events
/// up to and including that version were deleted, and the session's log goes on at
/// `version + 1`.
public struct SessionBase: Sendable, Hashable {
    /// The session key.
    public var session: String
    /// The 1-based version whose state is kept; its event and every earlier one are gone.
    public var version: Int
    /// The time of that version's event, in milliseconds since the Unix epoch.
    public var at: Int64
    /// That version's event id (kept so that continuation checks and imports can link the
    /// first remaining event to it; an id carries no text of the user's).
    public var eventID: String
    /// The state after ``version``.
    public var state: SessionState
    /// When the truncation happened, in milliseconds since the Unix epoch.
    public var truncatedAt: Int64
    /// The session's name (given at `session start`; its `session.started` event is gone).
    public var name: String?
    /// When the session started, in milliseconds since the Unix epoch.
    public var startedAt: Int64

    /// The NDJSON record type of a base, the first line of a truncated session in `export`,
    /// `history --json` and `import`.
    public static let recordType = "session.truncated"

    /// Creates a base.
    public init(
        session: String, version: Int, at: Int64, eventID: String, state: SessionState, truncatedAt: Int64,
        name: String? = nil, startedAt: Int64 = 0
    ) {
        self.session = session
        self.version = version
        self.at = at
        self.eventID = eventID
        self.state = state
        self.truncatedAt = truncatedAt
        self.name = name
        self.startedAt = startedAt
    }

    /// The base as one NDJSON record, shaped as an event's (``EventRecord``) so that a reader of
    /// `export` meets it as the session's first line: `{"at","eventID","payload","session","time",
    /// "type":"session.truncated","version"}` with no `seq` (it is not an event of the log), where
    /// `version`, `at` and `eventID` are the base version's and `payload` is
    /// `{"name","startedAt","state":{"layers":[...]},"truncatedAt"}` (`name` null when unset,
    /// times in ms since the Unix epoch, `state` as in snapshots). `NavigationStore.importNDJSON(lines:progress:)` (NavStoreTools)
    /// reads it back.
    /// - Throws: `EncodingError` only for params values JSON cannot hold.
    public func record() throws -> EventRecord {
        let stateText = PayloadWriter.json(state)
        let stateValue = try JSONDecoder().decode(JSONValue.self, from: Data(stateText.utf8))
        return EventRecord(
            seq: nil, session: session, version: version, type: Self.recordType, at: at, time: Timestamp.format(at),
            eventID: eventID,
            payload: .object([
                "name": name.map { .string($0) } ?? .null, "startedAt": .integer(startedAt),
                "state": stateValue, "truncatedAt": .integer(truncatedAt),
            ]))
    }

    /// The base a ``record()`` describes; its state must pass ``SessionState/validateWhole()``
    /// (a state the commands can build), so a base is checked as a `set-stack` is. A key that is
    /// none of the record's, at any depth, is refused.
    /// - Throws: ``NavigationError/invalidEvent(_:)`` naming what is missing or wrong.
    public init(record: EventRecord) throws(NavigationError) {
        guard record.type == Self.recordType else {
            throw .invalidEvent("a \(record.type) record is not a base (\(Self.recordType))")
        }
        guard case .object(let payload) = record.payload else {
            throw .invalidEvent("bad \(Self.recordType) payload: not an object")
        }
        let known = ["name", "startedAt", "state", "truncatedAt"]
        if let unknown = payload.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).first(where: {
            !known.contains($0)
        }) {
            throw .invalidEvent(
                "bad \(Self.recordType) payload: unknown key '\(unknown)' (known: \(known.joined(separator: ", ")))")
        }
        guard let stateValue = payload["state"], case .integer(let truncatedAt)? = payload["truncatedAt"],
            case .integer(let startedAt)? = payload["startedAt"]
        else {
            throw .invalidEvent("bad \(Self.recordType) payload: it needs state, startedAt and truncatedAt")
        }
        let name: String?
        switch payload["name"] {
        case nil, .null?: name = nil
        case .string(let text)?: name = text
        default: throw .invalidEvent("bad \(Self.recordType) payload: name is neither a string nor null")
        }
        guard record.version >= 1 else {
            throw .invalidEvent("bad \(Self.recordType): version \(record.version) is not 1 or more")
        }
        let state: SessionState
        do {
            state = try JSONDecoder().decode(SessionState.self, from: JSONEncoder().encode(stateValue))
        } catch {
            throw .invalidEvent(
                "bad \(Self.recordType) payload: state is not a session state (\(describeDecodingError(error)))")
        }
        // Decoding makes an empty `layers` one empty base layer: refused here, as given.
        if case .object(let fields) = stateValue, case .array(let layers)? = fields["layers"], layers.isEmpty {
            throw .invalidEvent("bad \(Self.recordType) payload: state has no layers; it has at least its base layer")
        }
        do throws(NavigationError) { try state.validateWhole() } catch {
            guard case .invalidEvent(let reason) = error else { throw error }
            throw .invalidEvent("bad \(Self.recordType) payload: state: \(reason)")
        }
        self.init(
            session: record.session, version: record.version, at: record.at, eventID: record.eventID, state: state,
            truncatedAt: truncatedAt, name: name, startedAt: startedAt)
    }
}

/// One session a retention command removed, or truncated, or (with a dry run) would.
public struct RemovedSession: Sendable, Hashable, Codable {
    /// The session key.
    public var key: String
    /// The events removed (the whole log, or the events below the new base).
    public var events: Int
    /// The bytes of row content removed: the text of events, snapshots, projection rows and
    /// base, plus 8 per number; SQLite's page overhead is not counted, so the file shrinks by
    /// about this much after a vacuum.
    public var bytes: Int
    /// The session's version (its newest event), in 1-based versions.
    public var version: Int
    /// The time of the session's newest event, in milliseconds since the Unix epoch.
    public var updatedAt: Int64
    /// The session's base version (1-based): for a truncation the new one, for a deletion the one
    /// an earlier truncation left; `nil` for a session that was never truncated.
    public var baseVersion: Int?
}

/// What ``NavigationStore/deleteSession(_:expectedVersion:dryRun:vacuum:)``,
/// ``NavigationStore/prune(before:dryRun:vacuum:)`` and
/// ``NavigationStore/truncateSession(_:before:expectedVersion:vacuum:)`` did.
public struct RetentionReport: Sendable, Hashable, Codable {
    /// The sessions removed or truncated (or that would be, with `dryRun`), ordered by key.
    public var sessions: [RemovedSession]
    /// The events removed, over all sessions.
    public var events: Int
    /// The bytes of row content removed, over all sessions (see ``RemovedSession/bytes``).
    public var bytes: Int
    /// Nothing was changed: the report says what would go.
    public var dryRun: Bool
    /// The write-ahead log was checkpointed and truncated to 0 bytes after the deleting
    /// transaction (<doc:Retention>), so no deleted byte remains in it. `false` when another
    /// connection was reading an older snapshot, or writing, and the checkpoint could not run
    /// within the busy timeout (the deletion itself is committed; any later retention call,
    /// ``NavigationStore/vacuum()`` for one, finishes it), and for a dry run.
    public var walTruncated: Bool
    /// The bytes of the file that no row uses were zeroed after the deletion (<doc:Retention>:
    /// B-tree rebalancing leaves old copies of moved rows there), so no deleted byte remains in
    /// the file; also `true` when the call removed nothing, when the file was vacuumed (every page
    /// rewritten), and on a backend that manages its own files (PostgreSQL). `false` when the
    /// pass could not run: after a blocked checkpoint (``walTruncated`` is `false`), or when
    /// another connection kept it from taking the write lock with the log empty within the busy
    /// timeout (the next call that removes something, or ``NavigationStore/vacuum()``, does it),
    /// and for a dry run.
    public var freeSpaceZeroed: Bool
    /// The file was vacuumed (`VACUUM`, https://sqlite.org/lang_vacuum.html) and shrank.
    public var vacuumed: Bool
    /// With ``vacuumed``: the bytes the database took before the vacuum and after it (and the
    /// -wal's truncation); `nil` without a vacuum, or when the backend could not measure them.
    public var storage: StorageChange? = nil
}

/// What a vacuum gave back: the bytes the database took before and after it, as its backend
/// measures them (``Measured``).
public struct StorageChange: Sendable, Hashable, Codable {
    /// What the bytes count.
    public enum Measured: String, Sendable, Hashable, Codable {
        /// SQLite: the database file and its -wal (the -shm is an index in shared memory,
        /// rebuilt at will).
        case sqliteFile
        /// PostgreSQL: NavStore's tables in the schema with their indexes and TOAST
        /// (`pg_total_relation_size`). The server's own files and write-ahead log are not counted,
        /// and `VACUUM` gives back only the free pages at a table's end: the rest of the deleted
        /// rows' space is kept for the table's later rows.
        case postgresqlTables
    }

    /// The bytes before the vacuum.
    public var before: Int64
    /// The bytes after it.
    public var after: Int64
    /// What ``before`` and ``after`` count.
    public var measured: Measured

    /// Creates a measurement.
    public init(before: Int64, after: Int64, measured: Measured) {
        self.before = before
        self.after = after
        self.measured = measured
    }

    /// ``before`` minus ``after``: the bytes given back (negative when the database grew).
    public var reclaimed: Int64 { before - after }
}
