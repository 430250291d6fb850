#!/usr/bin/env bash
# Builds the release navdb and navdb-bench (Linux): fully static (no dynamic loader at start-up),
# and linked by lld with the functions that one-shot commands run placed first, in the order
# scripts/navdb.order lists them (--symbol-ordering-file; -function-sections gives this package's
# functions a section each). A push then faults in about 52 pages of code instead of 90-95 and
# takes about 6 % less time (BENCHMARKS.md, "Eighth round"). Code that the toolchain's and the
# system's libraries keep in one section per object (the stdlib's main section, SQLite's and
# glibc's objects) is placed whole. A name the code no longer has is skipped, so a stale list only
# lays the code out less well; scripts/make-symbol-order.sh writes it anew. Extra arguments go to
# `swift build` (e.g. --product navdb, --scratch-path DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
# SwiftPM does not see the order file: remove the binaries so that they are linked again with its
# present contents (lld links each in about half a second).
bin=$(swift build -c release --show-bin-path "$@")
rm -f "$bin/navdb" "$bin/navdb-bench"
# A static link of Foundation, the Swift runtime, SQLite and libpq's loader can warn that dlopen,
# getaddrinfo, getpwnam and friends "in statically linked applications" need glibc's shared
# libraries at run time: code navdb links in and never runs (docs/building.md). lld prints none
# today; should a linker print them, scripts/drop-static-glibc-warnings.sh drops exactly those
# lines of stdout, where SwiftPM writes the linker's output, and lets every other line through
# (stderr is not filtered). pipefail keeps swift build's exit status.
swift build -c release -Xswiftc -static-executable \
  -Xswiftc -Xfrontend -Xswiftc -function-sections \
  -Xswiftc -use-ld=lld -Xlinker "--symbol-ordering-file=$PWD/scripts/navdb.order" -Xlinker --no-warn-symbol-ordering \
  "$@" | scripts/drop-static-glibc-warnings.sh
