#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Event times: integer milliseconds since the Unix epoch, UTC (DESIGN §4), and their ISO-8601 text.
public enum Timestamp {
    /// The current wall-clock time in milliseconds since the Unix epoch.
    public static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// ISO-8601 text in UTC with milliseconds, e.g. `2026-11-30T07:18:41.123Z`.
    ///
    /// Exact: integer arithmetic on the proleptic Gregorian calendar (Howard Hinnant's
    /// `civil_from_days`), as `navdb` prints times. Going through `Date` (a `Double` of seconds)
    /// printed some times one millisecond early (`...57.429` as `...57.428`).
    public static func format(_ milliseconds: Int64) -> String {
        func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
            let q = a / b, r = a % b
            return r < 0 ? (q - 1, r + b) : (q, r)
        }
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        let yearText = year < 0 ? "-" + pad(-year, 4) : (year > 9999 ? "+" + String(year) : pad(year, 4))
        return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(msOfDay / 3_600_000, 2)):\(pad(msOfDay / 60_000 % 60, 2))"
            + ":\(pad(msOfDay / 1000 % 60, 2)).\(pad(msOfDay % 1000, 3))Z"
    }

    /// Parses ISO-8601 text (`2026-11-30T07:18:41Z`, with or without fractional seconds, `Z` or
    /// an offset such as `+02:00`, or a date alone meaning its midnight UTC) into milliseconds.
    /// - Returns: `nil` when the text is not such a time.
    public static func parse(_ text: String) -> Int64? {
        guard fieldsInRange(text) else { return nil }
        let styles: [Date.ISO8601FormatStyle] = [
            Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            Date.ISO8601FormatStyle(),
            Date.ISO8601FormatStyle().year().month().day(),
        ]
        for style in styles {
            if let date = try? style.parse(text) {
                return Int64((date.timeIntervalSince1970 * 1000).rounded())
            }
        }
        return nil
    }
}

extension Timestamp {
    /// Whether the calendar and clock fields written in `text` (`YYYY-MM-DD`, then `THH:MM:SS`)
    /// are in range. `Date.ISO8601FormatStyle` normalizes instead of refusing: `2024-02-30`
    /// parses as March 1st and `T25:00` as 01:00 the next day, which would silently record
    /// another time than the one given. Text of another shape is left to the parser.
    static func fieldsInRange(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func number(at start: Int) -> Int? {
            guard start + 2 <= bytes.count, bytes[start..<(start + 2)].allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(bytes[start] - 0x30) * 10 + Int(bytes[start + 1] - 0x30)
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let century = number(at: 0), let yearInCentury = number(at: 2), let month = number(at: 5), let day = number(at: 8) else {
            return true
        }
        let year = century * 100 + yearInCentury
        guard (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        if let hour = number(at: 11), hour > 23 { return false }
        if bytes.count > 13, bytes[13] == UInt8(ascii: ":"), let minute = number(at: 14), minute > 59 { return false }
        if bytes.count > 16, bytes[16] == UInt8(ascii: ":"), let second = number(at: 17), second > 59 { return false }
        return true
    }
}

/// `Timestamp.format`, for messages.
func formatTimestamp(_ milliseconds: Int64) -> String { Timestamp.format(milliseconds) }
