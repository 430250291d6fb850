/// One field of ``NavigationItem``, as stored in JSON (<doc:Rules>): the one list every walk over
/// an item's fields goes through.
///
/// ``all`` drives the item's `Codable` shape, ``NavigationItem/changedFields(to:)`` (the
/// `fields` of `item.updated`), the redaction of `export --redact`, the report's field values,
/// the human rendering of an item, the command line's item options and `--unset` names
/// (``settings``), and the store's compact payload writer and fast payload reader. Each entry of
/// ``all`` is the whole of a field: its JSON key, the closures that read and write its stored
/// property, its kind (text, flag, count, choice, custom back bar button item, pop guard: how
/// it is compared, redacted, encoded, written and read) and its command-line setting.
///
/// A new field takes three places: its stored property in ``NavigationItem`` (with its
/// initializer parameter), one entry in ``all``, and its shape in `Schemas/common.schema.json`.
/// `NavigationItemFieldTests` fails when a stored property has no entry, or an entry is missing
/// from `changedFields`, redaction, `Codable`, the payload writer or reader, the command line's
/// settings or the schema. A field of a new kind adds a case to `NavigationItemField.Kind`, and
/// the compiler asks for it in every walk.
public struct NavigationItemField: Sendable, Hashable, CustomStringConvertible {
    /// The JSON key, e.g. `backButtonTitle`: UIKit's property name.
    public let name: String
    /// The JSON key as static bytes, for the payload writer and reader.
    package let key: StaticString
    /// Where the value is stored and of which kind it is.
    package let kind: Kind
    /// The access of a choice field, which ``kind`` holds without counting references.
    package let keptChoice: ChoiceAccess?
    /// What the command line sets in this field, one option each (`--back-button-title`), in
    /// the order help lists them; several for a field with parts (`backBarButtonItem`).
    public let settings: [NavigationItemSetting]
    /// The `--unset` name that resets the whole field when it has several settings
    /// (`back-bar-button-item`, which is also the setting of the whole custom item), else `nil`:
    /// unsetting a field's only setting resets the field.
    public let wholeFieldUnsetName: String?

    /// Every field, in <doc:Rules>' order (the order of `--json`'s unsorted output and of help).
    public static let all: [NavigationItemField] = [
        .text(
            "title", { $0.pointee.title }, { $0.pointee.title = $1 }, option: "title", "title",
            help: "title (UINavigationItem.title)."),
        .text(
            "backButtonTitle", { $0.pointee.backButtonTitle }, { $0.pointee.backButtonTitle = $1 },
            option: "back-button-title", "title",
            help: "backButtonTitle: the label the next screen's back button shows."),
        .button(
            "backBarButtonItem", { $0.pointee.backBarButtonItem }, { $0.pointee.backBarButtonItem = $1 },
            wholeFieldUnsetName: "back-bar-button-item"),
        .choice(
            "backButtonDisplayMode", { $0.pointee.backButtonDisplayMode }, { $0.backButtonDisplayMode = $1 },
            option: "display-mode", "mode", help: "backButtonDisplayMode."),
        .flag(
            "hidesBackButton", { $0.pointee.hidesBackButton }, { $0.pointee.hidesBackButton = $1 },
            option: "hides-back-button", help: "hidesBackButton."),
        .count(
            "leftBarButtonItems", { $0.pointee.leftBarButtonItems }, { $0.pointee.leftBarButtonItems = $1 },
            option: "left-items", "n", help: "leftBarButtonItems: the number of custom leading items."),
        .flag(
            "leftItemsSupplementBackButton", { $0.pointee.leftItemsSupplementBackButton },
            { $0.pointee.leftItemsSupplementBackButton = $1 },
            option: "supplement-back-button", help: "leftItemsSupplementBackButton."),
        .choice("style", { $0.pointee.style }, { $0.style = $1 }, option: "style", "style", help: "style."),
        .text(
            "menuTitle", { $0.pointee.menuTitle }, { $0.pointee.menuTitle = $1 }, option: "menu-title", "title",
            help: "menuTitle: the app's own back-menu row title."),
        .popGuard(
            "popGuard", { $0.pointee.popGuard }, { $0.pointee.popGuard = $1 }, option: "pop-guard", "prompt",
            help: "popGuard.prompt: a back-button tap asks this before popping."),
        .flag(
            "interactivePopDisabled", { $0.pointee.interactivePopDisabled }, { $0.pointee.interactivePopDisabled = $1 },
            option: "interactive-pop-disabled",
            help:
                "interactivePopDisabled: the screen turns the edge swipe off (interactivePopGestureRecognizer.isEnabled = false)."
        ),
        .flag(
            "contentPopDisabled", { $0.pointee.contentPopDisabled }, { $0.pointee.contentPopDisabled = $1 },
            option: "content-pop-disabled",
            help:
                "contentPopDisabled: the screen turns iOS 26's content swipe off (interactiveContentPopGestureRecognizer.isEnabled = false)."
        ),
    ]

