import Foundation
import Testing

/// Several `navdb` processes writing one file at once (README "Reliability"): no lost update, no
/// `database is locked` escaping, and a stale `--expect-version` is a clean conflict.
@Suite struct ConcurrentWritersTests {
    @Test("concurrent pushes from many processes are all kept")
    func concurrentPushesAreAllKept() throws {
        let sandbox = try Sandbox()
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

    @Test("of writers with the same --expect-version only one wins; the others get a conflict")
    func onlyOneWriterWinsTheSameExpectedVersion() throws {
        let sandbox = try Sandbox()
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
}

/// A value shared between threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
