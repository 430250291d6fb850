import Dispatch
import Foundation

/// A recorder's one background writer: takes the queued calls, appends them in order in one
/// transaction (``RecordingBatch``), tells flushes and live readers, and tries again after a
/// failure. Everything here runs on the writer's own thread.
///
/// `@unchecked Sendable` only to be handed to that thread: no other thread touches it.
package final class RecorderWriter: @unchecked Sendable {
    private let shared: RecorderShared
    private let path: String
    private let options: RecorderOptions
    private var store: NavigationStore?
    /// The file number (inode) of the database file when the store was opened, to notice a file
    /// deleted or replaced under the recorder; `nil` for a URI or a file it could not look at.
    private var openedFile: Int?
    /// The calls taken from the queue and not committed yet, in order.
    private var pending: [RecorderCall] = []
    /// Each session's observer of UIKit callbacks (``NavigationControllerObserver``).
    private var observers: [ExactKey: NavigationControllerObserver] = [:]
    private var failuresInARow = 0
    /// How long the writer leaves the store's write lock to others after each commit, in ms: as
    /// long as the commit took, within these bounds.
    package static let pauseAfterCommitMilliseconds = 2...50

    package init(shared: RecorderShared, path: String, options: RecorderOptions) {
        self.shared = shared
        self.path = path
        self.options = options
        pending.reserveCapacity(min(options.queueCapacity, 4_096))
    }

    /// The writer's loop: until the recorder stops and nothing is left to write; then it closes
    /// the store.
    package func run() {
        loop()
        let lost = pending.count
        pending.removeAll()
        dropStore()
        shared.writerFinished(
            leaving: StoreError.interrupted(
                path: path,
                reason: "the recorder was closed with \(lost) call(s) its store could not take; they were not recorded")
        )
    }

    /// The writer's loop. It never spins: after a failed attempt it waits (``RecorderShared/backOff(milliseconds:)``)
    /// before the next, and once the recorder is stopping it makes one last attempt with every
    /// call left and ends, whatever the store does, so that `close()` returns in bounded time
    /// (an open's failure, or at most the busy timeout of a write).
    private func loop() {
        while true {
            if shared.suspensionAsked() {
                // suspend(): close the connection (no lock is held on the file or its -shm while
                // the app is suspended) and write nothing until resume(); the calls stay queued,
                // and those that failed stay pending.
                dropStore()
                shared.waitWhileSuspended()
                continue
            }
            // The stop is read on every turn, also while calls that failed are pending: a store
            // that cannot be opened must not keep a closing recorder's writer retrying at once.
            let stopping =
                pending.isEmpty ? shared.take(into: &pending) : shared.takeRestIfStopping(appendingTo: &pending)
            if pending.isEmpty {
                if shared.wantsSync() {
                    makeDurable()
                    continue
                }
                if stopping { return }
                shared.waitForWork()
                continue
            }
            let started = DispatchTime.now().uptimeNanoseconds
            if write() {
                failuresInARow = 0
                if shared.wantsSync() { makeDurable() }
                // Leave the write lock free before the next transaction, as long as this one
                // took: SQLite's lock is not fair, and a waiting writer retries from
                // its busy handler at intervals of up to 100 ms (sqlite.org/c3ref/busy_timeout.html),
                // so recorders committing back to back kept other processes' writers out past
                // their busy timeout. The pause also lets more calls join the next batch; a
                // flush cuts it short, and one that is waiting already skips it (the app asked
                // for its calls now: on going to the background, say).
                let tookMilliseconds = Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000_000)
                shared.backOff(
                    milliseconds: min(
                        max(tookMilliseconds, Self.pauseAfterCommitMilliseconds.lowerBound),
                        Self.pauseAfterCommitMilliseconds.upperBound))
                continue
            }
            if stopping {
                // The recorder is closed or gone: one attempt was made, the rest is lost.
                return
            }
            failuresInARow += 1
            let factor = 1 << min(failuresInARow - 1, 5)
            shared.backOff(milliseconds: max(1, options.retryIntervalMilliseconds) * factor)
        }
    }

    // MARK: Writing

    /// Writes ``pending``: opens the store first if needed. Returns whether everything was
    /// committed (or given up); on `false` the rest stays pending and flushes were told.
    private func write() -> Bool {
        if store != nil, let opened = openedFile, fileNumber() != opened {
            // Deleted (or replaced) under the recorder: what it committed there went with the
            // file. Say so, and write on into a new file at the path.
            dropStore()
            observers.removeAll()
            shared.report([
                .store(
                    .interrupted(
                        path: path,
                        reason:
                            "the database file was deleted or replaced while the recorder had it open; what was committed to it is gone with it, and the recorder writes on into a new file"
                    ))
            ])
        }
        if store == nil {
            if path.isEmpty {
                giveUp(
                    StoreError.cannotOpen(
                        path: path, reason: "the path is empty; expected a file path or a postgresql:// URI"))
                return true
            }
            do {
                store = try NavigationStore(path: path, create: true, options: options.store)
                openedFile = fileNumber()
            } catch {
                guard Self.isTransient(error) else {
                    giveUp(error)
                    return true
                }
                fail(error)
                return false
            }
        }
        let calls = pending
        do {
            try commit(calls)
            pending.removeAll(keepingCapacity: true)
            return true
        } catch {
            guard !Self.isTransient(error) else {
                fail(error)
                return false
            }
        }
        // A call the database cannot hold failed the batch: one call per transaction, to give up
        // that one alone.
        while let call = pending.first {
            do {
                try commit([call])
            } catch {
                guard !Self.isTransient(error) else {
                    fail(error)
                    return false
                }
                shared.report([.notStored(session: call.session, error)])
                shared.committed(through: call.ticket, durable: commitsAreDurable)
            }
            pending.removeFirst()
        }
        return true
    }

    /// Appends `calls` in one transaction and, once committed, tells flushes, live readers and
    /// the subscribers of failures.
    private func commit(_ calls: [RecorderCall]) throws(StoreError) {
        let saved = observers
        var reports: [RecorderFailure] = []
        do {
            try store!.recordBatch { batch in
                // PostgreSQL may run this again after losing a race: from the same start.
                observers = saved
                reports.removeAll()
                for call in calls { try record(call, in: &batch, reports: &reports) }
            }
        } catch {
            observers = saved
            throw error
        }
        shared.committed(through: calls.last!.ticket, durable: commitsAreDurable)
        shared.report(reports)
    }

    private func record(_ call: RecorderCall, in batch: inout RecordingBatch, reports: inout [RecorderFailure]) throws {
        let platform = options.platform
        switch call.kind {
        case .command(let command):
            if case .refused(let error) = try batch.record(
                command, session: call.session, at: call.at, platform: platform)
            {
                reports.append(.refused(session: call.session, command: command, error))
            }
        case .pathChange(let change):
            let state = try batch.state(of: call.session, startingAt: call.at, platform: platform)
            for command in change.commands(state: state) {
                if case .refused(let error) = try batch.record(
                    command, session: call.session, at: call.at, platform: platform)
                {
                    reports.append(.refused(session: call.session, command: command, error))
                }
            }
        case .callback(let callback):
            let state = try batch.state(of: call.session, startingAt: call.at, platform: platform)
            let key = ExactKey(call.session)
            var observer = observers[key] ?? NavigationControllerObserver()
            let commands: [NavigationCommand]
            do throws(ObservationError) {
                commands = try observer.observe(callback, state: state)
            } catch {
                reports.append(.unobservable(session: call.session, callback: callback, error))
                return
            }
            observers[key] = observer
            for command in commands {
                if case .refused(let error) = try batch.record(
                    command, session: call.session, at: call.at, platform: platform)
                {
                    reports.append(.refused(session: call.session, command: command, error))
                }
            }
        case .dropped(let count, let firstAt, let lastAt):
            _ = try batch.record(
                StoreCommand.noteDroppedCalls(count: count, firstAt: firstAt, lastAt: lastAt), session: call.session, at: lastAt,
                platform: platform)
            reports.append(.dropped(session: call.session, count: count))
        }
    }

    /// Whether each commit is as durable as a flush promises: at every `synchronous` level but
    /// ``StoreOptions/Synchronous/normal``, whose commits are synced at the next flush
    /// (``makeDurable()``). At `off` nothing is ever synced: a flush promises the commit alone.
    private var commitsAreDurable: Bool { options.store.synchronous != .normal }

    /// Syncs the log for the flushes waiting on committed calls (<doc:Recording>, "What a crash
    /// or a power loss costs"): one sync covers every commit before it. A failed sync fails them,
    /// as a failed write does; the next flush syncs again.
    private func makeDurable() {
        let through = shared.committedTicket
        guard let store else {
            // Nothing is open: the store was dropped after a failure, and synced then as far as
            // it could be (``dropStore()``).
            shared.madeDurable(through: through, synced: false)
            return
        }
        do {
            try store.makeCommitsDurable()
        } catch {
            fail(error)
            return
        }
        shared.madeDurable(through: through, synced: true)
    }

    /// Closes the store's connection, syncing its commits first when they are not synced
    /// themselves (a failure to sync is the failure that drops it; nothing more can be done).
    private func dropStore() {
        if let store, !commitsAreDurable { try? store.makeCommitsDurable() }
        store = nil
    }

    /// Reports a failed attempt and fails the waiting flushes. A store that could not be opened,
    /// was read-only or failed below SQL is opened again next time, so that a file made writable
    /// or mended meanwhile is used (a connection opened read-only stays read-only).
    private func fail(_ error: any Error) {
        let storeError = (error as? StoreError) ?? .interrupted(path: path, reason: String(describing: error))
        switch storeError {
        case .openFailed, .readOnly, .database, .interrupted: dropStore()
        default: break
        }
        shared.report([.store(storeError)])
        shared.failWaiters(storeError)
    }

    /// The store cannot be opened and trying again cannot mend it (an empty path, a file that is
    /// not a NavStore database, a newer schema, a damaged file): the pending calls are given up,
    /// reported once with the failure and counted as dropped per session; their flushes throw it.
    private func giveUp(_ error: any Error) {
        let storeError = (error as? StoreError) ?? .interrupted(path: path, reason: String(describing: error))
        var order: [String] = []
        var counts: [ExactKey: Int] = [:]
        for call in pending {
            let key = ExactKey(call.session)
            if counts[key] == nil { order.append(call.session) }
            if case .dropped(let count, _, _) = call.kind {
                counts[key, default: 0] += count
            } else {
                counts[key, default: 0] += 1
            }
        }
        shared.report([.store(storeError)] + order.map { .dropped(session: $0, count: counts[ExactKey($0)] ?? 0) })
        shared.failWaiters(storeError)
        if let last = pending.last { shared.committed(through: last.ticket, durable: true) }
        pending.removeAll(keepingCapacity: true)
    }

    /// The database file's number (inode), or `nil` for a URI or a file that cannot be looked at.
    private func fileNumber() -> Int? {
        guard !path.isEmpty, !path.contains("://") else { return nil }
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? NSNumber)?.intValue
    }

    /// Whether trying again later may succeed: a lock, a full disk, a file that cannot be opened
    /// or written now (a missing folder, a file protected while the device is locked, a read-only
    /// file), an I/O error. Anything else is permanent: a call the database can never hold, or a
    /// store that is not NavStore's.
    package static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? StoreError else { return true }
        switch error {
        case .databaseNotFound, .cannotOpen, .openFailed, .readOnly, .diskFull, .busy, .database, .interrupted:
            return true
        default:
            return false
        }
    }
}
