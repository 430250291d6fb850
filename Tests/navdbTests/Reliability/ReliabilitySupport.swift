import Foundation
import NavStore
import NavStoreTools
import NavStorePostgreSQL
import TestSupport
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Settings and helpers shared by the reliability suites (the reliability contract: README "Reliability").
///
/// The default run is sized to take about a minute on two cores; `NAVSTORE_LONG_RELIABILITY=1`
/// multiplies the counts (kills, offsets, writers' events, fuzz inputs). Every random choice comes
/// from a seed printed in each suite's summary line (`seed N`); `NAVSTORE_RELIABILITY_SEED=N`
/// replays the same choices (kill timings still depend on the machine), and
/// `NAVSTORE_RELIABILITY_BACKEND=postgresql` (or `sqlite`) runs only that backend's cases.
enum Reliability {
    /// Whether the long runs were asked for.
    static let long = ProcessInfo.processInfo.environment["NAVSTORE_LONG_RELIABILITY"] == "1"

    /// `fast` in the default run, `long` under `NAVSTORE_LONG_RELIABILITY=1`.
    static func count(_ fast: Int, long longCount: Int) -> Int { long ? longCount : fast }

    /// The base seed of this run.
    static let seed: UInt64 = {
        if let text = ProcessInfo.processInfo.environment["NAVSTORE_RELIABILITY_SEED"], let value = UInt64(text) {
            return value
        }
        return UInt64.random(in: 1...UInt64(UInt32.max))
    }()

    /// The backends the reliability suites run on: every one available (``CommandBackend/all``), or
    /// only the one `NAVSTORE_RELIABILITY_BACKEND` names (`sqlite` or `postgresql`), to replay a
    /// seed or run many on one backend.
    static let backends: [CommandBackend] = {
        let only = ProcessInfo.processInfo.environment["NAVSTORE_RELIABILITY_BACKEND"].flatMap {
            CommandBackend(rawValue: $0)
        }
        return CommandBackend.all.filter { only == nil || $0 == only }
    }()

    /// A generator for one test: the run's seed mixed with the test's own salt.
    static func random(_ salt: UInt64) -> SeededGenerator { SeededGenerator(seed: seed &* 0x9E37_79B9 &+ salt) }

    /// Prints one summary line, `reliability <suite>: ...`, into the test output.
    static func summary(_ suite: String, _ text: String) {
        print("reliability \(suite): \(text) (seed \(seed)\(long ? ", long run" : ""))")
    }

    /// The `navdb-bench` executable beside `navdb` (its hidden `__writer-loop` subcommand is the
    /// child writer; see Sources/navdb-bench/WriterLoop.swift).
    static func benchBinary() throws -> String {
        let url = try Navdb.binary().deletingLastPathComponent().appendingPathComponent("navdb-bench")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw Failure("navdb-bench was not found beside navdb at \(url.path) (build every product: 'swift build')")
        }
        return url.path
    }

    /// A system tool (`mount`, `chattr`, `setpriv`, `sqlite3`...) from the usual directories, or `nil`.
    static func tool(_ name: String) -> String? {
        let path =
            (ProcessInfo.processInfo.environment["PATH"] ?? "")
            + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        for directory in path.split(separator: ":")
        where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        return nil
    }

    /// Whether the tests run as root (file permissions do not stop root).
    static var isRoot: Bool { getuid() == 0 }

    /// A test failure with a message.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// SplitMix64 (https://prng.di.unimi.it/splitmix64.c), seeded so that a run can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    /// `true` with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
    /// One element of `items`.
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}

/// A temporary directory for one test, removed afterwards: `path` holds the databases, and the
/// children's stdout and stderr go to a sibling directory so that listing `path` shows only what
/// navdb made.
final class Scratch: @unchecked Sendable {
    let path: String
    /// The backend of ``database``.
    let backend: CommandBackend
    /// For a PostgreSQL scratch, the URI of its fresh schema.
    let databaseURI: String?
    private let root: TemporaryDirectory
    private let io: String
    private var counter = 0
    private let lock = NSLock()

