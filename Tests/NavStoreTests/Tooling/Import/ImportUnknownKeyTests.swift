import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// What import accepts reads back as given: a key that is none of the format's, at any level of
/// a line (the line, every event type's payload, `tabs` entries, `observed`, a truncated
/// session's base and its state), is refused naming it and the known keys, never dropped; so is a
/// `"tab"` on an event type that is never recorded in a tab's stack.
@Suite("NavigationStore: import refuses unknown keys at every level")
struct ImportUnknownKeyTests {
    /// Session `s`'s start, the line every case goes on from.
    static let start =
        #"{"at":1700000000000,"eventID":"00000000-0000-4000-8000-000000000001","payload":{"platform":"ios14"},"session":"s","type":"session.started","version":1}"#

    /// Version 2 of session `s`: an event of `type` with `payload` (its JSON text).
    static func second(_ type: String, _ payload: String) -> String {
        #"{"at":1700000001000,"eventID":"00000000-0000-4000-8000-000000000002","payload":\#(payload),"session":"s","type":"\#(type)","version":2}"#
    }

    /// `payload` (a JSON object's text) with `member` (`"key":value`) as its first member.
    static func adding(_ member: String, to payload: String) -> String {
        payload == "{}" ? "{\(member)}" : "{\(member)," + payload.dropFirst()
    }

