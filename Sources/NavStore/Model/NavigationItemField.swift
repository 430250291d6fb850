/// One field of ``NavigationItem``, as stored in JSON (<doc:Rules>): the one list every walk over
/// an item's fields goes through.
///
/// ``all`` drives the item's `Codable` shape, ``NavigationItem/changedFields(to:)`` (the
/// `fields` of `item.updated`), the redaction of `export --redact`, the report's field values,
/// the human rendering of an item, and the command line's item options and `--unset` names
/// (``settings``). A new field is its stored property in ``NavigationItem`` (with its
/// initializer parameter), its accessor in `ItemAccess` and one line in ``all`` (both in
/// this file), its shape in `Schemas/common.schema.json`, and
/// its key in the store's two hand-written hot paths, the compact payload writer and the fast
/// payload reader (kept by hand for speed; without it the reader hands the payload to
/// `Codable`). `NavigationItemFieldTests` fails when a property is missing from ``all``, or a
/// field from `changedFields`, redaction, `Codable`, the writer or the reader.
public struct NavigationItemField: Sendable, Hashable, CustomStringConvertible {
    /// The JSON key, e.g. `backButtonTitle`: UIKit's property name.
    public let name: String
    /// What the command line sets in this field, one option each (`--back-button-title`), in
    /// the order help lists them; several for a field with parts (`backBarButtonItem`).
    public let settings: [NavigationItemSetting]
    /// The `--unset` name that resets the whole field when it has several settings
    /// (`back-bar-button-item`), else `nil`: unsetting a field's only setting resets the field.
    public let wholeFieldUnsetName: String?

    let isUnset: @Sendable (NavigationItem) -> Bool
    let isSame: @Sendable (NavigationItem, NavigationItem) -> Bool
    let reset: @Sendable (inout NavigationItem) -> Void
    let redact: @Sendable (inout NavigationItem, (String) -> String) -> Void
    let json: @Sendable (NavigationItem) -> JSONValue
    let display: @Sendable (NavigationItem) -> String
    let encode: @Sendable (NavigationItem, inout KeyedEncodingContainer<FieldKey>, _ explicit: Bool) throws -> Void
    let decode: @Sendable (inout NavigationItem, KeyedDecodingContainer<FieldKey>) throws -> Void

    /// Every field, in <doc:Rules>' order (the order of `--json`'s unsorted output and of help).
    public static let all: [NavigationItemField] = [
        field(
            ItemAccess.title, "title",
            [.text(ItemAccess.title, "title", "title", help: "title (UINavigationItem.title).")]),
        field(
            ItemAccess.backButtonTitle, "backButtonTitle",
            [
                .text(
                    ItemAccess.backButtonTitle, "back-button-title", "title",
                    help: "backButtonTitle: the label the next screen's back button shows.")
            ]),
        field(
            ItemAccess.backBarButtonItem, "backBarButtonItem", BackBarButtonItem.settings,
            wholeFieldUnsetName: "back-bar-button-item"),
        field(
            ItemAccess.backButtonDisplayMode, "backButtonDisplayMode",
            [.choice(ItemAccess.backButtonDisplayMode, "display-mode", "mode", help: "backButtonDisplayMode.")]),
        field(
            ItemAccess.hidesBackButton, "hidesBackButton",
            [.flag(ItemAccess.hidesBackButton, "hides-back-button", help: "hidesBackButton.")]),
        field(
            ItemAccess.leftBarButtonItems, "leftBarButtonItems",
            [
                .count(
                    ItemAccess.leftBarButtonItems, "left-items", "n",
                    help: "leftBarButtonItems: the number of custom leading items.")
            ]),
        field(
            ItemAccess.leftItemsSupplementBackButton, "leftItemsSupplementBackButton",
            [
                .flag(
                    ItemAccess.leftItemsSupplementBackButton, "supplement-back-button",
                    help: "leftItemsSupplementBackButton.")
            ]),
        field(ItemAccess.style, "style", [.choice(ItemAccess.style, "style", "style", help: "style.")]),
        field(
            ItemAccess.menuTitle, "menuTitle",
            [.text(ItemAccess.menuTitle, "menu-title", "title", help: "menuTitle: the app's own back-menu row title.")]),
        field(ItemAccess.popGuard, "popGuard", [PopGuard.setting]),
    ]

