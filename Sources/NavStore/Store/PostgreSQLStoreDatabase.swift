/// Opening a PostgreSQL database as a store: connect through libpq, then bring the schema named
/// by the connection's `search_path` to the current one, before ``StoreCore`` talks to it through
/// ``DatabaseConnection``.
enum PostgreSQLStoreDatabase {
    /// Connects to `uri`, bounds its waits for locks, and migrates its schema.
    /// - Parameters:
    ///   - uri: the connection URI, given to libpq as it is.
    ///   - displayName: `uri` without its password, for messages.
    ///   - create: whether an empty schema may be given NavStore's tables (writes); a read of an
    ///     empty schema throws ``StoreError/databaseNotFound(path:)`` and creates nothing.
    ///   - lockTimeoutMilliseconds: how long a statement waits for a lock another transaction holds
    ///     (a session's row, during another writer's append) before it fails with SQLSTATE `55P03`
    ///     ([`lock_timeout`](https://www.postgresql.org/docs/current/runtime-config-client.html#GUC-LOCK-TIMEOUT)),
    ///     as SQLite's `busy_timeout` bounds a writer's wait; 0 waits for ever.
    /// - Throws: ``StoreError`` for a schema that is not NavStore's or is newer, ``PostgreSQLError``
    ///   when the server cannot be reached or refuses.
    static func open(
        uri: String, displayName: String, create: Bool, lockTimeoutMilliseconds: Int
    ) throws -> PostgreSQLConnection {
        let db = try PostgreSQLConnection(uri: uri)
        try db.execute(sql: "SET lock_timeout = \(max(0, lockTimeoutMilliseconds))")
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
                    reason: "its schema holds tables NavStore did not create (\(tables.joined(separator: ", ")))")
            case .newer(let identifiers):
                throw StoreError.newerSchema(
                    path: displayName, found: PostgreSQLMigrator.all.count + identifiers.count,
                    supported: PostgreSQLMigrator.all.count)
            }
        }
        return db
    }
}
