import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Hidden bars, swipes turned off per screen, sheets locked after presentation and cancelled
/// swipes (<doc:Rules>) through the store, on every backend: the projection, snapshots, reopening,
/// `check` and `rebuild`, restore and its crash-loop fallback, export and import (redacted too).
@Suite("NavigationStore: gestures, bars and sheets")
struct GestureStoreTests {
    /// A session that uses every new part: item flags, a cancelled swipe, a hidden base bar, a
    /// sheet locked after it was presented (and its vetoed swipe down), a hidden sheet bar.
    static func buildSession(_ store: NavigationStore, key: String = "g") throws {
        try store.startSession(key, at: 1_000)
        try store.append(
            contentsOf: [
                .push(Entry(id: "feed", route: "app://feed", item: NavigationItem(title: "Feed"))),
                .push(Entry(id: "photo", item: NavigationItem(title: "Photo 📷", interactivePopDisabled: true))),
                .update(entryID: "photo", item: NavigationItem(title: "Photo 📷")),
                .cancelPop(source: .gesture),
                .updateLayer(navigationBarHidden: true),
                .present(Entry(id: "sheet", item: NavigationItem(title: "New Task")), modalInPresentation: false),
                .push(Entry(id: "detail", item: NavigationItem(title: "Detail", contentPopDisabled: true))),
                .updateLayer(modalInPresentation: true),
                .dismiss(source: .gesture),
                .updateLayer(navigationBarHidden: true),
            ], session: key, at: 2_000)
    }

    /// The state of every version, read back.
    static func states(_ store: NavigationStore, _ key: String) throws -> [SessionState] {
        let latest = try store.state(session: key).version
        return try (1...latest).map { try store.state(session: key, at: .version($0)).state }
    }

    @Test(
        "the store keeps the new state: projection, snapshots, reopening, check and rebuild",
        arguments: StoreBackend.all)
    func storeKeepsState(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let location = try backend.location(dir)
        var options = StoreOptions()
        options.snapshotInterval = 3
        let expected: SessionState
        let versions: [SessionState]
        do {
            let store = try NavigationStore(path: location, options: options)
            try Self.buildSession(store)
            expected = try store.state(session: "g").state
            versions = try Self.states(store, "g")
            let types = try store.allEvents(session: "g").map(\.type)
            #expect(types.filter { $0 == "pop.cancelled" }.count == 1)
            #expect(types.filter { $0 == "layer.updated" }.count == 3)
            #expect(types.contains("dismiss.vetoed"))
        }
        #expect(expected.layers.map(\.navigationBarHidden) == [true, true])
        #expect(expected.layers.map(\.modalInPresentation) == [false, true])
        #expect(expected.backButton == nil && expected.backMenu == nil)
        #expect(expected.topEntry?.item.contentPopDisabled == true)
        // The fold of the events is what was read, version by version.
        let reopened = try NavigationStore(path: location, options: options)
        let events = try reopened.allEvents(session: "g").map(\.body)
        #expect(SessionState.fold(events) == expected)
        #expect(try reopened.state(session: "g").state == expected)
        #expect(try Self.states(reopened, "g") == versions)
        #expect(try reopened.check().isClean)
        #expect(try reopened.rebuild(verify: true).differences.isEmpty)
        #expect(try Self.states(reopened, "g") == versions)
        // A swipe down of the locked sheet is still vetoed after the reopen; unlocked, it dismisses.
        #expect(try reopened.execute(.dismiss(source: .gesture), session: "g").outcome == .vetoed)
        try reopened.execute(.updateLayer(modalInPresentation: false), session: "g")
        try reopened.execute(.dismiss(source: .gesture), session: "g")
        #expect(try reopened.state(session: "g").state.layers.count == 1)
        // A layer update that changes nothing appends nothing.
        let version = try reopened.state(session: "g").version
        #expect(try reopened.execute(.updateLayer(navigationBarHidden: true), session: "g").event == nil)
        #expect(try reopened.state(session: "g").version == version)
    }

