/// A positional argument of a command, shown as `<name>` in help and usage.
struct ArgumentSpec: Sendable {
    /// The name shown between angle brackets, e.g. `key`.
    var name: String
    /// One line for the `ARGUMENTS:` section of the help.
    var help: String
    /// Whether the argument may be left out (its absence is then checked by the command).
    var isOptional: Bool = false
    /// Whether the argument takes every remaining positional word (zero or more; only the last
    /// argument of a command may).
    var isVariadic: Bool = false
    /// When the empty string is refused, what is expected instead (`a session key`).
    var nonEmpty: String? = nil
    /// What the words name, for shell completion (from the argument's parser).
    var valueKind: ValueKind = .text

    /// `<name>`, `[<name>]` or `[<name> ...]`.
    var usage: String { isVariadic ? "[<\(name)> ...]" : isOptional ? "[<\(name)>]" : "<\(name)>" }
}

/// An option of a command: a flag (`--confirm`), an option with a value (`--title T`) or a
/// repeatable option with a value (`--param k=v ...`).
struct OptionSpec: Sendable {
    /// How the option takes values.
    enum Kind: Sendable, Equatable {
        /// No value; present or not.
        case flag
        /// One value; given again, the last one wins.
        case value
        /// One value per occurrence, all kept in order.
        case repeating
    }

    /// The long name without dashes, e.g. `title`.
    var name: String
    /// An optional one-letter short name, e.g. `h` for `-h`.
    var shortName: Character? = nil
    /// Flag, value or repeating.
    var kind: Kind
    /// The value's name in help, e.g. `title` for `--title <title>`.
    var valueName: String = "value"
    /// One line for the help.
    var help: String
    /// The help section the option is listed in (`OPTIONS` when `nil`).
    var section: String? = nil
    /// Whether the command cannot run without it (listed without brackets in the usage line).
    var isRequired: Bool = false
    /// Whether the usage line leaves it out (global options, help; they still appear in the help).
    var hiddenFromUsage: Bool = false
    /// The value used when the option is not given, shown in the usage line and the help.
    var defaultValue: String? = nil
    /// The values the option accepts, when they are a fixed list (from the type of its values:
    /// listed in the help and offered by shell completion).
    var choices: [String] = []
    /// What the value names, for shell completion (from the option's parser).
    var valueKind: ValueKind = .text

    /// Whether the value names a file or folder (shell completion offers file names).
    var takesFile: Bool { valueKind == .path }

    /// `--name`, and `-n` when it has a short name: every spelling of the option.
    var spellings: [String] { [flagName] + (shortName.map { ["-\($0)"] } ?? []) }

    /// `--name` (what the user types).
    var flagName: String { "--" + name }

    /// `--name <value>` or `--name` for a flag: how help and error messages name the option.
    var synopsis: String { kind == .flag ? flagName : "\(flagName) <\(valueName)>" }

    /// The option as the usage line shows it (with its default, if it has one).
    var usage: String {
        var core = kind == .repeating ? "\(synopsis) ..." : synopsis
        if let defaultValue { core += " (default: \(defaultValue))" }
        return isRequired ? core : "[\(core)]"
    }
}

/// The declarative description of one command: its words, help text, arguments and options.
/// The parser reads it, and the help and usage text are generated from it.
struct CommandSpec: Sendable {
    /// The command's words after `navdb`, e.g. `["session", "start"]`; empty for the root. Set
    /// from the command tree (``NavDB/configuration``), where each name is declared.
    var path: [String] = []
    /// One line for `OVERVIEW:` and the root's `SUBCOMMANDS:` list.
    var abstract: String
    /// Further paragraphs shown after the overview.
    var discussion: String? = nil
    /// Positional arguments, in order.
    var arguments: [ArgumentSpec] = []
    /// The command's own options (global options are added by the parser).
    var options: [OptionSpec] = []
    /// Text shown in the usage line in place of the options of a section (e.g. `[<item options>]`):
    /// pairs of a section and its placeholder, searched in order (a handful at most).
    var collapsedSections: [(section: String, placeholder: String)] = []
    /// A usage line to show instead of the generated one (the root's).
    var usageOverride: String? = nil
    /// Options other commands take that this one refuses with a reason of its own, by long name
    /// (`show --width`: the name means the back label's room elsewhere, so `show` calls its bar's
    /// width `--bar-width`). The parser's error is `The option '--width' is not accepted by 'show':
    /// <reason>`; help and completion do not list them.
    var refusedOptions: [String: String] = [:]

    /// `session start`, or `navdb` for the root.
    var name: String { path.isEmpty ? "navdb" : path.joined(separator: " ") }

    /// Every option the command accepts: its own, then the global ones.
    var allOptions: [OptionSpec] { options + GlobalOptions.specs }

    /// The usage line without the `Usage: ` / `USAGE: ` prefix: `navdb`, the command's words, its
    /// arguments, then its options (a collapsed section shown once by its placeholder).
    var usage: String {
        if let usageOverride { return usageOverride }
        var parts = ["navdb"] + path + arguments.map(\.usage)
        var collapsed: [String] = []
        for option in options where !option.hiddenFromUsage {
            if let section = option.section,
                let placeholder = collapsedSections.first(where: { $0.section == section })?.placeholder
            {
                if !collapsed.contains(section) {
                    collapsed.append(section)
                    parts.append(placeholder)
                }
            } else {
                parts.append(option.usage)
            }
        }
        return parts.joined(separator: " ")
    }

    /// Looks up an option by its long name (without dashes), in the order of ``allOptions``.
    func option(named name: String) -> OptionSpec? {
        firstOption { $0.name == name }
    }

    /// Looks up an option by its short name, in the order of ``allOptions``.
    func option(short: Character) -> OptionSpec? {
        firstOption { $0.shortName == short }
    }

    /// The first of ``allOptions`` that `matches`, found without building that list (each
    /// lookup of a parse would otherwise copy every option spec).
    private func firstOption(where matches: (OptionSpec) -> Bool) -> OptionSpec? {
        options.first(where: matches) ?? GlobalOptions.specs.first(where: matches)
    }
}
