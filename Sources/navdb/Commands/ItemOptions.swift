import NavStore

/// The item options of `push`, `present` and `update`, one per setting of the library's list of
/// item fields (``NavigationItemField/allSettings``: its name is the option's and the `--unset`
/// name, its kind the option's type, its help the option's): each given option sets one setting
/// of the navigation item; an option not given leaves it as it is (unset for a new entry).
/// `--title ""` sets the empty string, which is not the same as no title.
struct ItemOptions: OptionGroup {
    static let section = "ITEM OPTIONS"
    static let collapsed = [(section: section, placeholder: "[<item options>]")]

    /// One item option: the setting it sets, its spec and the parser of its value. A struct, not
    /// a tuple: the type metadata of an array of labelled tuples is built from its mangled name at
    /// run time (tens of thousands of instructions per process); so is ``values``'s element.
    private struct Declared {
        var setting: NavigationItemSetting
        var spec: OptionSpec
        var parser: ValueParser<NavigationItemSetting.Value>
    }

    /// A setting given, with its value.
    private struct Given {
        var setting: NavigationItemSetting
        var value: NavigationItemSetting.Value
    }

    /// Every item option, in the order help lists them, with the parser of its value.
    private static let all: [Declared] =
        NavigationItemField.allSettings.map { setting in
            let parser: ValueParser<NavigationItemSetting.Value>
            let valueName: String?
            switch setting.kind {
            case .text(let name):
                (parser, valueName) = (ValueParser { .text($0) }, name)
            case .flag:
                (parser, valueName) = (ValueParser { _ in .flag(true) }, nil)
            case .count(let name):
                let integer = ValueParser<Int>.integer(atLeast: 0)
                (parser, valueName) = (
                    ValueParser { text throws(InvalidValue) in .count(try integer.parse(text)) }, name
                )
            case .choice(let name, let cases):
                let choice = ValueParser<String>.choice(cases)
                (parser, valueName) = (
                    ValueParser(choices: cases) { text throws(InvalidValue) in .choice(try choice.parse(text)) },
                    name
                )
            }
            let spec =
                valueName.map {
                    OptionSpec(
                        name: setting.name, kind: .value, valueName: $0, help: setting.help, section: section,
                        choices: parser.choices)
                } ?? OptionSpec(name: setting.name, kind: .flag, help: setting.help, section: section)
            return Declared(setting: setting, spec: spec, parser: parser)
        }

    static let options = all.map(\.spec)

    /// The settings given, with their values, in the order of ``all``.
    private var values: [Given] = []

    /// Reads and validates the item options.
    /// - Throws: ``UsageError`` for a bad display mode, style or left-item count.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        for option in Self.all {
            let spec = option.spec
            let given = spec.kind == .flag ? arguments.flags.contains(spec.name) : arguments.values[spec.name] != nil
            guard given else { continue }
            do {
                values.append(
                    Given(
                        setting: option.setting, value: try option.parser.parse(arguments.values[spec.name]?.last ?? "")
                    ))
            } catch {
                throw arguments.invalid(error, for: spec.synopsis)
            }
        }
    }

    /// The names of the settings the given options set (their `--unset` names).
    var names: [String] { values.map(\.setting.name) }

    /// Whether no item option was given.
    var isEmpty: Bool { values.isEmpty }

    /// Sets the given settings on `item`, leaving the others as they are. Any of the three
    /// back-bar-button options gives the item a custom `backBarButtonItem` (keeping the parts of
    /// an existing one that are not given).
    func apply(to item: inout NavigationItem) {
        // Each value was read by its setting's own parser: `set` accepts it.
        for given in values { try? given.setting.set(given.value, in: &item) }
    }

    /// A new item with the given fields set and the others unset.
    var item: NavigationItem {
        var item = NavigationItem()
        apply(to: &item)
        return item
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
