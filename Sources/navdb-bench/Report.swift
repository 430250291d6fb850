import CSQLite

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A target a ratio or an absolute figure is held to.
enum Target: Sendable {
    /// The value must be at least this.
    case atLeast(Double)
    /// The value must be at most this.
    case atMost(Double)
    /// No target: the figure is informative.
    case none

    func holds(_ value: Double) -> Bool? {
        switch self {
        case .atLeast(let bound): value >= bound
        case .atMost(let bound): value <= bound
        case .none: nil
        }
    }

    var text: String? {
        switch self {
        case .atLeast(let bound): ">= \(formatBound(bound))"
        case .atMost(let bound): "<= \(formatBound(bound))"
        case .none: nil
        }
    }
}

/// One line of the result table: ours, the baseline it is judged against, their ratio, the target.
struct Figure: Encodable, Sendable {
    /// The measurement's number in the issue (1-6) and a letter for its rows.
    var id: String
    /// What is measured.
    var name: String
    /// Our figure, in `unit`; `nil` when the row was skipped.
    var ours: Double?
    var unit: String
    /// What the baseline is, and its figure in the same unit (`nil` for an absolute figure).
    var baselineName: String
    var baseline: Double?
    /// Ours relative to the baseline (see each measurement's note for the direction).
    var ratio: Double?
    /// The target, as text naming what it applies to (`ratio >= 0.5`), or `nil` for none.
    var target: String?
    /// PASS (`true`) / FAIL (`false`), or `nil` when there is no target or the row was skipped.
    var pass: Bool?
    /// More figures the reader needs beside the main ones (named, with units in the name).
    var extra: [String: Double] = [:]
    /// Anything that qualifies the figure.
    var note: String?

    /// A figure whose target applies to the ratio.
    static func ratio(
        _ id: String, _ name: String, ours: Double, unit: String, baselineName: String, baseline: Double,
        ratio: Double, target: Target, extra: [String: Double] = [:], note: String? = nil
    ) -> Figure {
        Figure(
            id: id, name: name, ours: ours, unit: unit, baselineName: baselineName, baseline: baseline, ratio: ratio,
            target: target.text.map { "ratio \($0)" }, pass: target.holds(ratio), extra: extra, note: note)
    }

    /// A figure whose target applies to our absolute value.
    static func absolute(
        _ id: String, _ name: String, ours: Double, unit: String, baselineName: String = "-", baseline: Double? = nil,
        ratio: Double? = nil, target: Target, extra: [String: Double] = [:], note: String? = nil
    ) -> Figure {
        Figure(
            id: id, name: name, ours: ours, unit: unit, baselineName: baselineName, baseline: baseline, ratio: ratio,
            target: target.text.map { "ours \($0) \(unit)" }, pass: target.holds(ours), extra: extra, note: note)
    }

    /// A figure held to a target on the ratio and another on our absolute value: both must hold.
    static func ratioAndAbsolute(
        _ id: String, _ name: String, ours: Double, unit: String, baselineName: String, baseline: Double,
        ratio: Double, ratioTarget: Target, absoluteTarget: Target, extra: [String: Double] = [:],
        note: String? = nil
    ) -> Figure {
        let passes = [ratioTarget.holds(ratio), absoluteTarget.holds(ours)].compactMap { $0 }
        let text = [ratioTarget.text.map { "ratio \($0)" }, absoluteTarget.text.map { "ours \($0) \(unit)" }].compactMap
        { $0 }
        return Figure(
            id: id, name: name, ours: ours, unit: unit, baselineName: baselineName, baseline: baseline, ratio: ratio,
            target: text.isEmpty ? nil : text.joined(separator: ", "),
            pass: passes.isEmpty ? nil : passes.allSatisfy { $0 }, extra: extra, note: note)
    }

    /// A row that could not be measured, with the reason.
    static func skipped(_ id: String, _ name: String, reason: String) -> Figure {
        Figure(
            id: id, name: name, ours: nil, unit: "", baselineName: "-", baseline: nil, ratio: nil,
            target: nil, pass: nil, note: "SKIPPED: \(reason)")
    }
}

/// A target's bound: `formatNumber` without trailing zeros after the point (0.5, 1.5, 1,000).
func formatBound(_ value: Double) -> String {
    var text = formatNumber(value)
    if text.contains(".") {
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
    }
    return text
}

