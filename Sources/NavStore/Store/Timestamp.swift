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
    public static func format(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// Parses ISO-8601 text (`2026-11-30T07:18:41Z`, with or without fractional seconds, `Z` or
    /// an offset such as `+02:00`, or a date alone meaning its midnight UTC) into milliseconds.
    /// - Returns: `nil` when the text is not such a time.
    public static func parse(_ text: String) -> Int64? {
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

/// `Timestamp.format`, for messages.
func formatTimestamp(_ milliseconds: Int64) -> String { Timestamp.format(milliseconds) }
