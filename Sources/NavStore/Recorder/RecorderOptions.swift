/// How a ``NavigationRecorder`` records (<doc:Recording>).
public struct RecorderOptions: Sendable {
    /// The platform generation of the sessions the recorder starts (a session it has not seen is
    /// started by its first call, <doc:PlatformGenerations>); a session that exists keeps its own.
    /// Default ``PlatformGeneration/ios14``.
    public var platform: PlatformGeneration = .default
    /// How many calls (``NavigationRecorder/record(_:session:)`` and
    /// ``NavigationRecorder/observe(_:session:)``) wait for the writer at most. A call that finds
    /// the queue full is dropped, never waited for: the queue keeps the older calls, the newer
    /// ones are counted, and the count goes into the log as a `calls.dropped` event of that
    /// session at the place of the first one dropped (``RecorderFailure/dropped(session:count:)``
    /// reports it too). Default 4,096; the recorder takes it within ``queueCapacityRange``
    /// (1 to 1,048,576), a value outside as the nearest bound.
    public var queueCapacity: Int = 4_096
    /// How the store opens and writes (busy timeout, snapshot interval, `synchronous`). Default
    /// ``defaultStore``: the store's defaults but `synchronous` ``StoreOptions/Synchronous/normal``.
    public var store: StoreOptions = RecorderOptions.defaultStore

    /// The recorder's store options by default: ``StoreOptions``'s, with `synchronous` at
    /// ``StoreOptions/Synchronous/normal``. A commit is then not synced (on Apple platforms a
    /// `full` commit costs a drive-cache flush, `F_FULLFSYNC`, per navigation burst); the log is
    /// synced when ``NavigationRecorder/flush()`` is called, which an app does on going to the
    /// background, so that everything flushed survives a power loss too. Between flushes, an
    /// app's crash loses nothing committed; a power loss or an operating-system crash may lose the
    /// commits since the last flush, and never corrupts the file (<doc:Recording>, "What a crash
    /// or a power loss costs"). Set `store.synchronous = .full` to sync every commit.
    public static var defaultStore: StoreOptions {
        var options = StoreOptions()
        options.synchronous = .normal
        return options
    }
    /// How long the writer waits before it tries again after the store could not be opened or a
    /// write failed, in milliseconds; the wait doubles after each failure in a row, up to 32
    /// times this, and a ``NavigationRecorder/flush()`` cuts it short. Default 1,000; the
    /// recorder takes it within ``intervalRange`` (1 to 60,000), a value outside as the nearest
    /// bound.
    public var retryIntervalMilliseconds: Int = 1_000
    /// How often a live ``NavigationRecorder/events(session:from:)`` sequence checks for commits
    /// of other writers (another process, another recorder), in milliseconds: one
    /// `PRAGMA data_version` per check. This recorder's own commits wake it at once. While
    /// nothing new comes, each check waits twice as long as the one before, up to a second, and
    /// the interval starts again after the next event. Default 50;
    /// taken within ``intervalRange`` (1 to 60,000), a value outside as the nearest bound.
    public var pollIntervalMilliseconds: Int = 50
    /// Whether live ``NavigationRecorder/events(session:from:)`` sequences look for the commits of
    /// writers other than this recorder (another process, another recorder, a
    /// ``NavigationStore`` of this process) every ``pollIntervalMilliseconds``, backing off to
    /// once a second while idle. Default `true`. With `false` a live sequence is woken by this
    /// recorder's commits alone: an idle one makes no wake-up at all, for an app whose database
    /// no one else writes while it reads it live (an in-app overlay, say).
    public var watchesOtherWriters = true

    /// The queue capacities a recorder takes: 1 to 1,048,576 calls (about 100 bytes each, so at
    /// most about 100 MB waiting), so that a huge value cannot make the app allocate past its
    /// memory.
    public static let queueCapacityRange = 1...1_048_576
    /// The retry and poll intervals a recorder takes, in milliseconds: 1 ms to a minute (a retry
    /// waits at most 32 times that), so that no wait overflows a clock.
    public static let intervalRange = 1...60_000

    /// These options with every number within its range (``queueCapacityRange``,
    /// ``intervalRange``): what ``NavigationRecorder/init(path:options:)`` uses.
    public var clamped: RecorderOptions {
        var options = self
        options.queueCapacity = Self.queueCapacityRange.clamping(queueCapacity)
        options.retryIntervalMilliseconds = Self.intervalRange.clamping(retryIntervalMilliseconds)
        options.pollIntervalMilliseconds = Self.intervalRange.clamping(pollIntervalMilliseconds)
        return options
    }

    /// The defaults above.
    public init() {}

    /// Options with the given values; the others are the defaults.
    public init(platform: PlatformGeneration = .default, queueCapacity: Int = 4_096) {
        self.platform = platform
        self.queueCapacity = queueCapacity
    }
}

/// What went wrong while recording (``NavigationRecorder/failures``). Recording goes on after
/// each: the host app is never stopped by the recorder.
public enum RecorderFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rules refused a recorded command (``SessionState/decide(_:)``); nothing was appended
    /// for it.
    case refused(session: String, command: NavigationCommand, NavigationError)
    /// The observer could not follow a callback (``ObservationError``); nothing was appended
    /// for it, and the next `didShow` brings the log back to what UIKit shows.
    case unobservable(session: String, callback: NavigationCallback, ObservationError)
    /// The store could not be opened or written (a missing folder, a file that is not a NavStore
    /// database, a full disk, a file protected while the device is locked): the calls stay
    /// queued and the writer tries again (``RecorderOptions/retryIntervalMilliseconds``).
    case store(StoreError)
    /// A command could not be stored and was given up (a value the database cannot hold): the
    /// store's error.
    case notStored(session: String, StoreError)
    /// `count` calls for `session` found the queue full and were dropped; a `calls.dropped`
    /// event records them in the log.
    case dropped(session: String, count: Int)

    /// A one-line message naming the session and what went wrong.
    public var description: String {
        switch self {
        case .refused(let session, _, let error): "session '\(session)': command refused: \(error)"
        case .unobservable(let session, let callback, let error):
            "session '\(session)': \(callback.name) not followed: \(error)"
        case .store(let error): "store: \(error)"
        case .notStored(let session, let error): "session '\(session)': not stored: \(error)"
        case .dropped(let session, let count):
            "session '\(session)': \(count) call\(count == 1 ? "" : "s") dropped: the recorder's queue was full"
        }
    }
}

extension ClosedRange where Bound == Int {
    /// `value`, or the nearest bound when it lies outside.
    fileprivate func clamping(_ value: Int) -> Int { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
