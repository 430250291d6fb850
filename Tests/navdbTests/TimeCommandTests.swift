import Foundation
import Testing

/// `--since`/`--until`/`--at` with digits below a millisecond, a clock behind the session's last
/// event, and a `--time` far ahead of the clock.
@Suite struct TimeCommandTests {
    /// ISO-8601 text of now plus `hours`, to the second.
    static func hoursFromNow(_ hours: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date().addingTimeInterval(hours * 3600))
    }

    @Test("a bound with digits below a millisecond keeps to the inside of the range", arguments: CommandBackend.all)
    func subMillisecondBounds(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s", "--time", "2024-02-29T12:00:00Z"])
        try sandbox.ok(["push", "s", "A", "--time", "2024-02-29T12:00:00.500Z"])
        func versions(_ arguments: [String]) throws -> [Int] {
            try sandbox.ok(["--json", "history", "s"] + arguments).stdout.split(separator: "\n").map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
            }.compactMap { $0["version"] as? Int }
        }
        #expect(try versions(["--since", "2024-02-29T12:00:00.5009Z"]) == [], "at .500 is not at or after .5009")
        #expect(try versions(["--since", "2024-02-29T12:00:00.5000Z"]) == [2])
        #expect(try versions(["--until", "2024-02-29T12:00:00.5009Z"]) == [1, 2])
        #expect(try versions(["--until", "2024-02-29T12:00:00.4999Z"]) == [1], "at .500 is not at or before .4999")
        #expect(try versions(["--since", "2024-02-29T12:00:00.5009Z", "--until", "2024-02-29T12:00:00.5009Z"]) == [])
        let at = try sandbox.ok(["--json", "stack", "s", "--at", "2024-02-29T12:00:00.4999Z"]).object()
        #expect(at["version"] as? Int == 1, "--at rounds down: the last event at or before .4999 is version 1")
        let help = try sandbox.ok(["history", "--help"]).stdout
        #expect(help.contains("digits below a millisecond round up"))
        #expect(help.contains("digits below a millisecond round down"))
    }

    @Test(
        "a --time more than 24 hours ahead of the clock is refused (64), database unchanged, unless --allow-future-time",
        arguments: CommandBackend.all)
    func farFutureTimeRefused(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let before = try sandbox.databaseBytes()
        let far = Self.hoursFromNow(48)
        for command in [
            ["push", "s", "A", "--time", far], ["restore", "s", "--mark", "--time", far],
            ["session", "start", "t", "--time", far],
        ] {
            let refused = try sandbox.run(command)
            #expect(refused.status == 64, "\(command): \(refused)")
            #expect(
                refused.stderr.hasPrefix("Error: --time \(far) is more than 24 hours ahead of the clock (now "),
                "\(refused.stderr)")
            #expect(refused.stderr.contains("--allow-future-time"))
        }
        #expect(try sandbox.databaseBytes() == before)
        try sandbox.ok(["push", "s", "A", "--time", Self.hoursFromNow(23)])
        try sandbox.ok(["push", "s", "B", "--time", far, "--allow-future-time"])
        #expect(try sandbox.ok(["push", "--help"]).stdout.contains("at most 24 hours ahead of the clock"))
    }

    @Test(
        "a write without --time while the clock is behind the last event warns on stderr and keeps time from going backwards",
        arguments: CommandBackend.all)
    func clockBehindWarns(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let ahead = Self.hoursFromNow(10)
        try sandbox.ok(["push", "s", "A", "--time", ahead])
        let pushed = try sandbox.ok(["push", "s", "B"])
        #expect(pushed.stdout == "version 3\n")
        #expect(pushed.stderr.hasPrefix("warning: the clock ("), "\(pushed.stderr)")
        #expect(pushed.stderr.contains("is behind the previous event of session 's'"))
        #expect(pushed.stderr.contains("so this event was stamped with that event's time, not now"))
        let times = try sandbox.ok(["--json", "history", "s"]).stdout.split(separator: "\n").map {
            (try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any])["at"] as? Int
        }
        #expect(times.count == 3 && times[2] != nil && times[2] == times[1], "\(times)")
        // With the clock ahead (an explicit time), no warning.
        let explicit = try sandbox.ok(["push", "s", "C", "--time", ahead])
        #expect(explicit.stderr.isEmpty)
    }
}
