import Foundation
import Testing

@testable import NavStore

@Suite struct SQLiteEmbeddedMigrationsTests {
    /// `Migrations/` at the package root: this file is `Tests/NavStoreTests/SQLite/<name>.swift`.
    private static let migrationsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SQLite
        .deletingLastPathComponent()  // NavStoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Migrations", isDirectory: true)

    @Test("every Migrations/*.sql file is embedded, in name order, with identical text")
    func embeddedMatchesFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsFolder.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        #expect(!names.isEmpty)
        let onDisk = try names.map { name in
            Migration(
                identifier: String(name.dropLast(".sql".count)),
                sql: try String(contentsOf: Self.migrationsFolder.appendingPathComponent(name), encoding: .utf8))
        }
        #expect(onDisk.map(\.identifier) == Migrator.embedded.migrations.map(\.identifier))
        #expect(onDisk == Migrator.embedded.migrations)
    }

    @Test("identifiers are numbered NNNN_name, 1...n without gaps")
    func identifiersAreNumbered() {
        for (offset, migration) in Migrator.embedded.migrations.enumerated() {
            let number = migration.identifier.prefix(while: \.isNumber)
            #expect(number.count == 4)
            #expect(Int(number) == offset + 1)
            #expect(migration.identifier.dropFirst(4).first == "_")
        }
    }
}
