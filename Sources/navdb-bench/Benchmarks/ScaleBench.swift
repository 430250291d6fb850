import NavStore
import NavStoreTools

/// 12. Report and lint at scale (NavStore.docc/Reports.md, Lint.md): `navdb report` of a
/// 20,000-event session whose stack goes 1-30 deep against `navdb history --json` of the same
/// session (time, bytes per event, peak memory); lint and report of a 16,000-deep stack against
/// a shallow session of as many events; lint's peak memory over more than 60,000 findings; and
/// (12h-12k, `ScaleBench+BackTitles.swift`) the same report and lint of sessions whose screens
/// repeat 13 back titles. Each figure is a whole `navdb` process, as a user runs it.
enum ScaleBench {
    static let name = "report and lint at scale"

    static func run(_ context: BenchContext) throws -> [Figure] {
        let options = context.options
        let navdb = options.navdb ?? (directoryName(currentExecutablePath()) + "/navdb")
        guard isExecutable(navdb) else {
            return [.skipped("12", name, reason: "no executable navdb at \(displayPath(navdb)) (build it, or pass --navdb PATH)")]
        }
        let rounds = options.small ? 1 : 3
        let (mid, deep, findings) = (options.size(20_000), options.size(16_000), options.size(64_000))
        return try TempDirectory.with("scale") { dir in
            let path = dir.file("scale.sqlite")
            let store = try NavigationStore(path: path)
            for lines in [
                sessionLines("mid", events: mid, maximumDepth: 30), sessionLines("deep", events: deep, maximumDepth: .max),
                sessionLines("shallow", events: deep, maximumDepth: 3), findingLines("findings", events: findings),
            ] {
                _ = try store.importNDJSON(lines: lines)
            }
            let measured = try measure(navdb: navdb, database: path, in: dir, rounds: rounds)
            let figures = measured.figures(mid: mid, deep: deep, findings: findings, rounds: rounds)
            return figures + (try backTitleFigures(navdb: navdb, in: dir, rounds: rounds, mid: mid, deep: deep))
        }
    }

    /// Runs `navdb` on one database, as a user runs it, and times it.
    struct Runner {
        var navdb: String
        var database: String
        var rounds: Int

        /// One run of `navdb --db DATABASE arguments`, its stdout written to `stdout`.
        /// - Throws: when it exits with a failure (lint's 2, a finding, is not one).
        func run(_ arguments: [String], stdout: String = "/dev/null") throws -> SpawnResult {
            let result = try spawnAndWait(navdb, ["--db", database] + arguments, stdoutPath: stdout)
            guard result.status == 0 || (result.status == 2 && arguments.first == "lint") else {
                throw BenchError("navdb \(arguments.joined(separator: " ")) exited with \(result.status)")
            }
            return result
        }

        /// ``rounds`` runs: the median wall and CPU times, the largest peak memory.
        func best(_ arguments: [String], stdout: String = "/dev/null") throws -> SpawnResult {
            var results: [SpawnResult] = []
            for _ in 0..<rounds { results.append(try run(arguments, stdout: stdout)) }
            let seconds = median(results.map(\.seconds))
            return SpawnResult(
                status: 0, seconds: seconds, cpuSeconds: median(results.map(\.cpuSeconds)),
                peakKiB: results.map(\.peakKiB).max() ?? 0)
        }
    }

    /// What a run measured: the navdb processes timed, each the median of its rounds (peak
    /// memory the largest; the lint of many findings runs once), and the sizes of their pages.
    private struct Measurements {
        var history: SpawnResult
        var report: SpawnResult
        var midBytes: Int
        var reportDeep: SpawnResult
        var reportShallow: SpawnResult
        var deepBytes: Int
        var shallowBytes: Int
        var lintDeep: SpawnResult
        var lintShallow: SpawnResult
        var lintMany: SpawnResult
        /// The findings the lint of many findings printed.
        var found: Int

