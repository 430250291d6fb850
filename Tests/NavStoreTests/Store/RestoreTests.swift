import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("NavigationStore: restore after a restart")
struct RestoreTests {
    static func buildSession(_ store: NavigationStore) throws {
        try store.startSession("app", name: "Main window", at: 1_000)
        try store.append(
            contentsOf: [
                .push(
                    Entry(
                        id: "inbox", route: "mail://inbox",
                        params: ["folder": .string("INBOX"), "unread": .integer(3)],
                        item: NavigationItem(title: "Inbox", backButtonTitle: "Mail"))),
                .push(
                    Entry(
                        id: "thread", route: "mail://thread/42", item: NavigationItem(title: "", menuTitle: "Thread 42")
                    )),
                .push(Entry(id: "message", route: "mail://message/7", item: NavigationItem(title: "Re: lunch 🍜"))),
                .present(
                    Entry(
                        id: "compose", route: "mail://compose",
                        item: NavigationItem(title: "New Message", popGuard: PopGuard(prompt: "Discard draft?"))),
                    modalInPresentation: true),
                .push(Entry(id: "attach", item: NavigationItem(title: "Attachments", style: .editor))),
            ], session: "app", at: 2_000)
    }

    @Test("reopening the database gives the identical restore payload", arguments: StoreBackend.all)
    func restartGivesSamePayload(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let location = try backend.location(dir)
        let before: RestorePayload
        do {
            let store = try NavigationStore(path: location)
            try Self.buildSession(store)
            before = try store.restore(session: "app")
            try store.acknowledgeRestore(session: "app")
        }
        let reopened = try NavigationStore(path: location)
        let after = try reopened.restore(session: "app")
        #expect(after == before)
        #expect(after.attempts == 1 && after.fallback == nil)
        #expect(after.layers.map { $0.entries.map(\.id) } == [["inbox", "thread", "message"], ["compose", "attach"]])
        #expect(after.layers[0].entries[0].params == ["folder": .string("INBOX"), "unread": .integer(3)])
        #expect(after.layers[0].entries[1].item.title == "")
        #expect(after.layers[1].modalInPresentation)
        #expect(after.backButton == BackButton(label: "", fallbacks: []))
        #expect(after.backMenu?.map(\.title) == ["New Message"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(after) == encoder.encode(before))
    }

    @Test(
        "a restart marker is appended and shows in history; the payload is otherwise the same",
        arguments: StoreBackend.all)
    func restartMarker(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try Self.buildSession(store)
        let plain = try store.restore(session: "app")
        try store.acknowledgeRestore(session: "app")
        let marked = try store.restore(session: "app", mark: true, at: 3_000)
        #expect(marked.version == plain.version + 1)
        // The marker changes nothing: the state handed out is still named by the last real event.
        #expect(marked.restoredVersion == plain.version)
        #expect(marked.layers == plain.layers)
        #expect(try store.allEvents().last?.type == "session.restored")
        #expect(try store.allEvents().last?.at == 3_000)
    }