    @Test(
        "a refused command appends nothing: a swipe under a hidden bar, a cancelled one, a lock on the base",
        arguments: StoreBackend.all)
    func refusalsAppendNothing(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(
            contentsOf: [.push(.titled("A")), .push(.titled("B")), .updateLayer(navigationBarHidden: true)],
            session: "s", at: 1)
        let before = try store.allEvents(session: "s")
        for command: NavigationCommand in [
            .pop(source: .gesture), .pop(source: .backButton), .cancelPop(source: .gesture),
            .cancelPop(source: .backButton), .updateLayer(modalInPresentation: true), .menuSelect(row: 1),
        ] {
            #expect(throws: StoreError.self, "\(command)") { try store.execute(command, session: "s") }
        }
        #expect(try store.allEvents(session: "s") == before)
        #expect(try store.check().isClean)
    }

    @Test(
        "restore hands out a hidden bar and a locked sheet as they were, and reopening gives the same payload",
        arguments: StoreBackend.all)
    func restoreRoundTrip(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let location = try backend.location(dir)
        let before: RestorePayload
        do {
            let store = try NavigationStore(path: location)
            try Self.buildSession(store)
            before = try store.restore(session: "g")
            try store.acknowledgeRestore(session: "g")
        }
        #expect(before.layers.map(\.navigationBarHidden) == [true, true])
        #expect(before.layers.map(\.modalInPresentation) == [false, true])
        #expect(before.layers[1].entries.last?.item.contentPopDisabled == true)
        #expect(before.backButton == nil && before.backMenu == nil)
        let after = try NavigationStore(path: location).restore(session: "g")
        #expect(after.layers == before.layers)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(after), as: UTF8.self)
        #expect(json.contains(#""navigationBarHidden":true"#))
        #expect(try JSONDecoder().decode(RestorePayload.self, from: Data(json.utf8)).layers == before.layers)
    }

    @Test(
        "a crash-loop fallback to an acknowledged state with a hidden bar and a locked sheet brings both back in the log",
        arguments: StoreBackend.all)
    func fallbackAlignsLayerState(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try Self.buildSession(store)
        let good = try store.restore(session: "g")
        try store.acknowledgeRestore(session: "g")
        // The app moves on: bars shown, sheet unlocked and dismissed, a new screen that crashes.
        try store.append(
            contentsOf: [
                .updateLayer(navigationBarHidden: false, modalInPresentation: false), .dismiss(source: .gesture),
                .updateLayer(navigationBarHidden: false), .push(.titled("crash", "Crashes on restore")),
            ], session: "g", at: 3_000)
        _ = try store.restore(session: "g")
        _ = try store.restore(session: "g")
        let fallback = try store.restore(session: "g")
        #expect(fallback.fallback != nil)
        #expect(fallback.layers == good.layers)
        let acknowledged = try store.acknowledgeRestore(session: "g", at: 4_000)
        #expect(acknowledged.alignedVersion != nil)
        let aligned = try store.state(session: "g").state
        #expect(aligned.layers == good.layers, "the log ends in the state the app shows")
        let types = try store.allEvents(session: "g").suffix(6).map(\.type)
        #expect(types.filter { $0 == "layer.updated" }.count == 2, "\(types)")
        #expect(try store.check().isClean)
    }

