import Dispatch

/// Records an app's navigation as it happens, without costing the calling thread a disk write
/// (<doc:Recording>).
///
/// ``record(_:session:)`` and ``observe(_:session:)`` return at once on the caller's thread (the
/// main thread, usually): they stamp the call with the wall clock, put it in a bounded queue and
/// wake the writer, with no SQLite call and no lock held across I/O, and allocate nothing but the
/// queued value. One background writer appends the calls in order, as many as are queued (of
/// every session) per transaction, each decided by the rules against its session's state at that
/// point; a session the recorder has not seen is started by its first call. ``flush()`` returns
/// once everything recorded before it is committed and synced: call it when the app moves to the
/// background. ``events(session:from:)`` reads what is committed, live.
///
/// The host app is never stopped by the recorder: nothing it does throws into the caller,
/// blocks it or crashes it.
/// - A full queue (``RecorderOptions/queueCapacity``) drops the newer calls and keeps the older
///   ones; each session's dropped calls are counted, and the count is written into its log as a
///   `calls.dropped` event at the place of the first drop.
/// - A store that cannot be opened (a missing folder, a file that is not a NavStore database, a
///   file protected while the device is locked) or written (a full disk, a lock held longer
///   than the busy timeout) is reported on ``failures``; the calls stay queued, the writer tries
///   again (``RecorderOptions/retryIntervalMilliseconds``, doubling), and the recorder keeps
///   taking calls, dropping and counting them once the queue is full. ``flush()`` throws the
///   failure meanwhile.
/// - A command the rules refuse, or a callback the observer cannot follow, is reported on
///   ``failures`` and skipped; the calls after it are recorded.
///
/// ```swift
/// let recorder = NavigationRecorder(path: url.path)
/// recorder.record(.push(Entry(id: "inbox", item: NavigationItem(title: "Inbox"))), session: "scene-1")
/// try await recorder.flush()
/// ```
///
/// `Sendable`: call it from any thread. Calls made from one thread are recorded in the order they
/// were made; calls from several threads in the order they took the queue's lock.
public final class NavigationRecorder: Sendable {
    /// The database file's path, or a PostgreSQL connection URI, as given.
    public let path: String
    /// The options the recorder was made with.
    public let options: RecorderOptions
    package let shared: RecorderShared

    /// A recorder of the store at `path` with the default options (``RecorderOptions``).
    /// - Parameter path: the database file (created with its folder's permissions if missing,
    ///   owner-only), or a PostgreSQL connection URI.
    public convenience init(path: String) {
        self.init(path: path, options: RecorderOptions())
    }

    /// A recorder of the store at `path`: starts its writer, which opens (or creates) the store on
    /// its own thread, so this returns at once and never fails; a store that cannot be opened
    /// is reported on ``failures``.
    /// - Parameters:
    ///   - path: the database file, or a PostgreSQL connection URI.
    ///   - options: the platform of the sessions it starts, the queue's size, the store's options.
    public init(path: String, options: RecorderOptions) {
        let options = options.clamped
        self.path = path
        self.options = options
        shared = RecorderShared(capacity: options.queueCapacity)
        let writer = RecorderWriter(shared: shared, path: path, options: options)
        // The writer's loop runs for the recorder's life on a queue of its own: one thread.
        DispatchQueue(label: "NavStore.NavigationRecorder.writer", qos: .utility).async { writer.run() }
    }

    deinit {
        // The writer commits what is queued, then ends; it holds only the shared state.
        shared.stop()
    }

