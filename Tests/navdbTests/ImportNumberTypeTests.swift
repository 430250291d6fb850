import Foundation
import Testing

/// An import line that is JSON but holds a number that is not an integer where one is expected is
/// refused for that number (`expected an integer at at, found 1.5`), not as "not JSON".
@Suite("navdb import and lint --input: a non-integer number in an integer field")
struct ImportNumberTypeTests {
    static let line =
        #"{"at":AT,"eventID":"01a22e59-7b4d-7f1c-87eb-3130abec615f","payload":{"platform":"ios14"},"seq":SEQ,"session":"s","type":"session.started","version":VERSION}"#

    static func line(at: String = "1796073945933", seq: String = "1", version: String = "1") -> String {
        line.replacing("AT", with: at).replacing("SEQ", with: seq).replacing("VERSION", with: version) + "\n"
    }

    @Test(
        "the field and the number are named; exit 65; the database unchanged",
        arguments: CommandBackend.each([
            (line(at: "1.5"), "line 1: expected an integer at at, found 1.5"),
            (line(at: "1e30"), "line 1: expected an integer at at, found 1e+30"),
            (line(seq: "1.5"), "line 1: expected an integer at seq, found 1.5"),
            (line(version: "2.5"), "line 1: expected an integer at version, found 2.5"),
        ]))
    func importNamesTheField(input: String, message: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "kept"])
        try expectRefused(sandbox, ["import", "-"], stdin: input, status: 65, message: message)
        let input = try sandbox.write("in.ndjson", input)
        try expectRefused(
            sandbox, ["lint", "--input", input], status: 65,
            message: "in.ndjson': " + message.dropFirst("line 1: ".count))
    }

    /// A payload's integer fields (`restore --mark`'s attempt, a layer, a count of dropped calls).
    static func payloadLines(_ second: String) -> String {
        line(at: "1796073945933") + second.replacing("AT", with: "1796073945934") + "\n"
    }

    @Test(
        "a payload's integer field holding another number is named with the number; exit 65; nothing imported",
        arguments: CommandBackend.each([
            (
                payloadLines(
                    #"{"at":AT,"eventID":"01a22e59-7b4d-7f1c-87eb-3130abec6160","payload":{"attempt":1.5,"restoredVersion":1},"seq":2,"session":"s","type":"session.restored","version":2}"#
                ),
                "line 2: invalid event: bad session.restored payload: expected an integer at payload.attempt, found 1.5"
            ),
            (
                payloadLines(
                    #"{"at":AT,"eventID":"01a22e59-7b4d-7f1c-87eb-3130abec6160","payload":{"count":1e30,"firstAt":1,"lastAt":2},"seq":2,"session":"s","type":"calls.dropped","version":2}"#
                ),
                "line 2: invalid event: bad calls.dropped payload: expected an integer at payload.count, found 1e+30"
            ),
        ]))
    func payloadNamesTheField(input: String, message: String, backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "kept"])
        try expectRefused(sandbox, ["import", "-"], stdin: input, status: 65, message: message)
    }

    @Test("a line that is not JSON is still described as not JSON", arguments: CommandBackend.all)
    func syntaxErrorStaysNotJSON(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "kept"])
        try expectRefused(
            sandbox, ["import", "-"], stdin: Self.line(at: "1.5,,"), status: 65, message: "line 1: not JSON: it reads")
    }
}
