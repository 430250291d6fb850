#!/usr/bin/env bash
# Where the full suite's time goes: runs each group of suites alone (after one build) and prints
# its wall time, with and without the PostgreSQL server, so that the PostgreSQL half's cost shows
# as the difference. Each group's own time is a floor: the full run overlaps them on 2 cores.
#
#   scripts/time-tests.sh            every group, through scripts/with-postgresql.sh
#   scripts/time-tests.sh --no-pg    every group without a server (the PostgreSQL half skipped)
set -euo pipefail
cd "$(dirname "$0")/.."
reliability='navdbTests\.(Reliability[A-Za-z]*|ForeignFileTests|DeepJSONTests|AbandonedImportTests|ServerLossTests|RecorderReliabilityTests|KillImportTests|ClosedOutputTests|BackendDifferenceTests)/'
browser='navdbTests\.([A-Za-z]*BrowserTests|ReadmeTests|BenchReportTests)/'
groups=(
  "library (NavStoreTests);--filter;^NavStoreTests\\."
  "CLI (navdbTests but the below);--filter;^navdbTests\\.;--skip;$reliability;--skip;$browser"
  "CLI reliability suites;--filter;$reliability"
  "browser, README tour, bench report;--filter;$browser"
)
swift build --build-tests >/dev/null
run() {
  local label=$1
  shift
  local started
  started=$(date +%s)
  local log
  log=$(mktemp)
  if "$@" >"$log" 2>&1; then status=passed; else status=FAILED; fi
  local summary
  summary=$(grep -E 'Test run with' "$log" | tail -1 | sed -E 's/.*Test run with ([0-9]+ tests?).*/\1/' || true)
  printf '%-40s %4d s  %s, %s\n' "$label" "$(($(date +%s) - started))" "$summary" "$status"
  # A failed group's output is kept for reading.
  if [ "$status" = passed ]; then rm -f "$log"; else echo "  its output: $log"; fi
}
for group in "${groups[@]}"; do
  IFS=';' read -r -a parts <<<"$group"
  label=${parts[0]}
  args=("${parts[@]:1}")
  if [ "${1:-}" = --no-pg ]; then
    run "$label" env -u NAVDB_TEST_POSTGRESQL swift test --skip-build "${args[@]}"
  else
    run "$label" scripts/with-postgresql.sh swift test --skip-build "${args[@]}"
  fi
done