        /// The figures 12a-12g of what was measured, for sessions of `mid`, `deep` and `findings`
        /// events, each process timed over `rounds` runs.
        func figures(mid: Int, deep: Int, findings: Int, rounds: Int) -> [Figure] {
            let note = "median of \(rounds) runs of a whole navdb process each"
            return [
                .ratio(
                    "12a", "report, \(mid) events at depth 1-30", ours: report.seconds, unit: "s",
                    baselineName: "history --json of the same session", baseline: history.seconds,
                    ratio: report.seconds / history.seconds, target: .atMost(4),
                    extra: ["cpu ratio": report.cpuSeconds / max(history.cpuSeconds, 1e-9)], note: note),
                .absolute(
                    "12b", "report page bytes per event, the same session", ours: Double(midBytes) / Double(mid),
                    unit: "B/ev", target: .atMost(600), extra: ["page MB": Double(midBytes) / 1e6],
                    note: "each version holds what changed; a keyframe every max(64, 2 x depth) versions"),
                .absolute(
                    "12c", "report peak memory, the same session", ours: Double(report.peakKiB) / 1024, unit: "MiB",
                    baselineName: "history --json", baseline: Double(history.peakKiB) / 1024, target: .atMost(128),
                    note: "ru_maxrss of the navdb process"),
                .ratio(
                    "12d", "lint, \(deep) deep vs \(deep) shallow", ours: lintDeep.seconds, unit: "s",
                    baselineName: "lint of the shallow session", baseline: lintShallow.seconds,
                    ratio: lintDeep.seconds / lintShallow.seconds, target: .atMost(2), note: note),
                .ratio(
                    "12e", "report, \(deep) deep vs \(deep) shallow", ours: reportDeep.seconds, unit: "s",
                    baselineName: "report of the shallow session", baseline: reportShallow.seconds,
                    ratio: reportDeep.seconds / reportShallow.seconds, target: .atMost(2),
                    extra: ["deep page / shallow page": Double(deepBytes) / Double(max(shallowBytes, 1))], note: note),
                .ratio(
                    "12f", "report page bytes, \(deep) deep vs \(deep) shallow", ours: Double(deepBytes) / 1e6,
                    unit: "MB", baselineName: "the shallow session's page", baseline: Double(shallowBytes) / 1e6,
                    ratio: Double(deepBytes) / Double(max(shallowBytes, 1)), target: .atMost(2)),
                .absolute(
                    "12g", "lint --json peak memory over \(found) findings", ours: Double(lintMany.peakKiB) / 1024,
                    unit: "MiB", target: .atMost(64),
                    extra: ["findings": Double(found), "seconds": lintMany.seconds],
                    note: "findings stream out as they end; \(findings) events"),
            ]
        }
    }

    /// Runs `navdb` on the database at `path` (sessions `mid`, `deep`, `shallow` and `findings`),
    /// its pages and findings written into `dir`: each timed process `rounds` times, as a user runs it.
    private static func measure(navdb: String, database path: String, in dir: TempDirectory, rounds: Int) throws
        -> Measurements
    {
        let runner = Runner(navdb: navdb, database: path, rounds: rounds)
        func run(_ arguments: [String], stdout: String = "/dev/null") throws -> SpawnResult {
            try runner.run(arguments, stdout: stdout)
        }
        func best(_ arguments: [String]) throws -> SpawnResult { try runner.best(arguments) }
        func pageBytes(_ key: String) throws -> Int { Int(fileSize(dir.file("\(key).html"))) }
        let history = try best(["history", "mid", "--json"])
        let report = try best(["report", "mid", "-o", dir.file("mid.html")])
        let midBytes = try pageBytes("mid")
        let reportDeep = try best(["report", "deep", "-o", dir.file("deep.html")])
        let reportShallow = try best(["report", "shallow", "-o", dir.file("shallow.html")])
        let (deepBytes, shallowBytes) = (try pageBytes("deep"), try pageBytes("shallow"))
        let lintDeep = try best(["lint", "deep", "--fail-on", "never"])
        let lintShallow = try best(["lint", "shallow", "--fail-on", "never"])
        let lintMany = try run(["lint", "findings", "--json", "--fail-on", "never"], stdout: dir.file("findings.json"))
        let found = try countFindings(dir.file("findings.json"))
        return Measurements(
            history: history, report: report, midBytes: midBytes, reportDeep: reportDeep, reportShallow: reportShallow,
            deepBytes: deepBytes, shallowBytes: shallowBytes, lintDeep: lintDeep, lintShallow: lintShallow,
            lintMany: lintMany, found: found)
    }

