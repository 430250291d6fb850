import NavStore

/// The PostgreSQL connection as the store's ``DatabaseConnection``: `?` parameters numbered,
/// typed rows, `SERIALIZABLE` writes run again when they lose a race, `READ ONLY` reads.
extension PostgreSQLConnection: DatabaseConnection {
    /// ``SQLDialect/postgresql``; outside a write transaction without ``SQLDialect/lockSessionRow``
    /// (`FOR UPDATE` is refused in a `READ ONLY` transaction, and a read locks nothing).
    package var dialect: SQLDialect {
        var dialect = SQLDialect.postgresql
        if transactionKind != .write { dialect.lockSessionRow = "" }
        return dialect
    }

    /// The connection itself: `VACUUM ANALYZE` of the store's tables and an index check.
    package var maintenance: (any DatabaseMaintenance)? { self }

    /// Calls `handler` whenever a write transaction that lost a race was rolled back, before it
    /// runs again (``inTransaction(_:_:)``).
    package func setRetryHandler(_ handler: @escaping () -> Void) {
        willRetry = handler
    }

    /// `LISTEN navstore_appends` (migration 0005's trigger notifies it from every append).
    /// - Throws: ``PostgreSQLError``.
    package func listenForAppends() throws -> Bool {
        try execute(sql: "LISTEN navstore_appends")
        return true
    }

    /// Waits on the connection's socket (`poll`) at most `timeout` for a notice, then takes every
    /// notice received (`PQconsumeInput`, `PQnotifies`).
    /// - Throws: ``PostgreSQLError`` of kind ``PostgreSQLError/Kind/connection`` when the
    ///   connection was lost.
    package func waitForAppendNotice(timeout: Duration) throws -> Bool {
        try waitForNotice(timeout: timeout)
    }

    /// The first row, or `nil`.
    /// - Throws: ``PostgreSQLError``.
    package func fetchOne(sql: String, arguments: [SQLValue]) throws -> Row? {
        let result = try query(sql: sql, arguments: arguments)
        return result.rows.first.map { Row(values: $0, columns: result.columns) }
    }

    /// Every row.
    /// - Throws: ``PostgreSQLError``.
    package func fetchAll(sql: String, arguments: [SQLValue]) throws -> [Row] {
        let result = try query(sql: sql, arguments: arguments)
        return result.rows.map { Row(values: $0, columns: result.columns) }
    }

    /// Each row in turn, one in memory at a time (libpq's single-row mode).
    /// - Throws: ``PostgreSQLError``, or what `body` throws.
    package func forEachRow(sql: String, arguments: [SQLValue], _ body: (Row) throws -> Void) throws {
        try forEachRawRow(sql: sql, arguments: arguments) { columns, values in
            try body(Row(values: values, columns: columns))
        }
    }
}

extension PostgreSQLError: DatabaseBackendError {
    /// What the error means to the store: a connection failure is ``DatabaseErrorCategory/cannotOpen``,
    /// text PostgreSQL cannot hold ``DatabaseErrorCategory/unsupportedValue(detail:)``,
    /// `23505` a ``DatabaseErrorCategory/uniqueViolation(detail:)`` naming the columns, a race
    /// still lost after every retry and a lock wait past `lock_timeout` (`55P03`)
    /// ``DatabaseErrorCategory/busy``, `25006` (a read-only
    /// transaction or server) ``DatabaseErrorCategory/readOnly``, `53100` (disk full)
    /// ``DatabaseErrorCategory/diskFull``, `XX001`/`XX002` (data or index corrupted)
    /// ``DatabaseErrorCategory/corrupt``.
    package var category: DatabaseErrorCategory {
        if isConnectionFailure { return .cannotOpen }
        if kind == .unsupportedValue {
            return .unsupportedValue(
                detail: "\(message): \(StoredTextCheck(backend: SQLDialect.postgresql.name).accepted)")
        }
        if isUniqueViolation {
            return .uniqueViolation(detail: Self.uniqueColumns[constraint ?? ""] ?? constraint ?? "")
        }
        // A race still lost after every retry, or a lock still held after `lock_timeout` (55P03).
        if isRetryable || sqlState == "55P03" { return .busy }
        switch sqlState {
        case "25006": return .readOnly
        case "53100": return .diskFull
        case "XX001", "XX002": return .corrupt
        default: return .other
        }
    }

