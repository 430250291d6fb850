import Foundation
import NavStore
import NavStoreTools
import Testing

/// With `SIGPIPE` ignored, a closed pipe is only an `EPIPE` from `write`; a
/// streaming command stops at the first write that failed (exit 73) instead of reading the rest
/// of the log.
@Suite("Reliability: closed and full outputs")
struct ClosedOutputTests {
    /// A database whose session `s` has `count` events (a root, then pushes and pops) and whose
    /// last event's payload is unreadable: a command that read the log to its end would stop
    /// there with a payload error, so reaching it shows that the closed output went unnoticed.
    static func logWithUnreadableEnd(_ sandbox: Sandbox, count: Int) throws {
        let store = try NavigationStore(path: sandbox.databaseArgument)
        var lines: [String] = []
        func line(_ version: Int, _ type: String, _ payload: String) {
            lines.append(
                #"{"at":1700000000000,"eventID":"\#(UUID().uuidString)","payload":\#(payload),"session":"s","type":"\#(type)","version":\#(version)}"#
            )
        }
        line(1, "session.started", "{}")
        line(2, "entry.pushed", #"{"entry":{"id":"root"}}"#)
        for version in 3...count {
            if version % 2 == 1 {
                line(version, "entry.pushed", #"{"entry":{"id":"e","item":{"title":"Screen \#(version)"}}}"#)
            } else {
                line(version, "entries.popped", #"{"ids":["e"],"source":"programmatic"}"#)
            }
        }
        try store.importNDJSON(lines: lines)
        let trigger =
            sandbox.databaseURI == nil
            ? "DROP TRIGGER events_no_update" : "DROP TRIGGER events_no_update_or_delete ON events"
        try sandbox.executeSQL(trigger)
        try sandbox.executeSQL("UPDATE events SET payload = '{' WHERE version = \(count)")
    }

    /// Runs `navdb --db $DB <command>` with `SIGPIPE` ignored and its stdout a pipe whose reader
    /// has gone; returns navdb's stderr and exit status.
    static func intoClosedPipe(_ sandbox: Sandbox, _ command: String) throws -> (status: Int32?, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let errPath = sandbox.directory.appendingPathComponent(".closed-pipe-\(UUID().uuidString)").path
        process.arguments = [
            "-c", #"trap '' PIPE; { "$NAVDB" --db "$DB" \#(command) 2>"$ERR"; echo $? >>"$ERR.status"; } | true"#,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["NAVDB"] = try Navdb.binary().path
        environment["DB"] = sandbox.databaseArgument
        environment["ERR"] = errPath
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        let status = (try? String(contentsOfFile: errPath + ".status", encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return (status, (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    @Test(
        "history, export and replay stop at the first failed write into a closed pipe (SIGPIPE ignored): exit 73",
        arguments: Reliability.backends)
    func closedPipe(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try Self.logWithUnreadableEnd(sandbox, count: 4_000)
        // The unreadable end is there: a command that reads everything meets it.
        let all = try sandbox.run(["history", "s"])
        #expect(all.status == 65 && all.stderr.contains("payload"), "\(all)")
        for command in ["history s", "--json history s", "export s", "export --all", "replay s", "--json replay s"] {
            let result = try Self.intoClosedPipe(sandbox, command)
            #expect(result.status == 73, "\(command): exit \(String(describing: result.status)), \(result.stderr)")
            #expect(
                result.stderr
                    == "Error: cannot write the output: Broken pipe; the output is incomplete (what the command did to the database stands)\n",
                "\(command): \(result.stderr)")
        }
    }
}
