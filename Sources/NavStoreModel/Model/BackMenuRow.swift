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