    /// A scratch directory; with `backend` `.postgresql`, ``database`` is a fresh schema of the
    /// test server instead of `path/navdb.sqlite`.
    init(_ name: String, backend: CommandBackend = .sqlite) throws {
        root = try TemporaryDirectory(prefix: "navdb-reliability-\(name)")
        path = try root.subdirectory("work")
        io = try root.subdirectory("io")
        self.backend = backend
        databaseURI = backend == .postgresql ? try CommandBackend.freshSchemaURI() : nil
    }

    /// The default database, what `--db` and `NAVDB_PATH` name: `path/navdb.sqlite`, or the
    /// fresh schema's URI.
    var database: String { databaseURI ?? file("navdb.sqlite") }

    /// Another empty database on the same backend: `path/name` (a file not created yet), or a new
    /// schema of the test server.
    func newDatabase(_ name: String) throws -> String {
        backend == .postgresql ? try CommandBackend.freshSchemaURI() : file(name)
    }

    /// What "the database did not change" compares: the bytes of every file in `path` and, on
    /// PostgreSQL, every row of every table of the schema (by table, prefixed `table:`).
    func databaseContents() throws -> [String: Data] {
        var contents = try self.contents()
        if let databaseURI {
            for (table, rows) in try CommandBackend.rows(of: databaseURI) { contents["table:" + table] = rows }
        }
        return contents
    }

    /// `path/name`.
    func file(_ name: String) -> String { path + "/" + name }

    /// A new subdirectory of `path`.
    func directory(_ name: String) throws -> String {
        let directory = file(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A fresh pair of files for a child's stdout and stderr.
    func ioFiles() -> (stdout: String, stderr: String) {
        lock.lock()
        defer { lock.unlock() }
        counter += 1
        return ("\(io)/\(counter).out", "\(io)/\(counter).err")
    }

    /// Writes `bytes` to `path/name` and returns the path.
    @discardableResult
    func write(_ name: String, _ bytes: some Sequence<UInt8>) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Writes `text` as UTF-8 to `path/name` and returns the path.
    @discardableResult
    func write(_ name: String, text: String) throws -> String { try write(name, Array(text.utf8)) }
}

/// What a finished child process did.
struct ChildResult: CustomStringConvertible {
    /// The exit status, or 128 + the signal number when a signal ended it (as a shell reports it).
    var status: Int32
    /// The signal that ended it, if any.
    var signal: Int32?
    var stdout: String
    var stderr: String
    /// Wall-clock seconds from spawn to exit.
    var seconds: Double
    /// Whether the parent killed it because it ran past its time limit.
    var timedOut: Bool

    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// stdout as one JSON value. `JSONDecoder`, not `JSONSerialization`: on Linux the latter
    /// drops a U+FEFF at the start of a string, which would hide (or fake) a round-trip failure.
    func json() throws -> JSONValue { try JSONValue.parse(stdout) }

    var description: String {
        "exit \(status)\(signal.map { " (signal \($0))" } ?? "")\(timedOut ? " (timed out)" : "")\n--- stdout\n\(stdout.prefix(2_000))--- stderr\n\(stderr.prefix(2_000))"
    }
}

/// A child process started with `posix_spawn`, so that the test can kill it with any signal at
/// any moment, and waited for without blocking a thread of the test runner's pool.
final class Child: @unchecked Sendable {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String
    private let started = Date()
    private var finished: (status: Int32, signal: Int32?)?

    /// Starts `executable` with `arguments` in `directory`, stdin from `stdinPath` (default
    /// `/dev/null`), stdout and stderr to files, with the test's environment minus `NAVDB_PATH`
    /// and `NO_COLOR`, plus `environment`.
    init(
        _ executable: String, _ arguments: [String], directory: String, stdinPath: String = "/dev/null",
        io: (stdout: String, stderr: String), environment: [String: String] = [:]
    ) throws {
        stdoutPath = io.stdout
        stderrPath = io.stderr
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, io.stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, io.stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let addChdir = Self.addChdir { _ = addChdir(&actions, directory) }
        var env = ProcessInfo.processInfo.environment
        env["NAVDB_PATH"] = nil
        env["NO_COLOR"] = nil
        for (key, value) in environment { env[key] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let code = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard code == 0 else {
            throw Reliability.Failure("cannot run \(executable): \(String(cString: strerror(code)))")
        }
        self.pid = pid
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), which Swift does not import:
    /// looked up at run time; without it the child starts in the test's directory (harmless
    /// here: `NAVDB_PATH` and every `--db` point into the scratch directory).
    private static let addChdir:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)
                    .self)
        }()

