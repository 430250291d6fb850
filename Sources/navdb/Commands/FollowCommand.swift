import NavStore
import NavStoreTools
import NavStorePostgreSQL
import Synchronization

/// `navdb follow [KEY...] [--from V]`: each event as it is committed, by any writer (another
/// navdb, an app's recorder, an import), with the back button and back menu after it, until
/// interrupted (README, "Reading the past").
struct FollowCommand: Command {
    static let spec = CommandSpec(
        abstract: "Print each event as it is committed, with the back button and back menu after it.",
        discussion: """
            Follows the sessions named (every session without one) until Ctrl-C or SIGTERM, which end \
            it with exit 0 once the lines read are printed; a session named that does not exist yet is \
            waited for. Each line is the session key, then what replay prints. A session deleted or \
            truncated while followed is said once, then followed on (a key started again is a new \
            session). It sees every writer's commits: on SQLite by checking PRAGMA data_version every \
            10 ms (the WAL index in shared memory), with one indexed read of the log's end a second; \
            on PostgreSQL it listens for the \
            notice each append's commit sends (LISTEN navstore_appends) and reads the newest event \
            then, and at least every 100 ms; a dropped server connection is said on stderr and made \
            again every second. A closed stdout ends it with exit 73; a database file removed or \
            replaced while followed, with exit 74. \
            --json prints one line per event or note: {"backButton","backMenu","event","note","stack"}, \
            "event" as history --json and "note" null for an event; for a deletion or truncation \
            "note" is {"baseVersion","kind","session"} (kind deleted or truncated) and the rest null.
            """,
        arguments: [
            Argument<[String]>(
                variadic: "key", help: "The session keys to follow (default: every session).", nonEmpty: "a session key",
                kind: .sessionKey
            ).spec
        ],
        options: [from.spec])

    /// `--from <version>`.
    static let from = Option<Int?>(
        "from", "version",
        help:
            "Only versions from this one on, of every session: each session's history from it first, then as they are committed (a session started later too); default every event committed after the start.",
        parser: .integer(atLeast: 1))

