#!/usr/bin/env bash
# Builds a separate SwiftPM package that depends on the NavStore product alone, as an app would,
# whose client uses exactly NavigationRecorder(path:), record(_:session:) with a NavigationCommand,
# flush() and events(session:from:) with `for try await` (issue 31). The client records 2,000
# pushes from a thread of its own, timing each record() against a synchronous execute on another
# file, awaits flush(), and checks that events(session:from: 1) delivered all 2,001 events; then
# `navdb stack` must read all 2,000 entries. Exit 0 when all of it holds.
#
#   scripts/check-recorder-client.sh [WORK_DIR]     default: a temporary folder, removed after
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-}
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/navstore-recorder-client-XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/client/Sources/RecorderClient"
# A path dependency's identity is its folder's name.
identity=$(basename "$root" | tr '[:upper:]' '[:lower:]')
cat > "$work/client/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "RecorderClient",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(
            name: "RecorderClient", dependencies: [.product(name: "NavStore", package: "$identity")])
    ],
    swiftLanguageModes: [.v6]
)
EOF
# The client's source is scripts/recorder-client/Client.swift (checked in, formatted as the rest).
cp "$root/scripts/recorder-client/Client.swift" "$work/client/Sources/RecorderClient/Client.swift"
echo "== building the client package against $root (NavStore product only)"
(cd "$work/client" && swift build --product RecorderClient)
client=$(cd "$work/client" && swift build --show-bin-path)/RecorderClient
echo "== building navdb"
(cd "$root" && swift build --product navdb)
navdb=$(cd "$root" && swift build --show-bin-path)/navdb
db="$work/recorded.sqlite"
rm -f "$db" "$db-wal" "$db-shm" "$work/executed.sqlite"*
"$client" "$db" "$work/executed.sqlite"
entries=$("$navdb" --db "$db" --json stack client | python3 -c 'import json,sys; print(sum(len(l["entries"]) for l in json.load(sys.stdin)["layers"]))')
if [ "$entries" != 2000 ]; then
  echo "FAIL: navdb stack reads $entries entries, expected 2000" >&2
  exit 1
fi
echo "OK: navdb stack reads all 2000 entries"
