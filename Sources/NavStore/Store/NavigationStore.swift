/// Sessions as event streams in one SQLite file: the append-only log, projections of the current
/// state, snapshots for historical reads (<doc:Events>, <doc:StorageLayout>, <doc:TimeTravel>).
///
/// `Sendable`: one connection is owned behind a lock (`Lock`); calls from several threads are
/// serialized. Several processes may write the same file: writers take `BEGIN IMMEDIATE` and wait
/// up to ``StoreOptions/busyTimeoutMilliseconds``.
public final class NavigationStore: Sendable {
    /// The database file's path, or for a backend's URI (PostgreSQL's) that URI without its
    /// password.
    public let path: String
    /// The options the store was opened with.
    public let options: StoreOptions
    /// The schema version (`user_version`, <doc:StorageLayout>) an older SQLite file had before
    /// this opening migrated it to the current one, else `nil` (current, new, or another backend). A
    /// migrated file cannot be opened by the NavStore that wrote it any more: an app or tool may
    /// want to say so.
    public let upgradedFrom: Int?
    /// The schema version this NavStore writes: the number of SQLite migrations it ships
    /// (`Migrations/`), recorded in `schema_migrations` and mirrored in `PRAGMA user_version`.
    public static var schemaVersion: Int { Int(Migrator.embedded.currentVersion) }
    package let core: Lock<StoreCore>

    /// Opens (or, with `create`, creates) a NavStore database.
    ///
    /// A new file is created with owner-only permissions (0600), in WAL mode, and migrated. An
    /// existing file is inspected before anything is written: a file that is not SQLite, an
    /// SQLite file of another application (`application_id`), an empty file we did not create,
    /// or a newer schema (`user_version`) is refused and left unchanged.
    ///
    /// A URI of a registered backend's scheme opens that backend's database instead (NavStore
    /// itself opens SQLite files; `NavStorePostgreSQL` registers `postgresql://` and `postgres://`
    /// with `PostgreSQLBackend.register()`, and documents what its opening refuses). A URI of a
    /// scheme no registered backend opens is refused with ``StoreError/cannotOpen(path:reason:)``,
    /// named without its user information and query.
    /// - Parameters:
    ///   - path: the database file, or a URI of a registered backend.
    ///   - create: create the file when missing (writes); `false` for reads, which then throw
    ///     ``StoreError/databaseNotFound(path:)``.
    ///   - options: timeouts, snapshot interval, durability.
    /// - Throws: ``StoreError/databaseNotFound(path:)``, ``StoreError/notANavdbFile(path:reason:)``,
    ///   ``StoreError/newerSchema(path:found:supported:)``, ``StoreError/cannotOpen(path:reason:)``;
    ///   for a backend's URI also ``StoreError/openFailed(path:cause:)`` when its server cannot be
    ///   reached.
    public convenience init(path: String, create: Bool = true, options: StoreOptions = StoreOptions())
        throws(StoreError)
    {
        try self.init(path: path, create: create, options: options, schemaInFirstWrite: false)
    }

    /// ``init(path:create:options:)``; with `schemaInFirstWrite`, a backend's empty database gets
    /// its tables inside the store's first write transaction instead of at once, so that a
    /// refused import leaves it empty (``StoreBackend/open(_:displayName:create:schemaInFirstWrite:options:)``).
    package init(path: String, create: Bool, options: StoreOptions, schemaInFirstWrite: Bool) throws(StoreError) {
        let backend = StoreBackends.backend(for: path)
        // A URI's password never reaches a message: the store is named by the URI without it.
        let displayed = backend?.displayed(path) ?? StoreBackends.displayed(path)
        self.path = displayed
        self.options = options
        do {
            if let backend {
                let connection = try backend.open(
                    path, displayName: displayed, create: create, schemaInFirstWrite: schemaInFirstWrite,
                    options: options)
                core = Lock(StoreCore(connection, readOnly: false, options: options))
                upgradedFrom = nil
            } else if let scheme = StoreBackends.uriScheme(of: path) {
                throw StoreError.cannotOpen(
                    path: displayed,
                    reason:
                        "no backend registered in this program opens \(scheme):// URIs (NavStore opens SQLite files by path; a backend's library registers its scheme at start-up)"
                )
            } else {
                let (connection, readOnly, from) = try SQLiteStoreFile.open(
                    path: path, create: create, options: options)
                core = Lock(StoreCore(connection, readOnly: readOnly, options: options))
                upgradedFrom = from.map(Int.init)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.from(error, path: displayed, options: options)
        }
    }

    /// Runs `body` with the connection, mapping every error to ``StoreError``.
    ///
    /// When `body` fails, its transaction was rolled back, so the states it may have cached for
    /// versions that were never committed are dropped with the rest of the cache: another writer
    /// could later commit different events under those versions.
    package func withCore<R>(_ body: (StoreCore) throws -> R) throws(StoreError) -> R {
        do {
            var result: R?
            try core.withLock { core in
                do { result = try body(core) } catch {
                    core.cache.removeAll()
                    throw error
                }
            }
            return result!
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.from(error, path: path, options: options)
        }
    }
}
