/// One field of ``NavigationItem``, as stored in JSON (<doc:Rules>): the one list every walk over
/// an item's fields goes through.
///
/// ``all`` drives the item's `Codable` shape, ``NavigationItem/changedFields(to:)`` (the
/// `fields` of `item.updated`), the redaction of `export --redact`, the report's field values,
/// the human rendering of an item, and the command line's item options and `--unset` names
/// (``settings``). A new field is its stored property in ``NavigationItem`` (with its
/// initializer parameter), one line in ``all``, its shape in `Schemas/common.schema.json`, and
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
        field(\.title, "title", [.text(\.title, "title", "title", help: "title (UINavigationItem.title).")]),
        field(
            \.backButtonTitle, "backButtonTitle",
            [
                .text(
                    \.backButtonTitle, "back-button-title", "title",
                    help: "backButtonTitle: the label the next screen's back button shows.")
            ]),
        field(
            \.backBarButtonItem, "backBarButtonItem", BackBarButtonItem.settings,
            wholeFieldUnsetName: "back-bar-button-item"),
        field(
            \.backButtonDisplayMode, "backButtonDisplayMode",
            [.choice(\.backButtonDisplayMode, "display-mode", "mode", help: "backButtonDisplayMode.")]),
        field(
            \.hidesBackButton, "hidesBackButton",
            [.flag(\.hidesBackButton, "hides-back-button", help: "hidesBackButton.")]),
        field(
            \.leftBarButtonItems, "leftBarButtonItems",
            [
                .count(
                    \.leftBarButtonItems, "left-items", "n",
                    help: "leftBarButtonItems: the number of custom leading items.")
            ]),
        field(
            \.leftItemsSupplementBackButton, "leftItemsSupplementBackButton",
            [.flag(\.leftItemsSupplementBackButton, "supplement-back-button", help: "leftItemsSupplementBackButton.")]),
        field(\.style, "style", [.choice(\.style, "style", "style", help: "style.")]),
        field(
            \.menuTitle, "menuTitle",
            [.text(\.menuTitle, "menu-title", "title", help: "menuTitle: the app's own back-menu row title.")]),
        field(\.popGuard, "popGuard", [PopGuard.setting]),
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
        _ path: WritableKeyPath<NavigationItem, Value> & Sendable, _ name: String,
        _ settings: [NavigationItemSetting], wholeFieldUnsetName: String? = nil
    ) -> NavigationItemField {
        let key = FieldKey(name)
        let read = reader(path)
        return NavigationItemField(
            name: name, settings: settings, wholeFieldUnsetName: wholeFieldUnsetName,
            isUnset: { read($0).isExactly(Value.unset) },
            isSame: { read($0).isExactly(read($1)) },
            reset: { $0[keyPath: path] = Value.unset },
            redact: { item, hash in item[keyPath: path] = item[keyPath: path].redacted(hash) },
            json: { read($0).jsonValue },
            display: { read($0).displayText },
            encode: { item, container, explicit in
                let value = read(item)
                if explicit || !value.isExactly(Value.unset) { try value.encodeField(to: &container, forKey: key) }
            },
            decode: { item, container in item[keyPath: path] = try Value.decodeField(from: container, forKey: key) })
    }
}

extension NavigationItemField {
    /// Reads the field at `path`. A stored property (every field of ``all``) is read at its byte
    /// offset in the item (`MemoryLayout.offset(of:)`): the runtime's generic key path walk cost
    /// about ten times more, and `changedFields` (every update decided), `check` and redaction
    /// ask every field of every item.
    fileprivate static func reader<Value>(
        _ path: WritableKeyPath<NavigationItem, Value> & Sendable
    ) -> @Sendable (NavigationItem) -> Value {
        guard let offset = MemoryLayout<NavigationItem>.offset(of: path) else { return { $0[keyPath: path] } }
        return { item in
            withUnsafePointer(to: item) { UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self) }
        }
    }
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
        _ path: WritableKeyPath<NavigationItem, String?> & Sendable, _ name: String, _ valueName: String, help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .text(valueName: valueName), help: help, read: { $0[keyPath: path].map(Value.text) },
            write: { item, value in
                guard case .text(let text) = value else { return false }
                item[keyPath: path] = text
                return true
            }, clear: { $0[keyPath: path] = nil })
    }

    /// A flag stored at `path`.
    static func flag(_ path: WritableKeyPath<NavigationItem, Bool> & Sendable, _ name: String, help: String)
        -> NavigationItemSetting
    {
        NavigationItemSetting(
            name: name, kind: .flag, help: help, read: { $0[keyPath: path] ? .flag(true) : nil },
            write: { item, value in
                guard case .flag(let flag) = value else { return false }
                item[keyPath: path] = flag
                return true
            }, clear: { $0[keyPath: path] = false })
    }

    /// A count (0 or more) stored at `path`.
    static func count(
        _ path: WritableKeyPath<NavigationItem, Int> & Sendable, _ name: String, _ valueName: String, help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .count(valueName: valueName), help: help,
            read: { $0[keyPath: path] == 0 ? nil : .count($0[keyPath: path]) },
            write: { item, value in
                guard case .count(let count) = value, count >= 0 else { return false }
                item[keyPath: path] = count
                return true
            }, clear: { $0[keyPath: path] = 0 })
    }

    /// A choice among the cases of `Choice`, stored at `path`.
    static func choice<Choice: ItemFieldValue & CaseIterable & RawRepresentable<String>>(
        _ path: WritableKeyPath<NavigationItem, Choice> & Sendable, _ name: String, _ valueName: String, help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .choice(valueName: valueName, cases: Choice.allCases.map(\.rawValue)), help: help,
            read: { $0[keyPath: path].isExactly(Choice.unset) ? nil : .choice($0[keyPath: path].rawValue) },
            write: { item, value in
                guard case .choice(let raw) = value, let choice = Choice(rawValue: raw) else { return false }
                item[keyPath: path] = choice
                return true
            }, clear: { $0[keyPath: path] = Choice.unset })
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