    /// The keys followed; empty for every session.
    var keys: [String]
    var from: Int?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        keys = try arguments.value(Argument<[String]>(variadic: "key", help: "", nonEmpty: "a session key"))
        if keys.contains("") { throw arguments.invalid("", for: "<key>", expected: "a session key") }
        from = try arguments.value(Self.from)
    }

    /// Set by SIGINT or SIGTERM: the follower ends at its next look.
    static let stopRequested = Atomic<Bool>(false)

    func run(_ context: Context) throws -> Outcome {
        let store = try context.store()
        // A closed pipe is a failed write (exit 73), not a silent death; Ctrl-C and SIGTERM end the
        // loop between reads, so what was read is printed whole.
        signal(SIGPIPE, SIG_IGN)
        var stopping = sigset_t()
        sigemptyset(&stopping)
        for number in [SIGINT, SIGTERM] {
            signal(number) { _ in FollowCommand.stopRequested.store(true, ordering: .relaxed) }
            sigaddset(&stopping, number)
        }
        // A process started with them blocked (a parent's worker thread spawned it) gets them too.
        pthread_sigmask(SIG_UNBLOCK, &stopping, nil)
        var follower = Follower(store: store, json: context.json)
        var feed = EventFeed(store: store, sessions: keys.isEmpty ? nil : keys, from: from)
        Self.noteMissing(keys, in: store)
        if Console.stderrIsTerminal {
            let what = keys.isEmpty ? "every session" : keys.map { "'\(Text.escaped($0))'" }.joined(separator: ", ")
            Console.err("navdb: following \(what); Ctrl-C to stop\n")
        }
        let path = try context.globals.databasePath
        let onServer = PostgreSQLURI.isURI(path)
        // The file followed (through any symlink): one removed or replaced is said, not waited on.
        let followedFile = onServer ? nil : Self.fileIdentity(path)
        // Its write-ahead log, as the first read found it: the follower's connection keeps it, so
        // another one (or none) means it was removed under the follower.
        var followedLog: [UInt64]?
        var idleLooks = 0
        while !Self.stopRequested.load(ordering: .relaxed) {
            let items: [EventFeed.Item]
            do {
                items = try feed.read(limit: 512)
                if !onServer && followedLog == nil { followedLog = Self.fileIdentity(path + "-wal") }
                if items.isEmpty {
                    // Idle: one change-counter check at a time, no read of the log, until a
                    // commit (or a stop, or a closed stdout, looked at every 100 ms).
                    repeat {
                        try Self.requireOpenStdout()
                        if Self.stopRequested.load(ordering: .relaxed) { break }
                        idleLooks += 1
                        if idleLooks % 10 == 0 {
                            if let followedFile, Self.fileIdentity(path) != followedFile {
                                throw Self.replaced(path)
                            }
                            if let followedLog, Self.fileIdentity(path + "-wal") != followedLog {
                                throw Self.logRemoved(path)
                            }
                            // Once a second the log is read whatever the change counter says: a
                            // bound on what a missed change could cost.
                            break
                        }
                    } while !(try feed.waitForCommits(upTo: .milliseconds(100)))
                    continue
                }
            } catch let error as StoreError where onServer {
                // A server connection that dropped (a restart, a network cut): a note, then a
                // new connection every second, going on from where the feed was.
                guard let reopened = try Self.reconnect(context, after: error) else { break }
                follower = Follower(store: reopened, json: context.json, states: follower.states)
                feed = EventFeed(store: reopened, sessions: feed.sessions, from: feed.fromVersion, continuing: feed.position)
                continue
            } catch let error where !(error is OutputError) {
                throw Self.explained(error, path: path, file: followedFile, log: followedLog)
            }
            for item in items { try follower.print(item) }
            try Console.flushStream()
        }
        return .success
    }

    /// Says once on stderr which of `keys` no session has yet (a typo waits silently otherwise),
    /// with the nearest existing key when one is close.
    static func noteMissing(_ keys: [String], in store: NavigationStore) {
        guard !keys.isEmpty, let existing = try? store.sessions().map(\.key) else { return }
        for key in keys where !existing.contains(where: { $0.hasSameScalars(as: key) }) {
            let near = Suggestions.closest(to: key, in: existing).map { " (did you mean '\(Text.escaped($0))'?)" } ?? ""
            Console.err(
                "navdb: follow: session '\(Text.escaped(key))' does not exist yet; waiting for it to start\(near)\n")
        }
    }

    /// The error of a followed file removed or replaced (exit 74).
    static func replaced(_ path: String) -> StoreError {
        .cannotOpen(
            path: path,
            reason:
                "the file was removed or replaced while it was followed; start 'navdb follow' again to follow the new one")
    }

    /// What a failed read of the SQLite file at `path` says: the file (`file`: its device and
    /// inode when the follow began), or its write-ahead log (`log`), removed or replaced under
    /// the follower (SQLite then reports an I/O error in its own words, with its SQL), else
    /// `error` itself.
    static func explained(_ error: any Error, path: String, file: [UInt64]?, log: [UInt64]?) -> any Error {
        if let file, fileIdentity(path) != file { return replaced(path) }
        if let log, fileIdentity(path + "-wal") != log { return logRemoved(path) }
        return error
    }

    /// The error of a followed file's write-ahead log removed or replaced (exit 74): the
    /// follower's own connection keeps it, so another one (or none) was not SQLite's doing.
    static func logRemoved(_ path: String) -> StoreError {
        .cannotOpen(
            path: path,
            reason:
                "its write-ahead log '\(path)-wal' was removed while it was followed, and SQLite cannot read on without it; start 'navdb follow' again"
        )
    }

    /// Opens the database again after `error`, once a second until it opens or a stop is asked
    /// (`nil`); says so on stderr once.
    static func reconnect(_ context: Context, after error: StoreError) throws -> NavigationStore? {
        Console.err("navdb: follow: lost the database (\(error)); reconnecting every second\n")
        while !stopRequested.load(ordering: .relaxed) {
            try requireOpenStdout()
            sleep(1)  // a signal ends it early
            if let store = try? context.store() {
                Console.err("navdb: follow: reconnected; following on\n")
                return store
            }
        }
        return nil
    }

    /// The device and inode of the file at `path` (its target, through symlinks), or `nil` when
    /// there is none.
    static func fileIdentity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// Throws ``OutputError`` when stdout is a pipe whose reader is gone (`poll` reports an error
    /// on it): a follower that prints nothing for a while notices `| head` ending without a write.
    static func requireOpenStdout() throws(OutputError) {
        // Started with stdout closed (`>&-`): the descriptor is shut, or another open took it
        // read-only (SQLite keeps 0-2 taken by /dev/null so that no database lands there).
        let flags = fcntl(STDOUT_FILENO, F_GETFL)
        if flags < 0 || flags & O_ACCMODE == O_RDONLY { throw OutputError(reason: "stdout is closed") }
        var descriptor = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
        guard poll(&descriptor, 1, 0) == 1, descriptor.revents & Int16(POLLERR | POLLHUP) != 0 else { return }
        throw OutputError(reason: "the reader of stdout closed it")
    }
}

