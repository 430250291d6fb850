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
