import Foundation
import Testing

/// Issue 11 item 9: `navdb --generate-completion-script bash|zsh|fish`, made from the command
/// specs the help is made from; the bash script is run on partial command lines.
@Suite struct CompletionTests {
    /// Runs bash completion for `words` (the cursor on the last word) and returns the candidates.
    func complete(_ sandbox: Sandbox, _ words: [String]) throws -> [String] {
        let binary = try Navdb.binary().deletingLastPathComponent().path
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let script = """
            export PATH='\(binary)':"$PATH"
            source <(navdb --generate-completion-script bash)
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _navdb; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = sandbox.directory
        var environment = ProcessInfo.processInfo.environment
        environment["NAVDB_PATH"] = nil
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("bash completion on partial command lines")
    func bash() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "mail"])
        try sandbox.ok(["session", "start", "maps"])
        #expect(try complete(sandbox, ["navdb", "pu"]) == ["push"])
        #expect(try complete(sandbox, ["navdb", "pop"]) == ["pop", "pop-to", "pop-to-root"])
        #expect(try complete(sandbox, ["navdb", "session", ""]) == ["start", "delete", "truncate"])
        #expect(
            try complete(sandbox, ["navdb", "pop", "mail", "--source", ""]) == [
                "back-button", "gesture", "content-gesture", "programmatic",
            ])
        #expect(try complete(sandbox, ["navdb", "dismiss", "mail", "--source", ""]) == ["gesture", "programmatic"])
        #expect(try complete(sandbox, ["navdb", "pop", "mail", "--c"]) == ["--confirm", "--cancelled"])
        #expect(
            try complete(sandbox, ["navdb", "update-layer", "mail", "--n"]) == [
                "--navigation-bar-hidden", "--navigation-bar-shown", "--no-modal-in-presentation",
            ])
        #expect(try complete(sandbox, ["navdb", "update-l"]) == ["update-layer"])
        #expect(try complete(sandbox, ["navdb", "push", "mail", "A", "--display-mode", "m"]) == ["minimal"])
        #expect(
            try complete(sandbox, ["navdb", "history", "mail", "--type", "entr"]) == ["entry.pushed", "entries.popped"])
        #expect(
            try complete(sandbox, ["navdb", "--json", "show", "ma"]) == ["mail", "maps"],
            "session keys from the database")
        #expect(try complete(sandbox, ["navdb", "push", "mail", "A", ""]) == [], "an entry id is the user's to choose")
        #expect(try complete(sandbox, ["navdb", "--generate-completion-script", ""]) == ["bash", "zsh", "fish"])
    }

    @Test("every command and option of the help is in each script", arguments: ["bash", "zsh", "fish"])
    func everyCommand(shell: String) throws {
        let sandbox = try Sandbox()
        let script = try sandbox.ok(["--generate-completion-script", shell]).stdout
        let help = try sandbox.ok(["--help"]).stdout
        let section = try #require(help.components(separatedBy: "SUBCOMMANDS:\n").last)
        let names = section.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), !line.hasPrefix("  See") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        #expect(names.count >= 20)
        for name in names { #expect(script.contains(name), "\(shell): \(name)") }
        for option in [
            "--pop-guard", "--back-button-title", "--expect-version", "--modal-in-presentation", "--reverse",
        ] {
            #expect(script.contains(option.dropFirst(2)), "\(shell): \(option)")
        }
        #expect(try sandbox.ok(["--generate-completion-script=\(shell)"]).stdout == script)
    }

    @Test("an unknown shell is a usage error")
    func unknownShell() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--generate-completion-script", "powershell"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "Error: The value 'powershell' is invalid for '--generate-completion-script <shell>': expected one of bash, zsh, fish"
            ))
        #expect(try sandbox.run(["--generate-completion-script"]).status == 64)
    }
}
