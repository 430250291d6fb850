import Foundation
import TestSupport
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools
@testable import NavStorePostgreSQL

/// The backends the store tests run against: SQLite always, PostgreSQL when
/// `NAVDB_TEST_POSTGRESQL` names a server (`.ci/run` and `scripts/with-postgresql.sh` set it).
/// A test takes one as its argument (`arguments: StoreBackend.all`) and makes its store
/// with ``makeStore(_:on:options:)``, so the same test body runs on both.
enum StoreBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgresql

    /// Every backend available to this run.
    static let all: [StoreBackend] = PostgreSQLTestServer.isAvailable ? [.sqlite, .postgresql] : [.sqlite]

    var testDescription: String { rawValue }

    /// Where a new, empty database of this backend is: a file in `directory`, or a fresh schema.
    func location(_ directory: TemporaryDirectory) throws -> String {
        switch self {
        case .sqlite: directory.path("nav.sqlite")
        case .postgresql: try PostgreSQLTestServer.freshSchemaURI()
        }
    }
}

/// A new store of `backend`: a file in `directory`, or a fresh PostgreSQL schema.
func makeStore(
    _ directory: TemporaryDirectory, on backend: StoreBackend, options: StoreOptions = StoreOptions()
) throws -> NavigationStore {
    try NavigationStore(path: try backend.location(directory), options: options)
}

@Suite struct StoreBackendTests {
    // Without a server the PostgreSQL half of the store tests cannot run: this says so, by name.
    @Test("the store tests also run on PostgreSQL", PostgreSQLTestServer.required)
    func postgreSQLHalfRuns() throws {
        #expect(StoreBackend.all == [.sqlite, .postgresql])
        let store = try makeStore(try TemporaryDirectory(), on: .postgresql)
        #expect(store.path.hasPrefix("postgres"))
        #expect(try store.startSession("s").version == 1)
    }
}

extension StoreBackend {
    /// Each case of a two-column table on every backend: for parameterized tests whose cases are
    /// tuples (which a second `arguments` collection would not spread into parameters).
    static func each<A: Sendable, B: Sendable>(_ cases: [(A, B)]) -> [(A, B, StoreBackend)] {
        all.flatMap { backend in cases.map { ($0.0, $0.1, backend) } }
    }

    /// Each case of a three-column table on every backend.
    static func each<A: Sendable, B: Sendable, C: Sendable>(_ cases: [(A, B, C)]) -> [(A, B, C, StoreBackend)] {
        all.flatMap { backend in cases.map { ($0.0, $0.1, $0.2, backend) } }
    }

    /// Every case on SQLite, and the first one on PostgreSQL too: a representative subset for
    /// seeded loops that would make the suite slow on a server (one transaction per command).
    /// `NAVDB_TEST_POSTGRESQL_ALL_SEEDS=1` runs every case on PostgreSQL as well (the long run
    /// before changing what such a property covers).
    static func firstOnPostgreSQL<A: Sendable>(_ cases: [A]) -> [(A, StoreBackend)] {
        let onServer = ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_ALL_SEEDS"] == "1" ? cases.count : 1
        return cases.map { ($0, .sqlite) }
            + (all.contains(.postgresql) ? cases.prefix(onServer).map { ($0, .postgresql) } : [])
    }
}

/// Runs `sql` (one statement or several) on the database at `location` through a connection of
/// its own, as any other tool could behind the store's back: SQLite for a file, libpq for a
/// PostgreSQL URI.
func executeSQL(_ sql: String, at location: String) throws {
    if PostgreSQLURI.isURI(location) {
        try PostgreSQLConnection(uri: location).executeScript(sql)
        return
    }
    let db = try Connection(path: location, mode: .readWrite)
    defer { db.close() }
    try db.execute(sql)
}

/// Runs `sql` on `store`'s database, as ``executeSQL(_:at:)`` does.
func executeSQL(_ sql: String, on store: NavigationStore) throws {
    try executeSQL(sql, at: store.path)
}

/// What a store's database holds, for "nothing changed" checks: the bytes of the SQLite file and
/// its -wal, or every row of every table of the PostgreSQL schema as text, table by table.
func databaseContent(_ store: NavigationStore) throws -> [Data?] {
    guard store.path.hasPrefix("postgres") else { return fileBytes(store.path) }
    let db = try PostgreSQLConnection(uri: store.path)
    let tables = try db.query(
        sql: "SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1"
    ).rows
    return try tables.compactMap(\.first).map { table in
        guard case .text(let name) = table else { return nil }
        let rows = try db.query(sql: "SELECT t::text FROM \"\(name)\" t ORDER BY 1").rows
        return Data((name + "\n" + rows.map { "\($0)" }.joined(separator: "\n")).utf8)
    }
}
