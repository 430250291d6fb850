/// Runs `path` with `arguments` (not including argv[0]) as a whole process, stdin from /dev/null,
/// stdout to `stdoutPath` (default /dev/null) and stderr to /dev/null, and waits for it. The time
/// covers everything the caller of a CLI pays for: exec, dynamic linking, start-up, the work and exit.
func spawnAndWait(
    _ path: String, _ arguments: [String], stdoutPath: String = "/dev/null", stderrPath: String = "/dev/null"
) throws -> SpawnResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let start = monotonicNanoseconds()
    let code = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard code == 0 else {
        throw BenchError("cannot run \(path): \(String(cString: strerror(code)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 {
        if errno != EINTR { throw BenchError("wait4 failed: \(String(cString: strerror(errno)))") }
    }
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    func secs(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    let cpu = secs(usage.ru_utime) + secs(usage.ru_stime)
    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
    let exited = status & 0x7F == 0
    return SpawnResult(
        status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), seconds: seconds, cpuSeconds: cpu,
        peakKiB: Int(usage.ru_maxrss))
}

/// This executable's own path (`/proc/self/exe`), to find `navdb` beside it and to run itself as a child.
func currentExecutablePath() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if length > 0 { return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    return CommandLine.arguments[0]
}

/// `path` as the report prints it: relative to the package when it lies in a `.build` folder
/// (`.build/x86_64-unknown-linux-gnu/release/navdb`), else relative to the working directory when
/// it lies below it, else as given; a report never carries the machine's absolute paths.
func displayPath(_ path: String) -> String {
    if let build = path.firstRange(of: "/.build/") {
        return String(path[path.index(after: build.lowerBound)...])
    }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    if getcwd(&buffer, buffer.count) != nil {
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if path.hasPrefix(cwd + "/") { return String(path.dropFirst(cwd.count + 1)) }
    }
    return path
}

/// The folder part of `path` (`.` when it has none): where `navdb` sits beside this executable.
func directoryName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
}

/// Whether `path` names an executable file.
func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

/// The first executable called `name` on `$PATH`, or `nil`.
func findOnPath(_ name: String) -> String? {
    let pathVariable = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for dir in pathVariable.split(separator: ":") where isExecutable("\(dir)/\(name)") {
        return "\(dir)/\(name)"
    }
    return nil
}

/// The whole contents of a small text file (the child's result), or `nil`.
func readSmallFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