    /// A small seeded generator (SplitMix64), so every run builds the same sessions.
    struct Seeded {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// One export line.
    private static func line(_ key: String, _ version: Int, _ type: String, _ payload: String) -> String {
        let id = UUID().uuidString.lowercased()
        return
            #"{"at":\#(1_767_225_600_000 + Int64(version) * 1_000),"eventID":"\#(id)","payload":\#(payload),"session":"\#(key)","type":"\#(type)","version":\#(version)}"#
    }

    /// A session of `events` events: pushes and pops (one, or up to three at once) that keep the
    /// stack between 1 and `maximumDepth` deep, and a title update now and then; every 50th
    /// screen has the title "" (a blank back-menu row below the screens pushed on it). `maximumDepth`
    /// `.max` pushes only. With `backTitles`, screen n also has the back title `Back n % backTitles`,
    /// which its back-menu row says instead (rows repeating their titles); the rest is the same.
    static func sessionLines(_ key: String, events: Int, maximumDepth: Int, backTitles: Int? = nil) -> [String] {
        var random = Seeded(state: key.utf8.reduce(12) { $0 &* 31 &+ UInt64($1) })
        var lines = [line(key, 1, "session.started", #"{"platform":"ios14"}"#)]
        var stack: [Int] = []
        var next = 0
        for version in 2...events {
            if maximumDepth != .max, stack.count >= 2, stack.count >= maximumDepth || random.next(100) < 45 {
                let count = random.next(10) == 0 ? min(stack.count - 1, 1 + random.next(3)) : 1
                let ids = stack.suffix(count).map { "\"e\($0)\"" }.joined(separator: ",")
                stack.removeLast(count)
                lines.append(
                    line(key, version, "entries.popped", #"{"ids":[\#(ids)],"source":"\#(count == 1 ? "back-button" : "programmatic")"}"#))
            } else if maximumDepth != .max, !stack.isEmpty, random.next(100) < 5 {
                let id = stack[random.next(stack.count)]
                // The title alone changes: the item keeps its back title.
                let back = backTitles.map { #""backButtonTitle":"Back \#(id % $0)","# } ?? ""
                lines.append(
                    line(
                        key, version, "item.updated",
                        #"{"fields":["title"],"id":"e\#(id)","item":{\#(back)"title":"Updated \#(version)"}}"#))
            } else {
                next += 1
                stack.append(next)
                let title = next % 50 == 0 ? #""title":"""# : #""title":"Screen \#(next)""#
                let item = backTitles.map { #"{"backButtonTitle":"Back \#(next % $0)",\#(title)}"# } ?? "{\(title)}"
                lines.append(line(key, version, "entry.pushed", #"{"entry":{"id":"e\#(next)","item":\#(item)}}"#))
            }
        }
        return lines
    }

    /// A session with a finding about every event: an untitled root, and screens pushed on it and
    /// popped, each with a custom back item and a back title UIKit ignores (`untitled-menu-row`
    /// and `ignored-back-setting` each time).
    static func findingLines(_ key: String, events: Int) -> [String] {
        var lines = [
            line(key, 1, "session.started", #"{"platform":"ios14"}"#),
            line(key, 2, "entry.pushed", #"{"entry":{"id":"root","item":{}}}"#),
        ]
        var version = 2
        while version < events {
            version += 1
            let item = #"{"backBarButtonItem":{"title":"Close"},"backButtonTitle":"Back \#(version)","title":"Screen"}"#
            lines.append(line(key, version, "entry.pushed", #"{"entry":{"id":"s\#(version)","item":\#(item)}}"#))
            version += 1
            lines.append(line(key, version, "entries.popped", #"{"ids":["s\#(version - 1)"],"source":"back-button"}"#))
        }
        return lines
    }

    /// The number of findings in a `lint --json` document.
    private static func countFindings(_ path: String) throws -> Int {
        struct Document: Decodable { var findings: [LintFinding] }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(Document.self, from: data).findings.count
    }
}