    /// The JSON keys of ``all``, in its order.
    package static let names: [String] = all.map { $0.name }

    /// The field with JSON key `name`, or `nil`.
    public static func named(_ name: String) -> NavigationItemField? {
        all.first { $0.name == name }
    }

    /// Every setting of every field, in help's order: the item options of `push`, `present` and
    /// `update`.
    public static let allSettings: [NavigationItemSetting] = all.flatMap { $0.settings }

    /// The names `update --unset` accepts, in help's order: each setting's name, and after a
    /// field's settings its ``wholeFieldUnsetName`` when no setting has that name; each once.
    public static let unsetNames: [String] = all.flatMap { field in
        let names = field.settings.map { $0.name }
        guard let whole = field.wholeFieldUnsetName, !names.contains(whole) else { return names }
        return names + [whole]
    }

    /// Resets what the `--unset` name `name` names (see ``unsetNames``); `false` for an unknown name.
    public static func unset(_ name: String, in item: inout NavigationItem) -> Bool {
        for field in all {
            if field.wholeFieldUnsetName == name {
                field.reset(in: &item)
                return true
            }
            if let setting = field.settings.first(where: { $0.name == name }) {
                setting.clear(in: &item)
                return true
            }
        }
        return false
    }

    /// The JSON key.
    public var description: String { name }

    /// Fields are the same field when they have the same JSON key.
    public static func == (a: NavigationItemField, b: NavigationItemField) -> Bool { a.name == b.name }

    /// Hashes the JSON key.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension NavigationItem {
    // One function per type of field: a thin function is never passed where its type is generic.

    /// The value `get` reads from this item.
    package func read(_ get: ItemGetter<String?>) -> String? { withUnsafePointer(to: self) { get($0) } }
    /// The value `get` reads from this item.
    package func read(_ get: ItemGetter<Bool>) -> Bool { withUnsafePointer(to: self) { get($0) } }
    /// The value `get` reads from this item.
    package func read(_ get: ItemGetter<Int>) -> Int { withUnsafePointer(to: self) { get($0) } }
    /// The value `get` reads from this item.
    package func read(_ get: ItemGetter<BackBarButtonItem?>) -> BackBarButtonItem? { withUnsafePointer(to: self) { get($0) } }
    /// The value `get` reads from this item.
    package func read(_ get: ItemGetter<PopGuard?>) -> PopGuard? { withUnsafePointer(to: self) { get($0) } }
    /// Sets `value` with `set`.
    package mutating func write(_ set: ItemSetter<String?>, _ value: String?) {
        withUnsafeMutablePointer(to: &self) { set($0, value) }
    }
    /// Sets `value` with `set`.
    package mutating func write(_ set: ItemSetter<Bool>, _ value: Bool) {
        withUnsafeMutablePointer(to: &self) { set($0, value) }
    }
    /// Sets `value` with `set`.
    package mutating func write(_ set: ItemSetter<Int>, _ value: Int) { withUnsafeMutablePointer(to: &self) { set($0, value) } }
    /// Sets `value` with `set`.
    package mutating func write(_ set: ItemSetter<BackBarButtonItem?>, _ value: BackBarButtonItem?) {
        withUnsafeMutablePointer(to: &self) { set($0, value) }
    }
    /// Sets `value` with `set`.
    package mutating func write(_ set: ItemSetter<PopGuard?>, _ value: PopGuard?) {
        withUnsafeMutablePointer(to: &self) { set($0, value) }
    }

    /// The JSON keys (<doc:Rules>) of the fields that differ between this item and `other`, in
    /// ``NavigationItemField/all``'s order, texts compared by their Unicode scalars (a title
    /// changed to a canonically equivalent spelling is a change).
    /// - Complexity: O(f) in the number of fields.
    public func changedFields(to other: NavigationItem) -> [String] {
        withUnsafePointer(to: self) { old in
            withUnsafePointer(to: other) { new in
                let kinds = NavigationItemField.kinds
                var changed: [String] = []
                for index in kinds.indices where kinds[index].isChanged(from: old, to: new) {
                    changed.append(NavigationItemField.names[index])
                }
                return changed
            }
        }
    }

    /// Whether the two items are equal with every text compared by its Unicode scalars.
    package func isExactly(_ other: NavigationItem) -> Bool {
        withUnsafePointer(to: self) { old in
            withUnsafePointer(to: other) { new in
                for kind in NavigationItemField.kinds where kind.isChanged(from: old, to: new) { return false }
                return true
            }
        }
    }

    /// The value of the field with JSON key `key` (<doc:Rules>) as `--json` writes it
    /// (``NavigationItemField/jsonValue(in:)``); `.null` for an unknown key.
    package func jsonValue(of key: String) -> JSONValue {
        NavigationItemField.named(key)?.jsonValue(in: self) ?? .null
    }
}
