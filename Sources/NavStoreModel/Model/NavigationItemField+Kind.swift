/// Reads a stored property of ``NavigationItem`` through a pointer to the item: a function
/// without context (`thin`), so that the walks over the fields copy no reference to count. A
/// closure with a context costs a retain and a release each time a field's kind is copied, and a
/// key path far more per read in a static binary.
///
/// Only ever with a concrete `Value`, and the item passed by pointer: a thin function cannot be
/// reabstracted (one passed where `Value` is a generic parameter would be called with the wrong
/// convention), and the compiler's pass that passes large structs by address does not handle a
/// thin function that takes one.
package typealias ItemGetter<Value> = @convention(thin) (UnsafePointer<NavigationItem>) -> Value
/// Writes a stored property of ``NavigationItem`` through a pointer to the item (see ``ItemGetter``).
package typealias ItemSetter<Value> = @convention(thin) (UnsafeMutablePointer<NavigationItem>, Value) -> Void

extension NavigationItemField {
    /// Where a field is stored in ``NavigationItem`` and what kind of value it holds: each case
    /// carries the functions that read and write the stored property. Every walk over the fields
    /// (comparison, redaction, `Codable`, `--json`, display, the payload writer and reader)
    /// switches on it, so a new kind is asked for by the compiler everywhere.
    package enum Kind: Sendable {
        /// A text, `nil` when unset; compared by Unicode scalars, hashed by redaction.
        case text(ItemGetter<String?>, ItemSetter<String?>)
        /// A flag, `false` when unset.
        case flag(ItemGetter<Bool>, ItemSetter<Bool>)
        /// A whole number, 0 or more, `0` when unset.
        case count(ItemGetter<Int>, ItemSetter<Int>)
        /// One of a few names (a mode, a style), its first case when unset.
        case choice(ChoiceReference)
        /// A custom back bar button item, `nil` when unset.
        case button(ItemGetter<BackBarButtonItem?>, ItemSetter<BackBarButtonItem?>)
        /// A pop guard, `nil` when unset.
        case popGuard(ItemGetter<PopGuard?>, ItemSetter<PopGuard?>)
    }

    /// The kinds of ``all``, in its order: what the hot walks (`changedFields`, exact
    /// comparison, the payload reader) go through without copying whole fields.
    package static let kinds: [Kind] = all.map { $0.kind }

    /// A text field, set by the option `--option <valueName>`.
    package static func text(
        _ key: StaticString, _ get: ItemGetter<String?>, _ set: ItemSetter<String?>, option: String,
        _ valueName: String, help: String
    ) -> NavigationItemField {
        NavigationItemField(key, .text(get, set), [.text(get, set, option, valueName, help: help)])
    }

    /// A flag, set by the option `--option`.
    package static func flag(
        _ key: StaticString, _ get: ItemGetter<Bool>, _ set: ItemSetter<Bool>, option: String,
        help: String
    ) -> NavigationItemField {
        NavigationItemField(key, .flag(get, set), [.flag(get, set, option, help: help)])
    }

    /// A count, set by the option `--option <valueName>`.
    package static func count(
        _ key: StaticString, _ get: ItemGetter<Int>, _ set: ItemSetter<Int>, option: String,
        _ valueName: String,
        help: String
    ) -> NavigationItemField {
        NavigationItemField(key, .count(get, set), [.count(get, set, option, valueName, help: help)])
    }

    /// A choice among the cases of `Choice` (its first case unset), set by `--option <valueName>`.
    package static func choice<Choice: CaseIterable & RawRepresentable<String> & Equatable & Sendable>(
        _ key: StaticString, _ get: @escaping @Sendable (UnsafePointer<NavigationItem>) -> Choice,
        _ set: @escaping @Sendable (inout NavigationItem, Choice) -> Void, option: String,
        _ valueName: String, help: String
    ) -> NavigationItemField {
        let choice = ChoiceAccess(get, set)
        return NavigationItemField(
            key, .choice(ChoiceReference(choice)), [.choice(choice, option, valueName, help: help)], keeping: choice)
    }

    /// A custom back bar button item: one setting per part, and `wholeFieldUnsetName` to remove it.
    package static func button(
        _ key: StaticString, _ get: ItemGetter<BackBarButtonItem?>,
        _ set: ItemSetter<BackBarButtonItem?>,
        wholeFieldUnsetName: String
    ) -> NavigationItemField {
        NavigationItemField(
            key, .button(get, set), BackBarButtonItem.settings(get, set), wholeFieldUnsetName: wholeFieldUnsetName)
    }

