/// Aligned columns of text: each column padded to its widest cell (in terminal columns), two
/// spaces between columns, no trailing spaces.
struct Table {
    private var rows: [[String]] = []
    /// Columns right-aligned (numbers), by index.
    var rightAligned: Set<Int> = []

    init(header: [String]? = nil, rightAligned: Set<Int> = []) {
        if let header { rows.append(header) }
        self.rightAligned = rightAligned
    }

    /// Adds a row of already-escaped cells.
    mutating func append(_ cells: [String]) { rows.append(cells) }

    /// Whether there are no rows.
    var isEmpty: Bool { rows.isEmpty }

    /// The rows as lines, each prefixed with `indent`.
    func render(indent: String = "") -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], Text.width(cell)) }
        }
        var text = ""
        for row in rows {
            var line = indent
            for (i, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - Text.width(cell))
                if i > 0 { line += "  " }
                line += rightAligned.contains(i) ? pad + cell : (i == row.count - 1 ? cell : cell + pad)
            }
            text += line + "\n"
        }
        return text
    }
}
