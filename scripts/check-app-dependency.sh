#!/usr/bin/env bash
# Builds and runs one separate SwiftPM package that depends on this one by path and on the
# `NavStore` product alone, as an app would (docs/app.md), with libpq's headers replaced by files
# that are one `#error`: a NavStore that reached into libpq (or a target that pulled in CLibPQ)
# would fail to build. Its two executables, built together (NavStore compiled once):
# - App (scripts/client-package/App/main.swift): opens a store, starts a session, pushes, reads the
#   state at a version, restores and acknowledges, and checks what it reads back; then, as a
#   SwiftUI app, records a typed path with recordPath (RouteCoding), restarts and decodes the same
#   [Route] from the restore;
# - RecorderClient (scripts/client-package/RecorderClient/Client.swift): uses exactly
#   NavigationRecorder(path:), record(_:session:), flush() and events(session:from:) as an app
#   does: 2,000 pushes recorded from a thread of its own, each record() timed against a
#   synchronous execute, flushed and read back live; then `navdb stack` must read all 2,000.
#
#   scripts/check-app-dependency.sh [SCRATCH]
#
# SCRATCH: where the package is made and built (default: a fresh temporary folder, removed
# afterwards); giving one keeps its .build for another run. The build is a debug build of NavStore
# and SQLite's module from scratch: 40-50 s on this 2-core machine at load 3. The navdb that reads
# the recording is this repository's debug build (.build/debug/navdb, built here if missing).
#
# This machine builds for Linux only: it proves that the product needs nothing of libpq and no
# resource embedding, not that an iOS build succeeds.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
if [ $# -gt 0 ]; then
  scratch=$1
  mkdir -p "$scratch"
else
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/navstore-app.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
fi
scratch=$(cd "$scratch" && pwd)

# 1. The trap: <postgresql/libpq-fe.h> and <libpq-fe.h> that stop any build including them.
poison=$scratch/poisoned-include
mkdir -p "$poison/postgresql"
for header in "$poison/postgresql/libpq-fe.h" "$poison/libpq-fe.h"; do
  echo '#error "libpq reached: the NavStore product must build without libpq (scripts/check-app-dependency.sh)"' >"$header"
done
# It is armed: a module that includes libpq's header fails with the trap's message.
probe=$scratch/probe
mkdir -p "$probe"
echo 'import CLibPQ' >"$probe/probe.swift"
if swiftc -typecheck -I Sources/CLibPQ -Xcc -I"$poison" "$probe/probe.swift" >"$probe/log" 2>&1; then
  echo "check-app-dependency: the poisoned libpq header did not stop a module that includes it" >&2
  exit 1
fi
grep -q "libpq reached" "$probe/log" || {
  echo "check-app-dependency: importing CLibPQ failed, but not at the trap:" >&2
  cat "$probe/log" >&2
  exit 1
}

# 2. The package: of its own, depending on the NavStore product alone. A path dependency's
#    identity is its folder's name.
app=$scratch/App
identity=$(basename "$repo" | tr '[:upper:]' '[:lower:]')
mkdir -p "$app/Sources/App" "$app/Sources/RecorderClient"
cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    dependencies: [.package(path: "$repo")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "NavStore", package: "$identity")]),
        .executableTarget(name: "RecorderClient", dependencies: [.product(name: "NavStore", package: "$identity")]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
cp "$repo/scripts/client-package/App/main.swift" "$app/Sources/App/main.swift"
cp "$repo/scripts/client-package/RecorderClient/Client.swift" "$app/Sources/RecorderClient/Client.swift"

# 3. Build it with the trap first on the include path, then check what was built (no backend, the
#    privacy manifest in NavStore's resource bundle).
cd "$app"
start=$(date +%s)
if ! swift build -Xcc -I"$poison" -Xswiftc -Xcc -Xswiftc -I"$poison" >"$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  echo "check-app-dependency: the client package did not build against the NavStore product" >&2
  exit 1
fi
echo "check-app-dependency: built App and RecorderClient in $(($(date +%s) - start)) s"
bin=$(swift build --show-bin-path)
# SwiftPM writes an output file map for every target of the graph, but compiles only what the
# products need: an object file or a module of the backend (or the tools) is the failure.
for target in NavStorePostgreSQL CLibPQ navdb navdb_bench; do
  if [ -n "$(find "$bin/$target.build" -name '*.o' 2>/dev/null)" ] || [ -e "$bin/Modules/$target.swiftmodule" ]; then
    echo "check-app-dependency: the package's build compiled $target, which the NavStore product must not need" >&2
    exit 1
  fi
done
# NavStorePostgreSQL names the library it loads at run time; a binary that names it holds the
# backend.
for product in App RecorderClient; do
  if grep -q "libpq.so" "$bin/$product"; then
    echo "check-app-dependency: $product names libpq.so: the PostgreSQL backend was linked in" >&2
    exit 1
  fi
done
[ -f "$bin/NavStore_NavStore.resources/PrivacyInfo.xcprivacy" ] || {
  echo "check-app-dependency: the privacy manifest is not in NavStore's resource bundle" >&2
  exit 1
}

# 4. Run the app.
run=$scratch/run
rm -rf "$run" && mkdir -p "$run"
"$bin/App" "$run"

# 5. Run the recorder client, then read what it recorded with navdb.
navdb="$repo/.build/debug/navdb"
[ -x "$navdb" ] || (cd "$repo" && swift build --product navdb >/dev/null)
db="$run/recorded.sqlite"
"$bin/RecorderClient" "$db" "$run/executed.sqlite"
entries=$("$navdb" --db "$db" --json stack client | python3 -c 'import json,sys; print(sum(len(l["entries"]) for l in json.load(sys.stdin)["layers"]))')
if [ "$entries" != 2000 ]; then
  echo "check-app-dependency: navdb stack reads $entries entries of the recorder client's session, expected 2000" >&2
  exit 1
fi
echo "check-app-dependency: navdb stack reads all 2000 entries the recorder client recorded"
