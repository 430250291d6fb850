/// Event times: integer milliseconds since the Unix epoch, UTC (<doc:Events>), and their ISO-8601 text.
public enum Timestamp {
    /// The current wall-clock time in milliseconds since the Unix epoch.
    public static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// ISO-8601 text in UTC with milliseconds, e.g. `2026-11-30T07:18:41.123Z`.
    ///
    /// Exact: integer arithmetic on the proleptic Gregorian calendar (Howard Hinnant's
    /// `civil_from_days`), exact to the millisecond. Going through `Date` (a `Double` of seconds)
    /// printed some times one millisecond early (`...57.429` as `...57.428`).
    public static func format(_ milliseconds: Int64) -> String {
        func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
            let q = a / b
            let r = a % b
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
        return
            "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(msOfDay / 3_600_000, 2)):\(pad(msOfDay / 60_000 % 60, 2))"
            + ":\(pad(msOfDay / 1000 % 60, 2)).\(pad(msOfDay % 1000, 3))Z"
    }

    /// The first millisecond of the year 0000 (0000-01-01T00:00:00.000Z), in ms since the Unix
    /// epoch: the earliest time ``parse(_:)`` accepts and ``format(_:)`` writes in four digits.
    public static let earliest: Int64 = days(year: 0, month: 1, day: 1) * 86_400_000
    /// The last millisecond of the year 9999 (9999-12-31T23:59:59.999Z), in ms since the Unix epoch.
    public static let latest: Int64 = days(year: 9999, month: 12, day: 31) * 86_400_000 + 86_399_999
    /// ``earliest`` through ``latest``: the times a file from elsewhere may carry (a Firefox
    /// session's `lastAccess`), the same as `--time` accepts.
    public static let accepted: ClosedRange<Int64> = earliest...latest

    /// How far ahead of the clock a time given for an event may be unless future times are
    /// allowed: 24 hours, in milliseconds (`--time`, and a trace line's `at`). Further ahead is
    /// taken for a typo (a wrong year, a swapped day and month, seconds for milliseconds): every
    /// later event of the session would be stamped at least that late.
    public static let futureLimit: Int64 = 24 * 3_600_000

    /// Parses an ISO-8601 / RFC 3339 time into milliseconds since the Unix epoch, strictly: the
    /// whole text must be one of
    /// - a date alone, `2026-11-30`, meaning its midnight UTC;
    /// - a date and time with a zone, `2026-11-30T07:18:41Z`, `2026-11-30T07:18:41.123+02:00`,
    ///   `2026-11-30T07:18Z` (`T` or a space between them; seconds optional; a fraction of 1 to 9
    ///   digits after `.` or `,`, kept to the millisecond; the zone `Z` or `±HH:MM`, `±HHMM`, `±HH`).
    ///
    /// A date and time without a zone is refused rather than guessed (it would be local time to
    /// one reader and UTC to another), as are fields out of range (`2024-02-30`, `T25:00`, a leap
    /// second) and anything after the time: a time that parses is the time that was meant.
    /// - Returns: `nil` when the text is not such a time.
    public static func parse(_ text: String) -> Int64? {
        parse(text, rounding: .down)
    }

    /// Which way digits below a millisecond go when a time is kept to the millisecond.
    public enum Rounding: Sendable {
        /// Towards the past: `.5009` is `.500` (the start of the millisecond it falls in). For an
        /// upper bound (`--until`) and a point (`--at`: the last event at or before it).
        case down
        /// Towards the future: `.5009` is `.501`, `.5000` stays `.500`. For a lower bound
        /// (`--since`): an event at `.500` is not at or after `.5009`.
        case up
    }

    /// Parses a time as ``parse(_:)`` does, rounding digits below a millisecond as `rounding`
    /// says, so that a range bound keeps to the inside of the range.
    /// - Returns: `nil` when the text is not such a time (or rounding up leaves the years 0000-9999).
    public static func parse(_ text: String, rounding: Rounding) -> Int64? {
        var reader = TimeReader(bytes: Array(text.utf8))
        guard let milliseconds = reader.read() else { return nil }
        guard rounding == .up, reader.belowMillisecond else { return milliseconds }
        return milliseconds < TimeReader.latest ? milliseconds + 1 : nil
    }

    /// Why `text` is not a time ``parse(_:)`` accepts, naming the field when one is out of range
    /// (`month 13 is out of range 1-12`, `day 31 is out of range 1-30 for 2026-11`, `no zone`);
    /// `nil` when it parses, or when its shape is not a time at all (the caller then says what
    /// shapes are accepted).
    public static func problem(in text: String) -> String? {
        var reader = TimeReader(bytes: Array(text.utf8))
        return reader.read() == nil ? reader.problem : nil
    }

