import NavStore
import NavStoreTools

/// 3. One `navdb push` as a whole process against `sqlite3 FILE "INSERT ..."` as a whole process,
/// with `navdb --version` (start-up alone) beside it.
enum ProcessBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let name = "navdb push as a process"
        let options = context.options
        let navdb = options.navdb ?? (directoryName(currentExecutablePath()) + "/navdb")
        guard isExecutable(navdb) else {
            return [
                .skipped(
                    "3", name, reason: "no executable navdb at \(displayPath(navdb)) (build it, or pass --navdb PATH)")
            ]
        }
        guard let sqlite3 = findOnPath("sqlite3") else {
            return [
                .skipped("3", name, reason: "the sqlite3 command-line shell is not installed (apt-get install sqlite3)")
            ]
        }
        let rounds = options.small ? 5 : 150
        return try TempDirectory.with("process") { dir in
            let commands = Commands(
                navdb: navdb, sqlite3: sqlite3, storePath: dir.file("navdb.sqlite"), rawPath: dir.file("raw.sqlite"),
                errors: dir.file("stderr.txt"), synchronous: context.synchronous)
            try commands.createFiles(sessions: rounds + warmup)
            let samples = try timeRounds(commands, rounds: rounds)
            return figures(samples, rounds: rounds, navdb: navdb)
        }
    }

    /// Rounds run first and not kept.
    private static let warmup = 3

    /// The depth of the stack each round's push lands on: a screen four levels down.
    static let stackDepth = 4

    /// Wall-clock and CPU seconds of the runs of one command.
    private struct Samples {
        var wall: [Double] = []
        var cpu: [Double] = []
    }

    /// The samples of the four commands timed.
    private struct AllSamples {
        var push = Samples()
        var shell = Samples()
        var version = Samples()
        var shellVersion = Samples()
    }

    /// The two executables and the files they work on.
    private struct Commands {
        var navdb: String
        var sqlite3: String
        var storePath: String
        var rawPath: String
        var errors: String
        var synchronous: String

        /// Creates the store with one session per round, `s0`, `s1`..., each with a stack of
        /// ``stackDepth`` entries, so that every round pushes onto the same depth; and the raw
        /// baseline with a session's first row.
        func createFiles(sessions: Int) throws {
            do {
                let store = try NavigationStore(path: storePath)
                for session in 0..<sessions {
                    try store.startSession("s\(session)")
                    try store.append(
                        contentsOf: (0..<ProcessBench.stackDepth).map { depth in
                            .push(Entry(id: "level-\(depth)", item: NavigationItem(title: "Level \(depth)")))
                        }, session: "s\(session)")
                }
            }
            let db = try RawDatabase.createBaseline(path: rawPath, synchronous: synchronous)
            try db.insert(
                SessionWorkload(key: "s", events: 1, seed: 3).rawRows(sessionID: 1, seed: 3)[...],
                oneTransaction: false)
        }

        /// Runs `path` with `arguments`, and keeps its times in `samples` after the warm-up.
        func run(_ path: String, _ arguments: [String], into samples: inout Samples, _ round: Int) throws {
            let result = try spawnAndWait(path, arguments, stderrPath: errors)
            guard result.status == 0 else {
                let message = readSmallFile(errors)?.split(separator: "\n").first.map(String.init) ?? ""
                throw BenchError("\(path) \(arguments.joined(separator: " ")) exited with \(result.status): \(message)")
            }
            if round >= warmup {
                samples.wall.append(result.seconds)
                samples.cpu.append(result.cpuSeconds)
            }
        }
    }

    /// Runs `navdb push`, `sqlite3 FILE "INSERT ..."`, `navdb --version` and `sqlite3 -version`
    /// once each per round, the order rotated every round.
    private static func timeRounds(_ commands: Commands, rounds: Int) throws -> AllSamples {
        var samples = AllSamples()
        var random = SeededRandom(seed: 3_000)
        let synchronous = commands.synchronous
        let pragma = synchronous == "full" ? "" : "PRAGMA synchronous=\(synchronous.uppercased()); "
        for round in 0..<(rounds + warmup) {
            let id = "screen-\(round)"
            let pushArguments = [
                "--db", commands.storePath, "push", "s\(round)", id, "--title", "Screen \(round)", "--route",
                "app://screen/\(round)",
            ]
            let payload =
                #"{"entry":{"id":"\#(id)","item":{"title":"Screen \#(round)"},"route":"app://screen/\#(round)"}}"#
            let insert =
                "\(pragma)INSERT INTO events (session, version, type, at, event_id, payload) VALUES "
                + "(1, \(round + 2), 'entry.pushed', \(1_767_225_600_000 + Int64(round) * 1000), '\(random.uuidText(milliseconds: 1_767_225_600_000 + Int64(round) * 1000))', '\(payload)')"
            let steps: [() throws -> Void] = [
                { try commands.run(commands.navdb, pushArguments, into: &samples.push, round) },
                { try commands.run(commands.sqlite3, [commands.rawPath, insert], into: &samples.shell, round) },
                { try commands.run(commands.navdb, ["--version"], into: &samples.version, round) },
                { try commands.run(commands.sqlite3, ["-version"], into: &samples.shellVersion, round) },
            ]
            // Rotate the order every round so that no command always follows another.
            for step in 0..<steps.count { try steps[(step + round) % steps.count]() }
        }
        return samples
    }

    /// Rows 3 and 3b.
    private static func figures(_ samples: AllSamples, rounds: Int, navdb: String) -> [Figure] {
        let (push, shell, version, shellVersion) = (samples.push, samples.shell, samples.version, samples.shellVersion)
        let ours = median(push.wall) * 1e3
        let base = median(shell.wall) * 1e3
        let oursCPU = median(push.cpu) * 1e3
        let baseCPU = median(shell.cpu) * 1e3
        return [
            .ratio(
                "3", "navdb push, whole process", ours: ours, unit: "ms",
                baselineName: "sqlite3 FILE \"INSERT ...\"",
                // A guard at the row's floor (BENCHMARKS.md, "Guards"): above it is a regression.
                baseline: base, ratio: median(zip(push.wall, shell.wall).map { $0 / $1 }), target: .atMost(1.15),
                extra: [
                    "navdb --version ms": median(version.wall) * 1e3,
                    "sqlite3 -version ms": median(shellVersion.wall) * 1e3,
                    "navdb push p90 ms": quantile(push.wall, 0.9) * 1e3,
                    "sqlite3 insert p90 ms": quantile(shell.wall, 0.9) * 1e3,
                    "ratio of medians": ours / base,
                ],
                note:
                    "wall clock, medians of \(rounds) rotated rounds (ratio: median of the rounds' ratios) after \(warmup) warm-up, each push onto its own session's stack of \(stackDepth); navdb at \(displayPath(navdb)) (\(linkage(of: navdb)))"
            ),
            .ratio(
                "3b", "navdb push, CPU time (user+sys)", ours: oursCPU, unit: "ms",
                baselineName: "sqlite3 FILE \"INSERT ...\"",
                baseline: baseCPU, ratio: median(zip(push.cpu, shell.cpu).map { $0 / $1 }), target: .none,
                extra: [
                    "navdb --version CPU ms": median(version.cpu) * 1e3,
                    "sqlite3 -version CPU ms": median(shellVersion.cpu) * 1e3,
                ],
                note: "from wait4's rusage: no fsync waits, no other processes; shows the CPU work behind row 3"),
        ]
    }

    /// How `path` is linked, from the start of the file (where `.interp` and `.dynstr` live):
    /// whether it needs the dynamic loader at all, and whether it loads the Swift runtime as a
    /// shared library (the start-up cost `--static-swift-stdlib` removes).
    static func linkage(of path: String) -> String {
        guard let file = fopen(path, "r") else { return "linkage unknown" }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 4 << 20)
        let count = fread(&bytes, 1, bytes.count, file)
        func contains(_ text: String) -> Bool {
            let needle = Array(text.utf8)
            guard count >= needle.count else { return false }
            var i = 0
            while i <= count - needle.count {
                if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return true }
                i += 1
            }
            return false
        }
        if !contains("ld-linux") { return "fully static" }
        return contains("libswiftCore.so") ? "Swift runtime linked dynamically" : "Swift runtime linked statically"
    }
}
