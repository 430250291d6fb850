import Foundation
import NavStore
import NavStoreTools
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#endif

/// An import into a missing file builds `<file>.importing-<random>` (with its `-wal` and `-shm`)
/// and links it into place. Killed before that, it leaves the copy behind, titles and all: the
/// next import into the file and every deletion remove such copies that no process has open, and
/// never one that a running import is building (Retention.md, "Deleted text does not linger").
// SQLite only: the temporary file is a file beside the database.
@Suite("Reliability: what a killed import into a new file leaves behind")
struct AbandonedImportTests {
    /// An import into `db` reading its lines from a FIFO the test writes: started, given its
    /// first line, and left waiting for the rest once its temporary database is open.
    final class WaitingImport: @unchecked Sendable {
        let child: Child
        let fifo: String
        let writer: Int32

        init(_ scratch: Scratch, db: String, name: String, firstLine: String) async throws {
            fifo = scratch.file(name + ".fifo")
            try #require(mkfifo(fifo, 0o600) == 0)
            // Opened first, read-write so that it does not wait for a reader: the child opens the
            // FIFO before it runs navdb, while posix_spawn holds this process until it does.
            // Close-on-exec: a child that inherited it would never see the end of its input.
            writer = open(fifo, O_RDWR | O_CLOEXEC)
            try #require(writer >= 0)
            child = try Child(
                try Navdb.binary().path, ["--db", db, "import", "-"], directory: scratch.path, stdinPath: fifo,
                io: scratch.ioFiles())
            let before = AbandonedImportTests.temporaries(of: db, in: scratch)
            _ = (firstLine + "\n").withCString { write(writer, $0, strlen($0)) }
            // Its temporary database is open once its -shm is there.
            func opened() -> Bool {
                AbandonedImportTests.temporaries(of: db, in: scratch).contains {
                    $0.hasSuffix("-shm") && !before.contains($0)
                }
            }
            for _ in 0..<2_000 where !opened() { try await Task.sleep(nanoseconds: 10_000_000) }
            try #require(opened(), "no temporary database was opened")
        }

        /// Gives the import `lines`, its input left open.
        func send(_ lines: [String]) {
            for line in lines { _ = (line + "\n").withCString { write(writer, $0, strlen($0)) } }
        }

        /// Gives the import `lines` and ends its input.
        func finish(_ lines: [String]) {
            send(lines)
            close(writer)
        }
    }