    /// Records `command` for `session`; returns at once and never throws.
    ///
    /// The command is stamped with the current time (its event's `at`, never earlier than the
    /// session's previous event) and decided by the rules when the writer appends it; a refusal
    /// goes to ``failures``.
    /// - Parameters:
    ///   - command: the navigation change (``NavigationCommand``).
    ///   - session: the session key (a window or scene); started with ``RecorderOptions/platform``
    ///     by its first call when it does not exist.
    ///
    /// What NavStore records itself is no command an app can make: `session.restored`
    /// (``NavigationStore/restore(session:mark:at:expectedVersion:deliver:)`` appends it) and
    /// `calls.dropped` (the recorder writes it when its queue is full). The observer's
    /// ``NavigationCommand/observedStack(_:layer:reason:)`` comes from UIKit's callbacks, so the
    /// recorder refuses it here at once: reported on ``failures`` as
    /// ``RecorderFailure/notStored(session:_:)``, never queued; use ``observe(_:session:)``.
    public func record(_ command: NavigationCommand, session: String) {
        switch command {
        case .observedStack:
            shared.report([
                .notStored(
                    session: session,
                    .unsupportedValue(
                        reason:
                            "observedStack is made by NavStore's observer from UIKit's callbacks, not recorded by an app; use observe(_:session:) for what UIKit did"
                    ))
            ])
        default:
            shared.enqueue(.command(command), session: session, at: Timestamp.now())
        }
    }

    /// Records a UIKit callback for `session`; returns at once and never throws.
    ///
    /// The writer hands it to the session's ``NavigationControllerObserver``, which turns the
    /// callbacks into commands with the right pop source (<doc:Recording>, "How a pop happened").
    /// - Parameters:
    ///   - callback: the callback, in the order UIKit made it.
    ///   - session: the session key.
    public func observe(_ callback: NavigationCallback, session: String) {
        shared.enqueue(.callback(callback), session: session, at: Timestamp.now())
    }

    /// Records a new value of a SwiftUI `NavigationStack`'s path or of its sheet (<doc:SwiftUI>),
    /// returning at once as ``record(_:session:)`` does: the writer turns it into events with
    /// ``NavigationPathObserver`` against the session's state (pushes, a pop whose source says
    /// who removed the screens, item updates, a replacement), so that after it the session's
    /// stack equals the value. Call it from the view's `onChange(of: path)` with `.app` when the
    /// app's own code set the path, `.user` otherwise.
    /// - Parameters:
    ///   - change: the new value: ``NavigationPathChange/path(_:layer:by:)`` (root first) or
    ///     ``NavigationPathChange/sheet(_:modalInPresentation:by:)`` (`nil` once dismissed).
    ///   - session: the session key; started with ``RecorderOptions/platform`` when it does not exist.
    public func recordPath(_ change: NavigationPathChange, session: String) {
        shared.enqueue(.pathChange(change), session: session, at: Timestamp.now())
    }

    /// Returns once every call recorded before it is committed and synced to storage, or given up
    /// (a command the rules refuse, a value the database cannot hold; each reported on
    /// ``failures``). Calls dropped because the queue was full are not waited for: their
    /// `calls.dropped` note is.
    ///
    /// At the recorder's default ``StoreOptions/Synchronous/normal`` (``RecorderOptions/defaultStore``)
    /// the writer syncs the log once for the calls committed since the last flush, so that what
    /// a flush covered survives a power loss; at `full` each commit was synced already; at `off`
    /// nothing is ever synced (<doc:Recording>, "What a crash or a power loss costs").
    /// - Throws: the ``StoreError`` of the writer's attempt when it fails (the store cannot be
    ///   opened or written); the calls stay queued and are tried again. `CancellationError` when
    ///   the task is cancelled.
    public func flush() async throws {
        try Task.checkCancellation()
        try await shared.flush()
    }

    /// Commits what was recorded, then ends the writer and closes the store's connection; every
    /// call after it is ignored. To close the connections only while the app is suspended (an
    /// App Group container, 0xDEAD10CC), use ``suspend()`` and ``resume()`` instead. Live
    /// ``events(session:from:)`` sequences have connections of their own: end them too.
    ///
    /// It returns in bounded time whatever the store does: the writer makes one last attempt with
    /// every call left (an open that fails at once, or a write that waits at most the busy
    /// timeout, ``StoreOptions/busyTimeoutMilliseconds``) and ends. A ``flush()`` after it returns
    /// at once, or throws when calls were lost.
    /// - Throws: what ``flush()`` throws; the recorder is closed all the same, and the calls the
    ///   store could not take are lost.
    public func close() async throws {
        var failure: (any Error)?
        do { try await flush() } catch { failure = error }
        await shared.stopAndWait()
        if let failure { throw failure }
    }

