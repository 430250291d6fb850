// Which tier of the tests runs: the full suite (`swift test`, what CI runs) or the fast tier
// (`scripts/test-fast.sh`, CONTRIBUTING.md), which sets NAVSTORE_TEST_TIER=fast. The fast tier
// skips the slow suites by name (the script's --skip list) and, here, runs a sample where a
// suite drives every case through many processes.
import Foundation

/// The tier of this test run.
package enum TestTier {
    /// The environment variable `scripts/test-fast.sh` sets to `fast`.
    package static let environmentKey = "NAVSTORE_TEST_TIER"

    /// Whether this is the fast tier (`NAVSTORE_TEST_TIER=fast`).
    package static var isFast: Bool {
        ProcessInfo.processInfo.environment[environmentKey] == "fast"
    }

    /// The behaviour cases the CLI's runner runs: every one in the full tier; in the fast tier
    /// the first case of each file and every case only `../shared/` has (the library's runner
    /// still runs them all), so each file's shape and each kind of step still goes through
    /// `navdb` once.
    package static func cliCases(_ cases: [SharedCase]) -> [SharedCase] {
        guard isFast else { return cases }
        var files: Set<String> = []
        return cases.filter { $0.fromShared || files.insert("\($0.platform.rawValue)/\($0.file)").inserted }
    }
}
