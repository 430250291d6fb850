#!/usr/bin/env bash
# Builds the release navdb and navdb-bench (Linux): fully static (no dynamic loader at start-up),
# and with the functions a one-shot command runs laid out together at the start of the code, in
# the order scripts/navdb.order lists them (each function in a section of its own, placed by
# lld's --symbol-ordering-file). A command then faults in fewer pages of its 12 MB of code: about
# 50 instead of 95 for a push, 6 % of its time on this machine (BENCHMARKS.md, "Eighth round").
# Names the order file lists that the code no longer has are skipped, so a stale order only lays
# the code out less well; scripts/make-symbol-order.sh writes it anew. Extra arguments go to
# `swift build` (e.g. --product navdb).
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift build -c release -Xswiftc -static-executable \
  -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xswiftc -use-ld=lld -Xlinker "--symbol-ordering-file=$PWD/scripts/navdb.order" -Xlinker --no-warn-symbol-ordering \
  "$@"
