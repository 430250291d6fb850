/// One row of the iOS 14 long-press back menu.
public struct BackMenuRow: Sendable, Hashable, Codable {
    /// The 1-based row number, 1 = nearest (the back item).
    public var row: Int
    /// The id of the entry that selecting the row pops to.
    public var entry: String
    /// The row's title (rule 7); `""` is a blank row.
    public var title: String

    /// Creates a row.
    public init(row: Int, entry: String, title: String) {
        self.row = row
        self.entry = entry
        self.title = title
    }
}

/// The field of a navigation item that gives its back-menu row title (rule 7), in the order
/// UIKit consults them; the raw value names the field as messages and JSON do.
public enum BackMenuTitleSource: String, Sendable, Hashable, CaseIterable {
    /// The app-level custom row title (`menuTitle`).
    case menuTitle
    /// The custom back item's title (`backBarButtonItem.title`, `UIBarButtonItem.title`).
    case backBarButtonItemTitle = "backBarButtonItem.title"
    /// `UINavigationItem.backButtonTitle`.
    case backButtonTitle
    /// `UINavigationItem.title`.
    case title
    /// None of them is set (all `nil`): UIKit's placeholder "Back".
    case placeholder
}

extension NavigationItem {
    /// The title of this item's back-menu row and the field it comes from (rule 7):
    /// `menuTitle ?? backBarButtonItem?.title ?? backButtonTitle ?? title ?? "Back"`, the first
    /// that is not `nil` (`""` counts: it gives a blank row). The display mode does not apply.
    public var backMenuTitleResolution: (title: String, source: BackMenuTitleSource) {
        if let menuTitle { return (menuTitle, .menuTitle) }
        if let custom = backBarButtonItem?.title { return (custom, .backBarButtonItemTitle) }
        if let backButtonTitle { return (backButtonTitle, .backButtonTitle) }
        if let title { return (title, .title) }
        return ("Back", .placeholder)
    }

    /// The title of this item's back-menu row (rule 7):
    /// `menuTitle ?? backBarButtonItem?.title ?? backButtonTitle ?? title ?? "Back"`.
    /// The display mode does not apply; `""` gives a blank row.
    public var backMenuTitle: String { backMenuTitleResolution.title }

    /// Whether the back menu stops after this item's row (rule 6): it hides its back button, or
    /// has left items that do not supplement it.
    package var endsBackMenu: Bool {
        hidesBackButton || (leftBarButtonItems > 0 && !leftItemsSupplementBackButton)
    }
}

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
