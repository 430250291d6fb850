import Foundation
import Testing

/// An imported event's `at` outside the years 0000 through 9999 (what `--at` and `--time` read and
/// every output writes) is refused, as a Firefox `lastAccess` is: once stored, it would stamp every
/// later event of the session at least as late, and its time could not be asked for with `--at`.
@Suite("import: times outside the years 0000-9999")
struct ImportTimeRangeTests {
    /// An export line with its `at` set to `at` and its `time` left out (it must agree with `at`).
    static func timed(_ line: String, at: Int64) -> String {
        line.replacingOccurrences(of: #""at":\d+"#, with: "\"at\":\(at)", options: .regularExpression)
            .replacingOccurrences(of: #""time":"[^"]*","#, with: "", options: .regularExpression)
    }

    @Test(
        "an event or a session start at a time outside 0000-9999 is refused (65) with its line; the log is unchanged",
        arguments: CommandBackend.all, [Int64.max, 253_402_300_800_000, -62_167_219_200_001, Int64.min])
    func outOfRange(backend: CommandBackend, at: Int64) throws {
        let (sandbox, lines) = try BadInputTests().sandboxAndForeignExport(backend)
        // The export's lines: the session's start, then the push. Each in turn gets the time.
        for index in lines.indices {
            var changed = lines
            changed[index] = Self.timed(changed[index], at: at)
            #expect(changed != lines)
            try expectRefused(
                sandbox, ["import", "-"], stdin: changed.joined(separator: "\n") + "\n", status: 65,
                message: "line \(index + 1)")
            let result = try sandbox.run(["import", "-"], stdin: changed.joined(separator: "\n") + "\n")
            #expect(
                result.stderr.contains(
                    "at \(at) is outside the years 0000 through 9999 in which times are read and written"),
                "\(result.stderr)")
        }
    }

    @Test(
        "a base's truncatedAt or startedAt, a calls.dropped's firstAt or lastAt outside 0000-9999 is refused (65) naming it; the log is unchanged",
        arguments: CommandBackend.all, [253_402_300_800_000, -62_167_219_200_001] as [Int64])
    func payloadTimesOutOfRange(backend: CommandBackend, at: Int64) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "other"])
        let start = ImportPayloadShapeTests.start
        func dropped(firstAt: Int64, lastAt: Int64) -> String {
            ImportPayloadShapeTests.line(3, "calls.dropped", #"{"count":2,"firstAt":\#(firstAt),"lastAt":\#(lastAt)}"#)
        }
        func base(startedAt: Int64, truncatedAt: Int64) -> String {
            #"{"at":1793610001000,"eventID":"00000000-0000-4000-8000-00000000000b","payload":{"name":null,"startedAt":\#(startedAt),"state":{"layers":[{"entries":[{"id":"A"}],"modalInPresentation":false}],"platform":"ios14"},"truncatedAt":\#(truncatedAt)},"session":"t","type":"session.truncated","version":2}"#
        }
        let ok: Int64 = 1_793_610_001_500
        let cases: [([String], String)] = [
            (start + [dropped(firstAt: at, lastAt: ok)], "line 3: version 3 of session 's': payload.firstAt \(at) is outside"),
            (start + [dropped(firstAt: ok, lastAt: at)], "line 3: version 3 of session 's': payload.lastAt \(at) is outside"),
            ([base(startedAt: 1_793_610_000_000, truncatedAt: at)], "line 1: the base of session 't' at version 2: payload.truncatedAt \(at) is outside"),
            ([base(startedAt: at, truncatedAt: 1_793_610_009_000)], "line 1: the start of session 't': payload.startedAt \(at) is outside"),
        ]
        for (lines, message) in cases {
            try expectRefused(
                sandbox, ["import", "-"], stdin: lines.joined(separator: "\n") + "\n", status: 65,
                message: message + " the years 0000 through 9999 in which times are read and written")
        }
        // The same lines with times inside the years import.
        try sandbox.ok(["import", "-"], stdin: (start + [dropped(firstAt: ok, lastAt: ok)]).joined(separator: "\n") + "\n")
        try sandbox.ok(["import", "-"], stdin: base(startedAt: 1_793_610_000_000, truncatedAt: 1_793_610_009_000) + "\n")
    }

    @Test(
        "the first and last milliseconds of the years 0000-9999 are imported and read back",
        arguments: CommandBackend.all)
    func edges(backend: CommandBackend) throws {
        let (sandbox, lines) = try BadInputTests().sandboxAndForeignExport(backend)
        var changed = lines
        changed[0] = Self.timed(changed[0], at: -62_167_219_200_000)
        changed[1] = Self.timed(changed[1], at: 253_402_300_799_999)
        try sandbox.ok(["import", "-"], stdin: changed.joined(separator: "\n") + "\n")
        let history = try sandbox.ok(["history", "t"]).stdout
        #expect(history.contains("0000-01-01T00:00:00.000Z"), "\(history)")
        #expect(history.contains("9999-12-31T23:59:59.999Z"), "\(history)")
        #expect(try sandbox.ok(["stack", "t", "--at", "9999-12-31T23:59:59.999Z"]).stdout.contains("X"))
    }
}
