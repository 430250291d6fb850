import Foundation
import Testing

/// What `navdb import` accepts in a line's shape: the names a payload's enumerations take, the
/// keys of every object of a line, and where a `"tab"` may stand. A line outside it is refused
/// (exit 65) with one line naming the bad value and what is accepted, and nothing is written.
@Suite("import: the shape of a line")
struct ImportPayloadShapeTests {
    /// An NDJSON event line of session `s` at `version`, a second after the start per version.
    static func line(_ version: Int, _ type: String, _ payload: String, session: String = "s") -> String {
        let at = 1_793_610_000_000 + Int64(version) * 1000
        let id = "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - String(version).count) + String(version)
        return #"{"at":\#(at),"eventID":"\#(id)","payload":\#(payload),"session":"\#(session)","type":"\#(type)","version":\#(version)}"#
    }

    /// `s` started, with A pushed: the lines a case goes on from (version 3 next).
    static let start = [line(1, "session.started", #"{"platform":"ios14"}"#), line(2, "entry.pushed", #"{"entry":{"id":"A"}}"#)]

    /// Imports `lines` into the sandbox's database and expects the refusal of line `at`.
    static func expectRefusedImport(
        _ sandbox: Sandbox, _ lines: [String], line at: Int, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try expectRefused(
            sandbox, ["import", "-"], stdin: lines.joined(separator: "\n") + "\n", status: 65,
            message: "line \(at): ", sourceLocation: sourceLocation)
        try expectRefused(
            sandbox, ["import", "-"], stdin: lines.joined(separator: "\n") + "\n", status: 65, message: message,
            sourceLocation: sourceLocation)
    }

    @Test(
        "a key that is none of the format's, at the line, in a payload, a tab, observed or a base, or a \"tab\" an event type cannot carry: 65, one line, nothing written",
        arguments: CommandBackend.all)
    func unknownKeys(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "other"])
        let base =
            #"{"at":1793610001000,"eventID":"00000000-0000-4000-8000-00000000000b","payload":{"name":null,"startedAt":1793610000000,"state":{"layers":[{"entries":[{"id":"A"}],"modalInPresentation":false,"hidden":true}],"platform":"ios14"},"truncatedAt":1793610009000},"session":"t","type":"session.truncated","version":2}"#
        let cases: [([String], String)] = [
            (
                Self.start + [Self.line(3, "entry.pushed", #"{"entry":{"id":"B"},"extra":1}"#)],
                "line 3: invalid event: bad entry.pushed payload: unknown payload key 'extra' (known: entry, tab) at payload.extra"
            ),
            (
                [Self.start[0], Self.line(2, "entry.pushed", #"{"entry":{"id":"A"}}"#).replacingOccurrences(of: #""session""#, with: #""colour":"red","session""#)],
                "line 2: not an event record: unknown key 'colour' (known: at, eventID, payload, previous, seq, session, time, type, version) at colour"
            ),
            (
                [Self.start[0], Self.line(2, "tabs.replaced", #"{"tabs":[{"id":"a","badge":"1"}]}"#)],
                "line 2: invalid event: bad tabs.replaced payload: unknown tab key 'badge' (known: id, reselect, title) at payload.tabs[0].badge"
            ),
            (
                Self.start + [Self.line(3, "stack.replaced", #"{"entries":[{"id":"B"}],"observed":{"reason":"r","why":1}}"#)],
                "line 3: invalid event: bad stack.replaced payload: unknown observed key 'why' (known: layer, reason) at payload.observed.why"
            ),
            (
                Self.start + [Self.line(3, "calls.dropped", #"{"count":1,"firstAt":1793610002000,"lastAt":1793610002000,"tab":"x"}"#)],
                #"line 3: invalid event: bad calls.dropped payload: a calls.dropped event takes no "tab" (only entry.pushed, entries.popped, stack.replaced, item.updated, layer.updated are recorded in a tab's stack off screen) at payload.tab"#
            ),
            (
                Self.start + [Self.line(3, "session.restored", #"{"foo":1}"#)],
                "line 3: invalid event: bad session.restored payload: unknown payload key 'foo' (known: acknowledged, attempt, failedVersions, restoredVersion) at payload.foo"
            ),
            (
                [base],
                "line 1: invalid event: bad session.truncated payload: state is not a session state (unknown layer key 'hidden' (known: entries, modalInPresentation, navigationBarHidden) at layers[0].hidden)"
            ),
        ]
        for (lines, message) in cases {
            try expectRefused(
                sandbox, ["import", "-"], stdin: lines.joined(separator: "\n") + "\n", status: 65, message: message)
        }
    }

    @Test(
        "a source or a reselect that names none is refused naming it and the accepted names, never in Foundation's words",
        arguments: CommandBackend.all)
    func unknownNames(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "other"])
        let tabs = Self.line(2, "tabs.replaced", #"{"tabs":[{"id":"a"}]}"#)
        let cases: [([String], String)] = [
            (
                Self.start + [Self.line(3, "entries.popped", #"{"ids":["A"],"source":"sideways"}"#)],
                "bad entries.popped payload: unknown source 'sideways' (known: back-button, gesture, content-gesture, back-menu, programmatic, tab-reselect, user) at payload.source"
            ),
            (
                [Self.start[0], Self.line(2, "tabs.replaced", #"{"tabs":[{"id":"a","reselect":"bogus"}]}"#)],
                "bad tabs.replaced payload: unknown reselect 'bogus' (known: popToRoot, none, guarded) at payload.tabs[0].reselect"
            ),
            (
                [Self.start[0], tabs, Self.line(3, "tab.selected", #"{"id":"a","source":"poke"}"#)],
                "bad tab.selected payload: unknown source 'poke' (known: tap, programmatic) at payload.source"
            ),
            (
                Self.start + [
                    Self.line(3, "layer.presented", #"{"entry":{"id":"M"}}"#),
                    Self.line(4, "layer.dismissed", #"{"ids":["M"],"source":"swipe"}"#),
                ],
                "bad layer.dismissed payload: unknown source 'swipe' (known: gesture, programmatic) at payload.source"
            ),
        ]
        for (lines, message) in cases {
            try Self.expectRefusedImport(sandbox, lines, line: lines.count, message: message)
            let stderr = try sandbox.run(["import", "-"], stdin: lines.joined(separator: "\n") + "\n").stderr
            #expect(!stderr.contains("Cannot initialize"), "\(stderr)")
        }
    }
}
