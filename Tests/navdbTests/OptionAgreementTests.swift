import Foundation
import Testing

/// Each option is declared once (`Option`, `Flag`: its name, value, help and parser
/// together) and the parser, the help and the completion scripts are made from that declaration.
/// These tests hold the three to each other from the outside: what a command's help lists is
/// what each shell completes for it, and every option a help text names is one that exists
/// (the command's own, or the one of the command named before it).
@Suite("Options: help, completion and the texts that name them agree")
struct OptionAgreementTests {
    /// Every command's words (`["session", "delete"]`), from the root help.
    static func commands(_ sandbox: Sandbox) throws -> [[String]] {
        let help = try sandbox.ok(["--help"]).stdout
        let section = try #require(help.components(separatedBy: "SUBCOMMANDS:\n").last)
        var commands: [[String]] = []
        for line in section.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("  See") {
            guard let word = line.split(separator: " ").first.map(String.init) else { continue }
            if word == "session" {
                commands += ["start", "delete", "truncate"].map { ["session", $0] }
            } else {
                commands.append([word])
            }
        }
        return commands
    }

    /// The long options a help text lists (each `  --name` or `  -x, --name` line of its option
    /// sections).
    static func listedOptions(_ help: String) -> Set<String> {
        var names = Set<String>()
        for line in help.split(separator: "\n") {
            var rest = Substring(line)
            guard rest.hasPrefix("  -") else { continue }
            rest = rest.drop { $0 == " " }
            if rest.hasPrefix("-"), !rest.hasPrefix("--"), let comma = rest.firstIndex(of: ",") {
                rest = rest[rest.index(after: comma)...].drop { $0 == " " }
            }
            guard rest.hasPrefix("--") else { continue }
            names.insert(String(rest.prefix { $0 == "-" || $0.isLetter || $0.isNumber }))
        }
        return names
    }

    /// Every `--name` a text mentions, with the words just before it.
    static func mentions(_ text: String) -> [(option: String, before: String)] {
        let pattern = try! Regex(#"--[a-z][a-z0-9-]*"#)
        return text.matches(of: pattern).map { match in
            let before = text[..<match.range.lowerBound].suffix(40)
            return (String(text[match.range]), String(before))
        }
    }

    /// The long options the fish script completes where `condition` holds.
    static func fishOptions(_ script: String, condition: String) -> Set<String> {
        let prefix = "complete -c navdb -n '\(condition)' -l "
        return Set(
            script.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map {
                "--" + $0.dropFirst(prefix.count).prefix { $0 != " " }
            })
    }

    @Test("every option a command's help lists is completed for that command by bash, zsh and fish, and nothing else")
    func completionMatchesHelp() throws {
        let sandbox = try Sandbox()
        let completion = CompletionTests()
        let zsh = try sandbox.ok(["--generate-completion-script", "zsh"]).stdout
        let fish = try sandbox.ok(["--generate-completion-script", "fish"]).stdout
        let commands = try Self.commands(sandbox)
        #expect(commands.count >= 30)
        for words in commands {
            let listed = Self.listedOptions(try sandbox.ok(words + ["--help"]).stdout)
            #expect(listed.isSuperset(of: ["--db", "--json", "--help"]), "\(words): \(listed)")
            let bash = Set(try completion.complete(sandbox, ["navdb"] + words + ["--"]))
            #expect(bash == listed, "bash, navdb \(words.joined(separator: " ")): \(bash.symmetricDifference(listed))")
            let name = words.joined(separator: " ")
            let fishNames = Self.fishOptions(fish, condition: "__navdb_using \(name)")
            #expect(fishNames == listed, "fish, \(name): \(fishNames.symmetricDifference(listed))")
            let block = try #require(
                zsh.components(separatedBy: "\n        \(words.joined(separator: "_")))\n").dropFirst().first?
                    .components(separatedBy: ";;").first)
            let zshNames = Set(
                block.matches(of: try Regex(#"[{',*](--[a-z][a-z0-9-]*)[\[,}]"#)).map {
                    String(block[$0.range].dropFirst().dropLast())
                })
            #expect(zshNames == listed, "zsh, \(name): \(zshNames.symmetricDifference(listed).sorted())")
        }
        // Before the subcommand: what the root help lists.
        let root = Self.listedOptions(try sandbox.ok(["--help"]).stdout)
        #expect(root.isSuperset(of: ["--db", "--json", "--help", "--version", "--generate-completion-script"]), "\(root)")
        #expect(Set(try completion.complete(sandbox, ["navdb", "--"])) == root)
        let fishRoot = Self.fishOptions(fish, condition: "test -z (__navdb_command)")
        #expect(fishRoot == root, "fish, before the subcommand: \(fishRoot.symmetricDifference(root))")
        let zshRoot = try #require(
            zsh.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("compadd -- --") })
        #expect(Set(zshRoot.split(separator: " ").dropFirst(2).map(String.init)).subtracting(["--"]) == root, "\(zshRoot)")
    }

    @Test("every option a help text names exists: the command's own, or that of the command named before it")
    func namedOptionsExist() throws {
        let sandbox = try Sandbox()
        let commands = try Self.commands(sandbox)
        var declared: [String: Set<String>] = [:]
        var texts: [String: String] = [:]
        for words in commands {
            let name = words.joined(separator: " ")
            texts[name] = try sandbox.ok(words + ["--help"]).stdout
            declared[name] = Self.listedOptions(texts[name]!)
        }
        texts[""] = try sandbox.ok(["--help"]).stdout
        declared[""] = Self.listedOptions(texts[""]!)
        let anywhere = declared.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        // Longest names first, so that "session truncate" wins over "truncate".
        let names = declared.keys.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        var checked = 0
        for (command, text) in texts {
            for (option, before) in Self.mentions(text) {
                checked += 1
                // `'back-menu --width <room>'`, `(restore --mark)`, `navdb vacuum --x`: that command's.
                let trimmed = before.trimmingCharacters(in: .whitespaces)
                let words = trimmed.split(whereSeparator: { " ('\"".contains($0) }).map(String.init)
                let named = names.first { name in
                    let parts = name.split(separator: " ").map(String.init)
                    return words.count >= parts.count && Array(words.suffix(parts.count)) == parts
                        && trimmed.hasSuffix(parts.last!)
                }
                if let named, named != command {
                    #expect(
                        declared[named]!.contains(option),
                        "navdb \(command) --help names '\(named) \(option)', which 'navdb \(named)' does not declare")
                } else {
                    #expect(
                        declared[command]!.contains(option) || declared[""]!.contains(option) || anywhere.contains(option),
                        "navdb \(command) --help names \(option), which no command declares")
                }
            }
        }
        #expect(checked > 100, "the texts name options: \(checked)")
    }
}
