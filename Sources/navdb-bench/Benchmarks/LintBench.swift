import NavStore
import NavStoreTools

/// 8. `lint` of every session (NavStore.docc/Lint.md) against the fold alone (the same events read through
/// the store and applied, nothing judged) and against a bare read of the same rows with the C
/// API; and the peak memory of a process that only lints.
enum LintBench {
    static func run(_ context: BenchContext) throws -> [Figure] {
        let log = ManySessionsLog(context.options)
        return try TempDirectory.with("lint") { dir in
            let path = dir.file("lint.sqlite")
            let store = try log.build(path: path, seed: 8_000)
            let keys = try store.sessionKeys()
            let reader = try RawDatabase(path: path)
            let timings = try timeRounds(store, keys: keys, reader: reader, rounds: log.rounds)
            guard timings.folded == log.events, timings.summary.events == log.events else {
                throw BenchError(
                    "folded \(timings.folded) and linted \(timings.summary.events) events, expected \(log.events)")
            }
            let child = try lintChild(path: path, dir: dir)
            guard child.events == log.events else {
                throw BenchError("the lint child linted \(child.events) events, expected \(log.events)")
            }
            return figures(timings, child: child, log: log)
        }
    }

    /// The seconds of each round's bare read, fold and lint, and what the last fold and lint saw.
    private struct Timings {
        var bare: [Double] = []
        var fold: [Double] = []
        var lint: [Double] = []
        var folded = 0
        var summary = LintSummary()
    }

    /// Times the bare read, the fold and the lint of the whole log, `rounds` times, the order
    /// rotated each round.
    private static func timeRounds(
        _ store: NavigationStore, keys: [String], reader: RawDatabase, rounds: Int
    ) throws -> Timings {
        let lintOptions = LintOptions(width: 20)
        var timings = Timings()
        for round in 0..<rounds {
            var steps: [() throws -> Void] = [
                { timings.bare.append(try measureSeconds { _ = try RebuildBench.bareRead(reader) }) },
                { timings.fold.append(try measureSeconds { timings.folded = try fold(store, keys: keys) }) },
                {
                    timings.lint.append(
                        try measureSeconds { timings.summary = try store.lint(options: lintOptions) { _ in } })
                },
            ]
            for _ in 0..<(round % 3) { steps.append(steps.removeFirst()) }
            for step in steps { try step() }
        }
        return timings
    }

    /// Reads each session's events through `store.events(session:)` and applies them, nothing
    /// judged or written; returns the number of events folded.
    private static func fold(_ store: NavigationStore, keys: [String]) throws -> Int {
        var folded = 0
        for key in keys {
            var state = SessionState()
            try store.events(session: key) { event in
                state.apply(event.body)
                folded += 1
            }
        }
        return folded
    }

    /// Rows 8a, 8b and 8c.
    private static func figures(_ timings: Timings, child: LintChild.Result, log: ManySessionsLog) -> [Figure] {
        let events = Double(log.events)
        let (bare, fold, lint, summary) = (timings.bare, timings.fold, timings.lint, timings.summary)
        let bareRate = events / median(bare)
        let foldRate = events / median(fold)
        let lintRate = events / median(lint)
        let label = "\(log.events) events in \(log.sessions) sessions"
        let note =
            "medians of \(log.rounds) rounds, order rotated each round; ratio = median of the rounds' ratios; bare read as in 5"
        return [
            .ratio(
                "8a", "fold, \(label)", ours: foldRate, unit: "ev/s", baselineName: "bare read of the log",
                baseline: bareRate,
                ratio: pairedRateRatio(ours: fold, baseline: bare), target: .none,
                extra: ["ratio of medians": foldRate / bareRate],
                note:
                    "fold: each session's events through store.events(session:), decoded and applied, nothing written; \(note)"
            ),
            .ratio(
                "8b", "lint, \(label)", ours: lintRate, unit: "ev/s", baselineName: "the fold alone (8a)",
                baseline: foldRate,
                ratio: pairedRateRatio(ours: lint, baseline: fold), target: .atLeast(0.5),
                extra: [
                    "ratio of medians": lintRate / foldRate, "findings": Double(summary.findings),
                    "vs bare read": lintRate / bareRate,
                ],
                note: "store.lint(options: all rules, width 20) of every session, findings discarded; \(note)"),
            .absolute(
                "8c", "lint peak memory, \(label)", ours: Double(child.peakKiB) / 1024, unit: "MiB",
                baselineName: "the child before opening", baseline: Double(child.startPeakKiB) / 1024,
                target: .atMost(64),
                extra: [
                    "lint ev/s": Double(child.events) / child.seconds,
                    "peak - start MiB": Double(child.peakKiB - child.startPeakKiB) / 1024,
                ],
                note: "VmHWM of a child process that only opens the store and lints every session"),
        ]
    }

    /// Runs ``LintChild`` on `path` and reads its result.
    static func lintChild(path: String, dir: TempDirectory) throws -> LintChild.Result {
        let output = dir.file("lint-result.json")
        let child = try spawnAndWait(
            currentExecutablePath(), [LintChild.subcommand, path, output],
            stdoutPath: "/dev/null", stderrPath: dir.file("lint-child-stderr.txt"))
        guard child.status == 0, let text = readSmallFile(output) else {
            throw BenchError(
                "the lint child exited with \(child.status): \(readSmallFile(dir.file("lint-child-stderr.txt")) ?? "")")
        }
        return try JSONDecoder().decode(LintChild.Result.self, from: Data(text.utf8))
    }
}

/// The hidden subcommand `__lint-child DB RESULT`: opens the store, lints every session
/// (findings counted, not kept), and writes its peak memory as JSON.
enum LintChild {
    static let subcommand = "__lint-child"

    struct Result: Codable {
        var events: Int
        var findings: Int
        var seconds: Double
        var startPeakKiB: Int
        var peakKiB: Int
    }

    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2 else {
            fputs("usage: navdb-bench \(subcommand) DB RESULT\n", Platform.standardError)
            return 64
        }
        let startPeak = peakResidentKiB()
        do {
            var summary = LintSummary()
            let seconds = try measureSeconds {
                let store = try NavigationStore(path: arguments[0], create: false)
                summary = try store.lint(options: LintOptions(width: 20)) { _ in }
            }
            let result = Result(
                events: summary.events, findings: summary.findings, seconds: seconds,
                startPeakKiB: startPeak, peakKiB: peakResidentKiB())
            let writer = try LineWriter(path: arguments[1])
            writer.write(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
            writer.close()
            return 0
        } catch {
            fputs("Error: \(error)\n", Platform.standardError)
            return 1
        }
    }
}
