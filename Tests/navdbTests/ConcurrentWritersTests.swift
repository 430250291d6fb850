import Foundation
import NavStore
import NavStoreTools
import TestSupport
import Testing

/// Several `navdb` processes writing one file at once (README "Reliability"): no lost update, no
/// `database is locked` escaping, and a stale `--expect-version` is a clean conflict.
@Suite struct ConcurrentWritersTests {
    @Test("concurrent pushes from many processes are all kept", arguments: CommandBackend.all)
    func concurrentPushesAreAllKept(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        try sandbox.ok(["push", "s", "root"])
        let count = 8
        let results = Locked([Int: CommandResult]())
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let result = try? sandbox.run(["--json", "push", "s", "E\(i)"])
            results.withLock { $0[i] = result }
        }
        let all = results.withLock { $0 }
        let versions = try (0..<count).map { i -> Int in
            let result = try #require(all[i])
            #expect(result.status == 0, "\(result)")
            return try result.object()["version"] as? Int ?? -1
        }
        #expect(Set(versions) == Set(3...(count + 2)))
        let stack = try sandbox.ok(["--json", "stack", "s"]).object()
        let entries = (stack["layers"] as? [[String: Any]])?.first?["entries"] as? [[String: Any]] ?? []
        #expect(entries.count == count + 1)
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
    }

    @Test(
        "of writers with the same --expect-version only one wins; the others get a conflict",
        arguments: CommandBackend.all)
    func onlyOneWriterWinsTheSameExpectedVersion(backend: CommandBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.ok(["session", "start", "s"])
        let count = 6
        let statuses = Locked([Int32]())
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let status = (try? sandbox.run(["push", "s", "E\(i)", "--expect-version", "1"]))?.status ?? -1
            statuses.withLock { $0.append(status) }
        }
        let all = statuses.withLock { $0 }.sorted()
        #expect(all == [0] + Array(repeating: 4, count: count - 1))
    }

    @Test(
        "8 processes pushing 4 entries each, on one session and on 8 sessions: every event kept once, versions gapless, check clean",
        arguments: CommandBackend.all, [true, false])
    func eightWriters(backend: CommandBackend, oneSession: Bool) throws {
        let sandbox = try Sandbox(backend: backend)
        let writers = 8
        let pushes = 4
        let keys = (0..<writers).map { oneSession ? "s" : "s\($0)" }
        for key in Set(keys) { try sandbox.ok(["session", "start", key]) }
        let failures = Locked([String]())
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            for push in 0..<pushes {
                let result = try? sandbox.run(["push", keys[writer], "w\(writer)-\(push)"])
                if result?.status != 0 {
                    failures.withLock { $0.append("\(writer)/\(push): \(String(describing: result))") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let lines = try sandbox.ok(["export", "--all"]).lines.map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        var versions: [String: [Int]] = [:]
        var pushed: [String] = []
        for line in lines {
            versions[line["session"] as? String ?? "?", default: []].append(line["version"] as? Int ?? -1)
            if line["type"] as? String == "entry.pushed",
                let entry = (line["payload"] as? [String: Any])?["entry"] as? [String: Any]
            {
                pushed.append(entry["id"] as? String ?? "?")
            }
        }
        #expect(pushed.sorted() == (0..<writers).flatMap { w in (0..<pushes).map { "w\(w)-\($0)" } }.sorted())
        for (key, list) in versions { #expect(list.sorted() == Array(1...list.count), "session \(key)") }
        #expect(versions.values.map(\.count).reduce(0, +) == writers * pushes + Set(keys).count)
        #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
    }

    @Test(
        "two concurrent imports of the same export: each report counts every event, together they import each once",
        arguments: CommandBackend.all)
    func concurrentImportsCountEveryEvent(backend: CommandBackend) throws {
        let source = try Sandbox(backend: .sqlite)
        let store = try NavigationStore(path: source.database.path)
        try store.startSession("s", at: 1_700_000_000_000)
        try store.append(contentsOf: (1...999).map { .push(Entry(id: "e\($0)")) }, session: "s", at: 1_700_000_000_001)
        let export = try source.ok(["export", "--all"]).stdout
        let events = export.split(separator: "\n").count
        for round in 1...3 {
            let sandbox = try Sandbox(backend: backend)
            let file = try sandbox.write("events.ndjson", export)
            try sandbox.ok(["session", "start", "other"])
            let reports = Locked([[String: Any]]())
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                let result = try? sandbox.run(["--json", "import", file])
                let report = (try? result?.object()) ?? ["failed": "\(String(describing: result))"]
                reports.withLock { $0.append(report) }
            }
            let both = reports.withLock { $0 }
            for report in both {
                let counted = (report["imported"] as? Int ?? -1) + (report["skipped"] as? Int ?? -1)
                #expect(counted == events, "round \(round): \(report)")
            }
            #expect(both.map { $0["imported"] as? Int ?? -1 }.reduce(0, +) == events, "round \(round): \(both)")
            #expect(try sandbox.ok(["export", "s"]).lines.count == events)
            #expect(try sandbox.ok(["check"]).stdout.hasSuffix("ok\n"))
        }
    }
}
