import Foundation
import NavStore
import NavStoreTools
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#endif

/// README "Reliability": an append is one transaction, so a `navdb import` killed
/// with SIGKILL at any moment leaves all of its events or none, on a file as on a server (where
/// the kill closes the connection and the server rolls the open transaction back).
@Suite("Reliability: an import killed at any instant")
struct KillImportTests {
    @Test(
        "navdb import killed with SIGKILL at random moments: all of its events or none, the rest untouched, check clean",
        arguments: Reliability.backends)
    func importKilled(backend: CommandBackend) async throws {
        let kills = Reliability.count(8, long: 80)
        let events = 1_000
        let navdb = try Navdb.binary().path
        let scratch = try Scratch("kill-import", backend: backend)
        var random = Reliability.random(11)
        let input = try scratch.write(
            "import.ndjson", text: ServerLossTests.lines(count: events).joined(separator: "\n") + "\n")
        func prepared(_ db: String) async throws {
            for arguments in [["session", "start", "s"], ["push", "s", "A"]] {
                let result = try await scratch.navdb(["--db", db] + arguments)
                #expect(result.status == 0, "\(result)")
            }
        }
        // How long a whole import takes here and now: the kills land in 0-120 % of it.
        let timed = try scratch.newDatabase("timed.sqlite")
        try await prepared(timed)
        let whole = try await scratch.navdb(["--db", timed, "import", input], timeout: 300)
        #expect(whole.status == 0, "\(whole)")
        let span = max(1_000, Int(whole.seconds * 1.2e6))
        var outcomes = ["none": 0, "all": 0]
        for kill in 0..<kills {
            let db = try scratch.newDatabase("copy-\(kill).sqlite")
            try await prepared(db)
            let delay = random.int(0...span)
            let child = try Child(navdb, ["--db", db, "import", input], directory: scratch.path, io: scratch.ioFiles())
            try await onThread {
                usleep(useconds_t(delay))
                child.kill()
            }
            let result = try await child.wait()
            let repro = "kill \(kill) after \(delay) µs (\(backend); NAVSTORE_RELIABILITY_SEED=\(Reliability.seed))"
            #expect(result.signal == SIGKILL || result.status == 0, "\(repro): \(result)")
            let store = try NavigationStore(path: db, create: false)
            #expect(try await store.sessionInfo("s").version == 2, "\(repro)")
            let imported = try await store.sessions().contains { $0.key == "t" }
            if imported {
                #expect(try await store.sessionInfo("t").version == events, "\(repro): a part of the import is stored")
                outcomes["all", default: 0] += 1
            } else {
                outcomes["none", default: 0] += 1
            }
            #expect(try StoreProbe.allEvents(store).count == 2 + (imported ? events : 0), "\(repro)")
            let problems = try StoreProbe.problems(store, probes: 1, random: &random)
            #expect(problems.isEmpty, "\(repro): \(problems)")
        }
        Reliability.summary(
            "kill during import (\(backend))",
            "\(kills) SIGKILLs of 'navdb import' of \(events) events, 0-\(span / 1_000) ms after its start (120 % of a whole import's \(String(format: "%.2f", whole.seconds)) s): \(outcomes["none"] ?? 0) left none of it, \(outcomes["all"] ?? 0) all of it, never a part; check clean every time"
        )
    }
}
