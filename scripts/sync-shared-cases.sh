#!/usr/bin/env bash
# Copies the test data the tests need from ../shared/ into Tests/Fixtures/, keeping file names:
# the behaviour cases (cases, cases-ios26, cases-gestures, cases-tabs), the UIKit and SwiftUI
# traces and the files navdb 0.1.0 wrote. The repository carries its own copy so that a clone
# without ../shared runs the whole suite; when ../shared is there, the tests also run every case
# and trace there whose id the copy lacks (Tests/Fixtures/README.md). real-inputs/ is never
# copied: its licences keep it in shared/.
#
#   scripts/sync-shared-cases.sh          copy every file that is new or differs, and say which
#   scripts/sync-shared-cases.sh --check  only say which differ; exit 1 when one does
#   SHARED=/path/to/shared scripts/sync-shared-cases.sh
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${SHARED:-../shared}"
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "Error: unknown argument '$1'; accepted: --check" >&2; exit 64 ;;
esac
if [ ! -d "$shared" ]; then
  echo "Error: no shared folder at '$shared' (set SHARED)" >&2
  exit 66
fi
# shared/<from> -> Tests/Fixtures/<to>
pairs=(
  "cases:cases" "cases-ios26:cases-ios26" "cases-gestures:cases-gestures" "cases-tabs:cases-tabs"
  "traces:traces" "traces-swiftui:traces-swiftui" "fixtures/navdb-0.1.0:navdb-0.1.0"
)
changed=0
for pair in "${pairs[@]}"; do
  from="$shared/${pair%%:*}"
  to="Tests/Fixtures/${pair##*:}"
  [ -d "$from" ] || continue
  while IFS= read -r -d '' file; do
    name="${file#"$from"/}"
    if ! cmp -s "$file" "$to/$name"; then
      changed=$((changed + 1))
      if [ -e "$to/$name" ]; then what="differs"; else what="new"; fi
      if [ "$check" = 1 ]; then
        echo "$what: ${pair%%:*}/$name"
      else
        mkdir -p "$(dirname "$to/$name")"
        cp "$file" "$to/$name"
        chmod u+w,go-w "$to/$name"
        echo "copied ($what): ${pair%%:*}/$name -> $to/$name"
      fi
    fi
  done < <(find "$from" -type f -print0 | sort -z)
done
if [ "$changed" = 0 ]; then
  echo "Tests/Fixtures matches $shared"
elif [ "$check" = 1 ]; then
  exit 1
fi
