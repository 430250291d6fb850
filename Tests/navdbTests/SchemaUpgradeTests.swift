import Foundation
import NavStore
import NavStoreTools
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An older file (the 0.1.0 fixture, schema 1) is upgraded when navdb first opens it, which the
/// navdb that wrote it cannot undo: the user is told once; a file that cannot be written is
/// refused as it is (SQLite only: files and permissions).
@Suite("Schema upgrades of older files")
struct SchemaUpgradeTests {
    /// The repository's copy of the 0.1.0 database (Tests/Fixtures/README.md).
    static let fixture = TestData.folder("navdb-0.1.0").appendingPathComponent("navdb.sqlite")

    @Test("the first command on a 0.1.0 file, a read, upgrades it and says so once on stderr")
    func noteOnce() throws {
        let sandbox = try Sandbox()
        try FileManager.default.copyItem(at: Self.fixture, to: sandbox.database)
        chmod(sandbox.database.path, 0o600)
        let first = try sandbox.ok(["sessions"])
        #expect(
            first.stderr
                == "navdb: note: upgraded './navdb.sqlite' from schema 1 to schema \(NavigationStore.schemaVersion); a navdb of schema 1 cannot open it any more\n"
        )
        let second = try sandbox.ok(["sessions"])
        #expect(second.stderr == "")
        #expect(second.stdout == first.stdout)
        #expect(try sandbox.ok(["check"]).stderr == "")
    }

    @Test("a 0.1.0 file nobody may write is refused (74) as it is, naming its schema and what to do")
    func readOnly() throws {
        guard getuid() == 0, let setpriv = Reliability.tool("setpriv") else {
            print("schema upgrade of a read-only file: skipped (needs root and setpriv to run as nobody)")
            return
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "navdb-upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("old.sqlite")
        try FileManager.default.copyItem(at: Self.fixture, to: file)
        chmod(folder.path, 0o755)
        chmod(file.path, 0o444)
        let before = try Data(contentsOf: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", try Navdb.binary().path, "--db", file.path,
            "history", "x",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 126 || process.terminationStatus == 127 {
            print("schema upgrade of a read-only file: skipped (nobody cannot run navdb here: \(stderr))")
            return
        }
        #expect(process.terminationStatus == 74, "\(stderr)")
        #expect(
            stderr
                == "Error: cannot use database '\(file.path)': it has schema 1 and must be upgraded to schema \(NavigationStore.schemaVersion) before it can be read, which needs write access to the file and its folder (upgrade a writable copy); the file was not changed\n"
        )
        #expect(try Data(contentsOf: file) == before)
    }
}