    /// The names in the scratch folder that start `<db's name>.importing-`.
    static func temporaries(of db: String, in scratch: Scratch) -> [String] {
        let prefix = (db as NSString).lastPathComponent + ".importing-"
        return ((try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []).filter {
            $0.hasPrefix(prefix)
        }.sorted()
    }

    /// Sets the modification time of the files `names` (in the scratch folder) an hour back: a
    /// killed import's copy that has lain there a while.
    static func age(_ names: [String], in scratch: Scratch) throws {
        for name in names {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: -3_600)], ofItemAtPath: scratch.file(name))
        }
    }

    /// An export of one session with a title that must not outlive its deletion.
    static func exported(_ scratch: Scratch) async throws -> [String] {
        let source = scratch.file("source.sqlite")
        for arguments in [
            ["session", "start", "s"], ["push", "s", "A", "--title", "Secret title"], ["push", "s", "B"],
        ] {
            let result = try await scratch.navdb(["--db", source] + arguments)
            try #require(result.status == 0, "\(result)")
        }
        let export = try await scratch.navdb(["--db", source, "export", "s"])
        try #require(export.status == 0, "\(export)")
        return export.stdout.split(separator: "\n").map(String.init)
    }

    @Test("a killed import's copy is removed by the next import into the file; a running import's copy is kept")
    func nextImportRemovesTheCopy() async throws {
        let scratch = try Scratch("abandoned-import")
        let lines = try await Self.exported(scratch)
        let input = try scratch.write("all.ndjson", text: lines.joined(separator: "\n") + "\n")
        let db = scratch.file("new.sqlite")

        let killed = try await WaitingImport(scratch, db: db, name: "killed", firstLine: lines[0])
        killed.child.kill()
        let result = try await killed.child.wait()
        #expect(result.signal == SIGKILL, "\(result)")
        close(killed.writer)
        let left = Self.temporaries(of: db, in: scratch)
        #expect(left.count == 3, "the killed import left its database, -wal and -shm: \(left)")
        #expect(!FileManager.default.fileExists(atPath: db))
        // Just left, it may be an import opening its database: kept until quiet for 30 s (by an
        // import refused at its second line, which leaves nothing of its own either).
        let bad = try scratch.write("bad.ndjson", text: lines[0] + "\nnot json\n")
        let refused = try await scratch.navdb(["--db", db, "import", bad])
        #expect(refused.status == 65, "\(refused)")
        #expect(Self.temporaries(of: db, in: scratch) == left)
        try Self.age(left, in: scratch)

        let running = try await WaitingImport(scratch, db: db, name: "running", firstLine: lines[0])
        let building = Self.temporaries(of: db, in: scratch).filter { !left.contains($0) }
        #expect(building.count == 3, "\(building)")

        let next = try await scratch.navdb(["--db", db, "import", input])
        #expect(next.status == 0, "\(next)")
        #expect(
            Self.temporaries(of: db, in: scratch) == building, "the killed one's copy went, the running one's stayed")

        running.finish(Array(lines.dropFirst()))
        let finished = try await running.child.wait()
        #expect(finished.status == 0, "\(finished)")
        #expect(finished.stdout.contains("\(lines.count) already stored"), "\(finished)")
        #expect(Self.temporaries(of: db, in: scratch).isEmpty)
        let store = try NavigationStore(path: db, create: false)
        #expect(try await store.sessionInfo("s").version == lines.count)
    }

    @Test(
        "only navdb's own abandoned copies go: files that merely start with the name, and copies whose -shm cannot be looked at, stay"
    )
    func othersStay() async throws {
        let scratch = try Scratch("abandoned-import-others")
        let lines = try await Self.exported(scratch)
        let db = scratch.file("new.sqlite")
        let killed = try await WaitingImport(scratch, db: db, name: "killed", firstLine: lines[0])
        killed.child.kill()
        _ = try await killed.child.wait()
        close(killed.writer)
        let left = Self.temporaries(of: db, in: scratch)
        let copy = try #require(left.first { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        // The user's own files: a name that only starts like navdb's, one whose random part
        // could be navdb's but that is no SQLite file, and its "journal".
        let mine = [
            "new.sqlite.importing-2026-11-30.ndjson", "new.sqlite.importing-notes",
            "new.sqlite.importing-notes-journal",
        ]
        for name in mine { try scratch.write(name, text: "the user's notes\n") }
        // A copy another user's import is building: its -shm cannot be opened to look
        // (here a link that loops, ELOOP; as another user, EACCES).
        let held = "new.sqlite.importing-zzheld"
        try FileManager.default.copyItem(atPath: scratch.file(copy), toPath: scratch.file(held))
        try #require(symlink(held + "-shm", scratch.file(held + "-shm")) == 0)
        try Self.age(Self.temporaries(of: db, in: scratch).filter { $0 != held + "-shm" }, in: scratch)

        let next = try await scratch.navdb([
            "--db", db, "import", scratch.write("all.ndjson", text: lines.joined(separator: "\n") + "\n"),
        ])
        #expect(next.status == 0, "\(next)")
        #expect(
            Self.temporaries(of: db, in: scratch) == (mine + [held, held + "-shm"]).sorted(),
            "only the killed copy went")
        for name in mine {
            #expect(try String(contentsOfFile: scratch.file(name), encoding: .utf8) == "the user's notes\n")
        }
    }

    @Test("session delete removes a killed import's copy beside the database, whatever it holds of the session")
    func deletionRemovesTheCopy() async throws {
        let scratch = try Scratch("abandoned-import-delete")
        let lines = try await Self.exported(scratch)
        let db = scratch.file("app.sqlite")
        let killed = try await WaitingImport(scratch, db: db, name: "killed", firstLine: lines[0])
        killed.send([lines[1]])
        killed.child.kill()
        _ = try await killed.child.wait()
        close(killed.writer)
        #expect(Self.temporaries(of: db, in: scratch).count == 3)
        try Self.age(Self.temporaries(of: db, in: scratch), in: scratch)

        for arguments in [["session", "start", "s"], ["push", "s", "A", "--title", "Secret title"]] {
            let result = try await scratch.navdb(["--db", db] + arguments)
            #expect(result.status == 0, "\(result)")
        }
        let deleted = try await scratch.navdb(["--db", db, "session", "delete", "s"])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(Self.temporaries(of: db, in: scratch).isEmpty)
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.path) where name.hasPrefix("app.sqlite")
        {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.file(name)))
            #expect(bytes.range(of: Data("Secret title".utf8)) == nil, "\(name) still holds the deleted title")
        }
    }
}
