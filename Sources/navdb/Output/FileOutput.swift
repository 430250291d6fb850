#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that could not be written (exit 74, as an unusable database: sysexits `EX_IOERR`).
struct OutputFileError: Error, CustomStringConvertible {
    var description: String
}

/// Writing files whole or not at all: the text goes to a temporary file in the same folder
/// (`.NAME.tmp-PID-N`, readable by its owner only, as titles can be personal data), is flushed
/// to disk, and is renamed over `path` only when every byte was written; on any failure the
/// temporary file is removed and `path` is untouched.
enum FileOutput {
    /// Writes `text` to `path` atomically.
    /// - Throws: ``OutputFileError`` naming the path and the system's reason.
    static func write(_ text: String, to path: String) throws(OutputFileError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else {
            throw OutputFileError(description: "cannot write '\(path)': it names a folder, not a file")
        }
        counter += 1
        let temporary = (folder == "/" ? "" : folder) + "/." + name + ".tmp-\(getpid())-\(counter)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path, errno) }
        var failed: Int32 = 0
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = posixWrite(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = errno
                    return
                }
                offset += written
            }
        }
        if failed == 0, fsync(fd) != 0 { failed = errno }
        if close(fd) != 0, failed == 0 { failed = errno }
        if failed == 0, rename(temporary, path) != 0 { failed = errno }
        if failed != 0 {
            unlink(temporary)
            throw failure(path, failed)
        }
    }

    /// Makes sure `path` is a folder, creating it (owner only) when it does not exist.
    /// - Throws: ``OutputFileError`` when it is a file or cannot be created.
    static func ensureFolder(_ path: String) throws(OutputFileError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw OutputFileError(description: "cannot write into '\(path)': it is a file, and without a <key> '-o' names a folder for index.html and one page per session")
            }
            return
        }
        if mkdir(path, 0o700) != 0 { throw failure(path, errno) }
    }

    /// Whether `path` is an existing folder.
    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    nonisolated(unsafe) private static var counter = 0

    private static func failure(_ path: String, _ code: Int32) -> OutputFileError {
        OutputFileError(description: "cannot write '\(path)': \(String(cString: strerror(code))); nothing was written there")
    }
}

/// `write(2)` (the name is taken by ``FileOutput/write(_:to:)`` inside the enum).
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