    /// The field with JSON key `name`, or `nil`.
    public static func named(_ name: String) -> NavigationItemField? {
        byName[name]
    }

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// Every setting of every field, in help's order: the item options of `push`, `present` and
    /// `update`.
    public static let allSettings: [NavigationItemSetting] = all.flatMap(\.settings)

    /// The names `update --unset` accepts, in help's order: each setting's name, and after a
    /// field's settings its ``wholeFieldUnsetName``.
    public static let unsetNames: [String] = all.flatMap { field in
        field.settings.map(\.name) + (field.wholeFieldUnsetName.map { [$0] } ?? [])
    }

    /// Resets what the `--unset` name `name` names (see ``unsetNames``); `false` for an unknown name.
    public static func unset(_ name: String, in item: inout NavigationItem) -> Bool {
        for field in all {
            if field.wholeFieldUnsetName == name {
                field.reset(&item)
                return true
            }
            if let setting = field.settings.first(where: { $0.name == name }) {
                setting.clear(in: &item)
                return true
            }
        }
        return false
    }

    /// Whether the field differs between `old` and `new`, texts compared by their Unicode
    /// scalars (a canonically equivalent spelling is a change).
    public func isChanged(from old: NavigationItem, to new: NavigationItem) -> Bool {
        !isSame(old, new)
    }

    /// Whether the field holds something other than its unset value (`nil`, `false`, `0`,
    /// `.default`, `.navigator`).
    public func isSet(in item: NavigationItem) -> Bool {
        !isUnset(item)
    }

    /// Resets the field to its unset value.
    public func reset(in item: inout NavigationItem) {
        reset(&item)
    }

    /// The field's value as JSON output with ``NavigationItem/explicitKeys`` writes it: every part present, `null` for an unset
    /// optional (`{"title": null, "image": false, "menuSuppressed": false}` for a custom item).
    public func jsonValue(in item: NavigationItem) -> JSONValue {
        json(item)
    }

    /// The field's value for a person to read: escaped text (``DisplayText/column(_:)``), `-`
    /// for `nil`, `true`/`false`, a count, a mode or style by its name, a pop guard's quoted
    /// prompt, a custom item as `{title: X, image, menuSuppressed}`.
    public func displayValue(in item: NavigationItem) -> String {
        display(item)
    }

    /// The field's texts replaced by `hash(text)`; `nil` stays `nil`, flags, counts, modes and
    /// styles are kept.
    func redactTexts(in item: inout NavigationItem, _ hash: (String) -> String) {
        redact(&item, hash)
    }

    /// The JSON key.
    public var description: String { name }

    /// Fields are the same field when they have the same JSON key.
    public static func == (a: NavigationItemField, b: NavigationItemField) -> Bool { a.name == b.name }

    /// Hashes the JSON key.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// A field stored at `path`, its behaviour given by its value's type.
    private static func field<Value: ItemFieldValue>(
        _ path: Access<NavigationItem, Value>, _ name: String,
        _ settings: [NavigationItemSetting], wholeFieldUnsetName: String? = nil
    ) -> NavigationItemField {
        let key = FieldKey(name)
        return NavigationItemField(
            name: name, settings: settings, wholeFieldUnsetName: wholeFieldUnsetName,
            isUnset: { path.get($0).isExactly(Value.unset) },
            isSame: { path.get($0).isExactly(path.get($1)) },
            reset: { path.set(&$0, Value.unset) },
            redact: { item, hash in path.set(&item, path.get(item).redacted(hash)) },
            json: { path.get($0).jsonValue },
            display: { path.get($0).displayText },
            encode: { item, container, explicit in
                let value = path.get(item)
                if explicit || !value.isExactly(Value.unset) { try value.encodeField(to: &container, forKey: key) }
            },
            decode: { item, container in path.set(&item, try Value.decodeField(from: container, forKey: key)) })
    }
}

/// How a field or a setting reads and writes its value: closures rather than key paths, which a
/// static binary resolves at run time on every launch (a cost every `push` paid).
struct Access<Root, Value>: Sendable {
    let get: @Sendable (Root) -> Value
    let set: @Sendable (inout Root, Value) -> Void