    /// The exit status if the child has ended (reaping it), else `nil`.
    func poll() throws -> (status: Int32, signal: Int32?)? {
        if let finished { return finished }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == 0 { return nil }
            if result == pid { break }
            if errno == EINTR { continue }
            throw Reliability.Failure("waitpid(\(pid)) failed: \(String(cString: strerror(errno)))")
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        finished = signal == 0 ? ((status >> 8) & 0xFF, nil) : (128 + signal, signal)
        return finished
    }

    /// Sends `signal` (SIGKILL by default).
    func kill(_ signal: Int32 = SIGKILL) { _ = Glibc.kill(pid, signal) }

    /// What the child has written to stdout so far.
    func stdoutSoFar() -> String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// Waits for the child to end, polling, and kills it (SIGKILL) after `timeout` seconds.
    func wait(timeout: Double = 120) async throws -> ChildResult {
        var timedOut = false
        while try poll() == nil {
            if !timedOut && Date().timeIntervalSince(started) > timeout {
                timedOut = true
                kill()
            }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        let (status, signal) = finished!
        return ChildResult(
            status: status, signal: signal,
            stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "",
            seconds: Date().timeIntervalSince(started), timedOut: timedOut)
    }
}

extension Scratch {
    /// Runs `navdb` with `arguments` in `path` (`NAVDB_PATH` naming ``database``, so that no word
    /// of a fuzzed command line can reach a database outside the scratch) and waits for it.
    func navdb(_ arguments: [String], stdin: String? = nil, timeout: Double = 60) async throws -> ChildResult {
        var stdinPath = "/dev/null"
        if let stdin {
            let io = ioFiles()
            try Data(stdin.utf8).write(to: URL(fileURLWithPath: io.stdout + ".in"))
            stdinPath = io.stdout + ".in"
        }
        let child = try Child(
            try Navdb.binary().path, arguments, directory: path, stdinPath: stdinPath, io: ioFiles(),
            environment: ["NAVDB_PATH": database])
        return try await child.wait(timeout: timeout)
    }

    /// Runs a system tool and waits for it.
    func tool(_ executable: String, _ arguments: [String], timeout: Double = 30) async throws -> ChildResult {
        try await Child(executable, arguments, directory: path, io: ioFiles()).wait(timeout: timeout)
    }

    /// The bytes of every file in `directory` (default `path`), by name: what "unchanged" means.
    func contents(of directory: String? = nil) throws -> [String: Data] {
        let directory = directory ?? path
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
            }
        }
        return files
    }
}

/// Runs blocking work (precise sleeps, `waitpid`) on a thread of its own, off the test
/// runner's cooperative pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// Reading a store in the test process, the way the checks after a kill do.
enum StoreProbe {
    /// Every event of the store in `seq` order.
    static func allEvents(_ store: NavigationStore) throws -> [Event] {
        var events: [Event] = []
        try store.events(session: nil) { events.append($0) }
        return events
    }

