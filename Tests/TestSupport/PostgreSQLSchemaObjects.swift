import NavStore
import NavStoreTools
import NavStorePostgreSQL

/// What a PostgreSQL schema holds, for tests that check a refused or killed write left a schema
/// as it found it.
package enum PostgreSQLSchemaObjects {
    /// Every object of the URI's schema (`current_schema()`): relations, functions, types and
    /// collations, as `"<kind> <name>"`, sorted.
    /// - Throws: the connection's or the query's error.
    package static func names(in uri: String) throws -> [String] {
        try PostgreSQLConnection(uri: uri).query(
            sql: """
                SELECT 'relation ' || relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace
                UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
                UNION ALL SELECT 'type ' || typname FROM pg_type WHERE typnamespace = current_schema()::regnamespace
                UNION ALL SELECT 'collation ' || collname FROM pg_collation
                    WHERE collnamespace = current_schema()::regnamespace
                ORDER BY 1
                """
        ).rows.map { row in if case .text(let name) = row[0] { name } else { "\(row)" } }
    }
}
