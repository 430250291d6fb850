import Foundation
import NavStore
import NavStoreTools
import Testing

/// Foreign WAL databases are identified by their header and left
/// byte-for-byte unchanged (file, `-wal` and `-shm`); every file navdb creates is 0600 whatever
/// the path's form, `--db` is a path and never an SQLite URI, a refused command leaves no file;
/// an import line over the limit is refused with its line number.
/// SQLite only but for the long line: these are about files (SQLite's -wal, symlinks, modes, file: names).
@Suite("Reliability: foreign WAL files, symlinks and URIs, long lines")
struct ForeignFileTests {
    /// Every regular file of the directory by name, with its bytes (the sandbox's own stdout and
    /// stderr captures left out).
    static func files(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
            }
        }
        return files
    }

    /// A WAL-mode database of another application whose writer is still open, with a pending
    /// `-wal` (`wal_autocheckpoint=0`): its three files copied to `name`, `name-wal`, `name-shm`.
    static func foreignWAL(_ sandbox: Sandbox, name: String, applicationID: Int32?, userVersion: Int32? = nil) throws {
        let original = sandbox.directory.appendingPathComponent("writer-\(UUID().uuidString)").path
        let db = try Connection(path: original, mode: .readWriteCreate)
        if let applicationID { try db.execute("PRAGMA application_id = \(applicationID)") }
        if let userVersion { try db.execute("PRAGMA user_version = \(userVersion)") }
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try db.execute("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('private');")
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(
                atPath: original + suffix, toPath: sandbox.directory.appendingPathComponent(name + suffix).path)
        }
        db.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: original + suffix) }
    }

    @Test(
        "a foreign WAL database with a pending -wal is refused (74) and its file, -wal and -shm stay byte-for-byte the same",
        arguments: [
            ("no application_id", nil, nil, "another application"),
            ("another application_id", 0x1234_5678, nil, "application_id 305419896"),
            ("a navdb file of a newer schema", 0x4E41_5644, 99, "newer than this navdb supports"),
        ] as [(String, Int32?, Int32?, String)])
    func foreignWALUnchanged(label: String, applicationID: Int32?, userVersion: Int32?, fragment: String) throws {
        let sandbox = try Sandbox()
        let ndjson = try sandbox.write(
            "in.ndjson",
            #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":{},"session":"x","type":"session.started","version":1}"#
                + "\n")
        try Self.foreignWAL(sandbox, name: "f.db", applicationID: applicationID, userVersion: userVersion)
        let before = try Self.files(sandbox.directory)
        #expect(before["f.db-wal"].map { !$0.isEmpty } == true, "\(label): the -wal is not pending")
        for command in [
            ["history", "x"], ["session", "start", "x"], ["push", "x", "A"], ["stack", "x"], ["sessions"], ["check"],
            ["rebuild"], ["export", "--all"], ["import", ndjson],
        ] {
            let result = try sandbox.run(["--db", "f.db"] + command)
            #expect(result.status == 74, "\(label) \(command): \(result)")
            #expect(
                result.stderr.hasPrefix("Error: ") && result.stderr.contains(fragment)
                    && result.stderr.filter({ $0 == "\n" }).count == 1,
                "\(label) \(command): \(result.stderr)")
            #expect(try Self.files(sandbox.directory) == before, "\(label) \(command): a file changed")
        }
    }

    @Test("a FIFO and /dev/null as --db say what they are (74), and nothing is created")
    func specialFiles() throws {
        let sandbox = try Sandbox()
        #expect(mkfifo(sandbox.directory.appendingPathComponent("pipe").path, 0o600) == 0)
        for (path, fragment) in [
            ("pipe", "it is a FIFO (named pipe), not a database file"),
            ("/dev/null", "it is a character device, not a database file"),
        ] {
            for command in [["stack", "s"], ["session", "start", "s"]] {
                let result = try sandbox.run(["--db", path] + command)
                #expect(result.status == 74 && result.stderr.contains(fragment), "\(path) \(command): \(result)")
            }
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { !$0.hasPrefix(".") }
                == ["pipe"])
    }

    /// The permission bits of `path` (following symbolic links).
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test(
        "every file navdb creates is 0600 under umask 022, whatever the path's form; --db file:... is a plain file name",
        arguments: [
            ("link.db", "real.db", "ln -s real.db link.db"),
            ("sub/link.db", "target/real.db", "mkdir sub target && ln -s ../target/real.db sub/link.db"),
            ("chain.db", "end.db", "ln -s middle.db chain.db && ln -s end.db middle.db"),
            ("file:y.db", "file:y.db", "true"),
            ("file:x.db?mode=memory", "file:x.db?mode=memory", "true"), ("./plain.db", "plain.db", "true"),
            ("odd name %3F#.db", "odd name %3F#.db", "true"),
        ] as [(String, String, String)])
    func ownerOnlyFiles(path: String, created: String, setup: String) throws {
        let sandbox = try Sandbox()
        let quoted = "'" + path + "'"
        let made = try shell(
            sandbox,
            "umask 022 && \(setup) && \"$NAVDB\" --db \(quoted) session start s && \"$NAVDB\" --db \(quoted) push s A")
        #expect(made.status == 0, "\(path): \(made.stderr)")
        let target = sandbox.directory.appendingPathComponent(created).path
        #expect(Self.mode(target) == 0o600, "\(path): \(created) has mode \(String(Self.mode(target) ?? 0, radix: 8))")
        // The -wal and -shm SQLite makes beside it take the file's mode.
        let db = try Connection(path: sandbox.directory.appendingPathComponent(path).path, mode: .readWrite)
        try db.execute("BEGIN IMMEDIATE; CREATE TABLE probe (x); COMMIT;")
        for suffix in ["-wal", "-shm"] {
            #expect(
                Self.mode(target + suffix) == 0o600,
                "\(path): \(created)\(suffix) has mode \(String(Self.mode(target + suffix) ?? 0, radix: 8))")
        }
        db.close()
        // Nothing else was left: no stray temporary and no file named after a URI's parts.
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter {
            !$0.hasPrefix(".")
        }
        #expect(!names.contains { $0.contains(".creating-") || $0 == "y.db" || $0 == "x.db" }, "\(path): \(names)")
        #expect(try sandbox.run(["--db", path, "--json", "stack", "s"]).stdout.contains(#""id":"A""#))
    }

    @Test("a session start refused for its expected version on a missing file exits 4 and creates no file")
    func refusedStartLeavesNoFile() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["--db", "new.db", "session", "start", "s", "--expect-version", "5"])
        #expect(result.status == 4 && result.stderr.hasPrefix("Error: version conflict"), "\(result)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.directory.path).filter { !$0.hasPrefix(".") }
                .isEmpty)
    }

    @Test(
        "an import line longer than 64 MiB is refused with its line number (65), and nothing is imported",
        arguments: Reliability.backends)
    func lineOverTheLimit(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let before = try sandbox.databaseBytes()
        let path = sandbox.directory.appendingPathComponent("long.ndjson").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data("\n".utf8))
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<65 { try handle.write(contentsOf: chunk) }
        try handle.write(contentsOf: Data("\n".utf8))
        try handle.close()
        let result = try sandbox.run(["import", path])
        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr.hasPrefix("Error: line 2 of ") && result.stderr.contains("longer than 67108864 bytes"),
            "\(result.stderr)")
        #expect(try sandbox.databaseBytes() == before)
    }
}
