/// How the back button shows the back item's title (`UINavigationItem.BackButtonDisplayMode`, iOS 14).
public enum BackButtonDisplayMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The back item's `backButtonTitle ?? title ?? "Back"`, shortened to "Back" then "" when space is short.
    case `default`
    /// Always "Back", shortened to "" when space is short.
    case generic
    /// The chevron only: an empty label.
    case minimal

    /// Decodes a case; another string is refused naming the values accepted.
    /// - Throws: `DecodingError` naming the value and the accepted ones.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "backButtonDisplayMode")
    }
}

/// The navigation item's style (`UINavigationItem.ItemStyle`, iOS 16).
public enum NavigationItemStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// The ordinary style.
    case navigator
    /// The browser style (title at the leading edge).
    case browser
    /// The editor style: the back button is a chevron only (rule 4 of <doc:Rules>).
    case editor

    /// Decodes a case; another string is refused naming the values accepted.
    /// - Throws: `DecodingError` naming the value and the accepted ones.
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeCase(from: decoder, name: "style")
    }
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
    /// - Throws: `DecodingError` for values of the wrong type or another key.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        image = try c.decodeIfPresent(Bool.self, forKey: .image) ?? false
        menuSuppressed = try c.decodeIfPresent(Bool.self, forKey: .menuSuppressed) ?? false
        try requireKnownKeys(
            decoder.container(keyedBy: FieldKey.self), known: ["title", "image", "menuSuppressed"],
            of: "backBarButtonItem key")
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

    private enum CodingKeys: String, CodingKey { case prompt }

    /// Decodes `{"prompt"}`.
    /// - Throws: `DecodingError` when `prompt` is missing or not a string, or for another key.
    public init(from decoder: any Decoder) throws {
        prompt = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .prompt)
        try requireKnownKeys(decoder.container(keyedBy: FieldKey.self), known: ["prompt"], of: "popGuard key")
    }
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
    /// The screen turns the edge swipe off while it is on top
    /// (`UINavigationController.interactivePopGestureRecognizer.isEnabled = false`): a pop with
    /// source ``PopSource/gesture`` of this entry, and a cancelled one, is refused (rule 17).
    public var interactivePopDisabled: Bool
    /// The screen turns iOS 26's content swipe off while it is on top
    /// (`UINavigationController.interactiveContentPopGestureRecognizer.isEnabled = false`): a pop
    /// with source ``PopSource/contentGesture`` of this entry, and a cancelled one, is refused
    /// (rule 17; the edge swipe is unaffected).
    public var contentPopDisabled: Bool

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
        popGuard: PopGuard? = nil,
        interactivePopDisabled: Bool = false,
        contentPopDisabled: Bool = false
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
        self.interactivePopDisabled = interactivePopDisabled
        self.contentPopDisabled = contentPopDisabled
    }

    /// The `JSONEncoder.userInfo` key that asks for every field to be written (`null` for unset
    /// optionals), for JSON output that shows every field; without it only set fields are written, as stored.
    public static let explicitKeys = CodingUserInfoKey(rawValue: "navstore.explicitKeys")!

    /// Decodes an item; absent keys take their unset values, `null` is `nil`, `""` stays `""`.
    /// - Throws: `DecodingError` for a key that is no field of ``NavigationItemField/all`` (named,
    ///   with the known ones), a value of the wrong type, an unknown display mode or style, or a
    ///   negative `leftBarButtonItems`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: FieldKey.self)
        self.init()
        for field in NavigationItemField.all { try field.decode(into: &self, from: c) }
        try requireKnownKeys(c, known: NavigationItemField.names, of: "navigation item field")
    }

    /// Encodes the set fields only, or every field when `userInfo[explicitKeys] == true`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        let explicit = encoder.userInfo[Self.explicitKeys] as? Bool == true
        for field in NavigationItemField.all { try field.encode(self, to: &c, explicit: explicit) }
    }
}

/// Throws when `container` holds a key not in `known`: JSON read from a file must not lose a
/// misspelt key (`"titel"`) without a word.
/// - Throws: `DecodingError.dataCorrupted` naming the first unknown key (in sorted order) and the
///   known ones.
package func requireKnownKeys<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, known: [String], of what: String)
    throws
{
    let unknown = container.allKeys.filter { !known.contains($0.stringValue) }
    guard let first = unknown.min(by: { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) })
    else { return }
    throw DecodingError.dataCorruptedError(
        forKey: first, in: container,
        debugDescription: "unknown \(what) '\(first.stringValue)' (known: \(known.joined(separator: ", ")))")
}

extension NavigationItem {
    /// Returns this item with the fields named in `patch` replaced (JSON keys of <doc:Rules>;
    /// `null` unsets a field), the shape of a case's `update.set` or a partial item.
    /// - Throws: ``NavigationError/invalidItem(_:)`` for an unknown key or a value of the wrong type.
    public func merging(_ patch: [String: JSONValue]) throws(NavigationError) -> NavigationItem {
        let known = NavigationItemField.names
        if let unknown = patch.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidItem("unknown navigation item field '\(unknown)' (known: \(known.joined(separator: ", ")))")
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
