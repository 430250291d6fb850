import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// NavStore.docc/PlatformGenerations.md and Reports.md: a report resolves its labels under the session's recorded
/// generation, or
/// under another one when asked (a what-if page); the menus and the stacks do not change.
@Suite("Report: platform generations")
struct ReportPlatformTests {
    @Test(
        "a what-if report's labels are the store's what-if reads at every version", arguments: [UInt64(31), 32],
        StoreBackend.all)
    func whatIf(seed: UInt64, backend: StoreBackend) throws {
        let (dir, store) = try SessionReportTests.randomSession(seed: seed, count: 150, on: backend)
        _ = dir
        let recorded = try store.report(session: "s") { _ in "" }
        let whatIf = try store.report(session: "s", platform: .ios26) { _ in "" }
        #expect(recorded.platform == .ios14 && recorded.recordedPlatform == .ios14)
        #expect(whatIf.platform == .ios26 && whatIf.recordedPlatform == .ios14)
        var differ = 0
        for (version, original) in zip(whatIf.drawnVersions, recorded.drawnVersions) {
            let read = try store.state(session: "s", at: .version(version.version)).resolved(under: .ios26)
            #expect(version.backButton?.label == read.backButton?.label, "seed \(seed) v\(version.version)")
            #expect(version.backButton?.fallbacks == read.backButton?.fallbacks, "seed \(seed) v\(version.version)")
            #expect(version.backMenu == original.backMenu, "the menu is the same under both generations")
            if version.backButton != original.backButton { differ += 1 }
        }
        #expect(differ > 0, "seed \(seed): the generations tell some label apart")
        #expect(whatIf.findings == recorded.findings, "lint findings are of the recorded history")
    }

    @Test("an ios26 session's report resolves under ios26, and a what-if under ios14", arguments: StoreBackend.all)
    func recordedGeneration(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions())
        try store.startSession("n", platform: .ios26, at: 0)
        try store.execute(.push(Entry(id: "A", item: NavigationItem(title: "Inbox"))), session: "n", at: 1)
        try store.execute(.push(Entry(id: "B", item: NavigationItem(title: "Mail"))), session: "n", at: 2)
        let own = try store.report(session: "n") { _ in "" }
        #expect(own.platform == .ios26 && own.recordedPlatform == .ios26)
        #expect(own.drawnVersions.last?.backButton?.label == "", "iOS 26: the back item's title no longer labels the button")
        let old = try store.report(session: "n", platform: .ios14) { _ in "" }
        #expect(old.drawnVersions.last?.backButton?.label == "Inbox")
        #expect(old.drawnVersions.last?.backMenu?.map(\.title) == ["Inbox"])
    }
}
