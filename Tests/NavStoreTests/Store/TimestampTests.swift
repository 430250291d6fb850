import Foundation
import Testing
@testable import NavStore

@Suite("Timestamp: exact ISO-8601 text both ways")
struct TimestampTests {
    @Test("accepted forms give the exact millisecond", arguments: [
        ("2026-11-30", Int64(1_795_996_800_000)),
        ("2026-11-30T07:18:41Z", 1_796_023_121_000),
        ("2026-11-30T07:18:41.123Z", 1_796_023_121_123),
        ("2026-11-30T07:18:41,5Z", 1_796_023_121_500),
        ("2026-11-30T07:18:41.123456789Z", 1_796_023_121_123),
        ("2026-11-30 07:18:41z", 1_796_023_121_000),
        ("2026-11-30T07:18Z", 1_796_023_080_000),
        ("2026-11-30T09:18:41+02:00", 1_796_023_121_000),
        ("2026-11-30T09:18:41+0200", 1_796_023_121_000),
        ("2026-11-30T09:18:41+02", 1_796_023_121_000),
        ("2026-11-30T02:48:41-04:30", 1_796_023_121_000),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
    ])
    func accepted(text: String, milliseconds: Int64) {
        #expect(Timestamp.parse(text) == milliseconds)
    }

    @Test("anything else is refused, never guessed", arguments: [
        "", "2026", "2026-11", "2026-11-30T10:15:00", "2026-11-30T10:15", "2026-11-30garbage",
        "2026-11-30T10:16:00+05:00junk", "2026-11-30T10:16:00Zjunk", "2024-02-30", "2023-02-29T00:00:00Z",
        "2026-13-01", "2026-00-10", "2026-11-31", "2026-11-30T24:00:00Z", "2026-11-30T23:60:00Z",
        "2026-11-30T23:59:60Z", "2026-11-30T10:15:00.Z", "2026-11-30T10:15:00.1234567890Z", "2026-11-30T10:15:00+24:00",
        "2026-11-30T10:15:00+02:60", "26-11-30", "2026/11/30", " 2026-11-30", "2026-11-30 ", "1700000000000",
        "２０２６-11-30",
    ])
    func refused(text: String) {
        #expect(Timestamp.parse(text) == nil, "\(text)")
    }

    @Test("format and parse are inverses to the millisecond")
    func roundTrip() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<2_000 {
            let ms = Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator)
            #expect(Timestamp.parse(Timestamp.format(ms)) == ms, "\(ms)")
        }
        #expect(Timestamp.format(1_796_023_121_001) == "2026-11-30T07:18:41.001Z")
    }
}
