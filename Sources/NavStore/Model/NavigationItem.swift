#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the back button shows the back item's title (`UINavigationItem.BackButtonDisplayMode`, iOS 14).
public enum BackButtonDisplayMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The back item's `backButtonTitle ?? title ?? "Back"`, shortened to "Back" then "" when space is short.
    case `default`
    /// Always "Back", shortened to "" when space is short.
    case generic
    /// The chevron only: an empty label.
    case minimal
}

/// The navigation item's style (`UINavigationItem.ItemStyle`, iOS 16).
public enum NavigationItemStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// The ordinary style.
    case navigator
    /// The browser style (title at the leading edge).
    case browser
    /// The editor style: the back button is a chevron only (rule 4 of <doc:Rules>).
    case editor
}

/// A custom `UINavigationItem.backBarButtonItem` set on the item *below* the screen showing it.
///
/// When present it is the back button: its `title` shows whatever the display mode, and it has
/// no shorter fallbacks (rule 3 of <doc:Rules>).
public struct BackBarButtonItem: Sendable, Hashable, Codable {
    /// `UIBarButtonItem.title`; `nil` shows an empty label (with the image, if any).
    public var title: String?
    /// Whether the item has an image (`UIBarButtonItem.image != nil`).
    public var image: Bool
    /// Models a `UIBarButtonItem` subclass that ignores the `menu` setter: the back menu is gone,
    /// the button stays (rule 8).
    public var menuSuppressed: Bool

    /// Creates a custom back bar button item.
    /// - Parameters:
    ///   - title: the button's title; `nil` and `""` both show no text but are kept distinct.
    ///   - image: whether the button has an image.
    ///   - menuSuppressed: whether the subclass suppresses the back menu.
    public init(title: String? = nil, image: Bool = false, menuSuppressed: Bool = false) {
        self.title = title
        self.image = image
        self.menuSuppressed = menuSuppressed
    }

    private enum CodingKeys: String, CodingKey { case title, image, menuSuppressed }

    /// Decodes `{"title", "image", "menuSuppressed"}`; absent flags are `false`, an absent title `nil`.
    /// - Throws: `DecodingError` for values of the wrong type.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        image = try c.decodeIfPresent(Bool.self, forKey: .image) ?? false
        menuSuppressed = try c.decodeIfPresent(Bool.self, forKey: .menuSuppressed) ?? false
    }

    /// Encodes every key (a `nil` title as `null`) when the encoder's `userInfo` asks for
    /// explicit output (``NavigationItem/explicitKeys``), else only the keys that are set.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let explicit = encoder.userInfo[NavigationItem.explicitKeys] as? Bool == true
        if explicit { try c.encode(title, forKey: .title) } else { try c.encodeIfPresent(title, forKey: .title) }
        if explicit || image { try c.encode(image, forKey: .image) }
        if explicit || menuSuppressed { try c.encode(menuSuppressed, forKey: .menuSuppressed) }
    }
}

/// A screen that asks before it is popped by a back-button tap
/// (`UINavigationBarDelegate.navigationBar(_:shouldPop:)` returning `false`; rule 10).
public struct PopGuard: Sendable, Hashable, Codable {
    /// The question the app shows, e.g. "Discard draft?".
    public var prompt: String

    /// Creates a pop guard with the prompt the app shows.
    public init(prompt: String) { self.prompt = prompt }
}

/// The navigation item of one entry, with UIKit's own names (`UINavigationItem`, <doc:Rules>).
///
/// `nil` and `""` are different values in every field: only `nil` falls through to the next
/// source of a label. Unset flags are `false`, counts `0`, modes `.default` and `.navigator`.
public struct NavigationItem: Sendable, Hashable, Codable {
    /// `UINavigationItem.title` (synced from the view controller's `title`).
    public var title: String?
    /// `UINavigationItem.backButtonTitle` (iOS 11): the label the *next* screen's back button shows.
    public var backButtonTitle: String?
    /// A custom `UINavigationItem.backBarButtonItem`; when set it is the next screen's back button.
    public var backBarButtonItem: BackBarButtonItem?
    /// `UINavigationItem.backButtonDisplayMode` (iOS 14), read from the back item.
    public var backButtonDisplayMode: BackButtonDisplayMode
    /// `UINavigationItem.hidesBackButton`.
    public var hidesBackButton: Bool
    /// The number of `UINavigationItem.leftBarButtonItems` (custom leading items).
    public var leftBarButtonItems: Int
    /// `UINavigationItem.leftItemsSupplementBackButton`.
    public var leftItemsSupplementBackButton: Bool
    /// `UINavigationItem.style` (iOS 16).
    public var style: NavigationItemStyle
    /// The app's own back-menu row title (a `UIBarButtonItem` subclass that rebuilds the menu, rule 7).
    public var menuTitle: String?
    /// A guard consulted by a back-button tap (rule 10).
    public var popGuard: PopGuard?

