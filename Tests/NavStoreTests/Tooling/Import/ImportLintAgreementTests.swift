import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// One reading for every reader: `lint --input` takes exactly what an
/// import into an empty database takes, refuses the rest with the same line and reason, and a
/// truncated session's base passes the checks a `set-stack` passes.
@Suite("import and lint --input read NDJSON alike")
struct ImportLintAgreementTests {
    static func id(_ n: Int) -> String { "00000000-0000-4000-8000-" + String(format: "%012x", n) }

    /// An event line of session `s` (hand-written, as a hostile file would be).
    static func event(
        _ version: Int, _ type: String, _ payload: String, id: String, at: Int64 = 1_000, extra: String = ""
    ) -> String {
        #"{"session":"s","version":\#(version),"type":"\#(type)","at":\#(at),"eventID":"\#(id)","payload":\#(payload)\#(extra)}"#
    }

    static let start = event(1, "session.started", "{}", id: id(1))
    static func push(_ version: Int, _ entry: String, id n: Int, at: Int64 = 1_000, extra: String = "") -> String {
        event(version, "entry.pushed", #"{"entry":{"id":"\#(entry)"}}"#, id: id(n), at: at, extra: extra)
    }

    /// A `session.truncated` line of session `t` at version 5 whose state's layers are `layers`
    /// (JSON), with an optional tab bar.
    static func base(layers: String, tabBar: String? = nil) -> String {
        let state = #"{"layers":\#(layers),"platform":"ios14""# + (tabBar.map { #","tabBar":\#($0)"# } ?? "") + "}"
        return
            #"{"session":"t","version":5,"type":"session.truncated","at":1000,"eventID":"\#(id(99))","payload":{"name":null,"startedAt":0,"state":\#(state),"truncatedAt":2000}}"#
    }

    struct Input: Sendable, CustomTestStringConvertible {
        var name: String
        var lines: [String]
        /// The refused line and a fragment of the reason, or `nil` when both readers take it.
        var refused: (line: Int, fragment: String)?
        var testDescription: String { name }
    }

    static let inputs: [Input] = [
        Input(
            name: "time going backwards",
            lines: [start, push(2, "A", id: 2, at: 5_000), push(3, "B", id: 3, at: 4_000)],
            refused: (3, "times never go backwards")),
        Input(
            name: "at past the year 9999",
            lines: [start, push(2, "A", id: 2, at: 253_402_300_800_000)],
            refused: (2, "outside the years 0000 through 9999")),
        Input(
            name: "an event id that is not a UUID",
            lines: [start, event(2, "entry.pushed", #"{"entry":{"id":"A"}}"#, id: "not-a-uuid")],
            refused: (2, "event id 'not-a-uuid' is not")),
        Input(
            name: "one event id twice, in two letter cases, with other content",
            lines: [
                event(1, "session.started", "{}", id: "0000000A-0000-4000-8000-000000000001"),
                event(2, "entry.pushed", #"{"entry":{"id":"A"}}"#, id: "0000000a-0000-4000-8000-000000000001"),
            ],
            refused: (2, "repeats line 1 of the input with different content")),
        Input(
            name: "previous on version 1",
            lines: [event(1, "session.started", "{}", id: id(1), extra: #","previous":"\#(id(7))""#)],
            refused: (1, "version 1 continues nothing")),
        Input(
            name: "a wrong previous",
            lines: [start, push(2, "A", id: 2, extra: #","previous":"\#(id(7))""#)],
            refused: (2, "the file continues another history")),
        Input(
            name: "a version gap",
            lines: [start, push(3, "A", id: 3)],
            refused: (2, "so the next version is 2, but this line is version 3")),
        Input(name: "an exact duplicate line (skipped)", lines: [start, push(2, "A", id: 2), push(2, "A", id: 2)]),
        Input(
            name: "an event repeated with the same id and other content",
            lines: [start, push(2, "A", id: 2), push(2, "B", id: 2)],
            refused: (3, "repeats line 2 of the input with different content")),
        Input(
            name: "a base with an id live twice",
            lines: [base(layers: #"[{"entries":[{"id":"A"},{"id":"A"}]}]"#)],
            refused: (1, "the base layer: a stack replacement (setViewControllers) lists entry 'A' more than once")),
        Input(
            name: "a base with an id live in two layers",
            lines: [base(layers: #"[{"entries":[{"id":"A"}]},{"entries":[{"id":"A"}]}]"#)],
            refused: (1, "entry 'A' is in the base layer and in layer 1")),
        Input(
            name: "a base with an empty id",
            lines: [base(layers: #"[{"entries":[{"id":""}]}]"#)],
            refused: (1, "the base layer: ")),
        Input(
            name: "a base with an empty modal layer",
            lines: [base(layers: #"[{"entries":[{"id":"A"}]},{"entries":[]}]"#)],
            refused: (1, "layer 1: ")),
        Input(
            name: "a base with no layers",
            lines: [base(layers: "[]")],
            refused: (1, "state has no layers")),
        Input(
            name: "a base layer that is modalInPresentation",
            lines: [base(layers: #"[{"entries":[{"id":"A"}],"modalInPresentation":true}]"#)],
            refused: (1, "the base layer is modalInPresentation")),
        Input(
            name: "a tab's stack sharing an id with the selected tab",
            lines: [
                base(
                    layers: #"[{"entries":[{"id":"A"}]}]"#,
                    tabBar: #"{"selected":"one","tabs":[{"id":"one","stack":null},{"id":"two","stack":{"entries":[{"id":"A"}]}}]}"#
                )
            ],
            refused: (1, "entry 'A' is in the base layer and in the stack of tab 'two'")),
        Input(
            name: "a base of 5,000 presented layers (each a present away)",
            lines: [
                base(
                    layers: "["
                        + (0..<5_000).map { #"{"entries":[{"id":"E\#($0)"}],"modalInPresentation":\#($0 > 0 && $0 % 2 == 0)}"# }
                        .joined(separator: ",") + "]")
            ]),
        Input(
            name: "a base then the session's next events",
            lines: [base(layers: #"[{"entries":[{"id":"A"}]}]"#), event(6, "entry.pushed", #"{"entry":{"id":"B"}}"#, id: id(6)).replacingOccurrences(of: #""session":"s""#, with: #""session":"t""#)]),
    ]

    @Test("import and lint --input take the same lines and refuse the rest alike", arguments: inputs)
    func agree(input: Input) throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        let imported = Result { () throws(StoreError) in try store.importNDJSON(lines: input.lines) }
        let linted = Result { () throws(StoreError) in try NavigationStore.lintNDJSON(lines: input.lines) }
        switch (imported, linted) {
        case (.success, .success):
            #expect(input.refused == nil, "both took it")
        case (.failure(let importError), .failure(let lintError)):
            #expect(importError == lintError)
            guard case .invalidImport(let line, let reason) = importError else {
                Issue.record("not an invalid import: \(importError)")
                return
            }
            let refused = try #require(input.refused, "refused: \(reason)")
            #expect(line == refused.line)
            #expect(reason.contains(refused.fragment), "\(reason)")
            #expect(try store.sessionKeys().isEmpty, "nothing was imported")
        default:
            Issue.record("import: \(imported), lint: \(linted)")
        }
    }

    @Test("a full export followed by its session.truncated line imports and lints alike")
    func exportThenBase() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s", at: 0)
        try store.append(contentsOf: [.push(Entry(id: "A")), .push(Entry(id: "B")), .pop(source: .backButton)], session: "s", at: 0)
        let full = try store.exportLines()
        try store.truncateSession("s", before: 3)
        let base = try #require(try store.exportLines().first { $0.contains(#""type":"session.truncated""#) })
        let lines = full + [base]
        let again = try NavigationStore(path: dir.path("again.sqlite"))
        #expect(try again.importNDJSON(lines: lines).imported == full.count)
        #expect(try NavigationStore.lintNDJSON(lines: lines).summary.events == full.count)
    }

    @Test("a base state is checked as a set-stack is: the same checks, named by layer or tab")
    func validateWhole() throws {
        let a = Entry(id: "A")
        #expect(throws: Never.self) { try SessionState().validateWhole() }
        #expect(throws: Never.self) {
            try SessionState(layers: [Layer(entries: [a]), Layer(entries: [Entry(id: "B")], modalInPresentation: true)])
                .validateWhole()
        }
        #expect(throws: NavigationError.invalidEvent("the base layer: \(NavigationError.emptyEntryID.description)")) {
            try SessionState(layers: [Layer(entries: [Entry(id: "")])]).validateWhole()
        }
        #expect(
            throws: NavigationError.invalidEvent(
                "layer 1 is presented over an empty base layer; a layer is presented from an entry of the one below")
        ) {
            try SessionState(layers: [Layer(), Layer(entries: [a])]).validateWhole()
        }
    }
}
