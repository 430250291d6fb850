import Foundation
import NavStore
import NavStoreTools
import Testing

/// docs/postgresql.md: "Every command, output and exit code is the same on PostgreSQL". The argument
/// fuzz's command lines (ReliabilityFuzzTests), run one after the other on a SQLite file and on a
/// PostgreSQL schema that started alike, must give the same exit code, stdout and stderr, and
/// leave the same log. Only what differs between any two runs is masked: the clock, event ids and
/// the database's name.
@Suite(
    "Reliability: SQLite and PostgreSQL answer alike",
    .enabled(if: CommandBackend.server != nil, CommandBackend.skipReason))
struct BackendDifferenceTests {
    /// `text` with the run's own values masked: times (ISO 8601, and ms since the Unix epoch),
    /// UUIDs (event ids), redaction hashes, the database's name and the scratch folder.
    static func masked(_ text: String, _ scratch: Scratch) -> String {
        var text = text.replacingOccurrences(of: scratch.database, with: "<db>")
        text = text.replacingOccurrences(of: scratch.path, with: "<dir>")
        for (pattern, mask) in [
            // export --redact's hashes, keyed by a random key per export: first, since a hash's
            // hexadecimal digits can hold a run of 13 decimal ones, which the time's mask below
            // would take for milliseconds (seed 1099485467, step 142: "h:<ms>f19").
            (#"h:[0-9a-f]{16}"#, "<hash>"),
            (#"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})"#, "<time>"),
            (#"(?<![0-9])[0-9]{13}(?![0-9])"#, "<ms>"),
            (#"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"#, "<uuid>"),
        ] {
            text = text.replacingOccurrences(of: pattern, with: mask, options: .regularExpression)
        }
        return text
    }

    /// What one run showed, masked.
    static func seen(_ result: ChildResult, _ scratch: Scratch) -> String {
        "exit \(result.status)\n--- stdout\n\(masked(result.stdout, scratch))--- stderr\n\(masked(result.stderr, scratch))"
    }

    @Test("the same random command lines on SQLite and PostgreSQL: the same exit code, stdout, stderr and log")
    func sameAnswers() async throws {
        let steps = Reliability.count(150, long: 1_500)
        var random = Reliability.random(10)
        let sqlite = try await ReliabilityFuzzTests.fuzzScratch("alike-sqlite", backend: .sqlite)
        let postgresql = try await ReliabilityFuzzTests.fuzzScratch("alike-postgresql", backend: .postgresql)
        var differences: [String] = []
        var statuses: [Int32: Int] = [:]
        let closing = [["check"], ["--json", "sessions"], ["export", "--all"], ["--json", "history", "s"]]
        for n in 0..<(steps + closing.count) {
            let words = n < steps ? ReliabilityFuzzTests.commandLine(n, &random) : closing[n - steps]
            let onSQLite = try await sqlite.navdb(words, timeout: 30)
            let onPostgreSQL = try await postgresql.navdb(words, timeout: 30)
            statuses[onSQLite.status, default: 0] += 1
            let (a, b) = (Self.seen(onSQLite, sqlite), Self.seen(onPostgreSQL, postgresql))
            if a != b {
                let shown = words.map { $0.count > 40 ? String($0.prefix(40)) + "..." : $0 }
                differences.append(
                    "\(shown):\n[SQLite]\n\(a.prefix(1_500))\n[PostgreSQL]\n\(b.prefix(1_500))\n[NAVSTORE_RELIABILITY_SEED=\(Reliability.seed) swift test --filter BackendDifferenceTests (step \(n))]"
                )
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences, the first: \(differences.prefix(3))")
        let histogram = statuses.keys.sorted().map { "\($0): \(statuses[$0]!)" }.joined(separator: ", ")
        Reliability.summary(
            "SQLite and PostgreSQL alike",
            "\(steps) random and mutated command lines, then check, sessions, export and history, on both backends: exits {\(histogram)}, \(differences.count) differences in exit code, stdout or stderr"
        )
    }
}
