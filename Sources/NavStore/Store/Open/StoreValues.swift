/// How a store opens and writes its database.
public struct StoreOptions: Sendable {
    /// How long a writer waits for another writer's lock, in milliseconds, before it fails with
    /// ``StoreError/busy(path:milliseconds:cause:)``. Default 10,000. On SQLite a busy handler of the
    /// store's own (https://sqlite.org/c3ref/busy_handler.html) tries again every millisecond
    /// meanwhile, where `sqlite3_busy_timeout`'s sleeps up to 100 ms between tries and lets
    /// writers that commit back to back keep others out; `PRAGMA busy_timeout` therefore reads 0.
    /// SQLite only: on PostgreSQL a writer waits as the server lets it (the server's
    /// `lock_timeout`, unset by default).
    public var busyTimeoutMilliseconds: Int = 10_000
    /// A snapshot of a session's state is stored every this many events (<doc:StorageLayout>), so a
    /// historical state costs at most this many applies plus one indexed read. Default 64
    /// (see BENCHMARKS.md for the measurement behind it).
    ///
    /// A state deeper than this many entries stretches the interval for its own version to the
    /// smallest power-of-two multiple of it that is at least the state's entry count (see
    /// ``isSnapshotVersion(_:of:)``), so the bytes snapshots take per event stay bounded however
    /// deep the stack grows: storage is linear in the number of events.
    public var snapshotInterval: Int = 64

    /// Whether the state after `version` is stored as a snapshot: when `version` is a multiple of
    /// the interval for that state, ``snapshotInterval`` × 2^k for the smallest k ≥ 0 that makes it
    /// at least the state's entry count (all layers). Multiples of a longer interval are multiples
    /// of every shorter one, so a read never replays more than about twice the deepest state's
    /// entry count (or ``snapshotInterval``) events, each of which it has to copy anyway.
    /// - Parameters:
    ///   - version: the 1-based version the state follows.
    ///   - state: the state after that version.
    /// - Complexity: O(layers).
    public func isSnapshotVersion(_ version: Int, of state: SessionState) -> Bool {
        let base = max(1, snapshotInterval)
        let entries = state.layers.reduce(0) { $0 + $1.entries.count }
        var interval = base
        while interval < entries && interval <= Int.max / 2 { interval *= 2 }
        return version % interval == 0
    }
    /// Unacknowledged restore attempts after which `restore` falls back to an earlier,
    /// acknowledged state (crash-loop protection). Default 2.
    public var restoreAttemptLimit: Int = 2
    /// `PRAGMA synchronous` (https://sqlite.org/pragma.html#pragma_synchronous). Default `.full`:
    /// in WAL mode every commit is synced, so an acknowledged event survives a power loss; on Apple
    /// platforms, where an `fsync` leaves the data in the drive's cache, `.full` and `.extra` also
    /// set `PRAGMA fullfsync` and `checkpoint_fullfsync` (F_FULLFSYNC,
    /// https://sqlite.org/pragma.html#pragma_fullfsync), and `.normal` (a power loss may lose the
    /// last commits, never corrupts the file) sets `checkpoint_fullfsync`. `.off` syncs nothing: a
    /// power loss can corrupt the file.
    public var synchronous: Synchronous = .full

    /// `PRAGMA synchronous` levels.
    public enum Synchronous: String, Sendable { case off, normal, full, extra }

    /// The defaults above.
    public init() {}
}

/// The result of a writing command.
public struct AppendResult: Sendable, Hashable {
    /// The session key.
    public var session: String
    /// The session's version after the command (unchanged when nothing was appended).
    public var version: Int
    /// `ok`, or `vetoed` when a guard refused and the veto was recorded.
    public var outcome: CommandOutcome
    /// The appended event, or `nil` when the command changed nothing.
    public var event: Event?
    /// When the event was stamped without an explicit time while the wall clock was behind the
    /// session's previous event: the clock's reading (ms since the Unix epoch). The event got the
    /// previous event's time instead, since times never go backwards (<doc:Events>). `nil` otherwise.
    public var clockBehind: Int64? = nil
}

/// A session as ``NavigationStore/sessions()-4v78l`` lists it.
public struct SessionInfo: Sendable, Hashable, Codable {
    /// The session key (stream name).
    public var key: String
    /// The human name given at `session start`, if any.
    public var name: String?
    /// The version of the newest event.
    public var version: Int
    /// The number of layers (1 + presented modal stacks).
    public var layers: Int
    /// The number of live entries over all layers.
    public var depth: Int
    /// When the session started, in milliseconds since the Unix epoch.
    public var createdAt: Int64
    /// The time of the newest event, in milliseconds since the Unix epoch.
    public var updatedAt: Int64
    /// The generation of rules the session follows, fixed when it started (<doc:PlatformGenerations>).
    public var platform: PlatformGeneration
}

/// A point in a session's history: the state after `version`, or after the last event at or
/// before `time` (milliseconds since the Unix epoch).
public enum HistoryPoint: Sendable, Hashable {
    /// The state after the event with this 1-based version.
    case version(Int)
    /// The state after the last event at or before this time (ms since the Unix epoch).
    case time(Int64)
}

/// A session's state at a version, with the back button and menu it implies.
public struct VersionedState: Sendable, Hashable {
    /// The session key.
    public var session: String
    /// The version the state is after.
    public var version: Int
    /// The time of that version's event (ms since the Unix epoch), `nil` for version 0.
    public var at: Int64?
    /// The navigation state. Its ``SessionState/platform`` is the generation the label is
    /// resolved under: the session's own, or the one a what-if read asked for.
    public var state: SessionState
    /// The generation the session's log records (fixed at its start), whatever ``state`` is
    /// resolved under.
    public var recordedPlatform: PlatformGeneration
    /// The back button at this point (rules 1–5, under `state.platform`), or `nil`.
    public var backButton: BackButton? { state.backButton }
    /// The back menu at this point (rules 6–8), or `nil`.
    public var backMenu: [BackMenuRow]? { state.backMenu }
    /// Whether this is a what-if read: resolved under another generation than the recorded one.
    public var isWhatIf: Bool { state.platform != recordedPlatform }

    /// Creates a versioned state; `recordedPlatform` defaults to the state's own generation.
    public init(
        session: String, version: Int, at: Int64?, state: SessionState, recordedPlatform: PlatformGeneration? = nil
    ) {
        self.session = session
        self.version = version
        self.at = at
        self.state = state
        self.recordedPlatform = recordedPlatform ?? state.platform
    }

    /// The same point resolved under `platform` (a what-if read when it is not the recorded
    /// generation; `nil` keeps the state as it is). Nothing is written.
    public func resolved(under platform: PlatformGeneration?) -> VersionedState {
        guard let platform else { return self }
        var copy = self
        copy.state.platform = platform
        return copy
    }
}
