import NavStore

/// One item option: the field of the library's list (``NavigationItemField``, whose raw value is
/// the option's name and the `--unset` name), how the option is shown, and how its value sets the
/// field. Declared once, in ``ItemOptions/all``.
struct ItemOption: Sendable {
    /// The field the option sets.
    let field: NavigationItemField
    /// How the parser and the help see the option (its name is the field's).
    let spec: OptionSpec
    /// Reads the option's text (`nil` for a flag) into an edit of an item.
    let edit: @Sendable (String?) throws(InvalidValue) -> @Sendable (inout NavigationItem) -> Void

    /// `--field <valueName>`: text, kept as given (`""` is a value).
    static func text(
        _ field: NavigationItemField, _ valueName: String, help: String,
        set: @escaping @Sendable (inout NavigationItem, String) -> Void
    ) -> ItemOption {
        value(field, valueName, help: help, parser: String.parser, set: set)
    }

    /// `--field <valueName>` read by `parser`.
    static func value<Value: Sendable>(
        _ field: NavigationItemField, _ valueName: String, help: String, parser: ValueParser<Value>,
        set: @escaping @Sendable (inout NavigationItem, Value) -> Void
    ) -> ItemOption {
        let spec = OptionSpec(
            name: field.rawValue, kind: .value, valueName: valueName, help: help, section: ItemOptions.section,
            choices: parser.choices)
        return ItemOption(field: field, spec: spec) { text throws(InvalidValue) in
            let value = try parser.parse(text ?? "")
            return { item in set(&item, value) }
        }
    }

    /// `--field`: a flag that turns the field on.
    static func flag(
        _ field: NavigationItemField, help: String, set: @escaping @Sendable (inout NavigationItem) -> Void
    ) -> ItemOption {
        let spec = OptionSpec(name: field.rawValue, kind: .flag, help: help, section: ItemOptions.section)
        return ItemOption(field: field, spec: spec) { _ in set }
    }
}

/// The item options of `push`, `present` and `update`: each given option sets one field of the
/// navigation item; an option not given leaves the field as it is (unset for a new entry).
/// `--title ""` sets the empty string, which is not the same as no title.
struct ItemOptions: OptionGroup {
    static let section = "ITEM OPTIONS"
    static let collapsed = [section: "[<item options>]"]

    /// Every item option, in the order help lists them: one per field of ``NavigationItemField``
    /// but the whole custom back item, which only `--unset` names.
    static let all: [ItemOption] = [
        .text(.title, "title", help: "title (UINavigationItem.title).") { $0.title = $1 },
        .text(.backButtonTitle, "title", help: "backButtonTitle: the label the next screen's back button shows.") {
            $0.backButtonTitle = $1
        },
        .text(
            .backBarButtonTitle, "title",
            help: "backBarButtonItem.title (gives the entry a custom back bar button item)."
        ) { item, title in item.editCustomBackItem { $0.title = title } },
        .flag(.backBarButtonImage, help: "backBarButtonItem.image (likewise).") {
            $0.editCustomBackItem { $0.image = true }
        },
        .flag(
            .menuSuppressed, help: "backBarButtonItem.menuSuppressed: the custom item drops the back menu (likewise)."
        ) { $0.editCustomBackItem { $0.menuSuppressed = true } },
        .value(.displayMode, "mode", help: "backButtonDisplayMode.", parser: BackButtonDisplayMode.parser) {
            $0.backButtonDisplayMode = $1
        },
        .flag(.hidesBackButton, help: "hidesBackButton.") { $0.hidesBackButton = true },
        .value(
            .leftItems, "n", help: "leftBarButtonItems: the number of custom leading items.",
            parser: .integer(atLeast: 0)
        ) { $0.leftBarButtonItems = $1 },
        .flag(.supplementBackButton, help: "leftItemsSupplementBackButton.") {
            $0.leftItemsSupplementBackButton = true
        },
        .value(.style, "style", help: "style.", parser: NavigationItemStyle.parser) { $0.style = $1 },
        .text(.menuTitle, "title", help: "menuTitle: the app's own back-menu row title.") { $0.menuTitle = $1 },
        .text(.popGuard, "prompt", help: "popGuard.prompt: a back-button tap asks this before popping.") {
            $0.popGuard = PopGuard(prompt: $1)
        },
    ]

    static let options = all.map(\.spec)

    /// The edits of the options given, in the order of ``all``.
    private var edits: [(field: NavigationItemField, apply: @Sendable (inout NavigationItem) -> Void)] = []

    /// Reads and validates the item options.
    /// - Throws: ``UsageError`` for a bad display mode, style or left-item count.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        for option in Self.all {
            let name = option.spec.name
            let given = option.spec.kind == .flag ? arguments.flags.contains(name) : arguments.values[name] != nil
            guard given else { continue }
            do {
                edits.append((option.field, try option.edit(arguments.values[name]?.last)))
            } catch {
                throw arguments.invalid(error, for: option.spec.synopsis)
            }
        }
    }

    /// The fields the given options set.
    var fields: [NavigationItemField] { edits.map(\.field) }

    /// Whether no item option was given.
    var isEmpty: Bool { edits.isEmpty }

    /// Sets the given fields on `item`, leaving the others as they are. Any of the three
    /// back-bar-button options gives the item a custom `backBarButtonItem` (keeping the parts of
    /// an existing one that are not given).
    func apply(to item: inout NavigationItem) {
        for edit in edits { edit.apply(&item) }
    }

    /// A new item with the given fields set and the others unset.
    var item: NavigationItem {
        var item = NavigationItem()
        apply(to: &item)
        return item
    }
}

extension NavigationItem {
    /// Edits the custom back bar button item, creating one when the item has none.
    fileprivate mutating func editCustomBackItem(_ edit: (inout BackBarButtonItem) -> Void) {
        var custom = backBarButtonItem ?? BackBarButtonItem()
        edit(&custom)
        backBarButtonItem = custom
    }
}

/// `--route R` and `--param k=v ...` of `push` and `present`: what the app needs to rebuild the
/// screen. Params become a JSON object of strings; no `--param` leaves `params` unset.
struct EntryOptions: OptionGroup {
    /// `--route <route>`.
    static let route = Option<String?>(
        "route", "route", help: "The app's route for restoring the screen (e.g. a URL or screen name).")
    /// `--param <key=value> ...`.
    static let param = Option<[(key: String, value: String)]>(
        repeating: "param", "key=value", help: "A restoration parameter (a string); repeat for several.",
        parser: ValueParser { pair throws(InvalidValue) in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw InvalidValue(value: pair, expected: "key=value with a non-empty key, e.g. --param folder=inbox")
            }
            return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
        })

    static let options = [route.spec, param.spec]

    var route: String?
    var params: [String: JSONValue]?

    /// - Throws: ``UsageError`` for a `--param` without `=`, with an empty key, or a key given twice.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        route = try arguments.value(Self.route)
        let pairs = try arguments.value(Self.param)
        guard !pairs.isEmpty else { return }
        var params: [String: JSONValue] = [:]
        for pair in pairs {
            guard params[pair.key] == nil else {
                throw arguments.invalid(
                    "\(pair.key)=\(pair.value)", for: Self.param.spec.synopsis,
                    expected: "each key once; '\(pair.key)' is given twice")
            }
            params[pair.key] = .string(pair.value)
        }
        self.params = params
    }

    /// The entry with `id`, these options and `item`.
    func entry(id: String, item: NavigationItem) -> Entry {
        Entry(id: id, route: route, params: params, item: item)
    }
}