    @Test(
        "export and import carry the new fields and events; the redacted export replays the same flags",
        arguments: StoreBackend.all)
    func exportImportRoundTrip(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try Self.buildSession(store)
        let versions = try Self.states(store, "g")
        let lines = try store.exportLines(session: "g")
        #expect(lines.contains { $0.contains(#""type":"pop.cancelled""#) })
        #expect(lines.contains { $0.contains(#""navigationBarHidden":true"#) })
        #expect(lines.contains { $0.contains(#""interactivePopDisabled":true"#) })

        let other = try TemporaryDirectory()
        let copy = try makeStore(other, on: backend)
        #expect(try copy.importNDJSON(lines: lines).imported == lines.count)
        #expect(try Self.states(copy, "g") == versions)
        #expect(try copy.importNDJSON(lines: lines).skipped == lines.count)
        #expect(try copy.check().isClean)

        // Redacted: texts are hashed, the flags, layer fields and the shape of every state stay.
        let redacted = try store.exportLines(session: "g", redact: true)
        let third = try TemporaryDirectory()
        let replay = try makeStore(third, on: backend)
        _ = try replay.importNDJSON(lines: redacted)
        let key = try #require(try replay.sessions().first?.key)
        let replayed = try Self.states(replay, key)
        #expect(replayed.count == versions.count)
        for (original, hashed) in zip(versions, replayed) {
            #expect(hashed.layers.map(\.navigationBarHidden) == original.layers.map(\.navigationBarHidden))
            #expect(hashed.layers.map(\.modalInPresentation) == original.layers.map(\.modalInPresentation))
            #expect(hashed.layers.map(\.entries.count) == original.layers.map(\.entries.count))
            let flags = { (state: SessionState) in
                state.layers.flatMap(\.entries).map { [$0.item.interactivePopDisabled, $0.item.contentPopDisabled] }
            }
            #expect(flags(hashed) == flags(original))
            #expect((hashed.backButton == nil) == (original.backButton == nil))
        }
        #expect(!redacted.joined().contains("Photo"))
        #expect(try replay.check().isClean)
    }

    @Test(
        "import refuses a layer.updated or pop.cancelled the rules would not decide, naming the line; nothing is written",
        arguments: StoreBackend.all)
    func importRefusesImpossible(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        let good = try store.exportLines(session: "s")
        var lines = good
        func line(_ version: Int, _ type: String, _ payload: String) -> String {
            #"{"at":5,"eventID":"00000000-0000-7000-8000-00000000000\#(version)","payload":\#(payload),"session":"s","seq":\#(version),"type":"\#(type)","version":\#(version)}"#
        }
        let bad = [
            line(
                4, "layer.updated",
                #"{"fields":["modalInPresentation"],"layer":0,"modalInPresentation":true,"navigationBarHidden":false}"#),
            line(
                4, "layer.updated", #"{"fields":[],"layer":0,"modalInPresentation":false,"navigationBarHidden":false}"#),
            line(
                4, "layer.updated",
                #"{"fields":["navigationBarHidden"],"layer":1,"modalInPresentation":false,"navigationBarHidden":true}"#),
            line(4, "pop.cancelled", #"{"entry":"A","source":"gesture"}"#),
            line(4, "pop.cancelled", #"{"entry":"B","source":"back-button"}"#),
            line(
                4, "layer.updated",
                #"{"fields":["toolbarHidden"],"layer":0,"modalInPresentation":false,"navigationBarHidden":true}"#),
        ]
        for text in bad {
            let other = try TemporaryDirectory()
            let target = try makeStore(other, on: backend)
            lines = good + [text]
            let error = try #require(throws: StoreError.self, "\(text)") { try target.importNDJSON(lines: lines) }
            #expect(String(describing: error).contains("line \(lines.count)"), "\(error)")
            #expect(try target.sessions().isEmpty, "a refused import writes nothing")
        }
        // The good ones import.
        let fineDir = try TemporaryDirectory()
        let target = try makeStore(fineDir, on: backend)
        let fine =
            good + [
                line(4, "pop.cancelled", #"{"entry":"B","source":"gesture"}"#),
                line(
                    5, "layer.updated",
                    #"{"fields":["navigationBarHidden"],"layer":0,"modalInPresentation":false,"navigationBarHidden":true}"#
                ),
            ]
        #expect(try target.importNDJSON(lines: fine).imported == fine.count)
        #expect(try target.state(session: "s").state.topLayer.navigationBarHidden)
    }
}
