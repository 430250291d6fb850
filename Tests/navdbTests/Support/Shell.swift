import Foundation

/// Runs `script` with `/bin/sh -c` in the sandbox's folder, with `$NAVDB` (the built binary) and
/// `$DB` (the sandbox's database: its file or PostgreSQL URI) set and `$NAVDB_PATH` unset; stdout is discarded unless the
/// script redirects it. For tests of what only a shell can arrange: closed or full outputs,
/// umasks, symbolic links.
/// - Returns: the exit status and what the script wrote to stderr.
func shell(_ sandbox: Sandbox, _ script: String) throws -> (status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = sandbox.directory
    var environment = ProcessInfo.processInfo.environment
    environment["NAVDB"] = try Navdb.binary().path
    environment["DB"] = sandbox.databaseArgument
    environment["NAVDB_PATH"] = nil
    process.environment = environment
    let errURL = sandbox.directory.appendingPathComponent(".shell-stderr-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errURL) }
    process.standardError = try FileHandle(forWritingTo: errURL)
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
}