    @Test(
        "after two unacknowledged restores the third returns the acknowledged earlier version",
        arguments: StoreBackend.all)
    func crashLoopFallsBackToAcknowledged(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A", "Inbox")), .push(.titled("B", "Mail"))], session: "s", at: 1)
        let good = try store.restore(session: "s")
        #expect(good.restoredVersion == 3)
        #expect(try store.acknowledgeRestore(session: "s").version == 3)
        try store.execute(.push(.titled("C", "Crashes on restore")), session: "s", at: 2)

        let first = try store.restore(session: "s")
        let second = try store.restore(session: "s")
        #expect(first.restoredVersion == 4 && first.fallback == nil && first.attempts == 1)
        #expect(second.restoredVersion == 4 && second.fallback == nil && second.attempts == 2)
        let third = try store.restore(session: "s")
        #expect(third.version == 4)
        #expect(third.restoredVersion == 3)
        #expect(third.layers == good.layers)
        #expect(third.backButton == BackButton(label: "Inbox", fallbacks: ["Back", ""]))
        #expect(third.fallback?.contains("version 3") == true)
        #expect(third.attempts == 1, "the first restore of version 3 since version 4 failed")

        // Acknowledging the fallback clears the count and brings the log in line with what the
        // app shows: session.restored (5), then stack.replaced back to A, B (6).
        let acknowledged = try store.acknowledgeRestore(session: "s", at: 3)
        #expect(
            acknowledged.version == 3 && acknowledged.alignedVersion == 6 && acknowledged.newestAcknowledgedVersion == 6
        )
        #expect(try store.allEvents(session: "s").suffix(2).map(\.type) == ["session.restored", "stack.replaced"])
        #expect(try store.state(session: "s").state.layers == good.layers)
        let afterAck = try store.restore(session: "s")
        #expect(afterAck.attempts == 1 && afterAck.restoredVersion == 6 && afterAck.fallback == nil)
        #expect(afterAck.layers == good.layers)
        try store.acknowledgeRestore(session: "s")
        // Navigation recorded afterwards continues from what the user sees.
        try store.execute(.push(.titled("D", "Fixed")), session: "s", at: 4)
        let moved = try store.restore(session: "s")
        #expect(moved.restoredVersion == 7 && moved.fallback == nil && moved.attempts == 1)
        #expect(moved.layers[0].entries.map(\.id) == ["A", "B", "D"])
    }

    @Test("with no acknowledgement ever, repeated failures give the base root alone", arguments: StoreBackend.all)
    func crashLoopWithoutAcknowledgement(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(
            contentsOf: [.push(.titled("Root", "Home")), .push(.titled("B")), .present(.titled("M"))], session: "s",
            at: 1)
        _ = try store.restore(session: "s")
        _ = try store.restore(session: "s")
        let third = try store.restore(session: "s")
        #expect(third.restoredVersion == 0)
        #expect(third.layers == [Layer(entries: [.titled("Root", "Home")])])
        #expect(third.backButton == nil && third.backMenu == nil)
        #expect(third.fallback?.contains("'Root'") == true)
        // Still failing: it keeps handing out the root, never the failing state.
        let fourth = try store.restore(session: "s")
        #expect(fourth.restoredVersion == 0 && fourth.layers == third.layers)
    }

    @Test("with an empty base layer, the last fallback says it returns an empty stack", arguments: StoreBackend.all)
    func crashLoopOnEmptySession(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        _ = try store.restore(session: "s")
        _ = try store.restore(session: "s")
        let third = try store.restore(session: "s")
        #expect(third.restoredVersion == 0)
        #expect(third.layers == [Layer()])
        #expect(
            third.fallback
                == "version 1 went unacknowledged 2 times in a row and no state was ever acknowledged; returning an empty stack (the base layer has no entries)"
        )
    }

    @Test(
        "a stale expected version refuses the restore: no marker appended, no attempt counted",
        arguments: StoreBackend.all)
    func restoreExpectedVersion(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        for mark in [true, false] {
            #expect(throws: StoreError.versionConflict(session: "s", expected: 2, actual: 3)) {
                try store.restore(session: "s", mark: mark, expectedVersion: 2)
            }
        }
        #expect(try store.state(session: "s").version == 3)
        let marked = try store.restore(session: "s", mark: true, expectedVersion: 3)
        #expect(marked.version == 4 && marked.restoredVersion == 3 && marked.attempts == 1)
        #expect(try store.restore(session: "s", expectedVersion: 4).attempts == 2)
    }

    @Test("the attempt limit is configurable and survives reopening", arguments: StoreBackend.all)
    func configurableLimit(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let location = try backend.location(dir)
        var options = StoreOptions()
        options.restoreAttemptLimit = 3
        do {
            let store = try NavigationStore(path: location, options: options)
            try store.startSession("s", at: 0)
            try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
            for _ in 0..<2 { #expect(try store.restore(session: "s").fallback == nil) }
        }
        let store = try NavigationStore(path: location, options: options)
        #expect(try store.restore(session: "s").fallback == nil)
        let fourth = try store.restore(session: "s")
        #expect(fourth.fallback != nil && fourth.restoredVersion == 0)
    }

    /// The reviewer's sequence: restore and acknowledge version 3, push and present (version 5),
    /// four restores without acknowledgement, acknowledge the fallback (which brings the log back
    /// to A, B), two restores, push (the session moves on). `mark` appends a restart marker on
    /// every launch, which must neither move the session on nor be named in place of the state
    /// handed out.
    static func reviewerSequence(mark: Bool, on backend: StoreBackend) throws -> (
        store: NavigationStore, dir: TemporaryDirectory, aligned: Int, head: Int
    ) {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A", "Inbox")), .push(.titled("B", "Mail"))], session: "s", at: 1)
        #expect(try store.restore(session: "s", mark: mark).restoredVersion == 3)
        let first = try store.acknowledgeRestore(session: "s")
        #expect(
            first.version == 3 && first.alignedVersion == nil, "the newest state was acknowledged: nothing to align")
        try store.execute(.push(.titled("C")), session: "s")
        let five = try store.execute(.present(.titled("M")), session: "s").version
        let four = try (0..<4).map { _ in try store.restore(session: "s", mark: mark) }
        #expect(four.map(\.restoredVersion) == [five, five, 3, 3])
        #expect(four.map(\.attempts) == [1, 2, 1, 2])
        #expect(four.map { $0.fallback == nil } == [true, true, false, false])
        let acknowledged = try store.acknowledgeRestore(session: "s")
        let aligned = try #require(acknowledged.alignedVersion)
        #expect(
            acknowledged.version == 3 && !acknowledged.isBaseRootOnly
                && acknowledged.newestAcknowledgedVersion == aligned)
        // session.restored, the dismissal of M, and the base stack back to A, B.
        #expect(
            try store.allEvents(session: "s").suffix(3).map(\.type) == [
                "session.restored", "layer.dismissed", "stack.replaced",
            ])
        let two = try (0..<2).map { _ in try store.restore(session: "s", mark: mark) }
        #expect(two.map(\.restoredVersion) == [aligned, aligned], "the acknowledged state is the newest now")
        #expect(two.map { $0.layers.map { $0.entries.map(\.id) } } == [[["A", "B"]], [["A", "B"]]])
        #expect(two.map(\.attempts) == [1, 2])
        let head = try store.execute(.push(.titled("D")), session: "s").version
        return (store, dir, aligned, head)
    }

    @Test(
        "after the session moves on, the new state is handed out twice, then the acknowledged one twice, then the root",
        arguments: StoreBackend.all, [false, true])
    func reviewerScenario(backend: StoreBackend, mark: Bool) throws {
        let (store, _dir, aligned, head) = try Self.reviewerSequence(mark: mark, on: backend)
        _ = _dir
        #expect(head == aligned + (mark ? 3 : 1))
        let next = try (0..<6).map { _ in try store.restore(session: "s", mark: mark) }
        #expect(next.map(\.restoredVersion) == [head, head, aligned, aligned, 0, 0])
        #expect(next.map(\.attempts) == [1, 2, 1, 2, 1, 2])
        #expect(next[0].layers.map { $0.entries.map(\.id) } == [["A", "B", "D"]])
        #expect(next[2].layers.map { $0.entries.map(\.id) } == [["A", "B"]])
        #expect(next[4].layers.map { $0.entries.map(\.id) } == [["A"]])
        #expect(next[0].fallback == nil && next[1].fallback == nil)
        // The messages name the states handed out and the true counts, never a marker's version.
        #expect(
            next[2].fallback
                == "version \(head) went unacknowledged 2 times in a row; returning version \(aligned), the newest acknowledged state before it"
        )
        #expect(
            next[4].fallback
                == "version \(head) went unacknowledged 2 times in a row, and version \(aligned), the newest acknowledged state before it, 2 times too; returning the base root 'A' alone"
        )
        let version = try store.state(session: "s").version
        #expect(next.last?.version == version)
        if mark {
            #expect(version == head + 6)
            for payload in next { #expect(payload.fallback?.contains("version \(payload.version)") != true) }
        }
    }

    @Test(
        "acknowledging the base root brings the log to the base root and makes it the state to fall back to",
        arguments: StoreBackend.all)
    func acknowledgeBaseRoot(backend: StoreBackend) throws {
        let (store, _dir, _, _) = try Self.reviewerSequence(mark: false, on: backend)
        _ = _dir
        for _ in 0..<5 { _ = try store.restore(session: "s") }
        let acknowledged = try store.acknowledgeRestore(session: "s")
        let root = try #require(acknowledged.alignedVersion)
        #expect(acknowledged.isBaseRootOnly && acknowledged.newestAcknowledgedVersion == root)
        #expect(try store.state(session: "s").state.entryIDs == [["A"]])
        let handed = try store.restore(session: "s")
        #expect(handed.restoredVersion == root && handed.fallback == nil)
        // When the session moves on, counting starts again, falling back to the acknowledged root.
        let moved = try store.execute(.push(.titled("E")), session: "s").version
        let after = try (0..<5).map { _ in try store.restore(session: "s").restoredVersion }
        #expect(after == [moved, moved, root, root, 0])
    }

    @Test("markers alone never move the session on", arguments: StoreBackend.all)
    func markersDoNotMoveOn(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        let versions = try (0..<6).map { _ in try store.restore(session: "s", mark: true) }
        #expect(versions.map(\.restoredVersion) == [3, 3, 0, 0, 0, 0])
        #expect(versions.map(\.version) == [4, 5, 6, 7, 8, 9])
        #expect(
            versions[2].fallback
                == "version 3 went unacknowledged 2 times in a row and no state was ever acknowledged; returning the base root 'A' alone"
        )
    }

    // MARK: Fallbacks, acknowledgements, restart markers, and reads that write nothing

    @Test(
        "the fallback is the newest acknowledged state other than the failing one, even when the failing one was acknowledged",
        arguments: StoreBackend.all)
    func fallbackSkipsTheFailingAcknowledgedState(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("X"))], session: "s", at: 1)
        _ = try store.restore(session: "s")
        #expect(try store.acknowledgeRestore(session: "s").version == 3)
        try store.execute(.push(.titled("B")), session: "s", at: 2)
        _ = try store.restore(session: "s")
        let second = try store.acknowledgeRestore(session: "s")
        #expect(second.version == 4 && second.newestAcknowledgedVersion == 4)
        // An app update now crashes on version 4, which restored before.
        let three = try (0..<3).map { _ in try store.restore(session: "s") }
        #expect(three.map(\.restoredVersion) == [4, 4, 3])
        #expect(three[2].layers.map { $0.entries.map(\.id) } == [["A", "X"]])
        #expect(
            three[2].fallback
                == "version 4 went unacknowledged 2 times in a row (it was acknowledged before, but it is the state that fails now); returning version 3, the newest acknowledged state before it"
        )
        // The second restore already says that the next one falls back.
        #expect(three[0].nextFallback == nil)
        #expect(three[1].nextFallback == three[2].fallback)
        // When version 3 fails too, the base root; the wording names both.
        let more = try (0..<2).map { _ in try store.restore(session: "s") }
        #expect(more.map(\.restoredVersion) == [3, 0])
        #expect(
            more[1].fallback
                == "version 4 went unacknowledged 2 times in a row, and version 3, the newest acknowledged state before it, 2 times too; returning the base root 'A' alone"
        )
    }

    @Test(
        "when the only acknowledged state is the failing one, the wording says so instead of 'none was acknowledged'",
        arguments: StoreBackend.all)
    func onlyAcknowledgedStateFails(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        _ = try store.restore(session: "s")
        try store.acknowledgeRestore(session: "s")
        let three = try (0..<3).map { _ in try store.restore(session: "s") }
        #expect(three[2].restoredVersion == 0)
        #expect(
            three[2].fallback
                == "version 3 went unacknowledged 2 times in a row; it is the only acknowledged state on record (it restored before, and fails now); returning the base root 'A' alone"
        )
    }

    @Test(
        "acknowledging a fallback that differs only in a hidden bar appends the layer update: the log ends at what the app shows",
        arguments: StoreBackend.all)
    func acknowledgeHiddenBarFallback(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        _ = try store.restore(session: "s")
        try store.acknowledgeRestore(session: "s")
        try store.execute(.updateLayer(navigationBarHidden: true), session: "s", at: 2)
        let three = try (0..<3).map { _ in try store.restore(session: "s") }
        #expect(three[2].restoredVersion == 3 && three[2].layers[0].navigationBarHidden == false)
        let acknowledged = try store.acknowledgeRestore(session: "s", at: 3)
        #expect(acknowledged.alignedVersion == 6)
        #expect(try store.allEvents(session: "s").suffix(2).map(\.type) == ["session.restored", "layer.updated"])
        #expect(try store.state(session: "s").state.layers[0].navigationBarHidden == false)
        #expect(try store.check().problems.isEmpty)
    }

    @Test(
        "acknowledging a fallback to an empty state brings the log to an empty base layer, and the log still exports and imports",
        arguments: StoreBackend.all)
    func acknowledgeEmptyFallback(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        _ = try store.restore(session: "s")
        #expect(try store.acknowledgeRestore(session: "s").version == 1)
        try store.append(
            contentsOf: [.push(.titled("A")), .push(.titled("B")), .present(.titled("M"))], session: "s", at: 1)
        let three = try (0..<3).map { _ in try store.restore(session: "s") }
        #expect(three[2].restoredVersion == 1 && three[2].layers == [Layer()])
        let acknowledged = try store.acknowledgeRestore(session: "s", at: 2)
        let aligned = try #require(acknowledged.alignedVersion)
        #expect(acknowledged.version == 1 && acknowledged.newestAcknowledgedVersion == aligned)
        #expect(try store.state(session: "s").state == SessionState())
        #expect(
            try store.allEvents(session: "s").suffix(3).map(\.type) == [
                "session.restored", "layer.dismissed", "stack.replaced",
            ])
        #expect(try store.restore(session: "s").restoredVersion == aligned)
        // Navigation continues from the empty stack, as it would from a new session.
        try store.execute(.push(.titled("C")), session: "s", at: 3)
        #expect(try store.state(session: "s").state.entryIDs == [["C"]])
        // The log is one any reader accepts: export, import elsewhere, same states.
        var lines: [String] = []
        try store.exportNDJSON(session: "s") { lines.append($0) }
        let other = try TemporaryDirectory()
        let copy = try makeStore(other, on: backend)
        _ = try copy.importNDJSON(lines: lines)
        #expect(try copy.state(session: "s").state.entryIDs == [["C"]])
        #expect(try copy.state(session: "s", at: .version(aligned)).state == SessionState())
    }

    @Test(
        "--ack after the session moved on since a fallback is refused; the database is unchanged",
        arguments: StoreBackend.all)
    func acknowledgeAfterMovingOnIsRefused(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        _ = try store.restore(session: "s")
        try store.acknowledgeRestore(session: "s")
        try store.execute(.push(.titled("C")), session: "s", at: 2)
        let fallback = try (0..<3).map { _ in try store.restore(session: "s") }.last!
        #expect(fallback.restoredVersion == 3)
        try store.execute(.push(.titled("D")), session: "s", at: 3)
        let events = try store.allEvents(session: "s")
        #expect(throws: StoreError.restoreMovedOn(session: "s", handedOut: 3, failed: 4, version: 5)) {
            try store.acknowledgeRestore(session: "s")
        }
        #expect(try store.allEvents(session: "s") == events)
        #expect(try store.state(session: "s").state.entryIDs == [["A", "B", "C", "D"]])
        // A restore now hands out the new state (the session moved on), and that one can be acknowledged.
        let now = try store.restore(session: "s")
        #expect(now.restoredVersion == 5 && now.fallback == nil)
        #expect(try store.acknowledgeRestore(session: "s").version == 5)
    }

    @Test(
        "--ack after the session moved on since a restore of its newest state acknowledges that state, rewinding nothing",
        arguments: StoreBackend.all)
    func acknowledgeLateWithoutFallback(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        _ = try store.restore(session: "s")
        try store.execute(.push(.titled("C")), session: "s", at: 2)
        let acknowledged = try store.acknowledgeRestore(session: "s")
        #expect(acknowledged.version == 3 && acknowledged.alignedVersion == nil)
        #expect(try store.state(session: "s").state.entryIDs == [["A", "B", "C"]])
    }

    @Test("--ack with nothing pending changes nothing and says so", arguments: StoreBackend.all)
    func acknowledgeWithNothingPending(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.execute(.push(.titled("A")), session: "s", at: 1)
        let never = try store.acknowledgeRestore(session: "s")
        #expect(!never.wasPending && never.version == nil && never.newestAcknowledgedVersion == nil)
        _ = try store.restore(session: "s")
        #expect(try store.acknowledgeRestore(session: "s").version == 2)
        let again = try store.acknowledgeRestore(session: "s")
        #expect(!again.wasPending && again.version == nil && again.newestAcknowledgedVersion == 2)
    }

    @Test(
        "the restart marker records the version handed out, the attempt and the failed versions",
        arguments: StoreBackend.all)
    func markerRecordsWhatWasRestored(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        _ = try store.restore(session: "s")
        try store.acknowledgeRestore(session: "s")
        try store.execute(.push(.titled("C")), session: "s", at: 2)
        for _ in 0..<5 { _ = try store.restore(session: "s", mark: true, at: 3) }
        let markers = try store.allEvents(session: "s").compactMap { event -> RestoreMarker? in
            if case .sessionRestored(let marker) = event.body { return marker } else { return nil }
        }
        #expect(
            markers == [
                RestoreMarker(restoredVersion: 4, attempt: 1),
                RestoreMarker(restoredVersion: 4, attempt: 2),
                RestoreMarker(restoredVersion: 3, attempt: 1, failedVersions: [4]),
                RestoreMarker(restoredVersion: 3, attempt: 2, failedVersions: [4]),
                RestoreMarker(restoredVersion: 0, attempt: 1, failedVersions: [4, 3]),
            ])
        #expect(
            try store.allEvents(session: "s").first { $0.version == 7 }.map { try $0.body.payloadJSON() }
                == #"{"attempt":1,"failedVersions":[4],"restoredVersion":3}"#)
        // Acknowledging the root appends an acknowledged marker before the events that align the log.
        try store.acknowledgeRestore(session: "s", at: 4)
        let last = try #require(try store.allEvents(session: "s").last { $0.type == "session.restored" })
        #expect(
            last.body
                == .sessionRestored(RestoreMarker(restoredVersion: 0, failedVersions: [4, 3], acknowledged: true)))
    }

    @Test("previewRestore counts nothing and says what the next plain restore hands out", arguments: StoreBackend.all)
    func previewCountsNothing(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        for _ in 0..<5 {
            let preview = try store.previewRestore(session: "s")
            #expect(preview.restoredVersion == 3 && preview.attempts == 1 && preview.version == 3)
        }
        _ = try store.restore(session: "s")
        _ = try store.restore(session: "s")
        let preview = try store.previewRestore(session: "s")
        #expect(preview.restoredVersion == 0 && preview.attempts == 1 && preview.fallback != nil)
        #expect(preview.nextFallback == preview.fallback)
        let restored = try store.restore(session: "s")
        #expect(
            restored.restoredVersion == preview.restoredVersion && restored.layers == preview.layers
                && restored.fallback == preview.fallback)
        #expect(try store.previewRestore(session: "s").attempts == 2)
    }

    @Test("a restore whose delivery fails counts no attempt and appends no marker", arguments: StoreBackend.all)
    func undeliveredRestoreCountsNothing(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(.titled("A")), .push(.titled("B"))], session: "s", at: 1)
        for _ in 0..<4 {
            #expect(throws: StoreError.restoreNotDelivered(reason: "closed")) {
                try store.restore(session: "s", mark: true) { _ throws(StoreError) in
                    throw .restoreNotDelivered(reason: "closed")
                }
            }
        }
        #expect(try store.state(session: "s").version == 3)
        let delivered = try store.restore(session: "s", mark: true)
        #expect(delivered.restoredVersion == 3 && delivered.attempts == 1 && delivered.version == 4)
    }

    @Test(
        "previewRestore reads past a stale snapshot instead of rebuilding it: it writes nothing",
        arguments: StoreBackend.all)
    func previewLeavesStaleSnapshots(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: (1...70).map { .push(.titled("E\($0)")) }, session: "s", at: 1)
        _ = try store.restore(session: "s")
        try store.acknowledgeRestore(session: "s")
        try store.execute(.push(.titled("Crashes")), session: "s", at: 2)
        _ = try store.restore(session: "s")
        _ = try store.restore(session: "s")
        // As after an upgrade of the rules: the snapshot at version 64 no longer counts.
        try Self.makeSnapshotsStale(store)
        func stale() throws -> SQLValue { try Self.staleSnapshots(store) }
        #expect(try stale() == .integer(1))
        let preview = try store.previewRestore(session: "s")
        #expect(preview.restoredVersion == 71 && preview.layers[0].entries.count == 70)
        #expect(try stale() == .integer(1), "the dry run rebuilt nothing")
        let restored = try store.restore(session: "s")
        #expect(restored.layers == preview.layers && restored.restoredVersion == 71)
    }

    @Test(
        "state() at a past version reads past stale snapshots and writes nothing; rebuild() rewrites them",
        arguments: StoreBackend.all)
    func stateNeverWrites(backend: StoreBackend) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, on: backend)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: (1...140).map { .push(.titled("E\($0)")) }, session: "s", at: 1)
        try Self.makeSnapshotsStale(store)
        func stale() throws -> SQLValue { try Self.staleSnapshots(store) }
        let before = try stale()
        #expect(before != .integer(0))
        let session = try store.sessionInfo("s")
        for version in [1, 63, 64, 65, 100, 128, 129, 140] {
            let read = try store.state(session: "s", at: .version(version))
            #expect(read.state.layers[0].entries.count == version - 1, "version \(version)")
        }
        #expect(try stale() == before, "a read rebuilt snapshots")
        #expect(try store.sessionInfo("s") == session)
        _ = try store.rebuild()
        #expect(try stale() == .integer(0))
    }

    /// Marks every snapshot as written under other rules (as after an upgrade of the rules).
    static func makeSnapshotsStale(_ store: NavigationStore) throws {
        _ = try store.withCore { core in try core.db.execute(sql: "UPDATE snapshots SET rules_version = -1") }
    }

    /// How many snapshots ``makeSnapshotsStale(_:)`` marked are still there.
    static func staleSnapshots(_ store: NavigationStore) throws -> SQLValue {
        try store.withCore { core in
            try core.db.fetchOne(sql: "SELECT count(*) FROM snapshots WHERE rules_version = -1")?[0] ?? .null
        }
    }
}

