import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// A stack deeper than the snapshot interval stretches the interval, so the bytes
/// snapshots take per event stay bounded (storage linear in events), while every historical read
/// still equals the fold and `rebuild --verify` accepts the snapshots it finds.
@Suite("NavigationStore: storage stays linear in events however deep the stack")
struct DeepStackStorageTests {
    @Test("the snapshot interval stretches to the smallest power-of-two multiple at least the entry count")
    func intervalRule() {
        var options = StoreOptions()
        options.snapshotInterval = 4
        func state(depth: Int) -> SessionState {
            SessionState(layers: [Layer(entries: (0..<depth).map { Entry.titled("E\($0)") })])
        }
        #expect(options.isSnapshotVersion(4, of: state(depth: 3)))
        #expect(options.isSnapshotVersion(4, of: state(depth: 4)))
        #expect(!options.isSnapshotVersion(4, of: state(depth: 5)), "depth 5 needs an interval of 8")
        #expect(options.isSnapshotVersion(8, of: state(depth: 5)))
        #expect(!options.isSnapshotVersion(24, of: state(depth: 20)), "depth 20 needs an interval of 32")
        #expect(options.isSnapshotVersion(32, of: state(depth: 20)))
        #expect(!options.isSnapshotVersion(3, of: state(depth: 0)))
    }

    @Test(
        "a 300-deep stack with interval 4: snapshots bounded, every version equals the fold, check and verify clean",
        arguments: StoreBackend.all)
    func deepStack(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let options = fastOptions(snapshotInterval: 4)
        let store = try makeStore(dir, on: backend, options: options)
        try store.startSession("s", at: 0)
        for i in 1...300 { try store.execute(.push(.titled("E\(i)", "Screen \(i)")), session: "s", at: Int64(i)) }
        // A few pops and pushes so the depth also shrinks.
        for i in 301...340 {
            try store.execute(.pop(source: .programmatic, confirmed: false), session: "s", at: Int64(i))
        }

        let events = try store.allEvents(session: "s")
        var folded = SessionState()
        var snapshotEntries = 0
        for event in events {
            folded.apply(event.body)
            if options.isSnapshotVersion(event.version, of: folded) {
                snapshotEntries += folded.layers.reduce(0) { $0 + $1.entries.count }
            }
            let read = try store.state(session: "s", at: .version(event.version))
            #expect(read.state == folded, "state at version \(event.version)")
        }
        // Every snapshot holds at most about twice as many entries as the events since the one before
        // it; with the plain interval of 4 this session would store about 300 × 300 / 8 entries.
        #expect(snapshotEntries <= 3 * events.count, "snapshot entries \(snapshotEntries) for \(events.count) events")
        #expect(try store.check().problems == [])
        let differences = try store.rebuild(verify: true).differences
        #expect(differences == [], "\(differences)")
    }
}
