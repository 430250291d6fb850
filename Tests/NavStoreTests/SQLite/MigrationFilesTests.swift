import Foundation
import Testing

@testable import NavStore
@testable import NavStoreModel
@testable import NavStoreTools
@testable import NavStorePostgreSQL

/// `Migrations/` is the one source of truth of both schemas; the libraries carry it as Swift
/// source that `scripts/generate-migrations.sh` writes (`Migrator+Files.swift`,
/// `PostgreSQLMigrator+Files.swift`). These tests fail, naming the script, until the two agree.
@Suite struct MigrationFilesTests {
    /// The package root: this file is `Tests/NavStoreTests/SQLite/<name>.swift`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SQLite
        .deletingLastPathComponent()  // NavStoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static let regenerate = "run scripts/generate-migrations.sh and commit what it writes"

    /// The `.sql` files of `folder` (relative to the root), in name order: identifier and bytes.
    static func files(in folder: String) throws -> [(identifier: String, bytes: [UInt8])] {
        let url = root.appendingPathComponent(folder, isDirectory: true)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".sql") }.sorted()
            .map { name in
                (String(name.dropLast(".sql".count)), Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
    }

    /// Compares `embedded` with the files of `folder`, by identifier and byte for byte.
    static func expectSame(_ embedded: [Migration], as folder: String) throws {
        let files = try files(in: folder)
        #expect(!files.isEmpty)
        #expect(
            embedded.map(\.identifier) == files.map(\.identifier),
            "the migrations compiled in differ from the files of \(folder)/: \(regenerate)")
        for (migration, file) in zip(embedded, files) where migration.identifier == file.identifier {
            #expect(
                Array(migration.sql.utf8) == file.bytes,
                "\(folder)/\(file.identifier).sql differs from its compiled text: \(regenerate)")
        }
    }

    @Test("every Migrations/*.sql file is compiled into NavStore, in name order, byte for byte")
    func sqliteMatchesFolder() throws {
        try Self.expectSame(Migrator.embedded.migrations, as: "Migrations")
    }

    @Test("every Migrations/postgresql/*.sql file is compiled into NavStorePostgreSQL, in name order, byte for byte")
    func postgreSQLMatchesFolder() throws {
        try Self.expectSame(PostgreSQLMigrator.all, as: "Migrations/postgresql")
    }

    @Test("the generated Swift files are what scripts/generate-migrations.sh writes")
    func generatedFilesAreCurrent() throws {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = ["bash", Self.root.appendingPathComponent("scripts/generate-migrations.sh").path, "--check"]
        let errors = Pipe()
        script.standardError = errors
        try script.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        script.waitUntilExit()
        #expect(script.terminationStatus == 0, "\(message): \(Self.regenerate)")
    }

    /// The migrations compiled from each folder.
    static let compiled = ["Migrations": Migrator.files, "Migrations/postgresql": PostgreSQLMigrator.all]

    @Test("identifiers are numbered NNNN_name, 1...n without gaps", arguments: ["Migrations", "Migrations/postgresql"])
    func identifiersAreNumbered(folder: String) throws {
        for (offset, migration) in try #require(Self.compiled[folder]).enumerated() {
            let number = migration.identifier.prefix(while: \.isNumber)
            #expect(number.count == 4)
            #expect(Int(number) == offset + 1)
            #expect(migration.identifier.dropFirst(4).first == "_")
        }
    }
}