    /// Imports `lines` into a store holding one other session, expecting the refusal of line
    /// `line` with a reason containing `fragment`, and the store unchanged.
    static func expectRefused(
        _ lines: [String], line: Int, _ fragment: String, backend: StoreBackend = .sqlite,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory, on: backend)
        try store.startSession("other", at: 1)
        let before = try databaseContent(store)
        let error = try #require(throws: StoreError.self, sourceLocation: sourceLocation) {
            try store.importNDJSON(lines: lines)
        }
        guard case .invalidImport(let refused, let reason) = error else {
            Issue.record("\(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(refused == line, "\(reason)", sourceLocation: sourceLocation)
        #expect(reason.contains(fragment), "\(reason)", sourceLocation: sourceLocation)
        #expect(try databaseContent(store) == before, sourceLocation: sourceLocation)
    }

    /// The payload type an event type leads to: its keys and whether it may carry a `"tab"`.
    private struct PayloadKeys: EventPayloadTypeVisitor {
        func visit<P: EventPayload>(_ type: P.Type) -> (keys: [String], carriesTab: Bool) { (P.keys, P.carriesTab) }
    }

    @Test(
        "every event type's payload: another key is refused, named with the type's keys",
        arguments: ModelTests.CodingTests.bodies)
    func unknownPayloadKey(body: EventBody) throws {
        var visitor = PayloadKeys()
        let (keys, carriesTab) = body.kind.visitPayloadType(&visitor)
        let payload = Self.adding(#""zz":1"#, to: PayloadWriter.json(body))
        try Self.expectRefused(
            [Self.start, Self.second(body.type, payload)], line: 2,
            "bad \(body.type) payload: unknown payload key 'zz' (known: \((keys + (carriesTab ? ["tab"] : [])).joined(separator: ", "))) at payload.zz"
        )
    }

    @Test(
        "a \"tab\" on an event type never recorded in a tab's stack is refused, naming the types that are",
        arguments: EventBody.Kind.allCases.filter { !$0.carriesTab })
    func tabOnTypeWithoutTabs(kind: EventBody.Kind) throws {
        let body = try #require(ModelTests.CodingTests.bodies.first { $0.kind == kind })
        let payload = Self.adding(#""tab":"mail""#, to: PayloadWriter.json(body))
        try Self.expectRefused(
            [Self.start, Self.second(kind.rawValue, payload)], line: 2,
            "bad \(kind.rawValue) payload: a \(kind.rawValue) event takes no \"tab\" (only entry.pushed, entries.popped, stack.replaced, item.updated, layer.updated are recorded in a tab's stack off screen) at payload.tab"
        )
        // `"tab": null` is a "tab" too.
        try Self.expectRefused(
            [Self.start, Self.second(kind.rawValue, Self.adding(#""tab":null"#, to: PayloadWriter.json(body)))],
            line: 2, "takes no \"tab\"")
    }

    @Test("a key inside a payload's objects: a tab of tabs.replaced, observed, an entry, an item", arguments: StoreBackend.all)
    func unknownNestedKeys(backend: StoreBackend) throws {
        let cases: [(String, String, String)] = [
            (
                "tabs.replaced", #"{"tabs":[{"id":"a","badge":"1"}]}"#,
                "unknown tab key 'badge' (known: id, reselect, title) at payload.tabs[0].badge"
            ),
            (
                "stack.replaced", #"{"entries":[{"id":"A"}],"observed":{"reason":"r","why":1}}"#,
                "unknown observed key 'why' (known: layer, reason) at payload.observed.why"
            ),
            ("entry.pushed", #"{"entry":{"id":"A","rout":"/"}}"#, "unknown entry key 'rout'"),
            ("entry.pushed", #"{"entry":{"id":"A","item":{"titel":"x"}}}"#, "unknown navigation item field 'titel'"),
        ]
        for (type, payload, fragment) in cases {
            try Self.expectRefused([Self.start, Self.second(type, payload)], line: 2, fragment, backend: backend)
        }
    }

    @Test("a key of the line that is none of an event record's is refused, naming the record's keys")
    func unknownLineKey() throws {
        let line = Self.second("entry.pushed", #"{"entry":{"id":"A"}}"#).replacingOccurrences(
            of: #""session""#, with: #""colour":"red","session""#)
        try Self.expectRefused(
            [Self.start, line], line: 2,
            "not an event record: unknown key 'colour' (known: at, eventID, payload, previous, seq, session, time, type, version) at colour"
        )
    }

    /// A truncated session's base line (version 2 of `t`) whose payload is `payload`.
    static func base(_ payload: String, extra: String = "") -> String {
        #"{"at":1700000001000,"eventID":"00000000-0000-4000-8000-00000000000b",\#(extra)"payload":\#(payload),"session":"t","type":"session.truncated","version":2}"#
    }

    /// A base's payload whose state is `state` (its JSON text).
    static func basePayload(state: String, extra: String = "") -> String {
        #"{\#(extra)"name":null,"startedAt":1700000000000,"state":\#(state),"truncatedAt":1700000009000}"#
    }

    static let layer = #"{"entries":[{"id":"A"}],"modalInPresentation":false}"#

    @Test("a truncated session's base: a key of its line, payload, state, layers, tab bar or tabs that is none of theirs")
    func unknownBaseKeys() throws {
        let state = #"{"layers":[\#(Self.layer)],"platform":"ios14"}"#
        let tabBar =
            #"{"selected":"a","tabs":[{"id":"a","reselect":"popToRoot","stack":null},{"id":"b","reselect":"none","stack":{"entries":[],"modalInPresentation":false}}]}"#
        let cases: [(String, String)] = [
            (
                Self.base(Self.basePayload(state: state), extra: #""seq":7,"#),
                "unknown key of a session.truncated record 'seq' (known: at, eventID, payload, session, time, type, version)"
            ),
            (
                Self.base(
                    Self.basePayload(state: state),
                    extra: #""previous":"00000000-0000-4000-8000-00000000000a","#),
                "unknown key of a session.truncated record 'previous'"
            ),
            (
                Self.base(Self.basePayload(state: state, extra: #""extra":1,"#)),
                "bad session.truncated payload: unknown key 'extra' (known: name, startedAt, state, truncatedAt)"
            ),
            (
                Self.base(Self.basePayload(state: #"{"layers":[\#(Self.layer)],"platform":"ios14","x":1}"#)),
                "unknown state key 'x' (known: layers, platform, tabBar)"
            ),
            (
                Self.base(
                    Self.basePayload(state: #"{"layers":[{"entries":[],"modalInPresentation":false,"x":1}]}"#)),
                "unknown layer key 'x' (known: entries, modalInPresentation, navigationBarHidden) at layers[0].x"
            ),
            (
                Self.base(
                    Self.basePayload(
                        state: #"{"layers":[\#(Self.layer)],"tabBar":\#(tabBar.dropLast()),"x":1}}"#)),
                "unknown tab bar key 'x' (known: selected, tabs)"
            ),
            (
                Self.base(
                    Self.basePayload(
                        state: #"{"layers":[\#(Self.layer)],"tabBar":\#(tabBar.replacingOccurrences(of: #""stack":null"#, with: #""stack":null,"x":1"#))}"#
                    )),
                "unknown tab key 'x' (known: id, reselect, stack, title) at tabBar.tabs[0].x"
            ),
        ]
        for (line, fragment) in cases { try Self.expectRefused([line], line: 1, fragment) }
        // The same lines without the key import.
        let directory = try TemporaryDirectory()
        let store = try makeStore(directory)
        let plain = Self.base(Self.basePayload(state: #"{"layers":[\#(Self.layer)],"tabBar":\#(tabBar)}"#))
        try store.importNDJSON(lines: [plain])
        #expect(try store.state(session: "t").state.tabBar?.tabs.map(\.id) == ["a", "b"])
    }
}
