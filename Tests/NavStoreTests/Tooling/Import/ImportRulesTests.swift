import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Import checks each event against the decisions the commands make, and against the event its
/// line says it continues: a log holds only histories the commands could have made.
@Suite("NavigationStore: import refuses histories that could not have happened")
struct ImportRulesTests {
    /// An NDJSON line for `body` as version `version` of session `session`.
    static func line(_ session: String, _ version: Int, _ body: EventBody, id: Int, at: Int64 = 1_700_000_000_000)
        throws -> String
    {
        let eventID =
            "00000000-0000-4000-8000-"
            + String(String(id, radix: 16).reversed()).padding(toLength: 12, withPad: "0", startingAt: 0)
        return try EventRecord(Event(session: session, version: version, at: at, eventID: eventID, body: body))
            .jsonLine()
    }

    /// A log: `session.started`, then `bodies`, each as the next version of session `s`.
    static func lines(_ bodies: [EventBody]) throws -> [String] {
        try ([EventBody.sessionStarted(name: nil)] + bodies).enumerated().map {
            try line("s", $0.offset + 1, $0.element, id: $0.offset + 1)
        }
    }

    struct Impossible: Sendable, CustomTestStringConvertible {
        var name: String
        var before: [EventBody]
        var event: EventBody
        var fragment: String
        var testDescription: String { name }
    }

    static let plain = NavigationItem()
    static let guarded = NavigationItem(popGuard: PopGuard(prompt: "Discard?"))

