/// The help text of a command in swift-argument-parser's shape: `OVERVIEW:`, `USAGE:`,
/// `ARGUMENTS:`, `OPTIONS:` (and one section per option group), `SUBCOMMANDS:`.
enum HelpText {
    /// Labels are padded to this width; longer ones put their help on the next line.
    private static let labelWidth = 24

    /// The full help for `spec`; `subcommands` lists child commands (for the root and groups).
    static func render(_ spec: CommandSpec, subcommands: [CommandSpec] = []) -> String {
        var text = "OVERVIEW: \(spec.abstract)\n"
        if let discussion = spec.discussion { text += "\n\(discussion)\n" }
        text += "\nUSAGE: \(spec.usage)\n"

        if !spec.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in spec.arguments { text += row("<\(argument.name)>", argument.help) }
        }

        // Sections in the order they first appear: the command's own options, then globals.
        var sections: [String] = []
        var bySection: [String: [OptionSpec]] = [:]
        // The root lists the global options as its own; commands list them apart.
        let globals = GlobalOptions.specs.map { option in
            var option = option
            if spec.path.isEmpty { option.section = nil }
            return option
        }
        for option in spec.options + globals {
            let section = option.section ?? "OPTIONS"
            if bySection[section] == nil { sections.append(section) }
            bySection[section, default: []].append(option)
        }
        for section in sections {
            text += "\n\(section):\n"
            for option in bySection[section]! {
                var label = option.synopsis
                if let short = option.shortName { label = "-\(short), \(label)" }
                if option.kind == .repeating { label += " ..." }
                text += row(label, option.help + details(option))
            }
        }

        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            let prefix = spec.path.count
            for command in subcommands {
                text += row(command.path.dropFirst(prefix).joined(separator: " "), command.abstract)
            }
            text += "\n  See 'navdb help \(spec.path.isEmpty ? "" : spec.name + " ")<subcommand>' for detailed help.\n"
        }
        return text
    }

    /// What the help adds after an option's own text, generated from its type and default, as
    /// swift-argument-parser does: ` (values: a, b, c; default: a)`.
    private static func details(_ option: OptionSpec) -> String {
        var parts: [String] = []
        if !option.choices.isEmpty { parts.append("values: " + option.choices.joined(separator: ", ")) }
        if let defaultValue = option.defaultValue { parts.append("default: " + defaultValue) }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: "; ") + ")"
    }

    /// `  label                   help`, wrapping to the next line when the label is long.
    private static func row(_ label: String, _ help: String) -> String {
        let head = "  " + label
        if head.count <= labelWidth {
            return head + String(repeating: " ", count: labelWidth + 2 - head.count) + help + "\n"
        }
        return head + "\n" + String(repeating: " ", count: labelWidth + 2) + help + "\n"
    }
}
