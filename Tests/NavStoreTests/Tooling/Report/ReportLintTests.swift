import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// NavStore.docc/Lint.md and Reports.md: the report shows the findings of `navdb lint` (the same library API), each
/// version naming those that hold there.
@Suite("Report: lint findings")
struct ReportLintTests {
    @Test(
        "the findings are lint's, and each version names exactly those that hold there",
        arguments: [UInt64(21), 22, 23], StoreBackend.all)
    func findingsAtEveryVersion(seed: UInt64, backend: StoreBackend) throws {
        let (dir, store) = try SessionReportTests.randomSession(seed: seed, count: 200, on: backend)
        _ = dir
        let lint = try store.lint(sessions: ["s"]).findings
        for (from, to) in [(nil, nil), (Optional(50), Optional(120))] as [(Int?, Int?)] {
            let report = try store.report(session: "s", from: from, to: to) { _ in "" }
            let first = report.versions.first!.version
            let last = report.versions.last!.version
            #expect(
                report.findings == lint.filter { $0.lastVersion >= first && $0.firstVersion <= last }, "seed \(seed)")
            for version in report.drawnVersions {
                let holding = report.findings.indices.filter {
                    report.findings[$0].firstVersion <= version.version
                        && version.version <= report.findings[$0].lastVersion
                }
                #expect(version.findings == holding, "seed \(seed) v\(version.version)")
                #expect(
                    version.findingsStarting
                        == report.findings.indices.filter { report.findings[$0].firstVersion == version.version })
            }
            #expect(
                report.rules.map(\.id)
                    == LintRule.allCases.filter { rule in report.findings.contains { $0.rule == rule } }.map(\.id))
        }
    }

    @Test(
        "a deep stack whose screens repeat 13 back titles: one finding per title, each row named once on the page",
        arguments: StoreBackend.all)
    func repeatingBackTitles(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        try store.startSession("d", at: 0)
        let depth = 1_000
        try store.append(
            contentsOf: (0..<depth).map {
                .push(Entry(id: "e\($0)", item: NavigationItem(title: "Screen \($0)", backButtonTitle: "Back \($0 % 13)")))
            }, session: "d", at: 1)
        let report = try store.report(session: "d") { _ in "" }
        #expect(report.findings.count == 13)
        #expect(report.findings.reduce(0) { $0 + $1.entries.count } == depth - 1)
        #expect(report.findings.allSatisfy { $0.rule == .duplicateMenuRows && $0.current })
    }

    @Test(
        "a blank row is a blank-menu-row finding at the versions it is shown; the index counts findings",
        arguments: StoreBackend.all)
    func blankRow(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        try store.startSession("b", at: 0)
        try store.execute(
            .push(Entry(id: "A", item: NavigationItem(title: "Inbox", backButtonTitle: ""))), session: "b", at: 1)
        try store.execute(.push(Entry(id: "B", item: NavigationItem(title: "Mail"))), session: "b", at: 2)
        try store.execute(.pop(source: .programmatic), session: "b", at: 3)
        let report = try store.report(session: "b") { _ in "" }
        #expect(report.findings.map(\.rule) == [.blankMenuRow])
        #expect(report.drawnVersions.map(\.findings) == [[], [], [0], []])
        #expect(report.drawnVersions[2].backMenu?.first?.blank == true)
        #expect(report.rules == [ReportRule(.blankMenuRow)])
        let index = try store.reportIndex()
        #expect(index.sessions.map { [$0.errors, $0.warnings, $0.infos] } == [[0, 1, 0]])
        let wide = try store.report(session: "b", lint: LintOptions(width: 2)) { _ in "" }
        #expect(wide.findings.map(\.rule) == [.blankMenuRow], "\"\" fits any width: no label-falls-back")
    }
}
