/// A fresh directory under `$TMPDIR` (or `/tmp`) for one measurement, removed with its contents
/// by ``remove()``.
final class TempDirectory {
    /// The directory's path, without a trailing slash.
    let path: String

    /// Creates `navdb-bench-<label>-XXXXXX` with `mkdtemp`.
    init(_ label: String) throws {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/navdb-bench-\(label)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("cannot create a temporary directory under \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    /// `path/name`.
    func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Removes the directory and every file in it (the bench creates no subdirectories).
    func remove() {
        guard let dir = opendir(path) else { return }
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            unlink(file(name))
        }
        closedir(dir)
        rmdir(path)
    }

    /// Runs `body` with a fresh directory and removes it afterwards, whatever happens.
    static func with<R>(_ label: String, _ body: (TempDirectory) throws -> R) throws -> R {
        let dir = try TempDirectory(label)
        defer { dir.remove() }
        return try body(dir)
    }
}

/// An error of the bench itself, with a message for stderr.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The size of the file at `path` in bytes, or 0 when it does not exist.
func fileSize(_ path: String) -> Int64 {
    var info = stat()
    return stat(path, &info) == 0 ? Int64(info.st_size) : 0
}
