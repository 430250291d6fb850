import Foundation
import Testing

/// `navdb --generate-completion-script bash|zsh|fish`, made from the command
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

    @Test("file names after -o and every option or argument whose value is a path; session keys after every key")
    func pathsAndKeys() throws {
        let sandbox = try Sandbox()
        try sandbox.ok(["session", "start", "mail"])
        for name in ["out.ndjson", "page.html", "stack.json"] {
            #expect(FileManager.default.createFile(atPath: sandbox.directory.appendingPathComponent(name).path, contents: nil))
        }
        for words in [
            ["navdb", "export", "mail", "-o", "ou"], ["navdb", "export", "-o", "ou"], ["navdb", "export", "--output", "ou"],
            ["navdb", "report", "mail", "-o", "ou"], ["navdb", "report", "--output=x", "-o", "ou"],
            ["navdb", "lint", "--input", "ou"], ["navdb", "import", "ou"], ["navdb", "import", "--format", "navdb", "ou"],
        ] {
            #expect(try complete(sandbox, words) == ["out.ndjson"], "\(words)")
        }
        #expect(try complete(sandbox, ["navdb", "set-stack", "mail", "--json-file", "st"]) == ["stack.json"])
        #expect(try complete(sandbox, ["navdb", "show", "mail", "--db", "pa"]) == ["page.html"])
        #expect(try complete(sandbox, ["navdb", "--db", "pa"]) == ["page.html"])
        // The value of -o is no positional argument: the key after it is still completed.
        #expect(try complete(sandbox, ["navdb", "export", "-o", "out.ndjson", "ma"]) == ["mail"])
        // Keys for every argument or option that names a session, also each word of a variadic one.
        #expect(try complete(sandbox, ["navdb", "follow", "mail", "ma"]) == ["mail"])
        #expect(try complete(sandbox, ["navdb", "lint", "mail", "ma"]) == ["mail"])
        #expect(try complete(sandbox, ["navdb", "import", "x", "--format", "uikit-trace", "--session", "ma"]) == ["mail"])
        // Free text offers nothing, not file names.
        #expect(try complete(sandbox, ["navdb", "push", "mail", "A", "--title", "ou"]) == [])
        #expect(try complete(sandbox, ["navdb", "show", "mail", "--bar-width", "ou"]) == [])

        let zsh = try sandbox.ok(["--generate-completion-script", "zsh"]).stdout
        #expect(
            zsh.contains(
                "'(--output -o)'{--output,-o}'[The file to write; without it the lines go to stdout.]:file:_files' \\"))
        #expect(zsh.contains("'--input[Lint an NDJSON export ('\\''navdb export'\\''), or - for stdin, with no database.]:file:_files'"))
        #expect(zsh.contains("'--json-file[The JSON file, or - for stdin.]:file:_files'"))
        #expect(zsh.contains("'*:key:_navdb_session_keys'"))
        #expect(zsh.contains("if [[ \"${words[CURRENT-1]}\" == --db ]]; then\n            _files"))
        let fish = try sandbox.ok(["--generate-completion-script", "fish"]).stdout
        #expect(fish.contains("complete -c navdb -n '__navdb_using export' -l output -s o -r -F -d "))
        #expect(fish.contains("complete -c navdb -n '__navdb_using lint' -l input -r -F -d "))
        #expect(fish.contains("complete -c navdb -n '__navdb_using import' -l session -x -a '(__navdb_session_keys)' -d "))
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
