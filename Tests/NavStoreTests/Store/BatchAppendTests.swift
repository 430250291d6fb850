import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("NavigationStore: batch append")
struct BatchAppendTests {
    @Test(
        "a batch's result carries its last event, also when its final commands append nothing",
        arguments: StoreBackend.all)
    func resultEventWhenFinalCommandsChangeNothing(backend: StoreBackend) throws {
        let itemB = NavigationItem(title: "Bé 🚀")
        let setUp: [NavigationCommand] = [
            .push(.titled("A")),
            .push(Entry(id: "B", route: "app://b", params: ["k": .string("v"), "n": .integer(-3)], item: itemB)),
        ]
        let unchanged: [NavigationCommand] = [
            .update(entryID: "A", item: Entry.titled("A").item), .update(entryID: "B", item: itemB),
        ]
        let cases: [([NavigationCommand], String?)] = [
            ([.push(.titled("C"))], "entry.pushed"),
            (unchanged + [.popToRoot], "entries.popped"),
            ([.push(.titled("C")), .popToRoot, .popToRoot] + unchanged.prefix(1), "entries.popped"),
            ([.push(.titled("C"))] + unchanged, "entry.pushed"),
            (unchanged, nil),
            ([], nil),
        ]
        for (commands, type) in cases {
            // An array is walked in place; a lazy sequence walks the generic path.
            for lazy in [false, true] {
                let dir = try TemporaryDirectory()
                let store = try makeStore(dir, on: backend)
                try store.startSession("s", at: 1_000)
                try store.append(contentsOf: setUp, session: "s", at: 2_000)
                let result =
                    lazy
                    ? try store.append(contentsOf: commands.lazy.map { $0 }, session: "s", at: 3_000)
                    : try store.append(contentsOf: commands, session: "s", at: 3_000)
                #expect(result.event?.type == type, "\(commands), lazy: \(lazy)")
                if type != nil {
                    #expect(result.event == (try store.allEvents().last), "\(commands), lazy: \(lazy)")
                    #expect(result.event?.version == result.version)
                    #expect(result.event?.at == 3_000)
                }
            }
        }
    }

