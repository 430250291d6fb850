/// A group of subcommands, declared as swift-argument-parser's `CommandConfiguration(subcommands:)`
/// declares them: each child by the word that runs it. The root (``NavDB/configuration``) and
/// `session` are groups; the walk from the root to a command is the same at every level.
/// Looking a command up by its word builds no spec but its own (the specs, help text and all,
/// cost a measurable part of a one-shot `navdb push`).
struct CommandGroup: Sendable {
    /// A child of a group: a command, or a group of its own.
    indirect enum Node: Sendable {
        case command(any Command.Type)
        case group(CommandGroup)
    }

    /// The group's help text and usage line (its path is set where the group is found).
    var spec: CommandSpec
    /// The children by the word that names them, in the order help lists them.
    var subcommands: [(name: String, node: Node)]
    /// Words that are not subcommands here but name a command elsewhere, with a note saying
    /// where (`session list` is `navdb sessions`).
    var elsewhere: (words: [String], command: [String], note: String)? = nil

    /// Every command below the group, depth first, with the words that run it.
    func commands(under path: [String] = []) -> [(path: [String], type: any Command.Type)] {
        subcommands.flatMap { name, node -> [(path: [String], type: any Command.Type)] in
            switch node {
            case .command(let type): [(path + [name], type)]
            case .group(let group): group.commands(under: path + [name])
            }
        }
    }

    /// The spec of the command `type` found at `path`.
    static func spec(of type: any Command.Type, at path: [String]) -> CommandSpec {
        var spec = type.spec
        spec.path = path
        return spec
    }

    /// The spec of this group found at `path`.
    func spec(at path: [String]) -> CommandSpec {
        var spec = self.spec
        spec.path = path
        return spec
    }

    /// The help of the group found at `path`: overview, usage and its subcommands.
    func help(at path: [String]) -> String {
        HelpText.render(spec(at: path), subcommands: commands(under: path).map { Self.spec(of: $0.type, at: $0.path) })
    }

    /// Walks `words` down from this group (found at `path`) as long as they name subgroups and
    /// commands: the node reached, its path and the number of words used.
    func resolve(_ words: ArraySlice<String>, path: [String] = []) -> (node: Node, path: [String], used: Int) {
        guard let word = words.first, let child = subcommands.first(where: { $0.name == word })?.node else {
            return (.group(self), path, 0)
        }
        guard case .group(let group) = child else { return (child, path + [word], 1) }
        let found = group.resolve(words.dropFirst(), path: path + [word])
        return (found.node, found.path, found.used + 1)
    }

    /// `word` is not a subcommand of this group (found at `path`): the closest command, or the
    /// accepted ones.
    func unknown(_ word: String, at path: [String], root: CommandGroup) -> UsageError {
        let name = (path + [word]).joined(separator: " ")
        let commands = commands(under: path)
        if let elsewhere, elsewhere.words.contains(word),
            case .command(let type) = root.resolve(elsewhere.command[...]).node
        {
            return UsageError(
                "Unknown command '\(name)'. Did you mean '\(elsewhere.command.joined(separator: " "))'? (\(elsewhere.note))",
                command: Self.spec(of: type, at: elsewhere.command))
        }
        // At the root, a word is compared with whole names (`sessions`, `session start`); in a
        // group, with the words after the group's own.
        let candidates = commands.map { $0.path.dropFirst(path.count).joined(separator: " ") }
        if let suggestion = Suggestions.closest(to: word, in: candidates),
            let found = commands.first(where: { $0.path.dropFirst(path.count).joined(separator: " ") == suggestion })
        {
            let suggested = found.path.joined(separator: " ")
            return UsageError(
                "Unknown command '\(name)'. Did you mean '\(suggested)'?",
                command: path.isEmpty ? nil : Self.spec(of: found.type, at: found.path))
        }
        let accepted = commands.map { $0.path.joined(separator: " ") }.joined(separator: ", ")
        let note = elsewhere.map { "; \($0.note)" } ?? ""
        return UsageError(
            "Unknown command '\(name)' (accepted: \(accepted)\(note))", command: path.isEmpty ? nil : spec(at: path))
    }
}
