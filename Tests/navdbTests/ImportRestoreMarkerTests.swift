import Foundation
import Testing

/// `navdb import` takes a `session.restored` marker only in a shape a restore records (`{}`,
/// `restore --mark`'s, `restore --ack`'s with the events after it), every version it names
/// before its own; any other is refused (exit 65) naming the value and what is accepted, with
/// nothing written.
@Suite("import: session.restored markers a restore could record")
struct ImportRestoreMarkerTests {
    /// `s` started and A pushed (versions 1 and 2), then `marker` as version 3.
    static func lines(_ marker: String, then more: [String] = []) -> [String] {
        ImportPayloadShapeTests.start + [ImportPayloadShapeTests.line(3, "session.restored", marker)] + more
    }

    @Test(
        "the markers a restore records import: {}, restore --mark's with or without a fallback, restore --ack's followed by its events",
        arguments: [
            "{}", #"{"attempt":1,"restoredVersion":2}"#, #"{"attempt":3,"restoredVersion":2}"#,
            #"{"attempt":1,"failedVersions":[2],"restoredVersion":1}"#,
            #"{"attempt":2,"failedVersions":[2],"restoredVersion":0}"#,
            #"{"attempt":1,"failedVersions":[2,1],"restoredVersion":0}"#,
        ])
    func recordable(marker: String) throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["import", "-"], stdin: Self.lines(marker).joined(separator: "\n") + "\n")
        #expect(try sandbox.ok(["export", "s"]).lines[2].contains(#""payload":\#(marker)"#))
    }

    @Test("an acknowledged marker followed by the events of restore --ack imports", arguments: CommandBackend.all)
    func acknowledged(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        let lines = Self.lines(
            #"{"acknowledged":true,"failedVersions":[2],"restoredVersion":0}"#,
            then: [ImportPayloadShapeTests.line(4, "stack.replaced", #"{"entries":[]}"#)])
        try sandbox.ok(["import", "-"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(try sandbox.ok(["history", "s"]).stdout.contains("acknowledged the restore of the base root alone"))
    }

    @Test(
        "a marker no restore records is refused (65) with its line, the value and what is accepted; nothing written",
        arguments: CommandBackend.all)
    func unrecordable(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "other"])
        let what = "line 3: version 3 of session 's': session.restored: "
        let cases: [(String, String)] = [
            (
                #"{"attempt":1,"restoredVersion":3}"#,
                "restoredVersion 3 is not before the marker (version 3): a restore hands out a state the session had, 0 (the base root alone) through 2"
            ),
            (#"{"attempt":1,"restoredVersion":40}"#, "restoredVersion 40 is not before the marker (version 3)"),
            (
                #"{"attempt":1,"failedVersions":[1,2],"restoredVersion":0}"#,
                "failedVersions [1, 2] is not newest first: the second is an earlier state than the first"
            ),
            (
                #"{"attempt":1,"failedVersions":[2,2],"restoredVersion":0}"#,
                "failedVersions [2, 2] is not newest first"
            ),
            (
                #"{"attempt":1,"failedVersions":[3],"restoredVersion":1}"#,
                "failed version 3 is not before the marker (version 3): a failed state is one the session had, 1 through 2"
            ),
            (
                #"{"attempt":1,"failedVersions":[2,1,1],"restoredVersion":0}"#,
                "failedVersions [2, 1, 1] names 3 states; a fallback names at most two"
            ),
            (
                #"{"attempt":1,"failedVersions":[1],"restoredVersion":2}"#,
                "restoredVersion 2 is not before the failed version 1: a fallback hands out an earlier state, or 0 (the base root alone)"
            ),
            (
                #"{"attempt":1,"failedVersions":[2,1],"restoredVersion":1}"#,
                "failedVersions [2, 1] says the earlier acknowledged state failed too, so the base root alone is handed out (restoredVersion 0), found restoredVersion 1"
            ),
            (
                #"{"attempt":1,"restoredVersion":0}"#,
                "restoredVersion 0 (the base root alone) is a fallback, whose marker names the failed states in failedVersions, found none"
            ),
            (
                #"{"restoredVersion":2}"#,
                "a restore's marker names its attempt (1 or more) beside restoredVersion 2, found none"
            ),
            (#"{"attempt":1}"#, "a marker other than {} names the state it handed out (restoredVersion), found none"),
            (#"{"failedVersions":[2]}"#, "a marker other than {} names the state it handed out (restoredVersion)"),
            (#"{"acknowledged":true}"#, "a marker other than {} names the state it handed out (restoredVersion)"),
            (
                #"{"acknowledged":true,"attempt":1,"failedVersions":[2],"restoredVersion":1}"#,
                "an acknowledged marker (restore --ack) counts no attempt, found attempt 1"
            ),
            (
                #"{"acknowledged":true,"restoredVersion":2}"#,
                "an acknowledged marker (restore --ack) follows a fallback and names its failed states, found no failedVersions"
            ),
        ]
        for (marker, message) in cases {
            try expectRefused(
                sandbox, ["import", "-"], stdin: Self.lines(marker).joined(separator: "\n") + "\n", status: 65,
                message: what + message)
        }
        // An acknowledged marker with nothing after it, or another marker right after it.
        let acknowledged = #"{"acknowledged":true,"failedVersions":[2],"restoredVersion":1}"#
        try expectRefused(
            sandbox, ["import", "-"], stdin: Self.lines(acknowledged).joined(separator: "\n") + "\n", status: 65,
            message:
                "line 3: session 's' ends with this acknowledged session.restored (restore --ack), with nothing after it")
        let markerAfter = Self.lines(acknowledged, then: [ImportPayloadShapeTests.line(4, "session.restored", "{}")])
        try expectRefused(
            sandbox, ["import", "-"], stdin: markerAfter.joined(separator: "\n") + "\n", status: 65,
            message:
                "line 4: version 4 of session 's' is a session.restored right after the acknowledged marker of line 3")
    }
}
