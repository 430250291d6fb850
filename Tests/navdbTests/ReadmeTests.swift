import Foundation
import Testing

/// Issue 11 item 3: the README starts with exactly two commands, and explains every kind of
/// linker warning the first one prints (the static link keeps the startup figure).
@Suite struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: Navdb.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test("the README's first screen has exactly two commands: set-up with the example, then swift test")
    func firstTwoCommands() throws {
        let text = try Self.readme()
        let firstSection = try #require(text.components(separatedBy: "\n## ").first)
        let blocks = firstSection.components(separatedBy: "```sh\n").dropFirst().map {
            $0.components(separatedBy: "\n```").first ?? ""
        }
        #expect(blocks.count == 2)
        #expect(
            blocks.first?.hasPrefix(
                "apt-get update && apt-get install -y libsqlite3-dev sqlite3 libpq-dev && scripts/build-release.sh"
            ) == true)
        #expect(blocks.last == "swift test")
    }

    @Test(
        "the release build's code order names each function once, one mangled or C name per line, pushes first"
    )
    func symbolOrder() throws {
        let root = Navdb.packageRoot
        let order = try String(contentsOf: root.appendingPathComponent("scripts/navdb.order"), encoding: .utf8)
        let names = order.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(names.count > 1_000)
        #expect(Set(names).count == names.count, "a name listed twice")
        #expect(names.allSatisfy { !$0.isEmpty && !$0.contains(" ") && !$0.contains("\t") })
        // The push's functions come from the first runs, before those only other commands run.
        let push = try #require(names.firstIndex { $0.hasPrefix("$s5navdb11PushCommand") })
        let pop = try #require(names.firstIndex { $0.hasPrefix("$s5navdb10PopCommand") })
        let stack = try #require(names.firstIndex { $0.hasPrefix("$s5navdb12StackCommand") })
        #expect(push < pop && pop < stack)
        let script = try String(
            contentsOf: root.appendingPathComponent("scripts/build-release.sh"), encoding: .utf8)
        #expect(script.contains("--symbol-ordering-file=$PWD/scripts/navdb.order"))
        #expect(script.contains("-static-executable"))
    }

    @Test(
        "every linker warning of the static build is explained",
        arguments: [
            "dlopen", "getpwuid_r", "getpwnam_r", "getgrgid_r", "getgrnam_r", "mktemp",
        ])
    func warningExplained(symbol: String) throws {
        let text = try Self.readme()
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("`\(symbol)`") }
        #expect(rows.count == 1, "no README table row explains \(symbol)")
        #expect(rows.first?.contains("navdb") == true)
    }
}
