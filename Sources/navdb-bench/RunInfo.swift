import CSQLite

/// What the report says about the machine and the run.
struct RunInfo: Codable, Sendable {
    var date: String
    var cpus: Int
    var cpuModel: String
    var memoryGiB: Double
    var sqliteVersion: String
    var swiftCompiler: String
    var mode: String
    var synchronous: String
    var seconds: Double

    static func current(mode: String, synchronous: String) -> RunInfo {
        var model = "unknown"
        if let cpuinfo = readSmallFile("/proc/cpuinfo"),
            let line = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters()
        }
        var memory = 0.0
        if let meminfo = readSmallFile("/proc/meminfo"),
            let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") })
        {
            memory = Double(line.filter(\.isNumber)).map { $0 / 1024 / 1024 } ?? 0
        }
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        let date = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return RunInfo(
            date: date, cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), cpuModel: model, memoryGiB: memory,
            sqliteVersion: String(cString: sqlite3_libversion()), swiftCompiler: swiftCompilerVersion,
            mode: mode, synchronous: synchronous, seconds: 0)
    }
}

/// The compiler that built the bench, as far as `#if compiler` tells.
let swiftCompilerVersion: String = {
    #if compiler(>=6.4)
        return ">= 6.4"
    #elseif compiler(>=6.3)
        return "6.3"
    #elseif compiler(>=6.2)
        return "6.2"
    #else
        return "< 6.2"
    #endif
}()