    /// Commits what was recorded, then closes every connection of the recorder (its writer's, and
    /// those of its live ``events(session:from:)`` sequences) and keeps them closed until
    /// ``resume()``: for an app whose database is in a shared (App Group) container, where iOS
    /// ends a suspended app that holds a lock on a file there (0xDEAD10CC, <doc:Recording>, "In
    /// an app's life"). Call it inside the background task when the app moves to the background,
    /// and ``resume()`` when it comes back.
    ///
    /// Meanwhile the recorder takes calls as ever and keeps them queued, without writing them
    /// (dropping and counting the newer ones once the queue is full); ``flush()`` throws at once.
    /// Live sequences keep what they have read and wait. A live sequence whose task is busy
    /// elsewhere closes its connection when it next asks for an event: this waits for those up to
    /// a second.
    /// A recorder suspended already is left as it is.
    /// - Throws: what ``flush()`` throws; the recorder is suspended all the same, and the calls the
    ///   store could not take stay queued for ``resume()``.
    public func suspend() async throws {
        // Suspended already: nothing was written since, and nothing is open.
        if shared.state.withLock({ $0.suspension != nil }) { return }
        var failure: (any Error)?
        do { try await flush() } catch { failure = error }
        await shared.suspend(
            error: StoreError.interrupted(
                path: path, reason: "the recorder is suspended; resume() writes what was recorded meanwhile"))
        shared.commits.setSuspended(true)
        await shared.commits.waitForReadersClosed(milliseconds: 1_000)
        if let failure { throw failure }
    }

    /// Ends a ``suspend()``: the writer opens the store again and writes the calls recorded
    /// meanwhile, and live sequences open theirs and go on. Returns at once; does nothing when the
    /// recorder is not suspended.
    public func resume() {
        shared.resume()
        shared.commits.setSuspended(false)
    }

    /// The committed events of `session` from version `version` on, live: its history first,
    /// then each event as it is committed, each once, in version order, from any writer (this
    /// recorder, another process, an import). Iterate it with `for try await`; it ends only when
    /// the iterating task is cancelled or the loop breaks.
    ///
    /// A session that does not exist yet is waited for. A deleted session's sequence goes on with
    /// the events of a session started again under the key (from `version` too).
    /// - Parameters:
    ///   - session: the session key.
    ///   - version: the first version (1-based; the history before it is skipped).
    /// - Returns: an `AsyncSequence` of ``Event``; its iterator throws ``StoreError`` when the
    ///   database cannot be read.
    public func events(session: String, from version: Int = 1) -> RecordedEvents {
        RecordedEvents(
            path: path, options: options, session: session, fromVersion: Swift.max(1, version), signal: shared.commits)
    }

    /// What went wrong, as it happens: refusals, callbacks the observer could not follow, store
    /// failures, dropped calls (``RecorderFailure``). Each access makes a new sequence, which
    /// starts with the newest failures kept (up to 64) and then gives each new one; it ends when
    /// the iterating task is cancelled or the recorder is closed.
    public var failures: AsyncStream<RecorderFailure> { shared.failureStream() }
}

/// The live events of one session (``NavigationRecorder/events(session:from:)``): an
/// `AsyncSequence` of ``Event`` over ``EventFeed``.
public struct RecordedEvents: AsyncSequence, Sendable {
    public typealias Element = Event
    package let path: String
    package let options: RecorderOptions
    package let session: String
    package let fromVersion: Int
    package let signal: CommitSignal

    /// A new iterator, with its own read connection (opened at its first `next()`).
    public func makeAsyncIterator() -> Iterator {
        Iterator(sequence: self)
    }

