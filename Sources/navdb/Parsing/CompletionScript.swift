/// Shell completion scripts for `navdb --generate-completion-script bash|zsh|fish`
/// (swift-argument-parser's option name), generated from the same ``CommandSpec``s as the help:
/// subcommands, each command's options, the fixed values of an option (sources, modes, styles,
/// event types), file names for file options and arguments, and session keys for `<key>` (read
/// from `navdb sessions` of the database the line names, so completion never writes).
enum CompletionScript {
    /// The shells a script is generated for.
    enum Shell: String, CaseIterable, ExpressibleByArgument {
        case bash, zsh, fish
    }

    /// One command as completion sees it: its words after `navdb`, options and arguments.
    struct Command {
        var words: [String]
        var abstract: String
        var options: [OptionSpec]
        var arguments: [ArgumentSpec]

        var name: String { words.joined(separator: " ") }
        /// The bash/zsh function-name-safe form of the name.
        var identifier: String { words.joined(separator: "_").replacing("-", with: "_") }
    }

    /// Every command, from the specs the help is rendered from.
    static func commands() -> [Command] {
        NavDB.configuration.commands().map { path, type in
            let spec = CommandGroup.spec(of: type, at: path)
            return Command(
                words: spec.path, abstract: spec.abstract, options: spec.allOptions, arguments: spec.arguments)
        }
    }

    /// The first words of the subcommands (`session` once for its group), with their abstracts.
    static func topLevel() -> [(word: String, abstract: String)] {
        var seen = Set<String>()
        var result: [(String, String)] = []
        for command in commands() where seen.insert(command.words[0]).inserted {
            result.append(
                (command.words[0], command.words.count > 1 ? NavDB.sessionGroup.spec.abstract : command.abstract))
        }
        result.append(("help", "Show help for a subcommand."))
        return result
    }

    /// The options that take a value, each spelling (`--output`, `-o`): after one, the next word
    /// is its value, not a positional argument.
    static func valueOptionSpellings() -> [String] {
        var names = Set<String>()
        for command in commands() {
            for option in command.options where option.kind != .flag { names.formUnion(option.spellings) }
        }
        return names.sorted()
    }

    /// The options accepted before the subcommand: the root spec's and the global ones, from
    /// their declarations (as a command's options are).
    static var rootOptions: [OptionSpec] { NavDB.rootSpec.allOptions }

    /// Each spelling of the options before the subcommand that take a value, as a shell `case`
    /// pattern (`--db|--generate-completion-script`): the word after one is its value.
    static var rootValuePattern: String {
        rootOptions.filter { $0.kind != .flag }.flatMap(\.spellings).joined(separator: "|")
    }

    /// The script for `shell`.
    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    static func words(_ list: [String]) -> String {
        list.map(shellQuoted).joined(separator: " ")
    }

    /// `text` in single quotes for a shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