    init(_ get: @escaping @Sendable (Root) -> Value, _ set: @escaping @Sendable (inout Root, Value) -> Void) {
        self.get = get
        self.set = set
    }
}

/// The accessors of ``NavigationItem``'s stored properties.
enum ItemAccess {
    static let title = Access<NavigationItem, String?>({ $0.title }, { $0.title = $1 })
    static let backButtonTitle = Access<NavigationItem, String?>({ $0.backButtonTitle }, { $0.backButtonTitle = $1 })
    static let backBarButtonItem = Access<NavigationItem, BackBarButtonItem?>(
        { $0.backBarButtonItem }, { $0.backBarButtonItem = $1 })
    static let backButtonDisplayMode = Access<NavigationItem, BackButtonDisplayMode>(
        { $0.backButtonDisplayMode }, { $0.backButtonDisplayMode = $1 })
    static let hidesBackButton = Access<NavigationItem, Bool>({ $0.hidesBackButton }, { $0.hidesBackButton = $1 })
    static let leftBarButtonItems = Access<NavigationItem, Int>(
        { $0.leftBarButtonItems }, { $0.leftBarButtonItems = $1 })
    static let leftItemsSupplementBackButton = Access<NavigationItem, Bool>(
        { $0.leftItemsSupplementBackButton }, { $0.leftItemsSupplementBackButton = $1 })
    static let style = Access<NavigationItem, NavigationItemStyle>({ $0.style }, { $0.style = $1 })
    static let menuTitle = Access<NavigationItem, String?>({ $0.menuTitle }, { $0.menuTitle = $1 })
    static let popGuard = Access<NavigationItem, PopGuard?>({ $0.popGuard }, { $0.popGuard = $1 })
}

/// A JSON key of an item field (any string, so that unknown keys can be named).
struct FieldKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// One thing the command line sets in a navigation item: an item option of `push`, `present`
/// and `update` (`--back-button-title T`), and a name `update --unset` accepts.
public struct NavigationItemSetting: Sendable, Hashable, CustomStringConvertible {
    /// The kind of value a setting takes on the command line.
    public enum Kind: Sendable, Hashable {
        /// Any text, `""` included; `valueName` names it in help (`<title>`).
        case text(valueName: String)
        /// A flag: given, it sets `true`.
        case flag
        /// A whole number, 0 or more; `valueName` names it in help (`<n>`).
        case count(valueName: String)
        /// One of `cases` (raw values; the first is the unset value); `valueName` names it in help.
        case choice(valueName: String, cases: [String])
    }

    /// A value for a setting, of its ``Kind``.
    public enum Value: Sendable, Hashable {
        /// For a ``NavigationItemSetting/Kind/text(valueName:)`` setting.
        case text(String)
        /// For a ``NavigationItemSetting/Kind/flag`` setting: `true` when given.
        case flag(Bool)
        /// For a ``NavigationItemSetting/Kind/count(valueName:)`` setting.
        case count(Int)
        /// For a ``NavigationItemSetting/Kind/choice(valueName:cases:)`` setting: one of its cases.
        case choice(String)
    }

    /// The option's name without dashes, e.g. `back-button-title`; also its `--unset` name.
    public let name: String
    /// The kind of value it takes.
    public let kind: Kind
    /// One line for help, in words, e.g. `backButtonTitle: the label the next screen's back
    /// button shows.`
    public let help: String

    private let read: @Sendable (NavigationItem) -> Value?
    private let write: @Sendable (inout NavigationItem, Value) -> Bool
    private let clearing: @Sendable (inout NavigationItem) -> Void

    /// The value the item holds for this setting, or `nil` when it is unset (a `nil` text, a
    /// `false` flag, a `0` count, the first case of a choice, or no custom item for its parts).
    public func value(in item: NavigationItem) -> Value? {
        read(item)
    }