    /// Creates a navigation item; every argument defaults to UIKit's unset value.
    public init(
        title: String? = nil,
        backButtonTitle: String? = nil,
        backBarButtonItem: BackBarButtonItem? = nil,
        backButtonDisplayMode: BackButtonDisplayMode = .default,
        hidesBackButton: Bool = false,
        leftBarButtonItems: Int = 0,
        leftItemsSupplementBackButton: Bool = false,
        style: NavigationItemStyle = .navigator,
        menuTitle: String? = nil,
        popGuard: PopGuard? = nil
    ) {
        self.title = title
        self.backButtonTitle = backButtonTitle
        self.backBarButtonItem = backBarButtonItem
        self.backButtonDisplayMode = backButtonDisplayMode
        self.hidesBackButton = hidesBackButton
        self.leftBarButtonItems = leftBarButtonItems
        self.leftItemsSupplementBackButton = leftItemsSupplementBackButton
        self.style = style
        self.menuTitle = menuTitle
        self.popGuard = popGuard
    }

    /// The `JSONEncoder.userInfo` key that asks for every field to be written (`null` for unset
    /// optionals), for JSON output that shows every field; without it only set fields are written, as stored.
    public static let explicitKeys = CodingUserInfoKey(rawValue: "navstore.explicitKeys")!

    /// JSON keys: the field names of <doc:Rules>.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case title, backButtonTitle, backBarButtonItem, backButtonDisplayMode, hidesBackButton
        case leftBarButtonItems, leftItemsSupplementBackButton, style, menuTitle, popGuard
    }

    /// Decodes an item; absent keys take their unset values, `null` is `nil`, `""` stays `""`.
    /// - Throws: `DecodingError` for a value of the wrong type, an unknown display mode or style,
    ///   or a negative `leftBarButtonItems`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        backButtonTitle = try c.decodeIfPresent(String.self, forKey: .backButtonTitle)
        backBarButtonItem = try c.decodeIfPresent(BackBarButtonItem.self, forKey: .backBarButtonItem)
        backButtonDisplayMode =
            try c.decodeIfPresent(BackButtonDisplayMode.self, forKey: .backButtonDisplayMode) ?? .default
        hidesBackButton = try c.decodeIfPresent(Bool.self, forKey: .hidesBackButton) ?? false
        do {
            leftBarButtonItems = try c.decodeIfPresent(Int.self, forKey: .leftBarButtonItems) ?? 0
        } catch {
            // Foundation reports a number that is no Int (1.5, 1e30) as "The given data was not
            // valid JSON", without a path: say which field and why.
            guard let number = try? c.decode(Double.self, forKey: .leftBarButtonItems) else { throw error }
            throw DecodingError.dataCorruptedError(
                forKey: .leftBarButtonItems, in: c,
                debugDescription: "leftBarButtonItems must be a whole number, 0 or more, got \(number)")
        }
        if leftBarButtonItems < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .leftBarButtonItems, in: c,
                debugDescription: "leftBarButtonItems must be 0 or more, got \(leftBarButtonItems)")
        }
        leftItemsSupplementBackButton =
            try c.decodeIfPresent(Bool.self, forKey: .leftItemsSupplementBackButton) ?? false
        style = try c.decodeIfPresent(NavigationItemStyle.self, forKey: .style) ?? .navigator
        menuTitle = try c.decodeIfPresent(String.self, forKey: .menuTitle)
        popGuard = try c.decodeIfPresent(PopGuard.self, forKey: .popGuard)
    }

    /// Encodes the set fields only, or every field when `userInfo[explicitKeys] == true`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if encoder.userInfo[Self.explicitKeys] as? Bool == true {
            try c.encode(title, forKey: .title)
            try c.encode(backButtonTitle, forKey: .backButtonTitle)
            try c.encode(backBarButtonItem, forKey: .backBarButtonItem)
            try c.encode(backButtonDisplayMode, forKey: .backButtonDisplayMode)
            try c.encode(hidesBackButton, forKey: .hidesBackButton)
            try c.encode(leftBarButtonItems, forKey: .leftBarButtonItems)
            try c.encode(leftItemsSupplementBackButton, forKey: .leftItemsSupplementBackButton)
            try c.encode(style, forKey: .style)
            try c.encode(menuTitle, forKey: .menuTitle)
            try c.encode(popGuard, forKey: .popGuard)
            return
        }
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(backButtonTitle, forKey: .backButtonTitle)
        try c.encodeIfPresent(backBarButtonItem, forKey: .backBarButtonItem)
        if backButtonDisplayMode != .default { try c.encode(backButtonDisplayMode, forKey: .backButtonDisplayMode) }
        if hidesBackButton { try c.encode(hidesBackButton, forKey: .hidesBackButton) }
        if leftBarButtonItems != 0 { try c.encode(leftBarButtonItems, forKey: .leftBarButtonItems) }
        if leftItemsSupplementBackButton { try c.encode(true, forKey: .leftItemsSupplementBackButton) }
        if style != .navigator { try c.encode(style, forKey: .style) }
        try c.encodeIfPresent(menuTitle, forKey: .menuTitle)
        try c.encodeIfPresent(popGuard, forKey: .popGuard)
    }
}