    /// The error as a ``StoreError`` carries it.
    package var databaseCause: DatabaseCause { .backend(self) }

    /// The columns of the schema's unique constraints, as SQLite's messages name them.
    private static let uniqueColumns = [
        "events_event_id_key": "events.event_id",
        "events_session_id_version_key": "events.session_id, events.version",
        "sessions_key_key": "sessions.key",
    ]
}

/// PostgreSQL's side of the store's maintenance steps. The server manages its own files and
/// write-ahead log, so two steps have nothing to do there; see each.
extension PostgreSQLConnection: DatabaseMaintenance {
    /// The indexes of NavStore's tables that PostgreSQL marked invalid (`pg_index.indisvalid`, left
    /// by a failed `CREATE INDEX CONCURRENTLY` or `REINDEX`), one line each; `["ok"]` when none.
    /// PostgreSQL checks pages itself as it reads them (a damaged page is an error, `XX001`).
    package func integrityCheck() throws -> [String] {
        let invalid = try query(
            sql: """
                SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND NOT i.indisvalid ORDER BY 1
                """
        ).rows.map { row in "index \(row[0]) is invalid (REINDEX it)" }
        return invalid.isEmpty ? ["ok"] : invalid
    }

    /// Nothing to switch on: PostgreSQL has no secure-delete setting. Deleted rows stay in the
    /// table's pages until `VACUUM` frees their space for reuse (and in the write-ahead log and
    /// any backup), which the README says.
    package func enableSecureDelete() throws {}

    /// Nothing: the server owns its pages (deleted rows stay until `VACUUM`, as
    /// ``enableSecureDelete()`` says).
    package func scrubFreeSpace(busyTimeoutMilliseconds: Int) throws -> Bool { true }

    /// `VACUUM (ANALYZE)` of NavStore's tables (https://www.postgresql.org/docs/current/sql-vacuum.html):
    /// the space of deleted rows becomes reusable; the files shrink only where their end is free.
    package func vacuum() throws {
        try executeScript("VACUUM (ANALYZE) " + Self.vacuumedTables.joined(separator: ", "))
    }

    /// The bytes of NavStore's tables in the current schema with their indexes and TOAST
    /// (`pg_total_relation_size`, https://www.postgresql.org/docs/current/functions-admin.html),
    /// ``StorageChange/Measured/postgresqlTables``: what `VACUUM` can give back is the free pages at
    /// a table's end; the rest of the deleted rows' space is kept for reuse.
    package func storageSize() throws -> (bytes: Int64, measured: StorageChange.Measured)? {
        let row = try queryFirst(
            sql: """
                SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
                JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname IN (\(
                    Self.vacuumedTables.map { "'\($0)'" }.joined(separator: ", ")))
                """)
        guard case .integer(let bytes)? = row?.first else { return nil }
        return (bytes, .postgresqlTables)
    }

    /// The tables ``vacuum()`` vacuums and ``storageSize()`` measures: NavStore's own.
    private static let vacuumedTables = [
        "events", "sessions", "layers", "entries", "snapshots", "restore_attempts", "removed_events", "session_bases",
    ]

    /// Nothing: the server syncs its write-ahead log at each commit (`synchronous_commit`).
    package func makeCommitsDurable() throws {}

    /// Always `true`: the server recycles its own write-ahead log at its checkpoints.
    package func truncateWriteAheadLog() throws -> Bool { true }
}