/// What `follow` keeps between reads: each session's state after the last event printed, to show
/// the back button and menu after the next.
struct Follower {
    let store: NavigationStore
    let json: Bool
    /// Each session's state after the last event printed, with that event's version, by key
    /// (compared by its bytes, as the store compares keys: `café` in two spellings is two sessions).
    private(set) var states: [ExactKey: (version: Int, state: SessionState)]
    private let encoder = JSONOutput.makeEncoder()

    init(store: NavigationStore, json: Bool, states: [ExactKey: (version: Int, state: SessionState)] = [:]) {
        self.store = store
        self.json = json
        self.states = states
    }

    /// Prints `item`: an event with the bar after it, or a note of a deletion or truncation.
    mutating func print(_ item: EventFeed.Item) throws {
        switch item {
        case .event(let event):
            // The state kept is after the version before this one, or it is read again: events
            // in between may be gone (a truncation while this follower was behind).
            var state =
                states[ExactKey(event.session)].flatMap { $0.version == event.version - 1 ? $0.state : nil } ?? before(event)
            state.apply(event.body)
            states[ExactKey(event.session)] = (event.version, state)
            if json {
                try Console.streamLine(
                    try FollowJSON.line(event, state: state, encoder: encoder))
            } else {
                try Console.streamLine(
                    Text.escaped(event.session) + "  " + EventLines.human(event) + "\n"
                        + StateText.bar(state, indent: "          "))
            }
        case .sessionDeleted(let key):
            states[ExactKey(key)] = nil
            try Console.streamLine(
                json
                    ? try FollowJSON.note(kind: "deleted", session: key, baseVersion: nil)
                    : "\(Text.escaped(key))  (session deleted; following on: a session started again under this key is new)")
        case .sessionTruncated(let key, let base):
            try Console.streamLine(
                json
                    ? try FollowJSON.note(kind: "truncated", session: key, baseVersion: base)
                    : "\(Text.escaped(key))  (session truncated: its events up to version \(base) were deleted; following on)")
        }
    }

    /// The state before `event`, the first of its session seen: empty before version 1, else the
    /// state at the version before it (a truncated session's base when that is gone).
    private func before(_ event: Event) -> SessionState {
        guard event.version > 1 else { return SessionState() }
        if let state = try? store.state(session: event.session, at: .version(event.version - 1)).state {
            return state
        }
        return (try? store.base(session: event.session))??.state ?? SessionState()
    }
}

/// One `follow --json` line (keys sorted, every key written): an event as `replay --json` has it,
/// with `"note": null`, or a note with the rest `null`.
enum FollowJSON {
    static func line(_ event: Event, state: SessionState, encoder: JSONEncoder) throws -> String {
        "{\"backButton\":" + (try JSONOutput.text(state.backButton, encoder: encoder))
            + ",\"backMenu\":" + (try JSONOutput.text(state.backMenu, encoder: encoder))
            + ",\"event\":" + (try EventJSON.line(event, encoder: encoder))
            + ",\"note\":null"
            + ",\"stack\":" + (try JSONOutput.text(state.entryIDs, encoder: encoder)) + "}"
    }

    static func note(kind: String, session: String, baseVersion: Int?) throws -> String {
        "{\"backButton\":null,\"backMenu\":null,\"event\":null,\"note\":{\"baseVersion\":"
            + (baseVersion.map(String.init) ?? "null") + ",\"kind\":\"" + kind + "\",\"session\":"
            + (try JSONOutput.text(session)) + "},\"stack\":null}"
    }
}