    @Test(
        "an impossible event is refused with its line, and nothing is written",
        arguments: [
            Impossible(
                name: "a gesture pop with no back button",
                before: [
                    .entryPushed(Entry(id: "A")),
                    .entryPushed(Entry(id: "B", item: NavigationItem(hidesBackButton: true))),
                ],
                event: .entriesPopped(source: .gesture, ids: ["B"], confirmed: false),
                fragment: "'B' shows no back button"),
            Impossible(
                name: "a back-menu pop past a barrier",
                before: [
                    .entryPushed(Entry(id: "A")),
                    .entryPushed(Entry(id: "B", item: NavigationItem(hidesBackButton: true))),
                    .entryPushed(Entry(id: "C")),
                ],
                event: .entriesPopped(source: .backMenu, ids: ["B", "C"], confirmed: false),
                fragment: "cannot pop to 'A' from the back menu: it is not a row of it (rows: B)"),
            Impossible(
                name: "a gesture dismissal of a modalInPresentation layer",
                before: [.entryPushed(Entry(id: "A")), .layerPresented(Entry(id: "M"), modalInPresentation: true)],
                event: .layerDismissed(source: .gesture, ids: ["M"]), fragment: "is vetoed (dismiss.vetoed)"),
            Impossible(
                name: "an item.updated whose fields do not match the change",
                before: [.entryPushed(Entry(id: "A", item: NavigationItem(title: "a")))],
                event: .itemUpdated(id: "A", item: NavigationItem(title: "b"), fields: ["backButtonTitle"]),
                fragment: "the fields that change are [\"title\"]"),
            Impossible(
                name: "an unconfirmed back-button pop through a pop guard",
                before: [.entryPushed(Entry(id: "A")), .entryPushed(Entry(id: "B", item: guarded))],
                event: .entriesPopped(source: .backButton, ids: ["B"], confirmed: false),
                fragment: "is vetoed (pop.vetoed)"),
        ], StoreBackend.all)
    func refusesImpossible(_ row: Impossible, backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend)
        try store.startSession("other", at: 1)
        let before = try databaseContent(store)
        // Two harmless lines after it: the first impossible event is the one named.
        let lines = try Self.lines(
            row.before + [row.event, .sessionRestored(RestoreMarker()), .sessionRestored(RestoreMarker())])
        let impossibleLine = row.before.count + 2
        let error = try #require(throws: StoreError.self) { try store.importNDJSON(lines: lines) }
        guard case .invalidImport(let line, let reason) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(line == impossibleLine)
        #expect(
            reason.hasPrefix("version \(impossibleLine) of session 's': invalid event: \(row.event.type): "),
            "\(reason)")
        #expect(reason.contains(row.fragment), "\(reason)")
        #expect(try store.sessions().map(\.key) == ["other"])
        #expect(try databaseContent(store) == before)
    }

    @Test("vetoes are facts: the vetoes the commands record import", arguments: StoreBackend.all)
    func vetoesImport(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend)
        let lines = try Self.lines([
            .entryPushed(Entry(id: "A")), .entryPushed(Entry(id: "B", item: Self.guarded)),
            .popVetoed(entry: "B", prompt: "Discard?", source: .backButton),
            .entriesPopped(source: .backButton, ids: ["B"], confirmed: true),
            .layerPresented(Entry(id: "M"), modalInPresentation: true),
            .dismissVetoed(entry: "M", source: .gesture),
            .layerDismissed(source: .programmatic, ids: ["M"]),
        ])
        #expect(try store.importNDJSON(lines: lines).imported == 8)
        #expect(try store.state(session: "s").state.entryIDs == [["A"]])
    }

    // MARK: Continuations

    @Test("every exported line after a session's version 1 names the event it continues", arguments: StoreBackend.all)
    func exportNamesPrevious(backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend, options: fastOptions())
        try buildRandomLog(store, seed: 11, sessions: ["a", "b", "c"], batches: 30, batchSize: 1...5)
        let lines = try store.exportLines()
        let events = try store.allEvents()
        var newest: [String: String] = [:]
        for (line, event) in zip(lines, events) {
            let record = try JSONDecoder().decode(EventRecord.self, from: Data(line.utf8))
            #expect(record.previous == newest[event.session], "\(line)")
            #expect(line.contains("\"previous\"") == (event.version > 1))
            newest[event.session] = event.eventID
        }
    }

    /// Two databases that share versions 1...3 of session `s` and differ at version 4; the
    /// first has a version 5 too. Returns them with the first's export lines.
    static func diverged(_ one: TemporaryDirectory, _ two: TemporaryDirectory, on backend: StoreBackend) throws -> (
        NavigationStore, NavigationStore, [String]
    ) {
        let first = try makeStore(one, on: backend)
        let second = try makeStore(two, on: backend)
        try first.startSession("s", at: 1)
        try first.append(contentsOf: [.push(Entry(id: "A")), .push(Entry(id: "B"))], session: "s", at: 2)
        try second.importNDJSON(lines: try first.exportLines())
        try first.execute(.push(Entry(id: "C")), session: "s", at: 3)
        try second.execute(.push(Entry(id: "X")), session: "s", at: 3)
        try first.execute(.push(Entry(id: "D")), session: "s", at: 4)
        return (first, second, try first.exportLines())
    }

    @Test(
        "a continuation of another history is refused, naming the session, the line and both events",
        arguments: StoreBackend.all)
    func divergedContinuationRefused(backend: StoreBackend) throws {
        let one = try TemporaryDirectory()
        let two = try TemporaryDirectory()
        let (first, second, lines) = try Self.diverged(one, two, on: backend)
        let ours = try second.allEvents(session: "s")[3].eventID
        let theirs = try first.allEvents(session: "s")[3].eventID
        let before = try databaseContent(second)
        // Only version 5 of the first: it continues the first's version 4, not the second's.
        let error = try #require(throws: StoreError.self) { try second.importNDJSON(lines: ["", lines[4]]) }
        guard case .invalidImport(let line, let reason) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(line == 2)
        #expect(
            reason.hasPrefix("version 4 of session 's' here is \(ours), the file continues \(theirs) with version 5"),
            "\(reason)")
        #expect(error.description.hasPrefix("line 2: version 4 of session 's' here is "))
        #expect(try databaseContent(second) == before)
        // The whole export: version 4 itself is where the histories differ.
        let whole = try #require(throws: StoreError.self) { try second.importNDJSON(lines: lines) }
        #expect(
            whole
                == .invalidImport(
                    line: 4,
                    reason:
                        "version 4 of session 's' here is \(ours) (entry.pushed), the file has \(theirs) (entry.pushed) at that version: the two histories differ; a file continuing a session starts right after its newest version, 4"
                ))
        #expect(try databaseContent(second) == before)
    }

    @Test(
        "a continuation of the same history imports; a line without previous (an older export) is not checked",
        arguments: StoreBackend.all)
    func continuationsThatImport(backend: StoreBackend) throws {
        let one = try TemporaryDirectory()
        let two = try TemporaryDirectory()
        let three = try TemporaryDirectory()
        let (first, second, lines) = try Self.diverged(one, two, on: backend)
        // The same history: a copy at version 4 takes the first's version 5 alone.
        let copy = try makeStore(three, on: backend)
        try copy.importNDJSON(lines: Array(lines.prefix(4)))
        #expect(try copy.importNDJSON(lines: [lines[4]]).imported == 1)
        #expect(try copy.exportLines() == first.exportLines())
        // Without "previous" (as navdb 0.1.0 wrote lines), what the line continues is unknown:
        // it is imported when the rules accept it, as before.
        let record = try JSONDecoder().decode(EventRecord.self, from: Data(lines[4].utf8))
        var unstated = record
        unstated.previous = nil
        #expect(try second.importNDJSON(lines: [try unstated.jsonLine()]).imported == 1)
        #expect(try second.state(session: "s").state.entryIDs == [["A", "B", "X", "D"]])
    }

    @Test(
        "previous must fit the version: null only on version 1, an id only after it, and a UUID",
        arguments: StoreBackend.each([
            (
                #"{"at":5,"eventID":"00000000-0000-4000-8000-000000000009","payload":{},"previous":null,"session":"s","type":"session.restored","version":4}"#,
                "version 4 of session 's' has \"previous\": null, which only version 1 may have"
            ),
            (
                #"{"at":5,"eventID":"00000000-0000-4000-8000-000000000009","payload":{},"previous":"00000000-0000-4000-8000-000000000001","session":"t","type":"session.started","version":1}"#,
                "version 1 of session 't' names previous 00000000-0000-4000-8000-000000000001, but version 1 continues nothing"
            ),
            (
                #"{"at":5,"eventID":"00000000-0000-4000-8000-000000000009","payload":{},"previous":"v3","session":"s","type":"session.restored","version":4}"#,
                "previous 'v3' is not a UUID"
            ),
            (
                #"{"at":5,"eventID":"00000000-0000-4000-8000-000000000009","payload":{},"previous":7,"session":"s","type":"session.restored","version":4}"#,
                "expected a string at previous, found a number"
            ),
        ]))
    func previousShape(line: String, fragment: String, backend: StoreBackend) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend)
        try store.startSession("s", at: 1)
        try store.append(contentsOf: [.push(Entry(id: "A")), .push(Entry(id: "B"))], session: "s", at: 2)
        let before = try databaseContent(store)
        let error = try #require(throws: StoreError.self) { try store.importNDJSON(lines: [line]) }
        guard case .invalidImport(1, let reason) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(reason.contains(fragment), "\(reason)")
        #expect(try databaseContent(store) == before)
        // null on version 1 is fine, and so is the right id.
        let newest = try store.allEvents(session: "s")[2].eventID
        #expect(
            try store.importNDJSON(lines: [
                #"{"at":5,"eventID":"00000000-0000-4000-8000-00000000000a","payload":{},"previous":null,"session":"u","type":"session.started","version":1}"#,
                #"{"at":5,"eventID":"00000000-0000-4000-8000-00000000000b","payload":{},"previous":"\#(newest.uppercased())","session":"s","type":"session.restored","version":4}"#,
            ]).imported == 2)
    }
}
