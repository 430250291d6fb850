/// One schema migration: an SQL script from `Migrations/`, applied once, in order.
///
/// Migrations are history: a shipped file is never edited, a change is a new numbered file
/// (https://sqlite.org/lang_altertable.html#otheralter for the shapes of change SQLite allows).
package struct Migration: Sendable, Equatable {
    /// The file name without `.sql`, for example `"0001_initial"`; recorded in `schema_migrations`.
    package let identifier: String
    /// The script, one or more `;`-separated statements, without `BEGIN`/`COMMIT`: the file's
    /// text (a string literal in `Migrator+Files.swift`, which costs nothing until it runs).
    package let sql: String

    /// Creates a migration from its identifier and SQL text.
    package init(identifier: String, sql: String) {
        self.identifier = identifier
        self.sql = sql
    }
}

/// What ``Migrator/inspect(_:)`` found in a database file.
package enum SchemaCheck: Sendable, Equatable {
    /// An empty database: no pages (a file just created), or no schema at all with
    /// `application_id` and `user_version` still 0 (a file whose creation stopped before the
    /// first migration committed). Safe to migrate.
    case empty
    /// A NavStore database with every known migration applied.
    case current
    /// A NavStore database at an older schema version (`user_version`), to be migrated.
    case needsMigration(from: Int32)
    /// A NavStore database written by a newer version (its `user_version`): refuse it, untouched.
    case newer(Int32)
    /// An SQLite database of another application (its `application_id`, 0 when unset but the
    /// file has a schema): refuse it, untouched.
    case foreign(applicationID: Int32)
    /// Not an SQLite database (`SQLITE_NOTADB`): refuse it, untouched.
    case notADatabase
}

/// The error ``Migrator/migrate(_:)`` throws for a file it must not change.
package struct MigrationRefused: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why: ``SchemaCheck/newer(_:)``, ``SchemaCheck/foreign(applicationID:)`` or
    /// ``SchemaCheck/notADatabase``.
    package let check: SchemaCheck
    /// The schema version the refusing migrator writes.
    package var supported: Int32 = Migrator.embedded.currentVersion

    /// A one-line explanation naming the version or application id found.
    package var description: String {
        switch check {
        case .newer(let version):
            "the database has schema version \(version), newer than this program's \(supported)"
        case .foreign(let id):
            "the database belongs to another application (application_id \(id))"
        case .notADatabase:
            "the file is not an SQLite database"
        case .empty, .current, .needsMigration:
            "the database cannot be migrated (\(check))"
        }
    }
}