    @Test(
        "a batch gives the same history and state as the same commands one by one",
        arguments: StoreBackend.firstOnPostgreSQL([1, 7, 64]))
    func batchEqualsOneByOne(snapshotInterval: Int, backend: StoreBackend) throws {
        var generator = RandomCommands(seed: 42)
        let commands = generator.commands(400)
        let one = try TemporaryDirectory()
        let many = try TemporaryDirectory()
        let single = try makeStore(one, on: backend, options: fastOptions(snapshotInterval: snapshotInterval))
        let batch = try makeStore(many, on: backend, options: fastOptions(snapshotInterval: snapshotInterval))
        for store in [single, batch] { try store.startSession("s", name: "Mail", at: 1_000) }
        for command in commands { try single.execute(command, session: "s", at: 2_000) }
        let result = try batch.append(contentsOf: commands, session: "s", at: 2_000)

        let singleEvents = try single.allEvents()
        let batchEvents = try batch.allEvents()
        #expect(result.version == singleEvents.count)
        #expect(result.event?.version == singleEvents.count)
        #expect(result.event?.body == singleEvents.last?.body)
        #expect(batchEvents.map(\.body) == singleEvents.map(\.body))
        #expect(batchEvents.map(\.version) == singleEvents.map(\.version))
        #expect(batchEvents.map(\.seq) == singleEvents.map(\.seq))
        #expect(batchEvents.map(\.at) == singleEvents.map(\.at))
        #expect(try batch.state(session: "s") == single.state(session: "s"))
        #expect(try batch.sessionInfo("s") == single.sessionInfo("s"))
        for version in stride(from: 1, through: result.version, by: 13) {
            #expect(
                try batch.state(session: "s", at: .version(version)).state
                    == single.state(session: "s", at: .version(version)).state)
        }
        let check = try batch.check()
        #expect(check.isClean, "\(check.problems)")
        // One snapshot at every version the interval rule picks (it stretches for deep stacks).
        var folded = SessionState()
        var expectedSnapshots = 0
        for event in batchEvents {
            folded.apply(event.body)
            if fastOptions(snapshotInterval: snapshotInterval).isSnapshotVersion(event.version, of: folded) {
                expectedSnapshots += 1
            }
        }
        #expect(check.snapshots == expectedSnapshots)
        // Reopened, the projection written once at the end is what a fold of the log gives.
        let reopened = try NavigationStore(path: batch.path)
        #expect(try reopened.state(session: "s").state == SessionState.fold(batchEvents.map(\.body)))
    }

    @Test("a refused command aborts the whole batch and writes nothing", arguments: StoreBackend.all)
    func refusedAbortsAll(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s")
        let before = try databaseContent(store)
        #expect(throws: StoreError.rules(.cannotPopRoot(root: "A", layer: 0, stack: "[A]"))) {
            try store.append(
                contentsOf: [.push(.titled("B")), .pop(source: .programmatic), .pop(source: .programmatic)],
                session: "s")
        }
        #expect(try databaseContent(store) == before)
        #expect(try store.state(session: "s").version == 2)
        #expect(try store.state(session: "s").state.entryIDs == [["A"]])
    }

    @Test("a refused batch leaves nothing cached: another writer's events are read back", arguments: StoreBackend.all)
    func refusedBatchLeavesNoCache(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let first = try makeStore(dir, on: backend)
        let second = try NavigationStore(path: first.path)
        try first.startSession("s")
        try first.execute(.push(.titled("A")), session: "s")
        #expect(throws: StoreError.self) {
            try first.append(contentsOf: [.push(.titled("B")), .push(.titled("C")), .push(.titled("A"))], session: "s")
        }
        try second.append(contentsOf: [.push(.titled("X")), .push(.titled("Y"))], session: "s")
        #expect(try first.state(session: "s").state.entryIDs == [["A", "X", "Y"]])
        try first.execute(.pop(source: .programmatic), session: "s")
        #expect(try second.state(session: "s").state.entryIDs == [["A", "X"]])
        #expect(try first.check().isClean)
    }

    @Test("vetoes in a batch are appended and reported; no-op commands append nothing", arguments: StoreBackend.all)
    func vetoesAndNoOps(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s")
        let guarded = Entry(id: "B", item: NavigationItem(title: "Draft", popGuard: PopGuard(prompt: "Discard?")))
        let result = try store.append(
            contentsOf: [
                .push(.titled("A", "Inbox")), .push(guarded), .pop(source: .backButton), .popTo(entryID: "B"),
                .present(.titled("M"), modalInPresentation: true), .dismiss(source: .gesture),
            ], session: "s")
        #expect(result.outcome == .vetoed)
        #expect(result.version == 6)
        #expect(result.event?.type == "dismiss.vetoed")
        #expect(
            try store.allEvents().map(\.type) == [
                "session.started", "entry.pushed", "entry.pushed", "pop.vetoed", "layer.presented", "dismiss.vetoed",
            ])
        #expect(try store.state(session: "s").state.entryIDs == [["A", "B"], ["M"]])
    }

    @Test("an empty batch, or one of no-ops, appends nothing and keeps the version", arguments: StoreBackend.all)
    func emptyBatch(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s")
        try store.execute(.push(.titled("A")), session: "s")
        let before = try databaseContent(store)
        let empty = try store.append(contentsOf: [], session: "s")
        let noOps = try store.append(contentsOf: [.popToRoot, .popTo(entryID: "A")], session: "s")
        #expect(empty == AppendResult(session: "s", version: 2, outcome: .ok, event: nil))
        #expect(noOps == AppendResult(session: "s", version: 2, outcome: .ok, event: nil))
        #expect(try databaseContent(store) == before)
    }

    @Test("expected version, time and session are checked before anything is written", arguments: StoreBackend.all)
    func preconditions(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 5_000)
        #expect(throws: StoreError.versionConflict(session: "s", expected: 3, actual: 1)) {
            try store.append(contentsOf: [.push(.titled("A"))], session: "s", expectedVersion: 3)
        }
        #expect(throws: StoreError.timeBeforePrevious(session: "s", given: 4_999, previous: 5_000)) {
            try store.append(contentsOf: [.push(.titled("A"))], session: "s", at: 4_999)
        }
        #expect(throws: StoreError.sessionNotFound("nope")) {
            try store.append(contentsOf: [.push(.titled("A"))], session: "nope")
        }
        let result = try store.append(
            contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 6_000, expectedVersion: 1)
        #expect(result.version == 3)
        #expect(try store.allEvents().map(\.at) == [5_000, 6_000, 6_000])
        #expect(try store.sessionInfo("s").updatedAt == 6_000)
    }

    @Test("batches then single appends then batches keep one consistent log", arguments: StoreBackend.all)
    func mixedWrites(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions(snapshotInterval: 5))
        try store.startSession("s", at: 0)
        var generator = RandomCommands(seed: 7)
        var time: Int64 = 1
        for round in 0..<20 {
            let commands = generator.commands(round % 3 == 0 ? 1 : 9)
            if round % 2 == 0 {
                for command in commands { try store.execute(command, session: "s", at: time) }
            } else {
                try store.append(contentsOf: commands, session: "s", at: time)
            }
            time += 10
        }
        #expect(try store.state(session: "s").state == generator.state)
        #expect(try store.check().isClean)
    }

    @Test(
        "snapshots of a state holding params as the text an earlier snapshot sorted are JSONEncoder's bytes",
        arguments: StoreBackend.all)
    func snapshotsKeepParamsText(backend: StoreBackend) throws {
        // Plain objects (held as text after the first snapshot that writes them) and others
        // (non-ASCII, escapes: kept as objects); `nil` and `{}` stay apart.
        let shapes: [[String: JSONValue]?] = [
            nil, [:], ["id": .integer(7), "ref": .string("home-feed"), "tab": .string("shop")],
            ["z": .object(["b": .array([.null, .bool(false), .integer(-1)]), "a": .object([:])]), "A": .string("")],
            ["\u{E9}": .string("\u{FC}\n\"q\""), "e\u{301}x": .integer(.min)],
            ["big": .integer(.max), "s/l": .string("a/b"), "B": .array([])],
        ]
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend, options: fastOptions(snapshotInterval: 3))
        try store.startSession("s", at: 1_000)
        func entry(_ round: Int, _ index: Int) -> Entry {
            Entry(id: "e\(round)-\(index)", route: "app://r", params: shapes[index], item: NavigationItem(title: "T"))
        }
        var expected: [Entry] = []
        for round in 0..<4 {
            let entries = shapes.indices.map { entry(round, $0) }
            expected += entries
            if round % 2 == 0 {
                try store.append(contentsOf: entries.map { .push($0) }, session: "s", at: Int64(2_000 + round * 10))
            } else {
                for entry in entries { try store.execute(.push(entry), session: "s", at: Int64(2_000 + round * 10)) }
            }
            try store.append(
                contentsOf: [.update(entryID: "e0-2", item: NavigationItem(title: "\(round)"))], session: "s",
                at: Int64(2_005 + round * 10)
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let events = try store.allEvents()
        let rows = try store.withCore { core in
            try core.db.fetchAll(sql: "SELECT version, state FROM snapshots ORDER BY version", arguments: [])
        }
        var folded = SessionState()
        var versions: [Int] = []
        for event in events {
            folded.apply(event.body)
            if fastOptions(snapshotInterval: 3).isSnapshotVersion(event.version, of: folded) {
                versions.append(event.version)
            }
        }
        #expect(try rows.map { try $0[0] as Int } == versions)
        #expect(versions.count >= 3, "later snapshots copy the text the earlier ones sorted")
        for row in rows {
            let version: Int = try row[0]
            let folded = SessionState.fold(events.prefix(version).map(\.body))
            #expect(try row[1] as String == String(decoding: try encoder.encode(folded), as: UTF8.self), "\(version)")
        }
        let state = try store.state(session: "s").state
        #expect(state.topLayer.entries.map(\.params) == expected.map(\.params))
        #expect(state.topLayer.entries.map(\.id) == expected.map(\.id))
        #expect(try store.check().isClean)
        #expect(try store.rebuild(verify: true).differences.isEmpty)
    }
}
