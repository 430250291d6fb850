import NavStore
import NavStoreTools

/// A file that could not be written (exit 73, sysexits `EX_CANTCREAT`): nothing was written there.
struct OutputFileError: Error, CustomStringConvertible {
    var description: String
}

/// Writing files whole or not at all: the text goes to a temporary file in the same folder
/// (`.NAME.tmp-PID-N`, readable by its owner only, as titles can be personal data), is flushed
/// to disk, and is renamed over `path` only when every byte was written; on any failure the
/// temporary file is removed and `path` is untouched. A symbolic link at `path` is refused, not
/// written through (in a shared folder someone else's link would point the page at any file the
/// user can write), except a link to a device or pipe (`/dev/stdout` on a terminal or a pipe,
/// written in place as a shell redirection would) and a link to one of this process's open
/// descriptors (`/dev/stdout` redirected to a file: that file is replaced).
enum FileOutput {
    /// Writes `text` to `path` atomically.
    /// - Throws: ``OutputFileError`` naming the path and the system's reason.
    static func write(_ text: String, to given: String) throws(OutputFileError) {
        try write(parts: [text], to: given)
    }

    /// ``write(_:to:)`` of the text `parts` make one after the other, written part by part (a
    /// report's page in pieces, never joined in memory).
    static func write(parts texts: [String], to given: String) throws(OutputFileError) {
        var info = stat()
        if stat(given, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            // A device, a pipe or a socket (`/dev/stdout`, a FIFO): written in place, as a shell
            // redirection would; renaming a file over it would replace the device itself.
            guard (info.st_mode & S_IFMT) != S_IFDIR else {
                throw OutputFileError(description: "cannot write '\(given)': it is a folder")
            }
            return try writeInPlace(texts, to: given)
        }
        let path = try replaceable(given)
        let (folder, name) = parts(of: path)
        guard !name.isEmpty else {
            throw OutputFileError(description: "cannot write '\(path)': it names a folder, not a file")
        }
        removeAbandoned(folder: folder, name: name)
        counter += 1
        let temporary = (folder == "/" ? "" : folder) + "/." + name + ".tmp-\(getpid())-\(counter)"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(given, errno) }
        var failed: Int32 = 0
        for text in texts where failed == 0 { failed = writeAll(text, to: fd) }
        if failed == 0, fsync(fd) != 0 { failed = errno }
        if close(fd) != 0, failed == 0 { failed = errno }
        if failed == 0, rename(temporary, path) != 0 { failed = errno }
        if failed != 0 {
            unlink(temporary)
            throw failure(given, failed)
        }
    }

    /// Removes the temporary files that killed writes of `name` in `folder` left behind
    /// (`.NAME.tmp-PID-N` whose process is gone: `kill(PID, 0)` fails with `ESRCH`), as an import
    /// removes the copies killed imports left: a report holds titles, and a half-written copy
    /// must not outlive the write that made it. A file whose PID is a running process (the
    /// writer itself, or another process that reused the number) is left alone. The folder is
    /// read once per process (``abandonedCopies(in:)``): `report -o FOLDER` writes a page per
    /// session there, and a scan per page would read the folder once per session.
    static func removeAbandoned(folder: String, name: String) {
        if abandoned[folder] == nil { abandoned[folder] = abandonedCopies(in: folder) }
        for path in abandoned[folder]?.removeValue(forKey: Array(name.utf8)) ?? [] { unlink(path) }
    }

    /// The abandoned temporary copies found in each folder read so far, by the name of the file
    /// they were written for (its UTF-8 bytes: a name is compared as the file system compares it,
    /// never as Unicode-equivalent text).
    nonisolated(unsafe) private static var abandoned: [String: [[UInt8]: [String]]] = [:]

    /// The `.NAME.tmp-PID-N` files in `folder` whose process is gone, by `NAME`.
    private static func abandonedCopies(in folder: String) -> [[UInt8]: [String]] {
        guard let directory = opendir(folder) else { return [:] }
        defer { closedir(directory) }
        let marker = Array(".tmp-".utf8)
        var found: [[UInt8]: [String]] = [:]
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard entryName.first == UInt8(ascii: "."),
                let at = entryName.indices.last(where: { entryName[$0...].starts(with: marker) }), at > 1
            else { continue }
            // PID-N: two runs of digits.
            let rest = entryName[(at + marker.count)...].split(
                separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
            guard rest.count == 2,
                rest.allSatisfy({ !$0.isEmpty && $0.count <= 10 && $0.allSatisfy { (48...57).contains($0) } }),
                let pid = Int32(String(decoding: rest[0], as: UTF8.self)), pid > 0, pid != getpid(),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            found[Array(entryName[1..<at]), default: []].append(
                (folder == "/" ? "" : folder) + "/" + String(decoding: entryName, as: UTF8.self))
        }
        return found
    }

    /// The path whose file a write replaces: `given`, or for a link to one of this process's
    /// open descriptors (`/dev/stdout`, `/dev/fd/1`), the file the descriptor is open on.
    /// - Throws: ``OutputFileError`` for any other symbolic link, naming it and its target.
    static func replaceable(_ given: String) throws(OutputFileError) -> String {
        let chain = Connection.linkChain(given)
        guard chain.count > 1 else { return given }
        if chain.dropLast().contains(where: isDescriptorLink) { return chain[chain.count - 1] }
        throw OutputFileError(
            description:
                "cannot write '\(given)': it is a symbolic link (to '\(chain[1])'), and navdb does not write through a link: name the file itself, or remove the link; nothing was written there"
        )
    }

    /// Whether `link` is an entry of this process's descriptor folder (`/proc/self/fd`, also
    /// reached as `/dev/fd`).
    private static func isDescriptorLink(_ link: String) -> Bool {
        let folder = link.lastIndex(of: "/").map { String(link[..<$0]) } ?? "."
        guard let real = realpath(folder, nil) else { return false }
        defer { free(real) }
        return String(cString: real) == "/proc/\(getpid())/fd"
    }

    /// Writes `text` into an existing file that is not a regular file (a device or a pipe).
    private static func writeInPlace(_ parts: [String], to path: String) throws(OutputFileError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, errno) }
        var failed: Int32 = 0
        for text in parts where failed == 0 { failed = writeAll(text, to: fd) }
        if close(fd) != 0, failed == 0 { failed = errno }
        if failed != 0 {
            throw OutputFileError(
                description:
                    "cannot write '\(path)': \(String(cString: strerror(failed))); what was written there is incomplete"
            )
        }
    }

    /// Writes every byte of `text` to `fd`; returns 0, or the `errno` of the write that failed.
    private static func writeAll(_ text: String, to fd: Int32) -> Int32 {
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
        return failed
    }

    /// Makes sure `path` is a folder, creating it (owner only) when it does not exist.
    /// - Throws: ``OutputFileError`` when it is a file or cannot be created.
    static func ensureFolder(_ path: String) throws(OutputFileError) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw OutputFileError(
                    description:
                        "cannot write into '\(path)': it is a file, and without a <key> '-o' names a folder for index.html and one page per session"
                )
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

    /// `path`'s folder (`.` for a bare name, `/` at the root) and its last part (empty for a path
    /// ending in `/`).
    static func parts(of path: String) -> (folder: String, name: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        return (folder, slash.map { String(path[path.index(after: $0)...]) } ?? path)
    }

    private static func failure(_ path: String, _ code: Int32) -> OutputFileError {
        OutputFileError(
            description: "cannot write '\(path)': \(String(cString: strerror(code))); nothing was written there")
    }
}

/// `write(2)` (the name is taken by ``FileOutput/write(_:to:)`` inside the enum).
private func posixWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