/// A number with 3 significant digits and thousands separators for large ones.
func formatNumber(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    let magnitude = abs(value)
    if magnitude >= 1000 {
        let rounded = Int64(value.rounded())
        let digits = Array(String(abs(rounded)))
        var out: [Character] = []
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return (rounded < 0 ? "-" : "") + String(out)
    }
    let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
    return formatFixed(value, decimals: decimals)
}

/// `value` with exactly `decimals` digits after the point.
func formatFixed(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    var fraction = String(scaled % Int64(scale))
    while fraction.count < decimals { fraction = "0" + fraction }
    return (value < 0 && scaled != 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + fraction : "")
}

/// What the report says about the machine and the run.
struct RunInfo: Codable, Sendable {
    var date: String
    var cpus: Int
    var cpuModel: String
    var memoryGiB: Double
    var sqliteVersion: String
    var swiftCompiler: String
    var mode: String
    var synchronous: String
    var seconds: Double

    static func current(mode: String, synchronous: String) -> RunInfo {
        var model = "unknown"
        if let cpuinfo = readSmallFile("/proc/cpuinfo"),
            let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters()
        }
        var memory = 0.0
        if let meminfo = readSmallFile("/proc/meminfo"),
            let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") })
        {
            memory = Double(line.filter(\.isNumber)).map { $0 / 1024 / 1024 } ?? 0
        }
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        let date = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return RunInfo(
            date: date, cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model, memoryGiB: memory,
            sqliteVersion: String(cString: sqlite3_libversion()), swiftCompiler: swiftCompilerVersion,
            mode: mode, synchronous: synchronous, seconds: 0)
    }
}

/// The compiler that built the bench, as far as `#if compiler` tells.
let swiftCompilerVersion: String = {
    #if compiler(>=6.4)
        return ">= 6.4"
    #elseif compiler(>=6.3)
        return "6.3"
    #elseif compiler(>=6.2)
        return "6.2"
    #else
        return "< 6.2"
    #endif
}()

extension Substring {
    func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

/// The table printed at the end of a run.
func renderTable(_ figures: [Figure], info: RunInfo) -> String {
    var lines: [String] = []
    lines.append(
        "navdb-bench \(info.mode): \(info.date), \(info.cpus) CPUs (\(info.cpuModel)), \(formatFixed(info.memoryGiB, decimals: 1)) GiB, SQLite \(info.sqliteVersion), Swift \(info.swiftCompiler), synchronous=\(info.synchronous)"
    )
    lines.append("")
    let header = ["#", "measurement", "ours", "baseline", "baseline figure", "ratio", "target", "result"]
    var rows: [[String]] = [header]
    for f in figures {
        let ours = f.ours.map { "\(formatNumber($0)) \(f.unit)" } ?? "-"
        let base = f.baseline.map { "\(formatNumber($0)) \(f.unit)" } ?? "-"
        let ratio = f.ratio.map { formatFixed($0, decimals: $0 >= 100 ? 0 : 2) } ?? "-"
        let target = f.target ?? "-"
        let result = f.pass.map { $0 ? "PASS" : "FAIL" } ?? (f.note?.hasPrefix("SKIPPED") == true ? "SKIP" : "-")
        rows.append([f.id, f.name, ours, f.baselineName, base, ratio, target, result])
    }
    var widths = [Int](repeating: 0, count: header.count)
    for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
    for (index, row) in rows.enumerated() {
        let cells = row.enumerated().map { i, cell in
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            return (i == 2 || i == 4 || i == 5) ? pad + cell : cell + pad
        }
        lines.append(cells.joined(separator: "  ").trimmingTrailingSpaces())
        if index == 0 { lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
    }
    let notes = figures.filter { $0.note != nil || !$0.extra.isEmpty }
    if !notes.isEmpty {
        lines.append("")
        for f in notes {
            var parts: [String] = []
            if !f.extra.isEmpty {
                parts.append(
                    f.extra.sorted { $0.key < $1.key }.map { "\($0.key) \(formatNumber($0.value))" }.joined(
                        separator: ", "))
            }
            if let note = f.note { parts.append(note) }
            lines.append("\(f.id): " + parts.joined(separator: "; "))
        }
    }
    lines.append("")
    lines.append("total \(formatFixed(info.seconds, decimals: 1)) s")
    return lines.joined(separator: "\n")
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
