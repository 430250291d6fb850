import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Digits below a millisecond in a range bound round towards the inside of the range, so a
/// bound never takes in an event outside the range it names.
@Suite("Timestamp: rounding below a millisecond")
struct TimeRoundingTests {
    @Test(
        "down drops the digits below a millisecond; up moves to the next millisecond only when one is not zero",
        arguments: [
            ("2024-02-29T12:00:00.5009Z", Int64(1_709_208_000_500), Int64(1_709_208_000_501)),
            ("2024-02-29T12:00:00.5000Z", 1_709_208_000_500, 1_709_208_000_500),
            ("2024-02-29T12:00:00.500000001Z", 1_709_208_000_500, 1_709_208_000_501),
            ("2024-02-29T12:00:00.5Z", 1_709_208_000_500, 1_709_208_000_500),
            ("2024-02-29T12:00:00Z", 1_709_208_000_000, 1_709_208_000_000),
            ("1969-12-31T23:59:59.9991Z", -1, 0),
        ])
    func rounding(text: String, down: Int64, up: Int64) {
        #expect(Timestamp.parse(text, rounding: .down) == down)
        #expect(Timestamp.parse(text) == down)
        #expect(Timestamp.parse(text, rounding: .up) == up)
    }

    @Test("rounding up past the last representable millisecond is refused")
    func roundingUpAtTheEnd() {
        #expect(Timestamp.parse("9999-12-31T23:59:59.9991Z", rounding: .up) == nil)
        #expect(Timestamp.parse("9999-12-31T23:59:59.9991Z", rounding: .down) == 253_402_300_799_999)
    }
}
