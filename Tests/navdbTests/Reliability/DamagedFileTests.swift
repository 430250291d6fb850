import Foundation
import NavStore
import NavStoreTools
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#endif

/// NavStore.docc/StorageLayout.md and the reliability contract: a file that is not SQLite, an SQLite file of another
/// application, a newer
/// schema, a damaged, read-only or full database: each command gets one clear `Error:` line and
/// exit 74 (database unusable), and the files are left byte for byte as they were.
/// SQLite only: these are about the database file itself (its bytes, permissions, mount, disk space).
@Suite("Reliability: damaged and foreign files")
struct ReliabilityDamagedFileTests {
    /// Commands that only read.
    static let reads: [[String]] = [
        ["stack", "s"], ["sessions"], ["history", "s"], ["check"], ["export", "--all"], ["show", "s"],
        ["back-menu", "s"],
    ]

    /// Commands that write (`restore` counts its attempt), with their input files in `inputs`.
    static func writes(inputs: String) -> [[String]] {
        [
            ["push", "s", "A"], ["session", "start", "t"], ["update", "s", "e1", "--title", "X"], ["pop", "s"],
            ["import", inputs + "/events.ndjson"], ["set-stack", "s", "--json-file", inputs + "/entries.json"],
            ["rebuild"], ["restore", "s"],
        ]
    }

