/// The temporary database an import into a missing file is built in
/// (``NavigationStore/importNDJSON(into:lines:options:progress:)``,
/// ``NavigationStore/importFirefoxSession(into:data:at:options:)``): `<file>.importing-<random>`
/// in the same folder, with SQLite's `-wal` and `-shm` beside it while it is open. They hold the
/// imported events (titles, ids, params) until the import links the file into place and removes
/// them. An import that is killed (SIGKILL, power loss) cannot remove them, so the next import
/// into the same file removes those that no process has open any more: a deleted session's
/// titles must not live on in a forgotten copy.
package enum ImportTemporaryFiles {
    /// What separates the database's file name from the random part.
    package static let infix = ".importing-"

    /// A temporary database's own name and its companions: SQLite's write-ahead log and
    /// shared-memory index, and the rollback journal of its creation (under a name of its own,
    /// `<temporary>.creating-<random>`, until it is complete).
    private static let suffixes = ["", "-wal", "-shm", "-journal"]

    /// The temporary names this process is building now: never taken for abandoned, as the
    /// lock probe cannot see this process's own locks (POSIX record locks are per process).
    private static let building = Lock<[String]>([])

    /// A new temporary name beside `target`, marked as being built until ``end(_:)``.
    package static func begin(for target: String) -> String {
        let name = target + infix + String(UInt64.random(in: 0 ... .max), radix: 36)
        building.withLock { $0.append(name) }
        return name
    }

    /// Removes `temporary` and its `-wal`, `-shm` and `-journal`, and forgets it.
    package static func end(_ temporary: String) {
        for suffix in suffixes { unlink(temporary + suffix) }
        building.withLock { names in names.removeAll { $0.utf8.elementsEqual(temporary.utf8) } }
    }

    /// Removes the temporary files that killed imports into `target` left behind: each
    /// `<target>.importing-<random>` database (an SQLite file, with its `-wal`, `-shm` and
    /// `-journal`) that no connection has open.
    ///
    /// A connection holds a read lock on the deadman-switch byte of the `-shm` file (offset 128,
    /// `UNIX_SHM_DMS` in SQLite's os_unix.c) for as long as it is open, so a `-shm` whose byte
    /// nobody holds belongs to no running import; a database without a `-shm` was closed, or
    /// killed before its first transaction. Either is taken for abandoned once its files have not
    /// changed for ``quietSeconds``. Names this process is building are skipped.
    /// - Parameter target: the database file the imports were for (through a symbolic link to
    ///   an existing file, the file it names: `realpath(3)`).
    /// - Returns: the temporary databases removed (their paths), in directory order.
    @discardableResult
    package static func removeAbandoned(besides target: String) -> [String] {
        let (folder, prefix) = split(resolved(target))
        let ours = building.withLock { $0 }
        var removed: [String] = []
        for base in candidates(in: folder, prefix: prefix) {
            let path = folder.map { $0 + "/" + base } ?? base
            guard !ours.contains(where: { $0.utf8.elementsEqual(path.utf8) }), isAbandoned(path) else { continue }
            for suffix in suffixes { unlink(path + suffix) }
            removed.append(path)
        }
        return removed
    }

    /// `path` with its symbolic links resolved, or as given when it cannot be (a missing file).
    private static func resolved(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The folder (`nil`: the current one) and the temporary names' common start.
    private static func split(_ target: String) -> (folder: String?, prefix: String) {
        guard let slash = target.lastIndex(of: "/") else { return (nil, target + infix) }
        let folder = String(target[..<slash])
        return (folder.isEmpty ? "/" : folder, String(target[target.index(after: slash)...]) + infix)
    }

    /// The temporary databases' names in `folder`: each `<prefix><random>` or
    /// `<prefix><random>.creating-<random>` (the names ``begin(for:)`` and the atomic creation
    /// give, `<random>` in base 36) whose file begins with SQLite's header, each once, a `-wal`,
    /// `-shm` or `-journal` counting for its database. Names are compared by their bytes, so a
    /// file whose name only looks the same (another Unicode normalization) is not taken, and a
    /// file of the user's that merely starts with the prefix is never one.
    private static func candidates(in folder: String?, prefix: String) -> [String] {
        guard let directory = opendir(folder ?? ".") else { return [] }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            var name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name.starts(with: prefix.utf8) else { continue }
            for suffix in suffixes.dropFirst()
            where name.count > suffix.utf8.count && name.suffix(suffix.utf8.count).elementsEqual(suffix.utf8) {
                name.removeLast(suffix.utf8.count)
            }
            if isTemporaryName(name.dropFirst(prefix.utf8.count)), !names.contains(name) { names.append(name) }
        }
        return names.map { String(decoding: $0, as: UTF8.self) }.filter { base in
            hasSQLiteHeader(folder.map { $0 + "/" + base } ?? base)
        }
    }

    /// Whether `rest` (a name after the prefix) is `<random>` or `<random>.creating-<random>`.
    private static func isTemporaryName(_ rest: ArraySlice<UInt8>) -> Bool {
        func isRandom(_ part: some Collection<UInt8>) -> Bool {
            (1...13).contains(part.count)
                && part.allSatisfy {
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                }
        }
        let creating = Array(".creating-".utf8)
        guard let dot = rest.firstIndex(of: UInt8(ascii: ".")) else { return isRandom(rest) }
        return isRandom(rest[..<dot]) && rest[dot...].starts(with: creating)
            && isRandom(rest[(dot + creating.count)...])
    }

    /// Whether the file at `path` begins with `SQLite format 3\0`
    /// (https://sqlite.org/fileformat2.html#the_database_header).
    private static func hasSQLiteHeader(_ path: String) -> Bool {
        let file = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard file >= 0 else { return false }
        defer { close(file) }
        var header = [UInt8](repeating: 0, count: 16)
        guard read(file, &header, 16) == 16 else { return false }
        return header.elementsEqual(Array("SQLite format 3".utf8) + [0])
    }

    /// How long, in seconds, a temporary database's files must have been left unchanged before
    /// it counts as abandoned: a connection opening the `-shm` holds no lock on it for a moment
    /// (os_unix.c opens the file, then locks its deadman-switch byte), and an import closes its
    /// database just before linking it into place; a running import is never that long in either.
    package static let quietSeconds = 30

    /// Whether no process has the temporary database at `path` open (see ``removeAbandoned(besides:)``):
    /// no connection holds its `-shm`, and none of its files changed for ``quietSeconds``.
    private static func isAbandoned(_ path: String) -> Bool {
        if isHeld(path + "-shm") { return false }
        var newest: Int?
        for suffix in suffixes {
            var info = stat()
            guard stat(path + suffix, &info) == 0 else { continue }
            #if canImport(Darwin)
                let modified = Int(info.st_mtimespec.tv_sec)
            #else
                let modified = Int(info.st_mtim.tv_sec)
            #endif
            newest = max(newest ?? modified, modified)
        }
        guard let newest else { return true }
        return time(nil) - newest >= quietSeconds
    }

    /// Whether a connection holds the `-shm` file at `path`: a read lock on its deadman-switch
    /// byte (offset 128, `UNIX_SHM_DMS` in os_unix.c), which every connection keeps while open.
    /// `false` when there is no such file; `true` when it cannot be looked at.
    private static func isHeld(_ path: String) -> Bool {
        let shm = open(path, O_RDONLY | O_CLOEXEC)
        // One that cannot be opened to look (another user's, mode 0600) counts as held.
        guard shm >= 0 else { return errno != ENOENT }
        defer { close(shm) }
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = 128
        probe.l_len = 1
        guard fcntl(shm, F_GETLK, &probe) == 0 else { return true }
        return probe.l_type != Int16(F_UNLCK)
    }
}
