/// Opening an SQLite file as a store: what SQLite alone needs (the file's kind, its header, an
/// atomic creation, the connection's settings, migrations), before ``StoreCore`` talks to it
/// through ``DatabaseConnection``.
package enum SQLiteStoreFile {
    /// Opens the file and brings it to the current schema, refusing foreign or newer files before
    /// anything is written (https://sqlite.org/pragma.html#pragma_application_id).
    /// - Returns: the connection, whether it is read-only, and the schema version the file had
    ///   when this opening migrated it (`nil`: it was current, or new).
    static func open(path: String, create: Bool, options: StoreOptions) throws -> (
        Connection, readOnly: Bool, upgradedFrom: Int32?
    ) {
        var kind = fileKind(path)
        if kind == .missing && !create { throw StoreError.databaseNotFound(path: path) }
        // A symbolic link to a missing file: the new database is made at the link's target.
        if kind == .missing, path != ":memory:", !path.isEmpty,
            try createAtomically(path: Connection.danglingLinkTarget(path) ?? path, options: options)
        {
            kind = fileKind(path)
        }
        let existed = kind != .missing
        if kind == .directory { throw StoreError.cannotOpen(path: path, reason: "it is a directory") }
        if case .special(let what) = kind {
            throw StoreError.notANavdbFile(path: path, reason: "it is \(what), not a database file")
        }
        if kind == .emptyFile { throw StoreError.notANavdbFile(path: path, reason: "the file is empty (0 bytes)") }
        if kind == .file { try identify(path: path) }
        var (db, readOnly) = try connect(path: path, existed: existed)
        try db.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
        let check: SchemaCheck
        do {
            check = try schemaCheck(db)
        } catch {
            guard existed, [.cantOpen, .readOnly].contains((error as? SQLiteError)?.resultCode),
                fileKind(path + "-wal") == .missing
            else { throw error }
            // A WAL database in a directory we cannot write: SQLite cannot create the -wal and
            // -shm files that even a reader needs. With no -wal file, the file alone holds every
            // committed transaction, and nobody can be writing it (a writer needs that -wal), so
            // it is read as immutable: reads work, writes fail as read-only.
            db = try Connection(path: path, mode: .readOnlyImmutable)
            readOnly = true
            check = try schemaCheck(db)
        }
        try prepare(db, check: check, path: path, existed: existed, readOnly: readOnly, options: options)
        if case .needsMigration(let from) = check { return (db, readOnly, from) }
        return (db, readOnly, nil)
    }

    /// A connection to `path`: read-write (creating the file when it did not exist), or read-only
    /// when the file or its directory forbids writing.
    private static func connect(path: String, existed: Bool) throws(SQLiteError) -> (Connection, readOnly: Bool) {
        do {
            return (try Connection(path: path, mode: existed ? .readWrite : .readWriteCreate), false)
        } catch {
            guard existed, [.readOnly, .cantOpen].contains(error.resultCode) else { throw error }
            return (try Connection(path: path, mode: .readOnly), true)
        }
    }

    /// What the file holds: ``SchemaCheck/current`` from one read of the header pragmas (the
    /// case of every opening but the first), else the full ``Migrator/inspect(_:)``.
    private static func schemaCheck(_ db: Connection) throws -> SchemaCheck {
        let migrator = Migrator.embedded
        return try migrator.isCurrent(db) ? .current : try migrator.inspect(db)
    }

    /// Refuses a file `check` says is not ours, or migrates and configures it.
    private static func prepare(
        _ db: Connection, check: SchemaCheck, path: String, existed: Bool, readOnly: Bool, options: StoreOptions
    ) throws {
        switch check {
        case .notADatabase:
            throw StoreError.notANavdbFile(path: path, reason: "not an SQLite database")
        case .foreign(let applicationID):
            throw StoreError.notANavdbFile(
                path: path,
                reason: applicationID == 0
                    ? "an SQLite database of another application (a schema written without NavStore's application_id)"
                    : "an SQLite database of another application (application_id \(applicationID))")
        case .newer(let version):
            throw StoreError.newerSchema(
                path: path, found: Int(version), supported: Int(Migrator.embedded.currentVersion))
        case .empty:
            if existed {
                throw StoreError.notANavdbFile(
                    path: path, reason: "an empty SQLite database without the NavStore schema")
            }
            // Migrate before switching to WAL, so that a process killed in between leaves either
            // a file we created and never wrote (0 bytes) or a complete schema.
            try Migrator.embedded.migrate(db)
            try configure(db, options: options, temporary: path.isEmpty)
        case .needsMigration(let from):
            // An older file is read only once migrated; one that cannot be written stays as it was.
            let refusal = StoreError.cannotOpen(
                path: path,
                reason:
                    "it has schema \(from) and must be upgraded to schema \(Migrator.embedded.currentVersion) before it can be read, which needs write access to the file and its folder (upgrade a writable copy); the file was not changed"
            )
            if readOnly { throw refusal }
            do {
                try configure(db, options: options)
                try Migrator.embedded.migrate(db)
            } catch let error as SQLiteError where error.resultCode == .readOnly {
                throw refusal
            }
        case .current:
            if !readOnly { try configure(db, options: options) }
        }
    }

    /// What is at a path, from one `stat(2)` (FileManager's attributes also read the user and
    /// group databases, a measurable part of a one-shot append process).
    private enum FileKind: Equatable {
        case missing, directory, emptyFile, file
        /// Not a regular file: a FIFO, a device (`/dev/null`), a socket; the text says which.
        case special(String)
    }

    private static func fileKind(_ path: String) -> FileKind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFIFO: return .special("a FIFO (named pipe)")
        case S_IFCHR: return .special("a character device")
        case S_IFBLK: return .special("a block device")
        case S_IFSOCK: return .special("a socket")
        default: return info.st_size == 0 ? .emptyFile : .file
        }
    }

    /// Reads the 100-byte header of an existing file and refuses it unless it is a NavStore
    /// database of a schema this NavStore knows, before SQLite opens it: opening a WAL database
    /// recovers its `-wal`, and closing it checkpoints and deletes the `-wal` and `-shm`, which
    /// must never happen to another application's file. The header's fields are at fixed
    /// offsets (https://sqlite.org/fileformat2.html#the_database_header): the magic string at 0,
    /// the schema cookie at 40, `user_version` at 60 and `application_id` at 68, big-endian.
    /// A NavStore file has its `application_id` in the file itself from its creation on (the
    /// schema is written before WAL mode is turned on, or checkpointed before the file appears).
    /// - Throws: ``StoreError/notANavdbFile(path:reason:)`` or ``StoreError/newerSchema(path:found:supported:)``.
    private static func identify(path: String) throws {
        let fd = openForReading(path)
        // Unreadable: left to SQLite, which says why (permissions...).
        guard fd >= 0 else { return }
        var header = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < header.count {
            let got = header.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, 100 - count) }
            if got < 0, errno == EINTR { continue }
            if got <= 0 { break }
            count += got
        }
        close(fd)
        guard count == 100, header.prefix(16).elementsEqual(Array("SQLite format 3".utf8) + [0]) else {
            throw StoreError.notANavdbFile(path: path, reason: "not an SQLite database")
        }
        func field(_ offset: Int) -> Int32 {
            Int32(bitPattern: header[offset..<(offset + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        let applicationID = field(68)
        if applicationID == Migrator.applicationID {
            let version = field(60)
            if version > Migrator.embedded.currentVersion {
                throw StoreError.newerSchema(
                    path: path, found: Int(version), supported: Int(Migrator.embedded.currentVersion))
            }
            return
        }
        if applicationID != 0 {
            throw StoreError.notANavdbFile(
                path: path, reason: "an SQLite database of another application (application_id \(applicationID))")
        }
        var wal = stat()
        let pendingWAL = stat(path + "-wal", &wal) == 0 && wal.st_size > 0
        throw StoreError.notANavdbFile(
            path: path,
            reason: field(40) != 0
                ? "an SQLite database of another application (a schema written without NavStore's application_id)"
                : pendingWAL
                    ? "an SQLite database of another application (no NavStore application_id; its -wal holds changes not yet in the file)"
                    : "an empty SQLite database without the NavStore schema")
    }

    /// Creates a new database at `path` without ever showing an unfinished file there: it is
    /// built under a temporary name in the same directory (WAL mode, migrated, checkpointed),
    /// then hard-linked to `path` (`link(2)` fails when `path` exists). A process racing to
    /// create the same file, and the next run after a crash during creation, thus find either no
    /// file or a complete NavStore database, never an empty file that ``open(path:create:options:)``
    /// must refuse as someone else's.
    /// - Returns: `true` when `path` now holds a file (ours, or one a racing process created
    ///   first); `false` when this way is not available (the temporary file cannot be created, or
    ///   the file system has no hard links): the caller then creates `path` in place.
    /// - Throws: what configuring or migrating the new file throws (a full disk...); the
    ///   temporary files are removed.
    private static func createAtomically(path: String, options: StoreOptions) throws -> Bool {
        let temporary = path + ".creating-" + String(UInt64.random(in: 0 ... .max), radix: 36)
        let db: Connection
        do { db = try Connection(path: temporary, mode: .readWriteCreate) } catch { return false }
        defer { for suffix in ["", "-wal", "-shm"] { unlink(temporary + suffix) } }
        do {
            // Migrated in the rollback-journal mode a new file starts in, then switched to WAL:
            // each migration's journal is deleted when it commits, where a WAL would hold every
            // migration's pages until the checkpoint (the peak size matters on a nearly full disk).
            try Migrator.embedded.migrate(db)
            try configure(db, options: options)
            // Everything into the file itself: the -wal is named after the temporary path.
            try db.checkpoint(mode: .truncate)
        } catch {
            db.close()
            throw error
        }
        db.close()
        return link(temporary, path) == 0 || errno == EEXIST
    }

    /// The connection's settings, each a named step.
    /// `temporary`: the path is empty, SQLite's private temporary database
    /// (https://sqlite.org/inmemorydb.html#temp_db: a file only this connection sees, deleted when
    /// it closes), which keeps its rollback journal: WAL is for sharing a file between connections.
    private static func configure(_ db: Connection, options: StoreOptions, temporary: Bool = false) throws {
        try db.enableForeignKeys()
        // Every write zeroes what it deletes (a popped entry's projection row too), so a
        // deletion finds no older copy of a text in free space.
        try db.enableSecureDelete()
        if !temporary, try db.pragmaText("journal_mode")?.lowercased() != "wal" {
            try db.setJournalModeWAL()
        }
        // `synchronous`, and on Apple platforms `fullfsync` so that the promise holds there too.
        try db.setDurability(Connection.Synchronous(rawValue: options.synchronous.rawValue) ?? .full)
    }

}

/// `open(2)` for reading without blocking (a FIFO is refused before, this is belt and braces),
/// outside ``StoreCore`` whose own `open(path:create:options:)` would shadow the C function.
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
}