    /// Reads committed events through an ``EventFeed``, waiting for the recorder's commits and
    /// checking for other writers' every ``RecorderOptions/pollIntervalMilliseconds``.
    public struct Iterator: AsyncIteratorProtocol {
        package let sequence: RecordedEvents
        private var feed: EventFeed?
        /// Counts the feed's connection as open, for ``NavigationRecorder/suspend()``.
        private var lease: ReaderLease?
        /// Where the feed was when a suspension closed its connection: the next feed goes on
        /// from there.
        private var position: EventFeed.Position?
        private var buffer: [Event] = []
        private var index = 0
        /// Whether the last read filled a whole page: more may be committed already.
        private var fullPage = false
        /// Checks in a row that found nothing new: each doubles the wait for other writers'
        /// commits, up to ``idleLimitMilliseconds``.
        private var idleChecks = 0
        /// The longest wait between two checks for other writers' commits while idle, in ms (or
        /// the poll interval, when that is longer).
        package static let idleLimitMilliseconds = 1_000

        /// How long to wait for other writers' commits after `checks` looks in a row found
        /// nothing: the poll interval (at least 1 ms) doubled `checks` times, at most
        /// ``idleLimitMilliseconds`` (or the poll interval, when that is longer).
        package static func idleWait(poll: Int, checks: Int) -> Int {
            let poll = Swift.max(1, poll)
            return Swift.min(poll << Swift.min(Swift.max(0, checks), 16), Swift.max(poll, idleLimitMilliseconds))
        }
        private static let page = 256

        package init(sequence: RecordedEvents) { self.sequence = sequence }

        /// The next committed event, waiting for it; `nil` once the task is cancelled.
        /// - Throws: ``StoreError`` when the database cannot be read.
        public mutating func next() async throws -> Event? {
            while true {
                if index < buffer.count {
                    defer { index += 1 }
                    return buffer[index]
                }
                if Task.isCancelled { return nil }
                if sequence.signal.isSuspended {
                    // The recorder is suspended: close the connection (and its lock on the
                    // -shm file) and wait for the resume, which wakes this wait.
                    if let feed { position = feed.position }
                    feed = nil
                    lease = nil
                    fullPage = false
                    let generation = sequence.signal.generation
                    if sequence.signal.isSuspended {
                        await sequence.signal.wait(after: generation, milliseconds: nil)
                    }
                    continue
                }
                let generation = sequence.signal.generation
                if try fill() {
                    idleChecks = 0
                    continue
                }
                // This recorder's commits wake the wait at once; other writers' are looked for
                // after the poll interval, doubled after each look that found nothing, up to a
                // second: an idle reader costs about one `PRAGMA data_version` a second.
                let wait =
                    sequence.options.watchesOtherWriters
                    ? Self.idleWait(poll: sequence.options.pollIntervalMilliseconds, checks: idleChecks) : nil
                idleChecks += 1
                await sequence.signal.wait(after: generation, milliseconds: wait)
                if sequence.signal.generation != generation { idleChecks = 0 }
                if Task.isCancelled { return nil }
            }
        }

        /// The store, or `nil` while there is no database yet (the recorder's writer creates it
        /// on its first commit).
        private static func open(_ sequence: RecordedEvents) throws(StoreError) -> NavigationStore? {
            do {
                return try NavigationStore(path: sequence.path, create: false, options: sequence.options.store)
            } catch {
                if case .databaseNotFound = error { return nil }
                throw error
            }
        }

        /// Reads the next events into the buffer; `false` when there are none yet.
        private mutating func fill() throws -> Bool {
            if feed == nil {
                guard let store = try Self.open(sequence) else { return false }
                feed =
                    if let position {
                        EventFeed(
                            store: store, sessions: [sequence.session], from: sequence.fromVersion, continuing: position
                        )
                    } else {
                        EventFeed(store: store, sessions: [sequence.session], from: sequence.fromVersion)
                    }
                lease = sequence.signal.openReader()
            }
            if !fullPage, try !feed!.hasNewCommits() { return false }
            buffer.removeAll(keepingCapacity: true)
            index = 0
            let items = try feed!.read(limit: Self.page)
            fullPage = items.count >= Self.page
            for item in items { if case .event(let event) = item { buffer.append(event) } }
            return !buffer.isEmpty
        }
    }
}