    /// A pop guard, set by its prompt (`--option <valueName>`).
    package static func popGuard(
        _ key: StaticString, _ get: ItemGetter<PopGuard?>, _ set: ItemSetter<PopGuard?>,
        option: String,
        _ valueName: String, help: String
    ) -> NavigationItemField {
        NavigationItemField(key, .popGuard(get, set), [PopGuard.setting(get, set, option, valueName, help: help)])
    }

    private init(
        _ key: StaticString, _ kind: Kind, _ settings: [NavigationItemSetting], wholeFieldUnsetName: String? = nil,
        keeping choice: ChoiceAccess? = nil
    ) {
        keptChoice = choice
        self.key = key
        self.name = key.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
        self.kind = kind
        self.settings = settings
        self.wholeFieldUnsetName = wholeFieldUnsetName
    }

    /// Whether the field differs between `old` and `new`, texts compared by their Unicode
    /// scalars (a canonically equivalent spelling is a change).
    public func isChanged(from old: NavigationItem, to new: NavigationItem) -> Bool {
        kind.isChanged(from: old, to: new)
    }

    /// Whether the field holds something other than its unset value (`nil`, `false`, `0`,
    /// `.default`, `.navigator`).
    public func isSet(in item: NavigationItem) -> Bool {
        kind.isSet(in: item)
    }

    /// Resets the field to its unset value.
    public func reset(in item: inout NavigationItem) {
        kind.reset(in: &item)
    }

    /// The field's value as JSON output with ``NavigationItem/explicitKeys`` writes it: every part present, `null` for an unset
    /// optional (`{"title": null, "image": false, "menuSuppressed": false}` for a custom item).
    public func jsonValue(in item: NavigationItem) -> JSONValue {
        switch kind {
        case .text(let get, _): item.read(get).jsonValue
        case .flag(let get, _): .bool(item.read(get))
        case .count(let get, _): .integer(Int64(item.read(get)))
        case .choice(let choice): .string(choice.get(item))
        case .button(let get, _): item.read(get).jsonValue
        case .popGuard(let get, _): item.read(get).jsonValue
        }
    }

    /// The field's value for a person to read: escaped text (`DisplayText/column(_:)`), `-`
    /// for `nil`, `true`/`false`, a count, a mode or style by its name, a pop guard's quoted
    /// prompt, a custom item as `{title: X, image, menuSuppressed}`.
    public func displayValue(in item: NavigationItem) -> String {
        switch kind {
        case .text(let get, _): item.read(get).displayText
        case .flag(let get, _): String(item.read(get))
        case .count(let get, _): String(item.read(get))
        case .choice(let choice): choice.get(item)
        case .button(let get, _): item.read(get).displayText
        case .popGuard(let get, _): item.read(get).displayText
        }
    }

    /// The field's texts replaced by `hash(text)`; `nil` stays `nil`, flags, counts, modes and
    /// styles are kept.
    package func redactTexts(in item: inout NavigationItem, _ hash: (String) -> String) {
        switch kind {
        case .text(let get, let set): item.write(set, item.read(get).redacted(hash))
        case .button(let get, let set): item.write(set, item.read(get).redacted(hash))
        case .popGuard(let get, let set): item.write(set, item.read(get).redacted(hash))
        case .flag, .count, .choice: break
        }
    }
}

extension NavigationItemField.Kind {
    /// Whether the value differs between `old` and `new`, texts compared by their Unicode scalars.
    package func isChanged(from old: NavigationItem, to new: NavigationItem) -> Bool {
        withUnsafePointer(to: old) { old in withUnsafePointer(to: new) { new in isChanged(from: old, to: new) } }
    }

    /// ``isChanged(from:to:)`` on the items at `old` and `new`: a walk over all the fields takes
    /// the items' addresses once, not once per read.
    package func isChanged(from old: UnsafePointer<NavigationItem>, to new: UnsafePointer<NavigationItem>) -> Bool {
        switch self {
        case .text(let get, _): !sameScalars(get(old), get(new))
        case .flag(let get, _): get(old) != get(new)
        case .count(let get, _): get(old) != get(new)
        case .choice(let choice): choice.isChanged(from: old, to: new)
        case .button(let get, _): !get(old).isExactly(get(new))
        case .popGuard(let get, _): !get(old).isExactly(get(new))
        }
    }

