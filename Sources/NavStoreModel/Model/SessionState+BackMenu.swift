extension SessionState {
    /// The back menu of the top layer, nearest first, or `nil` when there is none (rules 1, 6–8).
    ///
    /// Rows walk the top layer from the back item down to its root and stop after an item that
    /// hides its back button or has left items without the supplement flag; they never cross into
    /// another layer. The back item's `backBarButtonItem.menuSuppressed` removes the menu.
    public var backMenu: [BackMenuRow]? {
        guard let positions = backMenuPositions else { return nil }
        let entries = topLayer.entries
        var rows: [BackMenuRow] = []
        rows.reserveCapacity(positions.count)
        for index in positions.reversed() {
            let entry = entries[index]
            rows.append(BackMenuRow(row: rows.count + 1, entry: entry.id, title: entry.item.backMenuTitle))
        }
        return rows
    }

    /// The positions in the top layer's entries of the back menu's rows, or `nil` when there is no
    /// menu: row 1 is the upper bound (the back item), the last row the lower bound (rules 1, 6).
    /// ``backMenu`` is these entries' titles, nearest first; lint walks the entries themselves.
    package var backMenuPositions: ClosedRange<Int>? {
        backMenuPositions { backIndex in
            let entries = topLayer.entries
            var lowest = backIndex
            while lowest > 0, !entries[lowest].item.endsBackMenu { lowest -= 1 }
            return lowest
        }
    }

    /// ``backMenuPositions`` with the walk down the stack done by `lowestRow`: given the back
    /// item's position, the highest position at or below it whose item ends the menu
    /// (``NavigationItem/endsBackMenu``), or 0 (``MenuEnds/lowestRow(below:)`` keeps them).
    package func backMenuPositions(lowestRow: (_ backIndex: Int) -> Int) -> ClosedRange<Int>? {
        guard noBackButtonReason == nil else { return nil }
        let entries = topLayer.entries
        let backIndex = entries.count - 2
        if entries[backIndex].item.backBarButtonItem?.menuSuppressed == true { return nil }
        return lowestRow(backIndex)...backIndex
    }
}
