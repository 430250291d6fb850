#!/usr/bin/env bash
# The fast tier of the tests (CONTRIBUTING.md): the model, the store, the codec and the CLI's
# parsing and output, every behaviour case and UIKit trace through the library and a sample of
# the cases through navdb, on SQLite, in at most 3 minutes after `swift build --build-tests` on a
# 2-core machine. The full suite (the README's test command, what CI runs) adds the PostgreSQL
# half, the reliability suites (kills, many processes, fuzzing, damaged files), the browser tests,
# the README's tour, the package shape and the recorder's long waits.
#
#   scripts/test-fast.sh                 build, then run the fast tier
#   scripts/test-fast.sh --filter Lint   any further swift test arguments are passed on
set -euo pipefail
cd "$(dirname "$0")/.."
# The suites left to the full run, by test id (`swift test list` prints them): navdbTests'
# Tests/navdbTests/Reliability/ suites, the Chromium ones, the README's tour and the bench's
# report (each runs navdb or navdb-bench hundreds of times, or a browser); the package shape
# (swift package dump-package). The PostgreSQL half skips itself without a server.
slow='navdbTests\.(Reliability[A-Za-z]*|ForeignFileTests|DeepJSONTests|AbandonedImportTests|ServerLossTests|RecorderReliabilityTests|KillImportTests|ClosedOutputTests|BackendDifferenceTests|[A-Za-z]*BrowserTests|ReadmeTests|BenchReportTests)/|NavStoreTests\.PackageShapeTests/'
export NAVSTORE_TEST_TIER=fast
# No PostgreSQL server: its half is skipped, and says so.
unset NAVDB_TEST_POSTGRESQL NAVDB_TEST_POSTGRESQL_PASSWORD NAVDB_TEST_POSTGRESQL_SECRET
started=$(date +%s)
swift build --build-tests
built=$(date +%s)
status=0
swift test --skip-build --skip "$slow" "$@" || status=$?
echo "test-fast: build $((built - started)) s, tests $(($(date +%s) - built)) s"
exit "$status"
