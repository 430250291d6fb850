import Foundation
import TestSupport
import Testing

/// The README: it starts with exactly two commands, docs/building.md explains every kind of
/// linker warning the first one prints, and its tour runs as written.
@Suite struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: Navdb.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test(
        "the README's first screen has exactly two commands: set-up with the example, then the tests as .ci/run runs them"
    )
    func firstTwoCommands() throws {
        let text = try Self.readme()
        let firstSection = try #require(text.components(separatedBy: "\n## ").first)
        let blocks = firstSection.components(separatedBy: "```sh\n").dropFirst().map {
            $0.components(separatedBy: "\n```").first ?? ""
        }
        #expect(blocks.count == 2)
        #expect(
            blocks.first?.hasPrefix(
                "apt-get update && apt-get install -y libsqlite3-dev sqlite3 libpq-dev postgresql chromium"
                    + " && scripts/build-release.sh"
            ) == true)
        #expect(blocks.first?.hasSuffix("&& Examples/mail-session.sh") == true)
        let testCommand = "scripts/with-postgresql.sh swift test"
        #expect(blocks.last == testCommand)
        let ci = try String(contentsOf: Navdb.packageRoot.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.split(separator: "\n").contains { $0 == testCommand[...] }, ".ci/run runs another test command")
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
            "dlopen", "getaddrinfo", "getpwuid", "getpwnam", "getpwuid_r", "getpwnam_r", "getgrgid_r", "getgrnam_r",
            "mktemp",
        ])
    func warningExplained(symbol: String) throws {
        let text = try String(
            contentsOf: Navdb.packageRoot.appendingPathComponent("docs/building.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.contains("`\(symbol)`") }
        #expect(rows.count == 1, "no table row of docs/building.md explains \(symbol)")
        #expect(rows.first?.contains("navdb") == true)
    }

    /// The tour's command lines, in order: every line of every ```sh block after the set-up, with
    /// backslash continuations joined, blank and comment-only lines left out, and the exit status
    /// each must give (`# exit N` in its comment, else 0).
    static func tourLines(_ text: String) -> [(line: String, status: Int32)] {
        let afterSetUp = text.components(separatedBy: "\n## ").dropFirst().joined(separator: "\n## ")
        var lines: [(String, Int32)] = []
        for block in afterSetUp.components(separatedBy: "```sh\n").dropFirst() {
            let body = block.components(separatedBy: "\n```").first ?? ""
            for line in body.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                var status: Int32 = 0
                if let range = trimmed.range(of: #"#\s*exit (\d+)"#, options: .regularExpression) {
                    status = Int32(trimmed[range].split(separator: " ").last ?? "") ?? -1
                }
                lines.append((String(line), status))
            }
        }
        return lines
    }

    @Test("the README's tour runs in order as written, each command with the exit status its comment gives")
    func tourRuns() throws {
        let lines = Self.tourLines(try Self.readme())
        #expect(lines.count >= 30)
        #expect(lines.contains { $0.status == 3 } && lines.contains { $0.status == 2 })
        let binary = try Navdb.binary()
        let temporary = try TemporaryDirectory(prefix: "navdb-readme-tour")
        // One script: each line, then a check of its status that names the line and stops.
        var script = "set -u\n"
        for (number, entry) in lines.enumerated() {
            // The tour puts the release build first on PATH; here the binary under test stands in.
            script +=
                entry.line.replacingOccurrences(
                    of: "$PWD/.build/release", with: binary.deletingLastPathComponent().path) + "\n"
            let quoted = entry.line.replacingOccurrences(of: "'", with: "'\\''")
            script +=
                "status=$?; if [ $status -ne \(entry.status) ]; then echo \"tour line \(number + 1) exited $status,"
            script += " not \(entry.status): '\(quoted)'\" >&2; exit 1; fi\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = Navdb.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["NAVDB_PATH"] = nil
        environment["NAVDB"] = binary.path  // the examples' binary
        environment["TMPDIR"] = temporary.path  // the tour's mktemp -d, removed with it
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = temporary.url.appendingPathComponent("output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(text.suffix(3_000))")
        // What the comments promise is what the commands print.
        #expect(text.contains("back button  ‹ Inbox"))
        #expect(text.contains("vetoed"))
        #expect(text.contains("[guard-bypassed]"))
        #expect(text.contains("navigation bar hidden"))
    }

    @Test("every document the README links to exists")
    func linksResolve() throws {
        let text = try Self.readme()
        let targets = text.components(separatedBy: "](").dropFirst().compactMap {
            $0.split(separator: ")", maxSplits: 1).first.map(String.init)
        }
        #expect(targets.count >= 10)
        for target in targets where !target.hasPrefix("http") && !target.hasPrefix("#") {
            let path = Navdb.packageRoot.appendingPathComponent(target).path
            #expect(FileManager.default.fileExists(atPath: path), "README links to missing \(target)")
        }
    }

    @Test("every line of the README's Swift snippet is a line of ReadmeLibraryTests, which runs it")
    func snippetIsTested() throws {
        let text = try Self.readme()
        let snippet =
            try #require(text.components(separatedBy: "```swift\n").dropFirst().first)
            .components(separatedBy: "\n```").first ?? ""
        let test = try String(
            contentsOf: Navdb.packageRoot.appendingPathComponent("Tests/navdbTests/ReadmeLibraryTests.swift"),
            encoding: .utf8)
        let testLines = Set(test.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let lines = snippet.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.count >= 10)
        for line in lines where !line.isEmpty {
            #expect(testLines.contains(line), "the README's line \(line) is not in ReadmeLibraryTests")
        }
    }
}
