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
                "apt-get update && apt-get install -y libsqlite3-dev sqlite3 libpq-dev && swift build -c release -Xswiftc -static-executable"
            ) == true)
        #expect(blocks.last == "swift test")
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
