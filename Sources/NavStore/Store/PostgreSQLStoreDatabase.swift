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
    /// - Throws: ``StoreError`` for a schema that is not NavStore's or is newer, ``PostgreSQLError``
    ///   when the server cannot be reached or refuses.
    static func open(uri: String, displayName: String, create: Bool) throws -> PostgreSQLConnection {
        let db = try PostgreSQLConnection(uri: uri)
        do {
            switch try PostgreSQLMigrator.state(db) {
            case .current: return db
            case .empty where !create: throw StoreError.databaseNotFound(path: displayName)
            case .empty, .needsMigration: try PostgreSQLMigrator.migrate(db)
            }
        } catch let refusal as PostgreSQLMigrator.Refusal {
            switch refusal {
            case .foreign(let tables):
                throw StoreError.notANavdbFile(
                    path: displayName,
                    reason:
                        "its schema holds tables NavStore did not create (\(tables.joined(separator: ", "))\(tables.count == 5 ? ", ..." : "")); give NavStore an empty schema of its own (options=-csearch_path%3D<schema> in the URI)"
                )
            case .newer(let identifiers):
                throw StoreError.newerSchema(
                    path: displayName, found: PostgreSQLMigrator.all.count + identifiers.count,
                    supported: PostgreSQLMigrator.all.count)
            }
        }
        return db
    }
}
