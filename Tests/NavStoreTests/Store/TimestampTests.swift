import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

@Suite("Timestamp: exact ISO-8601 text both ways")
struct TimestampTests {
    @Test(
        "accepted forms give the exact millisecond",
        arguments: [
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
            ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
            ("0000-01-01T00:00:00Z", -62_167_219_200_000),
        ])
    func accepted(text: String, milliseconds: Int64) {
        #expect(Timestamp.parse(text) == milliseconds)
    }

    @Test(
        "anything else is refused, never guessed",
        arguments: [
            "", "2026", "2026-11", "2026-11-30T10:15:00", "2026-11-30T10:15", "2026-11-30garbage",
            "2026-11-30T10:16:00+05:00junk", "2026-11-30T10:16:00Zjunk", "2024-02-30", "2023-02-29T00:00:00Z",
            "2026-13-01", "2026-00-10", "2026-11-31", "2026-11-30T24:00:00Z", "2026-11-30T23:60:00Z",
            "2026-11-30T23:59:60Z", "2026-11-30T10:15:00.Z", "2026-11-30T10:15:00.1234567890Z",
            "2026-11-30T10:15:00+24:00",
            "2026-11-30T10:15:00+02:60", "26-11-30", "2026/11/30", " 2026-11-30", "2026-11-30 ", "1700000000000",
            "２０２６-11-30", "9999-12-31T23:59:59.999-23:59", "0000-01-01T00:00:00+00:01",
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

    @Test(
        "a refused time names the field out of range; a text of another shape has no field to name",
        arguments: [
            ("2026-13-01", "month 13 is out of range 1-12"), ("2026-00-10", "month 0 is out of range 1-12"),
            ("2026-11-31", "day 31 is out of range 1-30 for 2026-11"),
            ("2023-02-29T00:00:00Z", "day 29 is out of range 1-28 for 2023-02"),
            ("2026-11-30T24:00:00Z", "hour 24 is out of range 0-23"),
            ("2026-11-30T23:60:00Z", "minute 60 is out of range 0-59"),
            ("2026-11-30T23:59:60Z", "second 60 is out of range 0-59 (a leap second is not accepted)"),
            ("2026-11-30T10:15:00.Z", "the fraction of a second has no digits"),
            ("2026-11-30T10:15:00.1234567890Z", "the fraction of a second has 10 digits; at most 9 are accepted"),
            ("2026-11-30T10:15:00+24:00", "the zone's hours 24 are out of range 0-23"),
            ("2026-11-30T10:15:00+02:60", "the zone's minutes 60 are out of range 0-59"),
            ("0000-01-01T00:00:00+00:01", "the time in UTC falls outside the years 0000-9999"),
        ])
    func problems(text: String, problem: String) {
        #expect(Timestamp.parse(text) == nil)
        #expect(Timestamp.problem(in: text) == problem)
    }

    @Test("no problem for a time that parses, or for text that is not shaped like a time")
    func noProblem() {
        for text in ["2026-11-30", "2026-11-30T10:15:00Z", "yesterday", "26-11-30", "", "2026/11/30"] {
            #expect(Timestamp.problem(in: text) == nil, "\(text)")
        }
        #expect(Timestamp.problem(in: "2026-11-30T10:15:00")?.hasPrefix("the time has no zone") == true)
    }
}