    /// A scratch directory with `inputs/` (an NDJSON export and a set-stack file) and a real
    /// navdb database in `model.sqlite` (session `s`, entries e1...e40 with long titles, so that
    /// it spans many pages), closed so that the file alone holds everything.
    static func prepare(_ name: String) throws -> (Scratch, model: Data, inputs: String) {
        let scratch = try Scratch(name)
        let inputs = try scratch.directory("inputs")
        let model = scratch.file("model.sqlite")
        do {
            let store = try NavigationStore(path: model)
            try store.startSession("s", at: 1_700_000_000_000)
            for n in 1...40 {
                try store.execute(
                    .push(
                        Entry(id: "e\(n)", item: NavigationItem(title: String(repeating: "title \(n) ", count: 200)))),
                    session: "s", at: 1_700_000_000_000 + Int64(n))
            }
            let other = try NavigationStore(path: inputs + "/other.sqlite")
            try other.startSession("imp", at: 1_700_000_000_000)
            try other.execute(.push(Entry(id: "x")), session: "imp", at: 1_700_000_000_001)
            var lines: [String] = []
            try other.exportNDJSON(session: "imp") { lines.append($0) }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: inputs + "/events.ndjson", atomically: false, encoding: .utf8)
            try #"[{"id": "Z", "item": {"title": "Zed"}}]"#.write(
                toFile: inputs + "/entries.json", atomically: false, encoding: .utf8)
        }
        // The stores are closed: the last connection checkpointed and removed the -wal.
        #expect(!FileManager.default.fileExists(atPath: model + "-wal"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: model))
        try FileManager.default.removeItem(atPath: model)
        return (scratch, bytes, inputs)
    }

    /// Runs each command against `db` and expects exit 74, nothing on stdout and one `Error:` line
    /// containing `fragment`; then expects every file in `directory` unchanged.
    static func expectRefused(
        _ scratch: Scratch, db: String, directory: String, commands: [[String]], fragment: String,
        label: String, runAs prefix: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int {
        let before = try scratch.contents(of: directory)
        for command in commands {
            let result = try await run(scratch, prefix, ["--db", db] + command)
            #expect(result.status == 74, "\(label) \(command): \(result)", sourceLocation: sourceLocation)
            #expect(result.stdout.isEmpty, "\(label) \(command): \(result)", sourceLocation: sourceLocation)
            #expect(
                result.stderr.hasPrefix("Error: ") && result.stderr.filter({ $0 == "\n" }).count == 1
                    && result.stderr.hasSuffix("\n"),
                "\(label) \(command): not one error line: \(result.stderr)", sourceLocation: sourceLocation)
            #expect(
                result.stderr.contains(fragment), "\(label) \(command): \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        #expect(
            try scratch.contents(of: directory) == before, "\(label): the files changed", sourceLocation: sourceLocation
        )
        return commands.count
    }

    /// Runs navdb, behind `prefix` (e.g. `setpriv` to run as another user) when given.
    static func run(_ scratch: Scratch, _ prefix: [String], _ arguments: [String]) async throws -> ChildResult {
        if prefix.isEmpty { return try await scratch.navdb(arguments) }
        return try await scratch.tool(prefix[0], Array(prefix.dropFirst()) + [try Navdb.binary().path] + arguments)
    }

    /// Runs a tool to completion from synchronous code (cleanup in `defer`).
    static func runNow(_ executable: String, _ arguments: [String], in scratch: Scratch) {
        guard let child = try? Child(executable, arguments, directory: scratch.path, io: scratch.ioFiles()) else {
            return
        }
        while (try? child.poll()) == nil { usleep(1_000) }
    }

    /// A navdb file with the 4 big-endian bytes at `offset` of its header replaced
    /// (https://sqlite.org/fileformat2.html#the_database_header: 60 user_version, 68 application_id).
    static func patched(_ model: Data, offset: Int, value: UInt32) -> Data {
        var bytes = model
        for i in 0..<4 { bytes[offset + i] = UInt8((value >> (8 * (3 - UInt32(i)))) & 0xFF) }
        return bytes
    }

    @Test(
        "zero bytes, random bytes, a truncated database, another application's file, a newer schema: exit 74, unchanged"
    )
    func unusableFiles() async throws {
        let (scratch, model, inputs) = try Self.prepare("damaged")
        var random = Reliability.random(5)
        let commands = Self.reads + Self.writes(inputs: inputs)
        var files: [(String, Data, String)] = [
            ("zero bytes", Data(), "the file is empty (0 bytes)"),
            (
                "4 KiB of random bytes", Data((0..<4_096).map { _ in UInt8.random(in: 0...255, using: &random) }),
                "not an SQLite database"
            ),
            (
                "100 KiB of random bytes", Data((0..<102_400).map { _ in UInt8.random(in: 0...255, using: &random) }),
                "not an SQLite database"
            ),
            ("a text file", Data("These are my notes, not a database.\n".utf8), "not an SQLite database"),
            ("the first half of a navdb database", model.prefix(model.count / 2), "the database is corrupt"),
            ("a navdb database cut after its first page", model.prefix(4_096), "the database is corrupt"),
            (
                "another application's id in a navdb file", Self.patched(model, offset: 68, value: 0x1234_5678),
                "another application (application_id 305419896)"
            ),
            (
                "a navdb file without its application_id", Self.patched(model, offset: 68, value: 0),
                "another application (a schema written without navdb's application_id)"
            ),
            (
                "a navdb file with user_version 99", Self.patched(model, offset: 60, value: 99),
                "has schema version 99, newer than this navdb supports ("
            ),
        ]
        if let sqlite3 = Reliability.tool("sqlite3") {
            let foreign = scratch.file("made-by-sqlite3.sqlite")
            let made = try await scratch.tool(
                sqlite3,
                [
                    foreign,
                    "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('hello');",
                ])
            #expect(made.status == 0, "\(made)")
            files.append(
                (
                    "a notes database made by the sqlite3 shell", try Data(contentsOf: URL(fileURLWithPath: foreign)),
                    "an SQLite database of another application (a schema written without navdb's application_id)"
                ))
            try FileManager.default.removeItem(atPath: foreign)
        }
        var tried = 0
        for (index, (label, bytes, fragment)) in files.enumerated() {
            let directory = try scratch.directory("case-\(index)")
            let db = directory + "/navdb.sqlite"
            try bytes.write(to: URL(fileURLWithPath: db))
            tried += try await Self.expectRefused(
                scratch, db: db, directory: directory, commands: commands, fragment: fragment, label: label)
            // Nothing beside it either: no -wal or -shm was left.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["navdb.sqlite"], "\(label)")
        }
        // A directory, and a path whose directory is missing.
        let folder = try scratch.directory("a-directory")
        tried += try await Self.expectRefused(
            scratch, db: folder, directory: folder, commands: [["stack", "s"], ["session", "start", "s"]],
            fragment: "it is a directory", label: "a directory")
        tried += try await Self.expectRefused(
            scratch, db: scratch.file("missing/navdb.sqlite"), directory: scratch.path,
            commands: [["session", "start", "s"]], fragment: "cannot use database", label: "a missing directory")
        Reliability.summary(
            "damaged files",
            "\(files.count) damaged or foreign files x \(commands.count) commands + 3 odd paths = \(tried) runs: every one exit 74 with one clear line, 0 files changed"
        )
    }

    @Test("a read-only file and a read-only directory: reads work, writes exit 74, nothing changes")
    func readOnly() async throws {
        let (scratch, model, inputs) = try Self.prepare("read-only")
        let writes = Self.writes(inputs: inputs)
        var tried = 0
        var covered: [String] = []
        var skipped: [String] = []

        /// Reads succeed with the right content; writes are refused; the file is unchanged.
        func exercise(db: String, directory: String, label: String, prefix: [String] = [], allowSidecars: Bool)
            async throws
        {
            let before = try scratch.contents(of: directory)
            for read in Self.reads {
                let result = try await Self.run(scratch, prefix, ["--db", db] + read)
                #expect(result.status == 0, "\(label) \(read): \(result)")
                tried += 1
            }
            let stack = try await Self.run(scratch, prefix, ["--db", db, "--json", "stack", "s"])
            #expect((try? stack.json())?["version"]?.int == 41, "\(label): \(stack)")
            for write in writes {
                let result = try await Self.run(scratch, prefix, ["--db", db] + write)
                #expect(result.status == 74, "\(label) \(write): \(result)")
                #expect(
                    result.stderr.hasPrefix("Error: ") && result.stderr.filter({ $0 == "\n" }).count == 1,
                    "\(label) \(write): \(result.stderr)")
                #expect(result.stderr.contains("read-only"), "\(label) \(write): \(result.stderr)")
                tried += 1
            }
            var after = try scratch.contents(of: directory)
            if allowSidecars {
                // A reader of a WAL database in a writable directory creates an empty -wal and the
                // -shm index (shared memory, not data); the database itself must not change.
                #expect(after.removeValue(forKey: "navdb.sqlite-wal")?.isEmpty ?? true, "\(label): the -wal holds data")
                after.removeValue(forKey: "navdb.sqlite-shm")
            }
            #expect(after == before, "\(label): the files changed")
            covered.append(label)
        }

        // 1. A read-only file. Root ignores permission bits, so as root the file is made
        //    immutable (chattr +i), which stops root too.
        if let chattr = Reliability.tool("chattr") {
            let directory = try scratch.directory("immutable")
            let db = directory + "/navdb.sqlite"
            try model.write(to: URL(fileURLWithPath: db))
            if try await scratch.tool(chattr, ["+i", db]).status == 0 {
                defer { Self.runNow(chattr, ["-i", db], in: scratch) }
                try await exercise(
                    db: db, directory: directory, label: "an immutable file (chattr +i)", allowSidecars: true)
            } else {
                skipped.append("chattr +i (not supported here)")
            }
        } else {
            skipped.append("chattr (not installed)")
        }

        // 2. A read-only directory: a read-only bind mount, which stops root too.
        if Reliability.isRoot, let mount = Reliability.tool("mount"), let umount = Reliability.tool("umount") {
            let directory = try scratch.directory("read-only-mount")
            let db = directory + "/navdb.sqlite"
            try model.write(to: URL(fileURLWithPath: db))
            let bound = try await scratch.tool(mount, ["--bind", directory, directory])
            if bound.status == 0 {
                defer { Self.runNow(umount, [directory], in: scratch) }
                let remounted = try await scratch.tool(mount, ["-o", "remount,ro,bind", directory])
                if remounted.status == 0 {
                    try await exercise(
                        db: db, directory: directory, label: "a read-only directory (ro bind mount)",
                        allowSidecars: false)
                    tried += try await Self.expectRefused(
                        scratch, db: directory + "/new.sqlite", directory: directory,
                        commands: [["session", "start", "s"], ["import", inputs + "/events.ndjson"]],
                        fragment: "Read-only file system", label: "a new file in a read-only directory")
                } else {
                    skipped.append(
                        "read-only remount (\(remounted.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
                }
            } else {
                skipped.append("bind mount (\(bound.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
            }
        } else {
            skipped.append("read-only bind mount (needs root and mount)")
        }

        // 3. The same through ordinary permissions, as the unprivileged user nobody.
        if Reliability.isRoot, let setpriv = Reliability.tool("setpriv") {
            let nobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
            if try await Self.run(scratch, nobody, ["--version"]).status == 0 {
                // A 0444 file in a directory nobody may write to.
                let fileCase = try scratch.directory("nobody-file")
                let db = fileCase + "/navdb.sqlite"
                try model.write(to: URL(fileURLWithPath: db))
                chown(fileCase, 65534, 65534)
                chown(db, 65534, 65534)
                chmod(db, 0o444)
                try await exercise(
                    db: db, directory: fileCase, label: "a 0444 file (as nobody)", prefix: nobody, allowSidecars: true)
                // A writable file in a directory nobody may not write to (root's, 0755).
                let directoryCase = try scratch.directory("nobody-directory")
                let db2 = directoryCase + "/navdb.sqlite"
                try model.write(to: URL(fileURLWithPath: db2))
                chown(db2, 65534, 65534)
                try await exercise(
                    db: db2, directory: directoryCase, label: "a directory nobody cannot write (as nobody)",
                    prefix: nobody, allowSidecars: false)
                tried += try await Self.expectRefused(
                    scratch, db: directoryCase + "/new.sqlite", directory: directoryCase,
                    commands: [["session", "start", "s"]], fragment: "Permission denied",
                    label: "a new file in a directory nobody cannot write", runAs: nobody)
            } else {
                skipped.append("setpriv as nobody (navdb not reachable by nobody)")
            }
        } else if !Reliability.isRoot {
            // Not root: permissions apply to us directly.
            let directory = try scratch.directory("mode-0444")
            let db = directory + "/navdb.sqlite"
            try model.write(to: URL(fileURLWithPath: db))
            chmod(db, 0o444)
            try await exercise(db: db, directory: directory, label: "a 0444 file", allowSidecars: true)
            let readOnlyDirectory = try scratch.directory("mode-0555")
            try model.write(to: URL(fileURLWithPath: readOnlyDirectory + "/navdb.sqlite"))
            chmod(readOnlyDirectory, 0o555)
            defer { chmod(readOnlyDirectory, 0o755) }
            try await exercise(
                db: readOnlyDirectory + "/navdb.sqlite", directory: readOnlyDirectory, label: "a 0555 directory",
                allowSidecars: false)
        } else {
            skipped.append("permissions as nobody (no setpriv)")
        }
        #expect(!covered.isEmpty, "no read-only setup was possible: \(skipped)")
        Reliability.summary(
            "read-only",
            "\(covered.count) read-only setups (\(covered.joined(separator: "; "))): \(tried) runs, reads exit 0, writes exit 74 'read-only', 0 files changed\(skipped.isEmpty ? "" : "; skipped: " + skipped.joined(separator: ", "))"
        )
    }

    @Test(
        "a full disk (256 KiB tmpfs): writes exit 74 'the disk is full', nothing committed changes, check stays clean")
    func fullDisk() async throws {
        let (scratch, _, inputs) = try Self.prepare("full-disk")
        guard Reliability.isRoot, let mount = Reliability.tool("mount"), let umount = Reliability.tool("umount") else {
            Reliability.summary(
                "full disk",
                "skipped: mounting a small tmpfs needs root (SQLite's max_page_count is per connection, so it cannot limit the CLI)"
            )
            return
        }
        let directory = try scratch.directory("tmpfs")
        let mounted = try await scratch.tool(mount, ["-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs", directory])
        guard mounted.status == 0 else {
            Reliability.summary(
                "full disk",
                "skipped: cannot mount a tmpfs here (\(mounted.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))"
            )
            return
        }
        defer { Self.runNow(umount, [directory], in: scratch) }
        let db = directory + "/navdb.sqlite"
        let ballast = directory + "/ballast"
        try Data(count: 48 * 1_024).write(to: URL(fileURLWithPath: ballast))
        #expect(try await scratch.navdb(["--db", db, "session", "start", "s"]).status == 0)

        // 1. The database's own writes fill the disk: the push that does not fit exits 74 with
        //    one clear line, and once there is room to read again, the log is what it was.
        let title = String(repeating: "full disk ", count: 2_000)
        var pushed = 0
        var exported = try await scratch.navdb(["--db", db, "export", "--all"])
        var failure: ChildResult?
        for n in 1...100 {
            let result = try await scratch.navdb(["--db", db, "push", "s", "e\(n)", "--title", title])
            if result.status != 0 {
                failure = result
                break
            }
            pushed += 1
            exported = try await scratch.navdb(["--db", db, "export", "--all"])
        }
        let full = try #require(failure, "the 256 KiB disk never filled")
        #expect(full.status == 74, "\(full)")
        // SQLITE_FULL when the log cannot grow, or SQLITE_IOERR_SHMSIZE when the -shm index (made
        // anew by each process) cannot: the same one-line message either way.
        #expect(
            full.stderr.hasPrefix("Error: cannot use database '\(db)': the disk is full")
                && full.stderr.filter({ $0 == "\n" }).count == 1, "\(full)")
        try FileManager.default.removeItem(atPath: ballast)
        #expect(try await scratch.navdb(["--db", db, "export", "--all"]).stdout == exported.stdout, "the log changed")
        #expect(try await scratch.navdb(["--db", db, "check"]).status == 0)

        // 2. Something else fills the disk: every command, reads included (a WAL reader must
        //    create the -shm index), exits 74 'the disk is full', and the database file does
        //    not change. SQLite may leave an empty -wal and a stub -shm (shared memory, no data).
        let stack = try await scratch.navdb(["--db", db, "--json", "stack", "s"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["navdb.sqlite"])
        let filler = open(directory + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let chunk = [UInt8](repeating: 0, count: 4_096)
        while chunk.withUnsafeBytes({ write(filler, $0.baseAddress, $0.count) }) > 0 {}
        close(filler)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let commands = Self.reads + Self.writes(inputs: inputs)
        for command in commands {
            let result = try await scratch.navdb(["--db", db] + command)
            #expect(result.status == 74, "\(command): \(result)")
            #expect(
                result.stderr.hasPrefix("Error: ") && result.stderr.contains("the disk is full")
                    && result.stderr.filter({ $0 == "\n" }).count == 1,
                "\(command): \(result.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "\(command): the database file changed")
            let wal = try? Data(contentsOf: URL(fileURLWithPath: db + "-wal"))
            #expect(wal?.isEmpty ?? true, "\(command): the -wal holds data")
        }
        // A new database on the full disk: refused, and no file (or half-made file) is left.
        let fresh = try await scratch.navdb(["--db", directory + "/fresh.sqlite", "session", "start", "s"])
        #expect(fresh.status == 74, "\(fresh)")
        #expect(fresh.stderr.contains("the disk is full"), "\(fresh.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("fresh") }.isEmpty)

        try FileManager.default.removeItem(atPath: directory + "/filler")
        #expect(try await scratch.navdb(["--db", db, "export", "--all"]).stdout == exported.stdout, "the log changed")
        #expect(
            try await scratch.navdb(["--db", db, "--json", "stack", "s"]).stdout == stack.stdout, "the state changed")
        #expect(try await scratch.navdb(["--db", db, "check"]).status == 0)
        Reliability.summary(
            "full disk",
            """
            256 KiB tmpfs: filled by the log after \(pushed) pushes of 20,000-character titles (the push that did not fit: exit 74, \
            log unchanged), then by another file: \(commands.count + 1) commands (reads, writes, a new database) each exit 74 \
            'the disk is full', the database file unchanged, no half-made file; export, state and check identical once space returned
            """)
    }
}