    /// Why `text` is not a time ``parse(_:rounding:)`` accepts with `rounding`: as
    /// ``problem(in:)``, and for a time that parses but whose digits below the millisecond round
    /// up past 9999-12-31T23:59:59.999Z, that.
    public static func problem(in text: String, rounding: Rounding) -> String? {
        if let problem = problem(in: text) { return problem }
        guard parse(text) != nil, parse(text, rounding: rounding) == nil else { return nil }
        return
            "rounded up to the next millisecond it falls after \(format(latest)), the last time of the years 0000-9999"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (the inverse of the algorithm above).
    package static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

/// Reads the strict ISO-8601 forms of ``Timestamp/parse(_:)`` from UTF-8 bytes.
private struct TimeReader {
    package let bytes: [UInt8]
    package var index = 0
    /// Why the last ``read()`` returned `nil`, when a field was out of range or the zone missing.
    package var problem: String?
    /// Whether the fraction had a non-zero digit below the millisecond (dropped by ``read()``).
    package var belowMillisecond = false

    package static let earliest = Timestamp.earliest
    package static let latest = Timestamp.latest

    package mutating func read() -> Int64? {
        guard let midnight = readDate() else { return nil }
        if index == bytes.count { return midnight }
        guard let milliseconds = readTimeOfDay() else { return nil }
        guard index < bytes.count else {
            return fail(
                "the time has no zone (add Z for UTC, or an offset such as +02:00): a time without one would be read differently by different readers"
            )
        }
        guard let offset = readZone() else { return nil }
        guard index == bytes.count else { return nil }
        // Within the years 0000-9999 once the offset is applied, so that the time prints in the
        // same four-digit form and parses back.
        let result = midnight + milliseconds - offset
        guard result >= Self.earliest, result <= Self.latest else {
            return fail("the time in UTC falls outside the years 0000-9999")
        }
        return result
    }

    /// `YYYY-MM-DD` as the milliseconds of its midnight (UTC), or `nil`.
    private mutating func readDate() -> Int64? {
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+"),
            bytes.dropFirst().first.map({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) == true
        {
            return fail("a signed year is outside the years 0000-9999 in which times are read and written")
        }
        guard let year = digits(4), take("-"), let month = digits(2), take("-"), let day = digits(2) else { return nil }
        guard (1...12).contains(month) else { return fail("month \(month) is out of range 1-12") }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let last = monthDays[Int(month) - 1]
        guard (1...last).contains(day) else {
            return fail("day \(day) is out of range 1-\(last) for \(String(text.prefix(7)))")
        }
        return Timestamp.days(year: year, month: month, day: day) * 86_400_000
    }

    /// `THH:MM[:SS[.fff]]` (or `t`/space) as milliseconds since midnight, or `nil`.
    private mutating func readTimeOfDay() -> Int64? {
        guard take("T") || take("t") || take(" "), let hour = digits(2), take(":"), let minute = digits(2) else {
            return nil
        }
        guard hour <= 23 else { return fail("hour \(hour) is out of range 0-23") }
        guard minute <= 59 else { return fail("minute \(minute) is out of range 0-59") }
        var milliseconds = (hour * 3600 + minute * 60) * 1000
        if take(":") {
            guard let second = digits(2) else { return nil }
            guard second <= 59 else {
                return fail("second \(second) is out of range 0-59 (a leap second is not accepted)")
            }
            milliseconds += second * 1000
            if take(".") || take(",") {
                guard let fraction = readFraction() else { return nil }
                milliseconds += fraction
            }
        }
        return milliseconds
    }

    /// The 1 to 9 digits of a fraction of a second as whole milliseconds, or `nil`.
    private mutating func readFraction() -> Int64? {
        var milliseconds: Int64 = 0
        var scale: Int64 = 100
        var count = 0
        while index < bytes.count, let digit = digit(bytes[index]) {
            if scale == 0 && digit != 0 { belowMillisecond = true }
            milliseconds += digit * scale
            scale /= 10
            count += 1
            index += 1
        }
        guard (1...9).contains(count) else {
            return fail(
                count == 0
                    ? "the fraction of a second has no digits"
                    : "the fraction of a second has \(count) digits; at most 9 are accepted")
        }
        return milliseconds
    }

    /// `Z`, `z` or `±HH[[:]MM]` as the zone's offset in milliseconds, or `nil`.
    private mutating func readZone() -> Int64? {
        if take("Z") || take("z") { return 0 }
        let sign: Int64
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let hours = digits(2) else { return nil }
        guard hours <= 23 else { return fail("the zone's hours \(hours) are out of range 0-23") }
        var minutes: Int64 = 0
        if index < bytes.count {
            _ = take(":")
            guard let value = digits(2) else { return nil }
            guard value <= 59 else { return fail("the zone's minutes \(value) are out of range 0-59") }
            minutes = value
        }
        return sign * (hours * 60 + minutes) * 60_000
    }

    /// Records why the text is refused and returns `nil`.
    private mutating func fail(_ reason: String) -> Int64? {
        problem = reason
        return nil
    }

    /// The text read, for messages.
    private var text: String { String(decoding: bytes, as: UTF8.self) }

    private func digit(_ byte: UInt8) -> Int64? {
        (0x30...0x39).contains(byte) ? Int64(byte - 0x30) : nil
    }

    private mutating func digits(_ count: Int) -> Int64? {
        guard index + count <= bytes.count else { return nil }
        var value: Int64 = 0
        for offset in 0..<count {
            guard let digit = digit(bytes[index + offset]) else { return nil }
            value = value * 10 + digit
        }
        index += count
        return value
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
