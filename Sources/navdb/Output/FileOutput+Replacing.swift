extension FileOutput {
    /// What a command writes with `-o` and so what it may replace: a file of the same kind, which
    /// starts as every such file navdb writes does.
    struct Kind: Sendable {
        /// The command, as the refusal names it: `report`, `export`.
        var command: String
        /// What the file is, for the refusal: "an HTML page".
        var noun: String
        /// The plural, for the refusal: "pages".
        var plural: String
        /// The bytes every file of this kind starts with, compared ASCII-case-insensitively when
        /// `ignoringCase`.
        var marker: [UInt8]
        /// The marker as the refusal spells it.
        var markerText: String
        var ignoringCase: Bool

        /// A report's page: `<!DOCTYPE html` in any case.
        static let page = Kind(
            command: "report", noun: "an HTML page", plural: "pages", marker: Array("<!doctype html".utf8),
            markerText: "<!DOCTYPE html>", ignoringCase: true)
        /// An export: every line navdb has ever exported, 0.1.0's included, starts with its `at` key
        /// (keys are written in byte order), so the file starts `{"at":`.
        static let export = Kind(
            command: "export", noun: "an export", plural: "exports (NDJSON whose first line starts {\"at\":)",
            marker: Array("{\"at\":".utf8), markerText: "", ignoringCase: false)
    }

    /// Refuses a path whose file would be lost if `-o` replaced it: the database the command reads
    /// or one of SQLite's files beside it (`-wal`, `-shm`, `-journal`: replacing those loses the
    /// log), reached by any name (a link, `./`, a hard link), or an existing non-empty file that
    /// is not of `kind` (an export given to `report -o`, the database given to `export -o`). A
    /// missing file, an empty one, a file of `kind`, a device or a pipe passes.
    /// - Parameters:
    ///   - path: the output's path, as ``write(_:to:)`` will be given it.
    ///   - kind: what the command writes there.
    ///   - database: the SQLite file the command opened, or `nil` for a server database.
    /// - Throws: ``OutputFileError`` naming the path and what it is; nothing is written.
    static func requireReplaceable(_ path: String, by kind: Kind, notOver database: String?) throws(OutputFileError) {
        if let database, isDatabase(path, database) {
            throw OutputFileError(
                description:
                    "cannot write '\(path)': it is the database this \(kind.command) reads ('\(database)') or one of its files; name another file; nothing was written there"
            )
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: kind.marker.count)
        let count = read(fd, &head, head.count)
        let read = head.prefix(max(count, 0))
        let compared = kind.ignoringCase ? read.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 } : Array(read)
        guard compared != kind.marker else { return }
        let starting = kind.markerText.isEmpty ? "" : " (files starting with \(kind.markerText))"
        throw OutputFileError(
            description:
                "cannot write '\(path)': it is a file that is not \(kind.noun), and navdb replaces only \(kind.plural)\(starting); remove it or name another file; nothing was written there"
        )
    }

    /// Whether `path` names `database` or its `-wal`, `-shm` or `-journal`: by name once links are
    /// resolved, or as the same file (device and inode: a hard link).
    private static func isDatabase(_ path: String, _ database: String) -> Bool {
        if let target = canonical(path), let file = canonical(database),
            ["", "-wal", "-shm", "-journal"].contains(where: { file + $0 == target })
        {
            return true
        }
        var target = stat()
        guard stat(path, &target) == 0 else { return false }
        return ["", "-wal", "-shm", "-journal"].contains { suffix in
            var file = stat()
            return stat(database + suffix, &file) == 0 && file.st_dev == target.st_dev && file.st_ino == target.st_ino
        }
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