/// Recognizes the store's files and brings their schema up to date: a value you register
/// migrations into, in order, as GRDB's `DatabaseMigrator` (a test builds its own);
/// ``embedded`` holds the ones compiled from `Migrations/`.
///
/// A store file has `PRAGMA application_id` = ``applicationID``
/// (https://sqlite.org/pragma.html#pragma_application_id) and records the migrations applied by
/// identifier in `schema_migrations`: the one record of its schema, as in PostgreSQL
/// (``PostgreSQLMigrator``). `PRAGMA user_version` (https://sqlite.org/pragma.html#pragma_user_version)
/// is derived from it: set in each migration's transaction to the number of migrations recorded,
/// never read to choose what to run. It is kept for the open-time check (two header pragmas
/// instead of a query, ``isCurrent(_:)``) and for older readers, which refuse a file whose
/// `user_version` is above theirs; when it disagrees with the table, the table wins and the
/// header is rewritten (<doc:StorageLayout>).
package struct Migrator: Sendable {
    /// `"NAVD"` as a big-endian 32-bit integer, stored at offset 68 of the file header
    /// (https://sqlite.org/fileformat2.html#application_id).
    package static let applicationID: Int32 = 0x4E41_5644

    /// The registered migrations, oldest first.
    package private(set) var migrations: [Migration] = []

    /// A migrator with no migration.
    package init() {}

    /// Appends `migration` to the list: it runs after every migration registered before it.
    /// - Precondition: no registered migration has the same identifier.
    package mutating func registerMigration(_ migration: Migration) {
        precondition(
            !migrations.contains { $0.identifier == migration.identifier },
            "migration \(migration.identifier) is registered twice")
        migrations.append(migration)
    }

    /// The schema version this migrator writes: the number of registered migrations.
    package var currentVersion: Int32 { Int32(migrations.count) }

    /// The migrations compiled into the binary from `Migrations/*.sql` (``files``, Swift source
    /// that `scripts/generate-migrations.sh` writes), so the library never reads the folder, nor
    /// a SwiftPM resource, at run time.
    ///
    /// To add a migration, add `Migrations/NNNN_what.sql` and run the script; a test checks
    /// ``files`` against the folder, byte for byte and in order.
    package static let embedded: Migrator = {
        var migrator = Migrator()
        for migration in files { migrator.registerMigration(migration) }
        return migrator
    }()

    /// Whether the database is a store file at ``currentVersion``, from reads of
    /// `application_id` and `user_version`: the check every opening makes. Anything else
    /// (including a file that is not a database) answers `false`: ask ``inspect(_:)`` why.
    /// - Throws: ``SQLiteError`` other than `SQLITE_NOTADB`, for example `SQLITE_BUSY`.
    package func isCurrent(_ db: Connection) throws(SQLiteError) -> Bool {
        do {
            // Two plain header pragmas: far cheaper to compile than one SELECT over both.
            let application = try db.applicationID
            let version = try db.userVersion
            return application == Self.applicationID && version == currentVersion
        } catch {
            guard error.resultCode == .notADatabase else { throw error }
            return false
        }
    }

    /// Classifies the database without changing it: reads `page_count`, `application_id`,
    /// `user_version`, and whether the schema is empty.
    ///
    /// - Parameter db: an open connection (any mode, read-only included), not yet configured.
    /// - Returns: see ``SchemaCheck``; a file that is not SQLite is ``SchemaCheck/notADatabase``.
    /// - Throws: ``SQLiteError`` other than `SQLITE_NOTADB`, for example `SQLITE_BUSY` or
    ///   `SQLITE_CORRUPT`.
    package func inspect(_ db: Connection) throws(SQLiteError) -> SchemaCheck {
        do {
            let pageCount = try db.pragmaText("page_count").flatMap { Int($0) } ?? 0
            if pageCount == 0 { return .empty }
            let application = try db.applicationID
            let version = try db.userVersion
            if application == Self.applicationID {
                if version > currentVersion { return .newer(version) }
                // The header is derived from the records: current only when both agree.
                if version == currentVersion, try Self.recordedCount(db) == migrations.count { return .current }
                return .needsMigration(from: version)
            }
            if application == 0, version == 0, try !Self.hasSchema(db) { return .empty }
            return .foreign(applicationID: application)
        } catch SQLiteError.ResultCode.notADatabase {
            return .notADatabase
        }
    }

    private static func hasSchema(_ db: Connection) throws(SQLiteError) -> Bool {
        try db.pragmaText("schema_version").flatMap { Int($0) } ?? 0 != 0
    }

    /// The number of migrations `schema_migrations` records; 0 without the table.
    private static func recordedCount(_ db: Connection) throws(SQLiteError) -> Int {
        let table = try db.prepare(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
        guard try table.step(), table.int64(at: 0) > 0 else { return 0 }
        let count = try db.prepare("SELECT count(*) FROM schema_migrations")
        return try count.step() ? Int(count.int64(at: 0)) : 0
    }

    /// Applies every registered migration not yet recorded, all in one `BEGIN IMMEDIATE`
    /// transaction: each runs its SQL, records its identifier in `schema_migrations` (`applied_at`
    /// in milliseconds since the Unix epoch, UTC) and sets `application_id` and `user_version`
    /// (the number of migrations recorded). A file is at its old schema or the current one, never
    /// in between, whenever the process stops. Running it on a current database does nothing; two
    /// processes migrating the same file at once are serialized by the write lock, and the second
    /// skips what the first recorded.
    ///
    /// Set the busy timeout (and, for a new file, the journal mode) before calling it.
    ///
    /// - Parameter db: a read-write connection.
    /// - Throws: ``MigrationRefused`` for a file that is newer, foreign or not SQLite (left
    ///   untouched); ``SQLiteError`` when a migration fails (every migration of this call is rolled
    ///   back).
    package func migrate(_ db: Connection) throws {
        let check = try inspect(db)
        switch check {
        case .current:
            return
        case .empty, .needsMigration:
            break
        case .newer, .foreign, .notADatabase:
            throw MigrationRefused(check: check, supported: currentVersion)
        }
        try db.transaction(.immediate) {
            for migration in migrations { try apply(migration, to: db) }
        }
    }

    /// Runs `migration` unless `schema_migrations` records it, records it, and sets the header
    /// from the records; inside the caller's transaction.
    private func apply(_ migration: Migration, to db: Connection) throws {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                identifier TEXT PRIMARY KEY,
                applied_at INTEGER NOT NULL
            ) STRICT
            """)
        let identifier = SQLValue.text(migration.identifier)
        if try db.fetchOne(sql: "SELECT 1 FROM schema_migrations WHERE identifier = ?", arguments: [identifier]) == nil
        {
            try db.execute(migration.sql)
            // julianday('now') has millisecond precision and needs no clock of our own.
            try db.execute(
                sql: """
                    INSERT INTO schema_migrations (identifier, applied_at)
                    VALUES (?, CAST(round((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER))
                    """,
                arguments: [identifier])
        }
        try db.setApplicationID(Self.applicationID)
        try db.setUserVersion(Int32(try Self.recordedCount(db)))
    }
}
