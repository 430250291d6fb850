/// Opening a PostgreSQL database as a store: connect through libpq, then bring the schema named
/// by the connection's `search_path` to the current one, before ``StoreCore`` talks to it through
/// ``DatabaseConnection``.
enum PostgreSQLStoreDatabase {
    /// Connects to `uri` and migrates its schema.
    /// - Parameters:
    ///   - uri: the connection URI, given to libpq as it is.
    ///   - displayName: `uri` without its password, for messages.
    ///   - create: whether an empty schema may be given NavStore's tables (writes); a read of an
    ///     empty schema throws ``StoreError/databaseNotFound(path:)`` and creates nothing.
    ///   - inFirstWrite: with `create`, an empty schema is left empty here and its tables are
    ///     created inside the first write transaction, with what it writes
    ///     (``PostgreSQLConnection/createsSchemaInNextWrite``): an import that is refused leaves
    ///     the schema as it found it. Only for a store whose first use is one write (an import):
    ///     a read before it would find no tables.
    /// - Throws: ``StoreError`` for a schema that is not NavStore's or is newer, ``PostgreSQLError``
    ///   when the server cannot be reached or refuses.
    static func open(uri: String, displayName: String, create: Bool, inFirstWrite: Bool = false) throws
        -> PostgreSQLConnection
    {
        let db = try PostgreSQLConnection(uri: uri)
        do {
            switch try PostgreSQLMigrator.state(db) {
            case .current: return db
            case .empty where !create: throw StoreError.databaseNotFound(path: displayName)
            case .empty where inFirstWrite: db.createsSchemaInNextWrite = true
            case .empty, .needsMigration: try PostgreSQLMigrator.migrate(db)
            }
        } catch let refusal as PostgreSQLMigrator.Refusal {
            throw StoreError.from(refusal, path: displayName)
        }
        return db
    }
}

extension StoreError {
    /// A PostgreSQL schema refused by ``PostgreSQLMigrator``, as the verdict on the database: one
    /// holding other tables is ``notANavdbFile(path:reason:)`` naming the first five, one
    /// migrated by a newer NavStore ``newerSchema(path:found:supported:)``.
    static func from(_ refusal: PostgreSQLMigrator.Refusal, path: String) -> StoreError {
        switch refusal {
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
