import NavStore

/// Brings a PostgreSQL database (its current schema, `search_path`) to NavStore's schema: the
/// migrations of `Migrations/postgresql/`, applied once each, in order, recorded by identifier in
/// `schema_migrations`.
///
/// A shipped migration file is never edited: a change is a new numbered file, which
/// `scripts/generate-migrations.sh` appends to ``all`` (`PostgreSQLMigrator+Files.swift`). Two
/// processes migrating the same schema at once are serialized by an advisory lock of
/// that schema (https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS),
/// taken before the migrations' transactions begin; the second finds the first's records and
/// skips them. Other schemas of the database migrate meanwhile: a team's many schemas, or tests
/// each on a fresh one, do not wait for each other.
package enum PostgreSQLMigrator {
    /// The first half of the advisory lock key migrations hold (an arbitrary constant, `navd`); the
    /// second half is the hash of the schema's name (`hashtext(current_schema())`).
    package static let lockClass: Int64 = 0x6E61_7664

    /// Why a database was not migrated.
    package enum Refusal: Error, Sendable, Equatable {
        /// The schema holds tables or views but no `schema_migrations`: another application's (or
        /// a hand-made copy of NavStore's); the names of the first five, in order.
        case foreign([String])
        /// The database was migrated by a newer NavStore: the identifiers this one does not know.
        case newer([String])
    }

    /// Where a schema stands.
    package enum State: Sendable, Equatable {
        /// No NavStore tables yet.
        case empty
        /// Every migration is recorded.
        case current
        /// Some migrations are still to apply.
        case needsMigration
    }

    /// Where the connection's schema stands, read in one transaction without writing.
    /// - Throws: ``Refusal`` for a foreign or newer schema, or ``PostgreSQLError``.
    package static func state(_ db: PostgreSQLConnection) throws -> State {
        try db.inTransaction(.read) {
            guard let applied = try appliedIdentifiers(db, creating: false) else { return .empty }
            return applied.count == all.count ? .current : .needsMigration
        }
    }

    /// Applies every migration not yet recorded, each in its own transaction, holding the schema's
    /// session-level advisory lock meanwhile (``holdingLock(_:_:)``).
    /// - Throws: ``Refusal`` (nothing changed) or ``PostgreSQLError``.
    package static func migrate(_ db: PostgreSQLConnection) throws {
        try holdingLock(db) {
            for migration in all {
                try db.inTransaction(.write) { try apply(migration, db) }
            }
        }
    }

    /// Applies every migration not yet recorded inside the transaction the connection has open,
    /// which the caller began while holding ``holdingLock(_:_:)``: the tables then come and go
    /// with that transaction (PostgreSQL's DDL is transactional,
    /// https://wiki.postgresql.org/wiki/Transactional_DDL_in_PostgreSQL:_A_Competitive_Analysis).
    /// An import into an empty schema creates them so: when it is refused, rolled back or its
    /// process killed, the schema stays empty.
    /// - Throws: ``Refusal`` for a schema that became foreign or newer meanwhile, or
    ///   ``PostgreSQLError``.
    package static func applyPending(_ db: PostgreSQLConnection) throws {
        for migration in all { try apply(migration, db) }
    }

    /// Runs `body` holding the schema's session-level advisory lock, which serializes every
    /// creation or migration of that schema.
    ///
    /// The lock is taken before any transaction begins, not inside one: a `SERIALIZABLE`
    /// transaction reads from a snapshot taken at its first statement, so one that first waited
    /// for the lock would not see the tables another process created meanwhile, and would create
    /// them again (SQLSTATE 42P07). The lock ends with the connection if the process dies.
    /// - Throws: what `body` throws, or ``PostgreSQLError``.
    package static func holdingLock<T>(_ db: PostgreSQLConnection, _ body: () throws -> T) throws -> T {
        let key = "?::integer, hashtext(coalesce(current_schema(), ''))"
        try db.execute(sql: "SELECT pg_advisory_lock(\(key))", arguments: [.integer(lockClass)])
        defer { _ = try? db.execute(sql: "SELECT pg_advisory_unlock(\(key))", arguments: [.integer(lockClass)]) }
        return try body()
    }

    /// Applies `migration` in the open transaction, unless `schema_migrations` records it.
    private static func apply(_ migration: Migration, _ db: PostgreSQLConnection) throws {
        let applied = try appliedIdentifiers(db, creating: true) ?? []
        if applied.contains(migration.identifier) { return }
        try db.executeScript(migration.sql)
        try db.execute(
            sql: """
                INSERT INTO schema_migrations (identifier, applied_at)
                VALUES (?, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
                """,
            arguments: [.text(migration.identifier)])
    }

    /// The identifiers recorded in `schema_migrations`; in an empty schema `nil`, or, when
    /// `creating`, none after creating the table.
    /// - Throws: ``Refusal`` for a foreign or newer schema, or ``PostgreSQLError``.
    private static func appliedIdentifiers(_ db: PostgreSQLConnection, creating: Bool) throws -> Set<String>? {
        // `schema_migrations`, or else the first few tables and views of the schema: a schema
        // NavStore did not migrate must be empty to become NavStore's (another application's
        // tables are left alone, as SQLite leaves a file of another application).
        let tables = try db.query(
            sql: """
                SELECT table_name::text FROM information_schema.tables
                WHERE table_schema = current_schema()
                ORDER BY table_name <> 'schema_migrations', table_name
                LIMIT 5
                """
        ).rows.compactMap { row -> String? in if case .text(let name) = row[0] { name } else { nil } }
        if tables.first != "schema_migrations" {
            guard tables.isEmpty else { throw Refusal.foreign(tables) }
            guard creating else { return nil }
            try db.execute(
                sql:
                    "CREATE TABLE schema_migrations (identifier text COLLATE \"C\" PRIMARY KEY, applied_at bigint NOT NULL)"
            )
            return []
        }
        let applied = Set(
            try db.query(sql: "SELECT identifier FROM schema_migrations").rows.compactMap { row -> String? in
                if case .text(let identifier) = row[0] { identifier } else { nil }
            })
        let unknown = applied.subtracting(all.map(\.identifier)).sorted()
        guard unknown.isEmpty else { throw Refusal.newer(unknown) }
        return applied
    }
}
