import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// NavStore.docc/Events.md (a state is the fold of the log): random command sequences (every
/// operation, vetoes and refusals included) through the store; at every version the state, back
/// button and back menu read back with `--at v` equal a fold of the log's first v events from
/// scratch.
@Suite("NavigationStore: time travel equals the fold (property)")
struct StoreFoldPropertyTests {
    @Test(
        "state, back button and back menu at every version equal a fold of the events",
        arguments: StoreBackend.each([(UInt64(1), 1), (2, 7), (3, 64)]))
    func everyVersionEqualsFold(seed: UInt64, snapshotInterval: Int, backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions(snapshotInterval: snapshotInterval))
        try store.startSession("s", at: 0)
        var random = RandomCommands(seed: seed)
        var refused = 0
        var vetoed = 0
        var unchanged = 0
        var time: Int64 = 0
        for _ in 0..<400 {
            let command = random.candidate()
            let before = try store.state(session: "s").version
            time += Int64.random(in: 0...3, using: &random.rng)
            do {
                let result = try store.execute(command, session: "s", at: time)
                if result.outcome == .vetoed { vetoed += 1 }
                if result.event == nil {
                    unchanged += 1
                    #expect(result.version == before)
                }
                if let event = result.event { random.state.apply(event.body) }
            } catch {
                guard case .rules = error else { throw error }
                refused += 1
                #expect(try store.state(session: "s").version == before, "a refused command appended nothing")
            }
        }
        let events = try store.allEvents(session: "s")
        #expect(events.map(\.version) == Array(1...events.count), "versions are gapless")
        var folded = SessionState()
        for event in events {
            folded.apply(event.body)
            let read = try store.state(session: "s", at: .version(event.version))
            #expect(read.state == folded, "state at version \(event.version)")
            #expect(read.backButton == folded.backButton, "back button at version \(event.version)")
            #expect(read.backMenu == folded.backMenu, "back menu at version \(event.version)")
            #expect(read.at == event.at)
            // A time point at this event's time gives the newest version at that time.
            let atTime = try store.state(session: "s", at: .time(event.at))
            #expect(atTime.version == events.last(where: { $0.at <= event.at })!.version)
        }
        #expect(folded == random.state)
        #expect(try store.state(session: "s").state == folded, "the projection equals the fold")
        #expect(try store.check().problems == [])
        #expect(try store.rebuild(verify: true).differences == [])
        // The random mix must actually exercise refusals and vetoes, or the property says little.
        #expect(refused > 10)
        #expect(vetoed + unchanged > 0)
    }

    @Test("time points between events, before the first and after the last", arguments: StoreBackend.all)
    func timePoints(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions(snapshotInterval: 4))
        try store.startSession("s", at: 1_000)
        for i in 1...20 {
            // Two events share each time, so "the last event at or before T" must pick the later.
            try store.execute(.push(.titled("E\(i)", "T\(i)")), session: "s", at: 1_000 + Int64((i + 1) / 2) * 100)
        }
        #expect(try store.state(session: "s", at: .time(1_000)).version == 1)
        #expect(try store.state(session: "s", at: .time(1_100)).version == 3)
        #expect(try store.state(session: "s", at: .time(1_150)).version == 3)
        #expect(try store.state(session: "s", at: .time(1_199)).version == 3)
        #expect(try store.state(session: "s", at: .time(1_200)).version == 5)
        #expect(try store.state(session: "s", at: .time(9_999_999)).version == 21)
        #expect(
            throws: StoreError.pointOutOfRange(
                session: "s", point: "time \(Timestamp.format(999))",
                accepted:
                    "times from \(Timestamp.format(1_000)), when the session began; later times give the newest state")
        ) {
            try store.state(session: "s", at: .time(999))
        }
        var versions: [Int] = []
        try store.events(session: "s", filter: EventFilter(since: 1_150, until: 1_300)) { versions.append($0.version) }
        #expect(versions == [4, 5, 6, 7])
    }
}
