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
