import NavStore
import NavStoreTools

/// The item options of `push`, `present` and `update`, one per setting of the library's list of
/// item fields (``NavigationItemField/allSettings``: its name is the option's and the `--unset`
/// name, its kind the option's type, its help the option's): each given option sets one setting
/// of the navigation item; an option not given leaves it as it is (unset for a new entry).
/// `--title ""` sets the empty string, which is not the same as no title.
struct ItemOptions: OptionGroup {
    static let section = "ITEM OPTIONS"
    static let collapsed = [(section: section, placeholder: "[<item options>]")]

    /// A setting given, with its value. A struct, not a `(setting:, value:)` tuple: the type
    /// metadata of an array of labelled tuples is built from its mangled name at run time.
    private struct Given {
        var setting: NavigationItemSetting
        var value: NavigationItemSetting.Value
    }

    /// Every item option's spec, in the order help lists them. The parsers of their values are
    /// made only for the options given (``parser(for:)``): a command line names one or two of them.
    static let options = NavigationItemField.allSettings.map(spec(for:))

    /// The spec of the option that sets `setting`: a flag, or an option whose value is named by
    /// the setting's kind (with the kind's cases for a choice).
    private static func spec(for setting: NavigationItemSetting) -> OptionSpec {
        switch setting.kind {
        case .flag:
            return OptionSpec(name: setting.name, kind: .flag, help: setting.help, section: section)
        case .text(let name), .count(let name):
            return OptionSpec(name: setting.name, kind: .value, valueName: name, help: setting.help, section: section)
        case .choice(let name, let cases):
            return OptionSpec(
                name: setting.name, kind: .value, valueName: name, help: setting.help, section: section,
                choices: cases)
        }
    }

    /// The parser of the value of the option that sets `setting`.
    private static func parser(for setting: NavigationItemSetting) -> ValueParser<NavigationItemSetting.Value> {
        switch setting.kind {
        case .text:
            return ValueParser { .text($0) }
        case .flag:
            return ValueParser { _ in .flag(true) }
        case .count:
            let integer = ValueParser<Int>.integer(atLeast: 0)
            return ValueParser { text throws(InvalidValue) in .count(try integer.parse(text)) }
        case .choice(_, let cases):
            let choice = ValueParser<String>.choice(cases)
            return ValueParser(choices: cases) { text throws(InvalidValue) in .choice(try choice.parse(text)) }
        }
    }

    /// The settings given, with their values, in the order of ``options``.
    private var values: [Given] = []

    /// Reads and validates the item options.
    /// - Throws: ``UsageError`` for a bad display mode, style or left-item count.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        for setting in NavigationItemField.allSettings {
            arguments.reads.note("--" + setting.name)
            let given: Bool
            if case .flag = setting.kind {
                given = arguments.flags.contains(setting.name)
            } else {
                given = arguments.values[setting.name] != nil
            }
            guard given else { continue }
            do {
                let value = try Self.parser(for: setting).parse(arguments.values[setting.name]?.last ?? "")
                values.append(Given(setting: setting, value: value))
            } catch {
                throw arguments.invalid(error, for: Self.spec(for: setting).synopsis)
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
            // Split at the first "=" scalar, not character: "=" followed by a combining mark is
            // one character ("k=\u{301}v" is the key "k" and the value "\u{301}v").
            let scalars = pair.unicodeScalars
            guard let equals = scalars.firstIndex(of: "="), equals != scalars.startIndex else {
                throw InvalidValue(value: pair, expected: "key=value with a non-empty key, e.g. --param folder=inbox")
            }
            return (String(scalars[..<equals]), String(scalars[scalars.index(after: equals)...]))
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
            // A dictionary's keys compare as Swift strings do, by canonical equivalence: a key
            // in another spelling of the same text is the same key, and is named as such.
            if let earlier = params.index(forKey: pair.key).map({ params[$0].key }) {
                let twice =
                    earlier.utf8.elementsEqual(pair.key.utf8)
                    ? "'\(pair.key)' is given twice"
                    : "'\(pair.key)' is given twice, " + JSONTextCheck.twoSpellings(earlier, pair.key)
                throw arguments.invalid(
                    "\(pair.key)=\(pair.value)", for: Self.param.spec.synopsis, expected: "each key once; " + twice)
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
