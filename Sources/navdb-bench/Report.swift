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
