import NavStore
import NavStoreTools

/// 12h-12k: row 12's report and lint over sessions whose screens repeat 13 back titles, so that
/// every back-menu row shares its title with a thirteenth of the others: `duplicate-menu-rows`
/// groups that grow with the depth (a 16,000-deep stack has 13 of about 1,230 rows each). The
/// sessions are 12a's and 12d's, each screen given the back title `Back n % 13`, in a database of
/// their own so that rows 12a-12g measure what they always did.
extension ScaleBench {
    /// How many back titles the screens cycle through.
    static let backTitleCount = 13

    /// The figures 12h-12k: the report of a `mid`-event session at depth 1-30 (bytes per event),
    /// and lint and report of a `deep`-deep stack against a shallow session of as many events,
    /// the screens repeating their back titles; each process timed over `rounds` runs, its
    /// output written to a file in `dir` (lint's too: its size is the point).
    static func backTitleFigures(navdb: String, in dir: TempDirectory, rounds: Int, mid: Int, deep: Int) throws
        -> [Figure]
    {
        let path = dir.file("titles.sqlite")
        let store = try NavigationStore(path: path)
        for lines in [
            sessionLines("mid", events: mid, maximumDepth: 30, backTitles: backTitleCount),
            sessionLines("deep", events: deep, maximumDepth: .max, backTitles: backTitleCount),
            sessionLines("shallow", events: deep, maximumDepth: 3, backTitles: backTitleCount),
        ] {
            _ = try store.importNDJSON(lines: lines)
        }
        let runner = Runner(navdb: navdb, database: path, rounds: rounds)
        func output(_ name: String) -> String { dir.file("titles-\(name)") }
        let report = try runner.best(["report", "mid", "-o", output("mid.html")])
        let reportDeep = try runner.best(["report", "deep", "-o", output("deep.html")])
        let reportShallow = try runner.best(["report", "shallow", "-o", output("shallow.html")])
        let lintDeep = try runner.best(["lint", "deep", "--fail-on", "never"], stdout: output("deep.txt"))
        let lintShallow = try runner.best(["lint", "shallow", "--fail-on", "never"], stdout: output("shallow.txt"))
        let lintJSON = try runner.run(["lint", "deep", "--json", "--fail-on", "never"], stdout: output("deep.json"))
        let bytes = { (name: String) in Double(fileSize(output(name))) }
        let note = "median of \(rounds) runs of a whole navdb process each; screens repeat \(backTitleCount) back titles"
        return [
            .absolute(
                "12h", "report page bytes per event, \(mid) events at depth 1-30, back titles repeating",
                ours: bytes("mid.html") / Double(mid), unit: "B/ev", target: .atMost(600),
                extra: ["page MB": bytes("mid.html") / 1e6, "report s": report.seconds], note: note),
            .ratio(
                "12i", "lint, \(deep) deep vs \(deep) shallow, back titles repeating", ours: lintDeep.seconds,
                unit: "s", baselineName: "lint of the shallow session", baseline: lintShallow.seconds,
                ratio: lintDeep.seconds / lintShallow.seconds, target: .atMost(2),
                extra: ["deep output KB": bytes("deep.txt") / 1e3, "shallow output KB": bytes("shallow.txt") / 1e3],
                note: note + "; stdout written to a file"),
            .ratio(
                "12j", "report, \(deep) deep vs \(deep) shallow, back titles repeating", ours: reportDeep.seconds,
                unit: "s", baselineName: "report of the shallow session", baseline: reportShallow.seconds,
                ratio: reportDeep.seconds / reportShallow.seconds, target: .atMost(2),
                extra: ["deep page / shallow page": bytes("deep.html") / max(bytes("shallow.html"), 1)], note: note),
            .absolute(
                "12k", "lint --json bytes per event, \(deep) deep, back titles repeating",
                ours: bytes("deep.json") / Double(deep), unit: "B/ev", target: .none,
                extra: ["output MB": bytes("deep.json") / 1e6, "seconds": lintJSON.seconds],
                note: "one run; grows with the events alone when a growing finding states its rows once"),
        ]
    }
}