    /// The problems of a store a crash, a race or a refused input left: `check()` (integrity,
    /// gapless `seq` and versions, projections and snapshots equal to the fold) plus the same
    /// facts recomputed here from the events, and the state now and at `probes` random versions
    /// of each session equal to a fold of its events. Empty when the store is sound.
    static func problems(_ store: NavigationStore, probes: Int = 2, random: inout SeededGenerator) throws -> [String] {
        var problems = try store.check().problems
        let events = try allEvents(store)
        let seqs = events.map { $0.seq ?? -1 }
        if PostgreSQLURI.isURI(store.path) {
            // An identity: increasing, with the gaps rolled-back inserts leave (README "What differs").
            if seqs != seqs.sorted() || Set(seqs).count != seqs.count || seqs.contains(-1) {
                problems.append("seq is not increasing")
            }
        } else if seqs != (0..<events.count).map({ Int64($0) + 1 }) {
            problems.append("seq is not 1...\(events.count)")
        }
        let bySession = Dictionary(grouping: events, by: \.session)
        for info in try store.sessions() {
            let log = bySession[info.key] ?? []
            if log.map(\.version) != (0..<log.count).map({ $0 + 1 }) {
                problems.append("session '\(info.key)': versions are not 1...\(log.count)")
            }
            if info.version != log.count {
                problems.append("session '\(info.key)': version \(info.version) but \(log.count) events")
            }
            if try store.state(session: info.key).state != SessionState.fold(log.map(\.body)) {
                problems.append("session '\(info.key)': the current state differs from the fold of its log")
            }
            for _ in 0..<(log.isEmpty ? 0 : probes) {
                let version = random.int(1...log.count)
                if try store.state(session: info.key, at: .version(version)).state
                    != SessionState.fold(log.prefix(version).map(\.body))
                {
                    problems.append(
                        "session '\(info.key)': the state at version \(version) differs from the fold of its log")
                }
            }
        }
        return problems
    }
}

extension JSONValue {
    /// Parses JSON text (`JSONDecoder`, which keeps every scalar of every string).
    static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
    /// The member `key` of an object.
    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] } else { return nil }
    }
    /// The elements of an array (none for anything else).
    var elements: [JSONValue] { if case .array(let array) = self { return array } else { return [] } }
    /// The text of a string.
    var text: String? { if case .string(let text) = self { return text } else { return nil } }
    /// The value of an integer.
    var int: Int? { if case .integer(let value) = self { return Int(value) } else { return nil } }
}

/// Scalars that human output must never print raw (README and `--help`): controls other than the line
/// feeds between lines, line and paragraph separators, bidirectional embeddings, overrides and
/// isolates, and the invisible characters (soft hyphen, zero width space, marks, word joiner, byte
/// order mark, fillers, joiners that join nothing) that would make two texts look the same.
func rawControlCharacters(in text: String) -> [String] {
    // The context-free ones, and U+200C/U+200D between two ASCII characters (where they join nothing).
    let invisible: Set<UInt32> = [
        0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x180E, 0x200B, 0x200E, 0x200F, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064,
        0x2065, 0x206A, 0x206B, 0x206C, 0x206D, 0x206E, 0x206F, 0x3164, 0xFEFF, 0xFFA0, 0xFFF9, 0xFFFA, 0xFFFB, 0xE0001,
    ]
    let scalars = Array(text.unicodeScalars)
    func joinsNothing(_ index: Int) -> Bool {
        guard [0x200C, 0x200D].contains(scalars[index].value), index > 0, index + 1 < scalars.count else {
            return false
        }
        return scalars[index - 1].isASCII && scalars[index + 1].isASCII
    }
    var found: [String] = []
    for (index, scalar) in scalars.enumerated() where scalar != "\n" {
        let value = scalar.value
        if scalar.properties.generalCategory == .control || value == 0x2028 || value == 0x2029
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || invisible.contains(value)
            || joinsNothing(index)
        {
            found.append(String(format: "U+%04X", value))
        }
    }
    return found
}
