import Foundation
import Testing

/// `--help` for the tool and every command, `help <command>`, `--version` (README and `--help`).
@Suite struct HelpTests {
    /// Every command of navdb's documented contract (README, `--help`).
    static let commands = [
        "session start", "session delete", "session truncate", "sessions", "push", "pop", "pop-to", "pop-to-root",
        "menu-select", "back", "set-stack",
        "update", "present", "dismiss", "update-layer", "tabs", "select-tab", "stack", "back-menu", "show", "history",
        "replay", "follow", "report",
        "restore",
        "export",
        "import", "rebuild", "check", "prune", "vacuum", "lint",
    ]

    @Test("the tool's help lists every command")
    func toolHelpListsEveryCommand() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.ok(["--help"])
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("\nUSAGE: navdb [--db <path>] [--json] <subcommand>\n"))
        #expect(result.stdout.contains("\nOPTIONS:\n"))
        let subcommands = try #require(result.stdout.components(separatedBy: "\nSUBCOMMANDS:\n").last)
        let listed = subcommands.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("  See") else { return nil }
            return line.dropFirst(2).components(separatedBy: "  ").first
        }
        #expect(listed == Self.commands)
        // No database is created by asking for help.
        #expect(!FileManager.default.fileExists(atPath: sandbox.database.path))
    }

    @Test("no arguments prints the tool's help")
    func noArgumentsPrintsTheToolHelp() throws {
        let result = try Sandbox().ok([])
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
    }

    @Test("every command has its own help", arguments: commands)
    func commandHelp(_ command: String) throws {
        let sandbox = try Sandbox()
        let words = command.split(separator: " ").map(String.init)
        let result = try sandbox.ok(words + ["--help"])
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("OVERVIEW: "))
        #expect(result.stdout.contains("\nUSAGE: navdb \(command)"))
        #expect(result.stdout.contains("OPTIONS:\n"))
        #expect(result.stdout.contains("  -h, --help"))
        #expect(result.stdout.contains("  --json"))
        // -h, `help <command>` and --help before the command say the same.
        #expect(try sandbox.ok(words + ["-h"]).stdout == result.stdout)
        #expect(try sandbox.ok(["help"] + words).stdout == result.stdout)
        #expect(try sandbox.ok(["--help"] + words).stdout == result.stdout)
    }

    @Test("--help wins over other errors on the same line")
    func helpWinsOverOtherErrors() throws {
        let result = try Sandbox().ok(["push", "--bogus", "--help"])
        #expect(result.stdout.contains("USAGE: navdb push <key> <id>"))
    }

    @Test("push, present and update list the item options")
    func itemCommandsListItemOptions() throws {
        let sandbox = try Sandbox()
        for command in ["push", "present", "update"] {
            let help = try sandbox.ok([command, "--help"]).stdout
            #expect(help.contains("\nITEM OPTIONS:\n"))
            for option in [
                "--title <title>", "--back-button-title <title>", "--back-bar-button-title <title>",
                "--back-bar-button-image", "--menu-suppressed", "--display-mode <mode>", "--hides-back-button",
                "--left-items <n>", "--supplement-back-button", "--style <style>", "--menu-title <title>",
                "--pop-guard <prompt>",
            ] {
                #expect(help.contains("  " + option), "\(command) --help lacks \(option)")
            }
        }
        #expect(try sandbox.ok(["update", "--help"]).stdout.contains("--unset <field> ..."))
        #expect(try sandbox.ok(["present", "--help"]).stdout.contains("--modal-in-presentation"))
    }

    @Test("every writing command takes --expect-version and --time")
    func writingCommandsTakeExpectVersionAndTime()
        throws
    {
        let sandbox = try Sandbox()
        for command in [
            "session start", "push", "pop", "pop-to", "pop-to-root", "menu-select", "back", "set-stack", "update",
            "present",
            "dismiss", "update-layer", "restore",
        ] {
            let help = try sandbox.ok(command.split(separator: " ").map(String.init) + ["--help"]).stdout
            #expect(help.contains("--expect-version <n>"), "\(command)")
            #expect(help.contains("--time <iso8601>"), "\(command)")
        }
    }

    @Test("the session group has its own help")
    func sessionGroupHelp() throws {
        let result = try Sandbox().ok(["session", "--help"])
        #expect(result.stdout.contains("SUBCOMMANDS:\n  start"))
    }

    @Test("--version prints the version")
    func version() throws {
        let result = try Sandbox().ok(["--version"])
        #expect(result.stdout == "navdb 0.2.0\n")
        #expect(result.stderr.isEmpty)
    }
}
