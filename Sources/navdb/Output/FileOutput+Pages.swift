#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileOutput {
    /// Refuses a page's path that would replace something that is not a page: the database the
    /// command reads or one of SQLite's files beside it (`-wal`, `-shm`, `-journal`: replacing
    /// those loses the log), or an existing non-empty file that does not start as an HTML page
    /// (`<!DOCTYPE html`, as every page navdb writes does), such as an export given by mistake.
    /// A missing file, an empty one, a device or a pipe passes.
    /// - Parameters:
    ///   - path: the page's path, as ``write(_:to:)`` will be given it.
    ///   - database: the SQLite file the command opened, or `nil` for a server database.
    /// - Throws: ``OutputFileError`` naming the path and what it is; nothing is written.
    static func requirePage(_ path: String, notOver database: String?) throws(OutputFileError) {
        if let database, let target = canonical(path), let file = canonical(database),
            ["", "-wal", "-shm", "-journal"].contains(where: { file + $0 == target })
        {
            throw OutputFileError(
                description:
                    "cannot write '\(path)': it is the database this report reads ('\(database)') or one of its files; name another file; nothing was written there"
            )
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return }
        let marker = Array("<!doctype html".utf8)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: marker.count)
        let count = read(fd, &head, head.count)
        let lowered = head.prefix(max(count, 0)).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        guard lowered != marker else { return }
        throw OutputFileError(
            description:
                "cannot write '\(path)': it is a file that is not an HTML page, and navdb replaces only pages (files starting with <!DOCTYPE html>); remove it or name another file; nothing was written there"
        )
    }

    /// The absolute path of `path` with its folder's links resolved (the last part kept as
    /// written, so a file that does not exist yet has one too), or `nil` when the folder does not
    /// exist. A link as the last part is resolved too, so a link to the database is the database.
    private static func canonical(_ path: String) -> String? {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let (folder, name) = parts(of: path)
        guard let real = realpath(folder, nil) else { return nil }
        defer { free(real) }
        let base = String(cString: real)
        return (base == "/" ? "" : base) + "/" + name
    }
}
