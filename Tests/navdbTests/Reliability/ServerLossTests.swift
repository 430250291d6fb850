import Foundation
import NavStore
import NavStoreTools
import NavStorePostgreSQL
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#endif

/// Server down, wrong password, missing database, a server killed mid-append: exit 74 with
/// libpq's reason, nothing half-written (the append is one transaction), and a password in the
/// URI or in the environment is never printed (README "Reliability"). The append here is an `import -` whose input
/// the test holds open: navdb has begun its transaction and sent its first batch of 500 events
/// when the server goes away; then the input ends and navdb's next statement meets the loss.
/// PostgreSQL only by nature (a SQLite writer has no server; KillTests kills SQLite writers).
@Suite(
    "Reliability: the PostgreSQL server lost mid-append",
    .enabled(if: CommandBackend.server != nil, CommandBackend.skipReason))
struct ServerLossTests {
    /// Import lines of session `t`: its start and `count - 1` pushes, with UUID event ids.
    static func lines(count: Int) -> [String] {
        (1...count).map { version in
            let id = String(format: "00000000-0000-7000-8000-%012d", version)
            let (type, payload) =
                version == 1 ? ("session.started", "{}") : ("entry.pushed", #"{"entry":{"id":"e\#(version)"}}"#)
            return
                #"{"at":1700000000000,"eventID":"\#(id)","payload":\#(payload),"session":"t","type":"\#(type)","version":\#(version)}"#
        }
    }

    /// `uri` (a role's URI without a password) with `password` put in as `user:password@`.
    static func withPassword(_ uri: String, _ password: String) -> String {
        uri.replacingOccurrences(of: "://navdb_pw@", with: "://navdb_pw:\(password)@")
    }

    /// `navdb import -` running on `uri`, its input a pipe the test writes.
    final class HeldImport: @unchecked Sendable {
        let process = Process()
        let input = Pipe()
        let output: URL

        init(uri: String, directory: URL, environment: [String: String]) throws {
            process.executableURL = try Navdb.binary()
            process.arguments = ["--db", uri, "import", "-"]
            var env = ProcessInfo.processInfo.environment
            env["NAVDB_PATH"] = nil
            for (key, value) in environment { env[key] = value }
            process.environment = env
            output = directory.appendingPathComponent("import-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: output.path + ".out", contents: nil)
            _ = FileManager.default.createFile(atPath: output.path + ".err", contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".out"))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output.path + ".err"))
            process.standardInput = input
            // A navdb that ended early makes the next write an error (EPIPE), not a signal that ends the tests.
            signal(SIGPIPE, SIG_IGN)
            try process.run()
        }

