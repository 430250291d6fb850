/// One schema migration: an SQL script from `Migrations/`, applied once, in order.
///
/// Migrations are history: a shipped file is never edited, a change is a new numbered file
/// (https://sqlite.org/lang_altertable.html#otheralter for the shapes of change SQLite allows).
package struct Migration: Sendable, Equatable {
    /// The file name without `.sql`, for example `"0001_initial"`; recorded in `schema_migrations`.
    package let identifier: String
    /// The script, one or more `;`-separated statements, without `BEGIN`/`COMMIT`.
    package let sql: String

    /// Creates a migration from its identifier and SQL text.
    package init(identifier: String, sql: String) {
        self.identifier = identifier
        self.sql = sql
    }

    /// Creates a migration from the UTF-8 bytes SwiftPM embeds for a `.sql` file.
    init(identifier: String, utf8 bytes: [UInt8]) {
        self.init(identifier: identifier, sql: String(decoding: bytes, as: UTF8.self))
    }
}

/// The migrations compiled into the binary from `Migrations/*.sql` (`.embedInCode`), so the
/// library never reads the folder at run time.
///
/// When adding `Migrations/NNNN_what.sql`, append it here; a test checks this list against the
/// folder, file by file and in order.
package enum EmbeddedMigrations {
    /// Every migration, oldest first. `user_version` is the number of them applied.
    package static let all: [Migration] = [
        Migration(identifier: "0001_initial", utf8: PackageResources._001_initial_sql),
        Migration(identifier: "0002_retention", utf8: PackageResources._002_retention_sql),
        Migration(
            identifier: "0003_restore_previous_acknowledged",
            utf8: PackageResources._003_restore_previous_acknowledged_sql),
        Migration(identifier: "0004_platform_generation", utf8: PackageResources._004_platform_generation_sql),
    ]
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

    /// A one-line explanation naming the version or application id found.
    package var description: String {
        switch check {
        case .newer(let version):
            "the database has schema version \(version), newer than this program's \(Migrator.currentVersion)"
        case .foreign(let id):
            "the database belongs to another application (application_id \(id))"
        case .notADatabase:
            "the file is not an SQLite database"
        case .empty, .current, .needsMigration:
            "the database cannot be migrated (\(check))"
        }
    }
}

/// Recognizes NavStore files and brings their schema up to date.
///
/// A NavStore file has `PRAGMA application_id` = ``applicationID`` and `PRAGMA user_version` = the
/// number of migrations applied (https://sqlite.org/pragma.html#pragma_application_id,
/// https://sqlite.org/pragma.html#pragma_user_version), and lists them in `schema_migrations`.
package enum Migrator {
    /// `"NAVD"` as a big-endian 32-bit integer, stored at offset 68 of the file header
    /// (https://sqlite.org/fileformat2.html#application_id).
    package static let applicationID: Int32 = 0x4E41_5644

    /// The schema version this build writes: the number of embedded migrations.
    package static var currentVersion: Int32 { Int32(EmbeddedMigrations.all.count) }

    /// Classifies the database without changing it: reads `page_count`, `application_id`,
    /// `user_version`, and whether the schema is empty.
    ///
    /// - Parameter db: an open connection (any mode, read-only included), not yet configured.
    /// - Returns: see ``SchemaCheck``; a file that is not SQLite is ``SchemaCheck/notADatabase``.
    /// - Throws: ``SQLiteError`` other than `SQLITE_NOTADB`, for example `SQLITE_BUSY` or
    ///   `SQLITE_CORRUPT`.
    package static func inspect(_ db: Connection) throws(SQLiteError) -> SchemaCheck {
        do {
            let pageCount = try db.pragmaText("page_count").flatMap { Int($0) } ?? 0
            if pageCount == 0 { return .empty }
            let application = try db.applicationID
            let version = try db.userVersion
            if application == applicationID {
                if version == currentVersion { return .current }
                if version > currentVersion { return .newer(version) }
                return .needsMigration(from: version)
            }
            if application == 0, version == 0, try !hasSchema(db) { return .empty }
            return .foreign(applicationID: application)
        } catch  where error.isNotADatabase {
            return .notADatabase
        }
    }

    private static func hasSchema(_ db: Connection) throws(SQLiteError) -> Bool {
        let statement = try db.prepare("SELECT EXISTS (SELECT 1 FROM sqlite_schema)")
        defer { statement.reset() }
        return try statement.step() && statement.int64(at: 0) != 0
    }

    /// Applies every embedded migration not yet recorded, each in its own `BEGIN IMMEDIATE`
    /// transaction that runs its SQL, records its identifier in `schema_migrations`
    /// (`applied_at` in milliseconds since the Unix epoch, UTC) and sets `application_id` and
    /// `user_version`. Running it on a current database does nothing; two processes migrating the
    /// same file at once are serialized by the write lock, and the second skips what the first
    /// recorded.
    ///
    /// Set the busy timeout (and, for a new file, the journal mode) before calling it.
    ///
    /// - Parameter db: a read-write connection.
    /// - Throws: ``MigrationRefused`` for a file that is newer, foreign or not SQLite (left
    ///   untouched); ``SQLiteError`` when a migration fails (that migration is rolled back, earlier
    ///   ones stay applied).
    package static func migrate(_ db: Connection) throws {
        let check = try inspect(db)
        switch check {
        case .current:
            return
        case .empty, .needsMigration:
            break
        case .newer, .foreign, .notADatabase:
            throw MigrationRefused(check: check)
        }
        for (offset, migration) in EmbeddedMigrations.all.enumerated() {
            try db.transaction(.immediate) {
                try db.execute(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        identifier TEXT PRIMARY KEY,
                        applied_at INTEGER NOT NULL
                    ) STRICT
                    """)
                let recorded = try db.cachedStatement("SELECT 1 FROM schema_migrations WHERE identifier = ?")
                recorded.bind(migration.identifier, at: 1)
                let alreadyApplied = try recorded.step()
                recorded.reset()
                if alreadyApplied { return }

                try db.execute(migration.sql)
                // julianday('now') has millisecond precision and needs no clock of our own.
                let record = try db.cachedStatement(
                    """
                    INSERT INTO schema_migrations (identifier, applied_at)
                    VALUES (?, CAST(round((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER))
                    """)
                record.bind(migration.identifier, at: 1)
                try record.run()
                try db.setApplicationID(applicationID)
                try db.setUserVersion(Int32(offset + 1))
            }
        }
    }
}