    /// Whether the value is other than the unset one.
    package func isSet(in item: NavigationItem) -> Bool {
        switch self {
        case .text(let get, _): item.read(get) != nil
        case .flag(let get, _): item.read(get)
        case .count(let get, _): item.read(get) != 0
        case .choice(let choice): choice.isSet(in: item)
        case .button(let get, _): item.read(get) != nil
        case .popGuard(let get, _): item.read(get) != nil
        }
    }

    /// Sets the unset value.
    package func reset(in item: inout NavigationItem) {
        switch self {
        case .text(_, let set): item.write(set, nil)
        case .flag(_, let set): item.write(set, false)
        case .count(_, let set): item.write(set, 0)
        case .choice(let choice): _ = choice.set(&item, choice.cases[0])
        case .button(_, let set): item.write(set, nil)
        case .popGuard(_, let set): item.write(set, nil)
        }
    }
}

/// How a field or a setting reads and writes its value: closures rather than key paths, which a
/// static binary resolves at run time on every launch (a cost every `push` paid).
package struct Access<Root, Value>: Sendable {
    package let get: @Sendable (Root) -> Value
    package let set: @Sendable (inout Root, Value) -> Void

    package init(_ get: @escaping @Sendable (Root) -> Value, _ set: @escaping @Sendable (inout Root, Value) -> Void) {
        self.get = get
        self.set = set
    }
}

/// A choice field read and written by its raw value: the walks over the fields need no generic
/// code for the enum it holds. A class, so that copying a field's kind retains one reference.
package final class ChoiceAccess: Sendable {
    /// The raw values of the cases, the unset one first.
    package let cases: [String]
    /// The raw value the item holds.
    package let get: @Sendable (NavigationItem) -> String
    /// Sets the case with this raw value; `false` (and no change) for another text.
    package let set: @Sendable (inout NavigationItem, String) -> Bool
    /// Whether the items at the two addresses hold different cases, compared as cases, not as
    /// raw values (`changedFields` reads every choice of both items).
    package let isChanged: @Sendable (UnsafePointer<NavigationItem>, UnsafePointer<NavigationItem>) -> Bool
    /// The raw value the item at the address holds when it is another case than the first,
    /// else `nil` (the payload writer's walk, which takes the item's address once).
    package let setRawValue: @Sendable (UnsafePointer<NavigationItem>) -> String?

    /// - Parameter get: reads the case through a pointer to the item, so that comparing two
    ///   items' cases copies neither item.
    package init<Choice: CaseIterable & RawRepresentable<String> & Equatable & Sendable>(
        _ get: @escaping @Sendable (UnsafePointer<NavigationItem>) -> Choice,
        _ set: @escaping @Sendable (inout NavigationItem, Choice) -> Void
    ) {
        cases = Choice.allCases.map { $0.rawValue }
        self.get = { item in withUnsafePointer(to: item) { get($0) }.rawValue }
        isChanged = { get($0) != get($1) }
        let unset = Choice.allCases.first
        setRawValue = { item in
            let choice = get(item)
            return choice == unset ? nil : choice.rawValue
        }
        self.set = { item, raw in
            guard let choice = Choice(rawValue: raw) else { return false }
            set(&item, choice)
            return true
        }
    }

    /// Whether the item holds another case than the first.
    package func isSet(in item: NavigationItem) -> Bool { get(item) != cases[0] }
}

/// A ``ChoiceAccess`` held without counting references, so that a field's kind copies as plain
/// bytes in the walks over the fields. The field that holds the kind keeps the object alive
/// (``NavigationItemField/all`` is never released).
package struct ChoiceReference: Sendable {
    unowned(unsafe) let access: ChoiceAccess

    package init(_ access: ChoiceAccess) { self.access = access }

    /// The raw values of the cases, the unset one first.
    package var cases: [String] { access.cases }
    /// The raw value the item holds.
    package func get(_ item: NavigationItem) -> String { access.get(item) }
    /// Sets the case with this raw value; `false` (and no change) for another text.
    package func set(_ item: inout NavigationItem, _ raw: String) -> Bool { access.set(&item, raw) }
    /// Whether the item holds another case than the first.
    package func isSet(in item: NavigationItem) -> Bool { access.isSet(in: item) }
    /// The raw value the item at `item` holds, or `nil` when it holds the first (unset) case.
    package func setRawValue(at item: UnsafePointer<NavigationItem>) -> String? { access.setRawValue(item) }
    /// Whether the items at `old` and `new` hold different cases.
    package func isChanged(from old: UnsafePointer<NavigationItem>, to new: UnsafePointer<NavigationItem>) -> Bool {
        access.isChanged(old, new)
    }
}