        /// Writes `lines`; `false` when navdb has stopped reading (it ended: its result says why).
        @discardableResult
        func write(_ lines: ArraySlice<String>) -> Bool {
            (try? input.fileHandleForWriting.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8)))
                != nil
        }

        /// Ends the input and waits for navdb.
        func finish() throws -> CommandResult {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            return CommandResult(
                status: process.terminationStatus,
                stdout: (try? String(contentsOfFile: output.path + ".out", encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOfFile: output.path + ".err", encoding: .utf8)) ?? "")
        }
    }

    /// Waits until the server shows the connection named `application` inside a transaction that
    /// has written (it has a transaction id), and returns the backend's process id. The polling
    /// runs on a thread of its own: on a loaded machine the test runner's pool can be busy for
    /// minutes, and a deadline measured between its turns would pass unseen.
    static func waitForOpenWrite(admin: String, application: String, held: HeldImport) async throws -> Int64 {
        let found = try await onThread { () throws -> Int64? in
            let db = try PostgreSQLConnection(uri: admin)
            let deadline = Date().addingTimeInterval(300)
            while Date() < deadline && held.process.isRunning {
                if let row = try db.queryFirst(
                    sql:
                        "SELECT pid FROM pg_stat_activity WHERE application_name = ? AND state = 'idle in transaction' AND backend_xid IS NOT NULL",
                    arguments: [.text(application)]), case .integer(let pid) = row.first
                {
                    return pid
                }
                usleep(20_000)
            }
            return nil
        }
        if let found { return found }
        guard held.process.isRunning else {
            throw Reliability.Failure("navdb's import ended before the server went away: \(try held.finish())")
        }
        let states = try PostgreSQLConnection(uri: admin).query(
            sql: "SELECT state, backend_xid::text FROM pg_stat_activity WHERE application_name = ?",
            arguments: [.text(application)]
        ).rows
        throw Reliability.Failure("navdb's import never showed an open write transaction on the server: \(states)")
    }

    /// libpq's reasons for a connection whose server went away, besides the server's own last word
    /// (which navdb reads only when it was reading, not writing, when the server left).
    static let lostReasons = [
        "server closed the connection unexpectedly", "no connection to the server", "could not send data to server",
        "could not receive data from server",
    ]

    /// Starts session `s` (version 2) on `uri`, then an import of session `t` whose first 600 of
    /// 1,200 lines are written: returns it once the server shows its transaction open and written
    /// to, with the backend's process id and the lines still to write.
    static func importHalfWay(
        uri: String, environment: [String: String], sandbox: Sandbox, admin: String, application: String
    ) async throws -> (HeldImport, Int64, ArraySlice<String>) {
        for arguments in [["session", "start", "s"], ["push", "s", "A"]] {
            let result = try sandbox.run(["--db", uri] + arguments, environment: environment)
            #expect(result.status == 0, "\(result)")
        }
        let lines = lines(count: 1_200)
        let held = try HeldImport(uri: uri, directory: sandbox.directory, environment: environment)
        held.write(lines[..<600])
        let pid = try await waitForOpenWrite(admin: admin, application: application, held: held)
        return (held, pid, lines[600...])
    }

    /// What every failure must look like: exit 74, one line `Error: cannot use database
    /// '<the URI without its password>': <libpq's reason>`, no password anywhere.
    static func expectUnusable(
        _ result: CommandResult, shownURI: String, reason: [String], secret: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 74, "\(result)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.hasPrefix("Error: cannot use database '\(shownURI)': "), "\(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            reason.contains { result.stderr.contains($0) }, "not libpq's reason (one of \(reason)): \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            !result.stderr.contains(secret) && !result.stdout.contains(secret), "the password was printed: \(result)",
            sourceLocation: sourceLocation)
    }

    /// The session `s` unchanged (version 2), no trace of `t`, `check` clean.
    static func expectNothingHalfWritten(_ uri: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let store = try NavigationStore(path: uri, create: false)
        #expect(try store.sessions().map(\.key) == ["s"], sourceLocation: sourceLocation)
        #expect(try store.sessionInfo("s").version == 2, sourceLocation: sourceLocation)
        #expect(try StoreProbe.allEvents(store).count == 2, sourceLocation: sourceLocation)
        #expect(try store.check().isClean, sourceLocation: sourceLocation)
    }

    @Test(
        "the server ending navdb's connection mid-import: exit 74 with libpq's reason, no password shown, nothing of the import kept",
        arguments: [true, false])
    func connectionTerminated(passwordInURI: Bool) async throws {
        let server = try #require(CommandBackend.server)
        let secret = try #require(ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_SECRET"])
        let role = try #require(ProcessInfo.processInfo.environment["NAVDB_TEST_POSTGRESQL_PASSWORD"])
        let schema = try CommandBackend.freshSchemaURI()
        let application = "navdb-loss-\(UUID().uuidString.prefix(8))"
        let shown =
            role + "&" + schema[schema.range(of: "options=")!.lowerBound...] + "&application_name=\(application)"
        let uri = passwordInURI ? Self.withPassword(shown, secret) : shown
        let environment = passwordInURI ? [:] : ["PGPASSWORD": secret]
        let sandbox = try Sandbox()
        let (held, pid, rest) = try await Self.importHalfWay(
            uri: uri, environment: environment, sandbox: sandbox, admin: server, application: application)
        let admin = try PostgreSQLConnection(uri: server)
        #expect(
            try admin.queryFirst(sql: "SELECT pg_terminate_backend(?::integer)", arguments: [.integer(pid)]) == [
                .integer(1)
            ])
        held.write(rest)
        let result = try held.finish()
        Self.expectUnusable(
            result, shownURI: shown, reason: ["terminating connection due to administrator command"] + Self.lostReasons,
            secret: secret)
        try Self.expectNothingHalfWritten(schema)
        // A new run reconnects and finds the same.
        let check = try sandbox.run(["--db", uri, "check"], environment: environment)
        #expect(check.status == 0 && !check.stdout.contains(secret), "\(check)")
    }

    /// A throwaway cluster of this test's own (`scripts/with-postgresql.sh`), to stop and restart.
    struct OwnCluster {
        let script: Child
        /// The pid of the command the script runs (`sleep`): ending it stops and removes the cluster.
        /// It sleeps two hours, far past any run: the test ends it (``remove()``, or its `defer`).
        /// A 600 s sleep ran out on a machine loaded by parallel builds, and the cluster went away
        /// before the test had used it.
        let command: pid_t
        let trusted: String
        let role: String
        let secret: String
        let directory: String

        init(_ scratch: Scratch) async throws {
            let script = Navdb.packageRoot.appendingPathComponent("scripts/with-postgresql.sh").path
            let info = scratch.file("cluster")
            let write =
                #"printf '%s\n' "$$" "$NAVDB_TEST_POSTGRESQL" "$NAVDB_TEST_POSTGRESQL_PASSWORD" "$NAVDB_TEST_POSTGRESQL_SECRET" >"$0.tmp" && mv "$0.tmp" "$0" && exec sleep 7200"#
            self.script = try Child(
                "/bin/bash", [script, "/bin/sh", "-c", write, info], directory: scratch.path, io: scratch.ioFiles())
            let deadline = Date().addingTimeInterval(120)
            while !FileManager.default.fileExists(atPath: info) {
                if try self.script.poll() != nil || Date() > deadline {
                    throw Reliability.Failure(
                        "scripts/with-postgresql.sh did not start a cluster: \(try await self.script.wait())")
                }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            let lines = try String(contentsOfFile: info, encoding: .utf8).split(separator: "\n").map(String.init)
            command = pid_t(lines[0])!
            (trusted, role, secret) = (lines[1], lines[2], lines[3])
            directory = String(trusted[trusted.range(of: "host=")!.upperBound...].prefix { $0 != "&" })
        }

        /// The postmaster's process id.
        func postmaster() throws -> pid_t {
            let text = try String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8)
            return pid_t(text.prefix { $0 != "\n" })!
        }

        /// Starts the stopped cluster again, with the server binaries the script used (`bin`).
        func restart(bin: String, scratch: Scratch) async throws {
            var command = [bin + "/pg_ctl"]
            if Reliability.isRoot { command = ["/usr/sbin/runuser", "-u", "nobody", "--"] + command }
            let options = "-c listen_addresses='' -c unix_socket_directories='\(directory)' -c fsync=off"
            let result = try await scratch.tool(
                command[0],
                Array(command.dropFirst()) + [
                    "-D", directory + "/data", "-l", directory + "/restart.log", "-w", "-o", options, "start",
                ],
                timeout: 120)
            guard result.status == 0 else { throw Reliability.Failure("the cluster did not restart: \(result)") }
        }

        /// Stops and removes the cluster (the script's own clean-up), and waits for it.
        func remove() async throws {
            stopServer()
            _ = Glibc.kill(command, SIGTERM)
            _ = try await script.wait(timeout: 120)
            // The script deletes its folder on exit; seen left behind once the server was restarted.
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Stops the server at once (SIGQUIT, what `pg_ctl stop -m immediate` sends), whoever
        /// started it: a server this test restarted is not the script's child, and was seen to
        /// outlive the script and the test run.
        func stopServer() {
            guard let postmaster = try? postmaster() else { return }
            _ = Glibc.kill(postmaster, SIGQUIT)
            var waited = 0
            while Glibc.kill(postmaster, 0) == 0 && waited < 200 {
                usleep(20_000)
                waited += 1
            }
        }
    }

    @Test(
        "the server shut down at once (immediate: a crash) mid-import: exit 74 with libpq's reason, no password shown; restarted, nothing of the import is there"
    )
    func serverStopped() async throws {
        let scratch = try Scratch("server-stop")
        let sandbox = try Sandbox()
        let cluster = try await OwnCluster(scratch)
        defer {
            cluster.stopServer()
            _ = Glibc.kill(cluster.command, SIGTERM)
        }
        let application = "navdb-stop"
        let shown = cluster.role + "&application_name=\(application)"
        let uri = Self.withPassword(shown, cluster.secret)
        // The password both in the URI and in PGPASSWORD: neither may show.
        let environment = ["PGPASSWORD": cluster.secret]
        let (held, _, rest) = try await Self.importHalfWay(
            uri: uri, environment: environment, sandbox: sandbox, admin: cluster.trusted, application: application)
        let postmaster = try cluster.postmaster()
        let bin = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(postmaster)/exe")
        // SIGQUIT is what `pg_ctl stop -m immediate` sends: every server process quits at once.
        _ = Glibc.kill(postmaster, SIGQUIT)
        while Glibc.kill(postmaster, 0) == 0 { try await Task.sleep(nanoseconds: 20_000_000) }
        held.write(rest)
        Self.expectUnusable(
            try held.finish(), shownURI: shown,
            reason: ["terminating connection due to immediate shutdown command"] + Self.lostReasons,
            secret: cluster.secret)
        // While it is down: libpq's reason for the missing socket, and still no password.
        let down = try sandbox.run(["--db", uri, "push", "s", "B"], environment: environment)
        Self.expectUnusable(down, shownURI: shown, reason: ["No such file or directory"], secret: cluster.secret)

        try await cluster.restart(bin: URL(fileURLWithPath: bin).deletingLastPathComponent().path, scratch: scratch)
        try Self.expectNothingHalfWritten(cluster.trusted)
        try await cluster.remove()
    }
}
