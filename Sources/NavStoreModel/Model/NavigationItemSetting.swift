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

    package init(
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

    /// A text setting (`nil` when unset).
    package static func text(
        _ get: ItemGetter<String?>, _ set: ItemSetter<String?>, _ name: String, _ valueName: String,
        help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .text(valueName: valueName), help: help, read: { $0.read(get).map(Value.text) },
            write: { item, value in
                guard case .text(let text) = value else { return false }
                item.write(set, text)
                return true
            }, clear: { $0.write(set, nil) })
    }

    /// A flag setting.
    package static func flag(_ get: ItemGetter<Bool>, _ set: ItemSetter<Bool>, _ name: String, help: String)
        -> NavigationItemSetting
    {
        NavigationItemSetting(
            name: name, kind: .flag, help: help, read: { $0.read(get) ? .flag(true) : nil },
            write: { item, value in
                guard case .flag(let flag) = value else { return false }
                item.write(set, flag)
                return true
            }, clear: { $0.write(set, false) })
    }

    /// A count setting (0 or more).
    package static func count(
        _ get: ItemGetter<Int>, _ set: ItemSetter<Int>, _ name: String, _ valueName: String,
        help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .count(valueName: valueName), help: help,
            read: { $0.read(get) == 0 ? nil : .count($0.read(get)) },
            write: { item, value in
                guard case .count(let count) = value, count >= 0 else { return false }
                item.write(set, count)
                return true
            }, clear: { $0.write(set, 0) })
    }

    /// A choice among the cases of `choice`, by raw value.
    package static func choice(_ choice: ChoiceAccess, _ name: String, _ valueName: String, help: String)
        -> NavigationItemSetting
    {
        NavigationItemSetting(
            name: name, kind: .choice(valueName: valueName, cases: choice.cases), help: help,
            read: { choice.isSet(in: $0) ? .choice(choice.get($0)) : nil },
            write: { item, value in
                guard case .choice(let raw) = value else { return false }
                return choice.set(&item, raw)
            }, clear: { _ = choice.set(&$0, choice.cases[0]) })
    }
}

extension BackBarButtonItem {
    /// The settings of a custom back bar button item read by `get` and written by `set`: the
    /// whole item (`back-bar-button-item`, a new `UIBarButtonItem()`), then its parts, any of
    /// which gives the entry one (keeping the parts of one it has).
    package static func settings(
        _ get: ItemGetter<BackBarButtonItem?>, _ set: ItemSetter<BackBarButtonItem?>
    )
        -> [NavigationItemSetting]
    {
        let path = Access<NavigationItem, BackBarButtonItem?>({ $0.read(get) }, { $0.write(set, $1) })
        return [
            // The whole item: `UIBarButtonItem()`, no title and no image. Settings apply in
            // this order, so with part options it is the fresh item they fill in.
            NavigationItemSetting(
                name: "back-bar-button-item", kind: .flag,
                help:
                    "backBarButtonItem: a custom back bar button item with no title and no image, as UIBarButtonItem() (replaces the entry's; the next three options set its parts).",
                read: { path.get($0) == nil ? nil : .flag(true) },
                write: { item, value in
                    guard case .flag(let flag) = value else { return false }
                    path.set(&item, flag ? BackBarButtonItem() : nil)
                    return true
                }, clear: { path.set(&$0, nil) }),
            part(
                path, "back-bar-button-title", .text(valueName: "title"),
                help: "backBarButtonItem.title (gives the entry a custom back bar button item).",
                read: { $0.title.map(NavigationItemSetting.Value.text) },
                write: {
                    guard case .text(let title) = $1 else { return false }
                    $0.title = title
                    return true
                }, clear: { $0.title = nil }),
            flag(
                path, Access({ $0.image }, { $0.image = $1 }), "back-bar-button-image",
                help: "backBarButtonItem.image (likewise)."),
            flag(
                path, Access({ $0.menuSuppressed }, { $0.menuSuppressed = $1 }), "menu-suppressed",
                help: "backBarButtonItem.menuSuppressed: the custom item drops the back menu (likewise)."),
        ]
    }

    /// A flag of the custom item, stored at `flag`.
    private static func flag(
        _ path: Access<NavigationItem, BackBarButtonItem?>, _ flag: Access<BackBarButtonItem, Bool>, _ name: String,
        help: String
    ) -> NavigationItemSetting {
        part(
            path, name, .flag, help: help, read: { flag.get($0) ? .flag(true) : nil },
            write: {
                guard case .flag(let value) = $1 else { return false }
                flag.set(&$0, value)
                return true
            }, clear: { flag.set(&$0, false) })
    }

    /// A setting of one part of the custom item: setting it creates the item, clearing it keeps it.
    private static func part(
        _ path: Access<NavigationItem, BackBarButtonItem?>, _ name: String, _ kind: NavigationItemSetting.Kind,
        help: String, read: @escaping @Sendable (BackBarButtonItem) -> NavigationItemSetting.Value?,
        write: @escaping @Sendable (inout BackBarButtonItem, NavigationItemSetting.Value) -> Bool,
        clear: @escaping @Sendable (inout BackBarButtonItem) -> Void
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: kind, help: help, read: { path.get($0).flatMap(read) },
            write: { item, value in
                var custom = path.get(item) ?? BackBarButtonItem()
                guard write(&custom, value) else { return false }
                path.set(&item, custom)
                return true
            },
            clear: { item in
                guard var custom = path.get(item) else { return }
                clear(&custom)
                path.set(&item, custom)
            })
    }
}

extension PopGuard {
    /// The setting of a pop guard: `--option PROMPT` sets the guard's prompt; unsetting it
    /// removes the guard.
    package static func setting(
        _ get: ItemGetter<PopGuard?>, _ set: ItemSetter<PopGuard?>, _ name: String,
        _ valueName: String, help: String
    ) -> NavigationItemSetting {
        NavigationItemSetting(
            name: name, kind: .text(valueName: valueName), help: help, read: { $0.read(get).map { .text($0.prompt) } },
            write: { item, value in
                guard case .text(let prompt) = value else { return false }
                item.write(set, PopGuard(prompt: prompt))
                return true
            }, clear: { $0.write(set, nil) })
    }
}
