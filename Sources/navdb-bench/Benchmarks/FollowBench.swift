import NavStore
import NavStoreTools

/// 11. `navdb follow`, from a writer's commit to the follower's line (README, "Reading the past"): the bench
/// appends one event at a time, each after a pause in which the follower waits idle, and times
/// from the moment the commit returned to the moment the follower's line for it arrives on the
/// pipe. (11a) SQLite, (11b) PostgreSQL when a server is named. The baseline is the floor of any
/// line from another process: the same pipe round trip through `cat` (a line written to it and
/// read back). Target: median <= 100 ms; the p99 is beside it.
enum FollowBench {
    static let name = "follow: from a commit to the follower's line"

    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        let navdb = options.navdb ?? (directoryName(currentExecutablePath()) + "/navdb")
        guard isExecutable(navdb) else {
            return [.skipped("11", name, reason: "no executable navdb at \(displayPath(navdb)) (build it, or pass --navdb PATH)")]
        }
        let rounds = options.small ? 10 : 60
        let baseline = try pipeFloor(rounds: rounds)
        var figures: [Figure] = []
        try TempDirectory.with("follow") { dir in
            figures.append(
                try measure(
                    "11a", "follow on SQLite, commit to line", navdb: navdb, database: dir.file("navdb.sqlite"),
                    rounds: rounds, baseline: baseline))
        }
        let environment = ProcessInfo.processInfo.environment
        if let server = environment["NAVDB_BENCH_POSTGRESQL"] ?? environment["NAVDB_TEST_POSTGRESQL"], !server.isEmpty {
            figures.append(
                try measure(
                    "11b", "follow on PostgreSQL, commit to line", navdb: navdb,
                    database: try PostgreSQLBench.freshSchema(server), rounds: rounds, baseline: baseline))
        } else {
            figures.append(
                .skipped(
                    "11b", "follow on PostgreSQL, commit to line",
                    reason: "no PostgreSQL server: set NAVDB_BENCH_POSTGRESQL, or run scripts/with-postgresql.sh navdb-bench"
                ))
        }
        return figures
    }

    /// Milliseconds from each commit to its line, for `rounds` appends to `database`.
    private static func measure(
        _ id: String, _ title: String, navdb: String, database: String, rounds: Int, baseline: [Double]
    ) throws -> Figure {
        let store = try NavigationStore(path: database)
        try store.startSession("s")
        // From version 2: the warm-up push is printed whether it lands before or after the
        // follower's first look, and its line says the follower is running.
        let follower = try LineChild(navdb, ["--db", database, "follow", "s", "--from", "2"])
        defer { follower.stop() }
        try store.execute(.push(Entry(id: "warm", item: NavigationItem(title: "Warm"))), session: "s")
        _ = try follower.readBlock()
        var random = SeededRandom(seed: 11)
        var latencies: [Double] = []
        for round in 0..<rounds {
            // Idle first, as between a user's taps: the follower is waiting, not reading.
            usleep(UInt32(20_000 + random.next() % 30_000))
            try store.execute(
                .push(Entry(id: "screen-\(round)", item: NavigationItem(title: "Screen \(round)"))), session: "s")
            let committed = monotonicNanoseconds()
            _ = try follower.readBlock()
            latencies.append(Double(monotonicNanoseconds() - committed) / 1e6)
        }
        let ours = percentile(latencies, 0.5)
        let floor = percentile(baseline, 0.5)
        return .absolute(
            id, title, ours: ours, unit: "ms median", baselineName: "pipe round trip through cat (ms median)",
            baseline: floor, ratio: ours / max(floor, 0.001), target: .atMost(100),
            extra: ["p99 ms": percentile(latencies, 0.99), "rounds": Double(rounds)],
            note:
                "each commit after 20-50 ms idle; SQLite: PRAGMA data_version every 10 ms; PostgreSQL: LISTEN/NOTIFY from the append's trigger")
    }

    /// Milliseconds of a line written to `cat` and read back, `rounds` times after the same pauses.
    private static func pipeFloor(rounds: Int) throws -> [Double] {
        guard let cat = findOnPath("cat") else { throw BenchError("no cat on PATH") }
        let child = try LineChild(cat, [], stdinPipe: true)
        defer { child.stop() }
        var random = SeededRandom(seed: 11)
        var samples: [Double] = []
        for round in 0..<rounds {
            usleep(UInt32(20_000 + random.next() % 30_000))
            let start = monotonicNanoseconds()
            try child.send("line \(round)\n")
            _ = try child.readLine()
            samples.append(Double(monotonicNanoseconds() - start) / 1e6)
        }
        return samples
    }

    /// The value below which `fraction` of `values` lie (nearest rank).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

/// A child process whose stdout the bench reads line by line (and, for `cat`, whose stdin it
/// writes), stopped with SIGTERM.
final class LineChild {
    private let pid: pid_t
    private let output: Int32
    private let input: Int32?
    private var buffer: [UInt8] = []

    init(_ path: String, _ arguments: [String], stdinPipe: Bool = false) throws {
        var out: [Int32] = [0, 0]
        var inn: [Int32] = [0, 0]
        guard pipe(&out) == 0, !stdinPipe || pipe(&inn) == 0 else { throw BenchError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdinPipe {
            posix_spawn_file_actions_adddup2(&actions, inn[0], 0)
            posix_spawn_file_actions_addclose(&actions, inn[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_addclose(&actions, out[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let code = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(out[1])
        if stdinPipe { close(inn[0]) }
        guard code == 0 else { throw BenchError("cannot run \(path): \(String(cString: strerror(code)))") }
        self.pid = pid
        output = out[0]
        input = stdinPipe ? inn[1] : nil
    }

    /// Writes `text` to the child's stdin.
    func send(_ text: String) throws {
        guard let input else { return }
        let bytes = Array(text.utf8)
        guard write(input, bytes, bytes.count) == bytes.count else { throw BenchError("write to the child failed") }
    }

    /// The next line of the child's stdout (without its newline).
    func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = read(output, &chunk, chunk.count)
            guard count > 0 else { throw BenchError("the child's output ended") }
            buffer += chunk[..<count]
        }
    }

    /// The lines up to the next empty line: one event of `follow`'s human output (the event
    /// line, then the bar).
    func readBlock() throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try readLine()
            if line.isEmpty && !lines.isEmpty { return lines }
            if !line.isEmpty { lines.append(line) }
        }
    }

    /// Ends the child (SIGTERM) and waits for it.
    func stop() {
        if let input { close(input) }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        close(output)
    }
}
