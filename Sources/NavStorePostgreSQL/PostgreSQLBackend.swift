import NavStore

/// NavStore's PostgreSQL backend: register it once at start-up and every NavStore call that takes
/// a database's location also opens `postgresql://` and `postgres://` URIs, through libpq
/// (loaded at run time, https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING).
///
/// ```swift
/// import NavStore
/// import NavStorePostgreSQL
///
/// PostgreSQLBackend.register()
/// let store = try NavigationStore(path: "postgresql://navdb@db.example/nav")
/// ```
///
/// A URI is given to libpq as it is (its scheme lower-cased), so every libpq parameter
/// (`sslmode`, `host=/socket/folder`, `options=-csearch_path%3D<schema>`, ...) and libpq's
/// environment variables (`PGPASSWORD`, ...) apply. The schema that `search_path` names is
/// migrated (`Migrations/postgresql/`); one holding other tables, or migrated by a newer NavStore,
/// is refused and left unchanged. A server that cannot be reached, a wrong password or a missing
/// database throw `StoreError.openFailed(path:cause:)` with libpq's reason
/// (`DatabaseCause.backend` holding a ``PostgreSQLError``), password removed; a store is named
/// (`NavigationStore.path`) by its URI without the password.
public enum PostgreSQLBackend {
    /// Registers the backend with NavStore (idempotent, no I/O: libpq is loaded when the first
    /// URI is opened). Call it before opening a store at a `postgresql://` URI.
    public static func register() {
        StoreBackends.register(PostgreSQLStoreBackend())
    }
}

/// The backend as NavStore's ``StoreBackend``: connects through libpq, then brings the schema named
/// by the connection's `search_path` to the current one, before the store talks to it through
/// ``DatabaseConnection``.
struct PostgreSQLStoreBackend: StoreBackend {
    /// ``PostgreSQLURI/schemes``.
    var schemes: [String] { PostgreSQLURI.schemes }

    /// `location` without its password (``PostgreSQLURI/displayed(_:)``).
    func displayed(_ location: String) -> String { PostgreSQLURI.displayed(location) }

    /// Connects to `location` and migrates its schema; an empty schema is migrated at once, or
    /// with `schemaInFirstWrite` inside the first write transaction
    /// (``PostgreSQLConnection/createsSchemaInNextWrite``): an import that is refused leaves the
    /// schema as it found it. Only for a store whose first use is one write (an import): a read
    /// before it would find no tables.
    /// - Throws: ``StoreError/databaseNotFound(path:)`` for an empty schema without `create`,
    ///   ``PostgreSQLMigrator/Refusal`` for a schema that is not NavStore's or is newer,
    ///   ``PostgreSQLError`` when the server cannot be reached or refuses.
    func open(
        _ location: String, displayName: String, create: Bool, schemaInFirstWrite: Bool, options: StoreOptions
    ) throws -> any DatabaseConnection {
        let db = try PostgreSQLConnection(uri: location)
        switch try PostgreSQLMigrator.state(db) {
        case .current: return db
        case .empty where !create: throw StoreError.databaseNotFound(path: displayName)
        case .empty where schemaInFirstWrite: db.createsSchemaInNextWrite = true
        case .empty, .needsMigration: try PostgreSQLMigrator.migrate(db)
        }
        return db
    }
}

extension PostgreSQLMigrator.Refusal: StoreErrorConvertible {
    /// The refusal as the verdict on the database: a schema holding other tables is
    /// `notANavdbFile(path:reason:)` naming the first five, one migrated by a newer NavStore
    /// `newerSchema(path:found:supported:)`.
    package func storeError(path: String) -> StoreError {
        switch self {
        case .foreign(let tables):
            .notANavdbFile(
                path: path,
                reason:
                    "its schema holds tables NavStore did not create (\(tables.joined(separator: ", "))\(tables.count == 5 ? ", ..." : "")); give NavStore an empty schema of its own (options=-csearch_path%3D<schema> in the URI)"
            )
        case .newer(let identifiers):
            .newerSchema(
                path: path, found: PostgreSQLMigrator.all.count + identifiers.count,
                supported: PostgreSQLMigrator.all.count)
        }
    }
}

extension SQLDialect {
    /// PostgreSQL (https://www.postgresql.org/docs/current/sql.html).
    package static let postgresql = SQLDialect(
        name: "PostgreSQL", lockSessionRow: " FOR UPDATE", sequenceIsGapless: false,
        byteLength: ("octet_length(", ")"), importBatchSize: 500, textHoldsNUL: false, writesMayRunAgain: true)
}
