import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools

/// Migration 0005: `snapshots` moves from a `WITHOUT ROWID` table, whose states of more than about
/// 1 KB went to overflow pages, to a rowid table that keeps a state of up to 4,061 bytes in its
/// leaf page (https://sqlite.org/fileformat2.html, "Cell Payload Overflow Pages"); the rows, and so
/// every state read from them, stay the same.
@Suite("The snapshots table's layout (migration 0005)")
struct SnapshotsLayoutMigrationTests {
    /// Two sessions with snapshots every 4 versions, of states from under 1 KB to over 2 KB of
    /// JSON: stacks of 1 to 4 entries with long titles (CJK, emoji, and quotes and backslashes that
    /// JSON escapes), pushed and popped in turn.
    private static func writeSessions(_ store: NavigationStore) throws {
        for (key, rounds) in [("s", 5), ("t", 2)] {
            try store.startSession(key, at: 1_767_225_600_000)
            var commands: [NavigationCommand] = [.push(.titled("\(key)-root", "Root"))]
            for round in 0..<rounds {
                for index in 0..<3 {
                    let title = String(repeating: "标题 🧭 \"q\" \\ ", count: 20 + 30 * index + 6 * round)
                    commands.append(.push(.titled("\(key)-\(round)-\(index)", title)))
                }
                commands += Array(repeating: .pop(source: .backButton), count: 3)
            }
            try store.append(contentsOf: commands, session: key, at: 1_767_225_601_000)
        }
    }

    /// Every row of `sql`, each column as its `SQLValue`.
    private static func rows(_ db: Connection, _ sql: String) throws -> [[SQLValue]] {
        let statement = try db.prepare(sql)
        var rows: [[SQLValue]] = []
        try statement.forEachRow { row in rows.append((0..<row.columnCount).map { row.value(at: $0) }) }
        return rows
    }

    private static let snapshotRowsSQL =
        "SELECT session_id, version, rules_version, state FROM snapshots ORDER BY session_id, version"

    /// The pages of `snapshots` and its key of each kind (`leaf`, `internal`, `overflow`), from
    /// SQLite's `dbstat` table (https://sqlite.org/dbstat.html).
    private static func pageCounts(_ db: Connection) throws -> [String: Int64] {
        var counts: [String: Int64] = [:]
        for row in try rows(
            db, "SELECT pagetype, count(*) FROM dbstat WHERE name LIKE '%snapshots%' GROUP BY pagetype")
        {
            if case .text(let kind) = row[0], case .integer(let count) = row[1] { counts[kind] = count }
        }
        return counts
    }

    /// A file at schema 4 (the first four migrations) holding the rows a current store wrote.
    private static func makeSchema4File(_ dir: TemporaryDirectory, from source: String) throws -> String {
        let path = dir.path("schema4.sqlite")
        let db = try Connection(path: path, mode: .readWriteCreate)
        defer { db.close() }
        try db.setJournalModeWAL()
        var schema4 = Migrator()
        for migration in Migrator.embedded.migrations.prefix(4) { schema4.registerMigration(migration) }
        try schema4.migrate(db)
        try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [.text(source)])
        for table in ["sessions", "events", "layers", "entries", "snapshots"] {
            // The columns schema 4 has (a later migration adds some, as 0006 does to `layers`).
            let columns = try rows(db, "SELECT group_concat(name, ', ') FROM pragma_table_info('\(table)', 'main')")
            guard case .text(let list)? = columns.first?.first else { throw CocoaError(.fileReadCorruptFile) }
            try db.execute("INSERT INTO main.\(table) (\(list)) SELECT \(list) FROM current.\(table)")
        }
        try db.execute("DETACH DATABASE current")
        return path
    }

    @Test("a schema-4 file migrates to rowid snapshots: same rows, same states, no overflow page, check clean")
    func migratesSchema4File() throws {
        let dir = try TemporaryDirectory()
        var options = StoreOptions()
        options.snapshotInterval = 4
        let sourcePath = dir.path("current.sqlite")
        var expected: [String: [SessionState]] = [:]
        do {
            let source = try NavigationStore(path: sourcePath, options: options)
            try Self.writeSessions(source)
            for key in ["s", "t"] {
                let current = try source.state(session: key).version
                expected[key] = try (1...current).map { try source.state(session: key, at: .version($0)).state }
            }
        }
        let path = try Self.makeSchema4File(dir, from: sourcePath)
        let before: [[SQLValue]]
        do {
            let db = try Connection(path: path, mode: .readWrite)
            defer { db.close() }
            #expect(try db.userVersion == 4)
            before = try Self.rows(db, Self.snapshotRowsSQL)
            // Bytes of UTF-8: from under the 1,002 an index b-tree cell keeps to more than twice that.
            let lengths = try Self.rows(
                db, "SELECT min(length(CAST(state AS BLOB))), max(length(CAST(state AS BLOB))) FROM snapshots")
            guard case .integer(let shortest) = lengths.first?.first, case .integer(let longest) = lengths.first?.last
            else {
                Issue.record("no snapshot lengths: \(lengths)")
                return
            }
            #expect(shortest < 1_002 && longest > 2_004 && longest < 4_061, "\(shortest)...\(longest) bytes")
            #expect((try Self.pageCounts(db)["overflow"] ?? 0) > 0, "the WITHOUT ROWID table spilled")
        }
        #expect(before.count > 8)

        let store = try NavigationStore(path: path, options: options)
        #expect(store.upgradedFrom == 4)
        for key in ["s", "t"] {
            let states = try (1...expected[key, default: []].count).map {
                try store.state(session: key, at: .version($0)).state
            }
            #expect(states == expected[key], "session '\(key)'")
        }
        let check = try store.check()
        #expect(check.isClean, "\(check.problems)")
        #expect(check.snapshots == before.count)

        let db = try Connection(path: path, mode: .readOnly)
        defer { db.close() }
        #expect(try db.userVersion == Migrator.embedded.currentVersion)
        #expect(
            try db.testScalar("SELECT count(*) FROM schema_migrations WHERE identifier = '0005_snapshots_rowid'")
                == .integer(1))
        #expect(try Self.rows(db, Self.snapshotRowsSQL) == before)
        #expect(try db.testScalar("SELECT count(*) FROM sqlite_schema WHERE name LIKE 'snapshots_%'") == .integer(0))
        #expect(try db.testScalar("SELECT wr FROM pragma_table_list WHERE name = 'snapshots'") == .integer(0))
        let pages = try Self.pageCounts(db)
        #expect(pages["overflow"] == nil, "every state stays in its leaf page: \(pages)")
        #expect(try db.integrityCheck() == ["ok"])
        #expect(try Self.rows(db, "PRAGMA foreign_key_check").isEmpty)

        // The snapshots are still derived from the log: a rebuild writes the same rows again.
        let rebuilt = try store.rebuild(verify: true)
        #expect(rebuilt.differences.isEmpty, "\(rebuilt.differences)")
        #expect(try Self.rows(db, Self.snapshotRowsSQL) == before)
    }

    @Test("a historical read finds its snapshot through the key index of the rowid table")
    func snapshotReadUsesTheKey() throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try store.startSession("s", at: 1_000)
        let db = try Connection(path: store.path, mode: .readOnly)
        defer { db.close() }
        let plan = try Self.rows(db, "EXPLAIN QUERY PLAN " + StoreCore.nearestSnapshotSQL).compactMap { row in
            row.last.flatMap { if case .text(let text) = $0 { text } else { nil } }
        }
        #expect(plan == ["SEARCH snapshots USING INDEX sqlite_autoindex_snapshots_1 (session_id=? AND version<?)"])
    }
}