/// A field of ``NavigationItem`` by the name a command line gives it (for example to reset one field).
public enum NavigationItemField: String, Sendable, CaseIterable {
    /// `title`.
    case title
    /// `backButtonTitle`.
    case backButtonTitle = "back-button-title"
    /// `backBarButtonItem.title` (the custom item stays, with a `nil` title).
    case backBarButtonTitle = "back-bar-button-title"
    /// `backBarButtonItem.image`.
    case backBarButtonImage = "back-bar-button-image"
    /// `backBarButtonItem.menuSuppressed`.
    case menuSuppressed = "menu-suppressed"
    /// The whole `backBarButtonItem`.
    case backBarButtonItem = "back-bar-button-item"
    /// `backButtonDisplayMode` (back to `.default`).
    case displayMode = "display-mode"
    /// `hidesBackButton`.
    case hidesBackButton = "hides-back-button"
    /// `leftBarButtonItems` (back to 0).
    case leftItems = "left-items"
    /// `leftItemsSupplementBackButton`.
    case supplementBackButton = "supplement-back-button"
    /// `style` (back to `.navigator`).
    case style
    /// `menuTitle`.
    case menuTitle = "menu-title"
    /// `popGuard`.
    case popGuard = "pop-guard"
}

extension NavigationItem {
    /// Resets one field to its unset value (`nil`, `false`, `0`, `.default`, `.navigator`).
    ///
    /// Unsetting a part of `backBarButtonItem` keeps the custom item; unset
    /// ``NavigationItemField/backBarButtonItem`` to remove it.
    public mutating func unset(_ field: NavigationItemField) {
        switch field {
        case .title: title = nil
        case .backButtonTitle: backButtonTitle = nil
        case .backBarButtonTitle: backBarButtonItem?.title = nil
        case .backBarButtonImage: backBarButtonItem?.image = false
        case .menuSuppressed: backBarButtonItem?.menuSuppressed = false
        case .backBarButtonItem: backBarButtonItem = nil
        case .displayMode: backButtonDisplayMode = .default
        case .hidesBackButton: hidesBackButton = false
        case .leftItems: leftBarButtonItems = 0
        case .supplementBackButton: leftItemsSupplementBackButton = false
        case .style: style = .navigator
        case .menuTitle: menuTitle = nil
        case .popGuard: popGuard = nil
        }
    }

    /// Returns this item with the fields named in `patch` replaced (JSON keys of <doc:Rules>;
    /// `null` unsets a field), the shape of a case's `update.set` or a partial item.
    /// - Throws: ``NavigationError/invalidItem(_:)`` for an unknown key or a value of the wrong type.
    public func merging(_ patch: [String: JSONValue]) throws(NavigationError) -> NavigationItem {
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        if let unknown = patch.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidItem(
                "unknown navigation item field '\(unknown)' (known: \(CodingKeys.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        do {
            let encoder = JSONEncoder()
            encoder.userInfo[Self.explicitKeys] = true
            var object = try JSONDecoder().decode([String: JSONValue].self, from: encoder.encode(self))
            for (key, value) in patch { object[key] = value }
            return try JSONDecoder().decode(NavigationItem.self, from: JSONEncoder().encode(object))
        } catch {
            throw .invalidItem(String(describing: error))
        }
    }
}
