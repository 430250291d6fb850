import Foundation
import Testing

/// The README's build (`scripts/build-release.sh`) prints no linker warnings about
/// glibc functions in a static executable, and drops those alone: every other line goes through.
@Suite struct BuildScriptTests {
    /// The end of glibc's warning for `function`, as the linker prints it.
    static func staticWarning(_ function: String) -> String {
        "warning: Using '\(function)' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking"
    }

    /// Runs the filter on `input`; returns its stdout and exit status.
    func filter(_ input: String) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Navdb.packageRoot.appendingPathComponent("scripts/drop-static-glibc-warnings.sh").path]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }

    @Test("the build drops exactly glibc's static-link warnings of the functions docs/building.md explains")
    func dropsKnownWarningsOnly() throws {
        let known = [
            "/lib/x86_64-linux-gnu/libsqlite3.a(os_unix.o):function unixDlOpen: " + Self.staticWarning("dlopen"),
            "Sources/NavStorePostgreSQL/LibPQ.swift:64: " + Self.staticWarning("dlopen"),
            "/opt/swift/usr/lib/swift_static/linux/libFoundation.a(Host.swift.o):AffineTransform.swift.o:function $s10Foundation4HostC8_resolveyyF: "
                + Self.staticWarning("getaddrinfo"),
            "libCoreFoundation.a(CFPlatform.c.o):CFPlatform.c:function CFCopyUserName: " + Self.staticWarning("getpwuid"),
            "libCoreFoundation.a(CFPlatform.c.o):CFPlatform.c:function _CFCopyHomeDirURLForUser: "
                + Self.staticWarning("getpwnam"),
        ] + ["getpwuid_r", "getpwnam_r", "getgrgid_r", "getgrnam_r"].map { "x.a(y.o):function f: " + Self.staticWarning($0) }
        let kept = [
            "Building for production...", "[18/20] Linking navdb",
            "x.a(y.o):function f: " + Self.staticWarning("gethostbyname"),
            "x.a(y.o):function f: " + Self.staticWarning("dlopen") + " (and more)",
            "libFoundationEssentials.a(Data+Writing.swift.o):function f: warning: the use of `mktemp' is dangerous, better use `mkstemp' or `mkdtemp'",
            "Sources/navdb/main.swift:3:5: warning: variable 'x' was never used",
            "error: link command failed with exit code 1",
            "Build complete! (65.60s)",
        ]
        var lines: [String] = []
        for (index, line) in kept.enumerated() {
            lines.append(line)
            if index < known.count { lines.append(known[index]) }
        }
        lines += known.dropFirst(kept.count)
        let result = try filter(lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        #expect(result.output == kept.joined(separator: "\n") + "\n", "\(result.output)")
        // Each function dropped is one docs/building.md explains (ReadmeTests checks the table).
        let docs = try String(
            contentsOf: Navdb.packageRoot.appendingPathComponent("docs/building.md"), encoding: .utf8)
        for function in ["dlopen", "getaddrinfo", "getpwuid", "getpwnam", "getpwuid_r", "getpwnam_r", "getgrgid_r", "getgrnam_r"] {
            #expect(docs.contains("`\(function)`"), "\(function)")
        }
    }

    @Test("build-release.sh pipes swift build's output through the filter and keeps its exit status")
    func releaseScriptFilters() throws {
        let script = try String(
            contentsOf: Navdb.packageRoot.appendingPathComponent("scripts/build-release.sh"), encoding: .utf8)
        #expect(script.contains("set -euo pipefail"))
        #expect(script.contains("\"$@\" | scripts/drop-static-glibc-warnings.sh\n"))
        #expect(!script.contains("2>&1"), "stderr is not filtered")
    }
}