    /// Sets the value in `item`. A part of `backBarButtonItem` gives the item a custom back bar
    /// button item, keeping the parts of one it has.
    /// - Throws: ``NavigationError/invalidItem(_:)`` when `value` is not of this setting's kind,
    ///   a count is negative, or a choice is not one of the cases.
    public func set(_ value: Value, in item: inout NavigationItem) throws(NavigationError) {
        guard write(&item, value) else {
            throw .invalidItem("'\(name)' does not take \(value): it takes \(kind)")
        }
    }

    /// Resets the setting (`--unset NAME`): `nil`, `false`, `0` or the first case; unsetting a
    /// part of `backBarButtonItem` keeps the custom item, and `pop-guard` removes the guard.
    public func clear(in item: inout NavigationItem) {
        clearing(&item)
    }

    /// The option's name.
    public var description: String { name }

    /// Settings are the same setting when they have the same name.
    public static func == (a: NavigationItemSetting, b: NavigationItemSetting) -> Bool { a.name == b.name }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    init(
        name: String, kind: Kind, help: String, read: @escaping @Sendable (NavigationItem) -> Value?,
        write: @escaping @Sendable (inout NavigationItem, Value) -> Bool,
        clear: @escaping @Sendable (inout NavigationItem) -> Void
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.read = read
        self.write = write
        self.clearing = clear
    }

    /// A text setting stored at `path` (`nil` when unset).
    static func text(
        _ path: Access<NavigationItem, String?>, _ name: String, _ valueName: String, help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .text(valueName: valueName), help: help, read: { path.get($0).map(Value.text) },
            write: { item, value in
                guard case .text(let text) = value else { return false }
                path.set(&item, text)
                return true
            }, clear: { path.set(&$0, nil) })
    }

    /// A flag stored at `path`.
    static func flag(_ path: Access<NavigationItem, Bool>, _ name: String, help: String)
        -> NavigationItemSetting
    {
        NavigationItemSetting(
            name: name, kind: .flag, help: help, read: { path.get($0) ? .flag(true) : nil },
            write: { item, value in
                guard case .flag(let flag) = value else { return false }
                path.set(&item, flag)
                return true
            }, clear: { path.set(&$0, false) })
    }

    /// A count (0 or more) stored at `path`.
    static func count(
        _ path: Access<NavigationItem, Int>, _ name: String, _ valueName: String, help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .count(valueName: valueName), help: help,
            read: { path.get($0) == 0 ? nil : .count(path.get($0)) },
            write: { item, value in
                guard case .count(let count) = value, count >= 0 else { return false }
                path.set(&item, count)
                return true
            }, clear: { path.set(&$0, 0) })
    }

    /// A choice among the cases of `Choice`, stored at `path`.
    static func choice<Choice: ItemFieldValue & CaseIterable & RawRepresentable<String>>(
        _ path: Access<NavigationItem, Choice>, _ name: String, _ valueName: String, help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .choice(valueName: valueName, cases: Choice.allCases.map(\.rawValue)), help: help,
            read: { path.get($0).isExactly(Choice.unset) ? nil : .choice(path.get($0).rawValue) },
            write: { item, value in
                guard case .choice(let raw) = value, let choice = Choice(rawValue: raw) else { return false }
                path.set(&item, choice)
                return true
            }, clear: { path.set(&$0, Choice.unset) })
    }
}

extension NavigationItem {
    /// The JSON keys (<doc:Rules>) of the fields that differ between this item and `other`, in
    /// ``NavigationItemField/all``'s order, texts compared by their Unicode scalars (a title
    /// changed to a canonically equivalent spelling is a change).
    /// - Complexity: O(f) in the number of fields.
    public func changedFields(to other: NavigationItem) -> [String] {
        NavigationItemField.all.compactMap { $0.isChanged(from: self, to: other) ? $0.name : nil }
    }

    /// Whether the two items are equal with every text compared by its Unicode scalars.
    func isExactly(_ other: NavigationItem) -> Bool {
        NavigationItemField.all.allSatisfy { !$0.isChanged(from: self, to: other) }
    }

    /// The value of the field with JSON key `key` (<doc:Rules>) as `--json` writes it
    /// (``NavigationItemField/jsonValue(in:)``); `.null` for an unknown key.
    func jsonValue(of key: String) -> JSONValue {
        NavigationItemField.named(key)?.jsonValue(in: self) ?? .null
    }
}
