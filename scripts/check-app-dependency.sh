#!/usr/bin/env bash
# Builds and runs a separate SwiftPM package that depends on this one by path and on the
# `NavStore` product alone, as an app would (DESIGN §2, issue 30), with libpq's headers replaced by
# files that are one `#error`: a NavStore that reached into libpq (or a target that pulled in
# CLibPQ) would fail to build. The app opens a store, starts a session, pushes, reads the state at a
# version, restores and acknowledges, and checks what it reads back.
#
#   scripts/check-app-dependency.sh [SCRATCH]
#
# SCRATCH: where the app package is made and built (default: a fresh temporary folder, removed
# afterwards); giving one keeps its .build for another run. The build is a debug build of NavStore
# and SQLite's module from scratch: 40-50 s on this 2-core machine at load 3.
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

# 2. The app: a package of its own, depending on the NavStore product alone.
app=$scratch/App
mkdir -p "$app/Sources/App"
cat >"$app/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    dependencies: [.package(path: "$repo")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "NavStore", package: "$(basename "$repo")")])
    ],
    swiftLanguageModes: [.v6]
)
EOF
cat >"$app/Sources/App/main.swift" <<'EOF'
import Foundation
import NavStore

/// What an app does with NavStore at a launch: record, read back, restore and acknowledge.
func check(_ condition: Bool, _ what: String) {
    if !condition {
        FileHandle.standardError.write(Data("app: FAILED: \(what)\n".utf8))
        exit(1)
    }
}

let folder = CommandLine.arguments[1]
let store = try NavigationStore(path: folder + "/nav.sqlite")
try store.startSession("scene-1", name: "Main window")
try store.execute(
    .push(Entry(id: "inbox", route: "mail://inbox", item: NavigationItem(title: "Inbox", backButtonTitle: "Mail"))),
    session: "scene-1")
try store.execute(.push(Entry(id: "message", item: NavigationItem(title: "Message"))), session: "scene-1")
let then = try store.state(session: "scene-1", at: .version(3))
check(then.state.layers.map { $0.entries.map(\.id) } == [["inbox", "message"]], "the stack at version 3")
check(then.backButton?.label == "Mail", "the back button at version 3 says Mail")
check(then.backMenu?.map(\.title) == ["Mail"], "the back menu at version 3 lists Mail")
try store.execute(.pop(source: .backButton), session: "scene-1")

// The next launch: a new store on the same file restores, the app shows it and acknowledges.
let relaunched = try NavigationStore(path: folder + "/nav.sqlite")
let payload = try relaunched.restore(session: "scene-1", mark: true)
check(payload.layers.map { $0.entries.map(\.id) } == [["inbox"]], "the restored stack")
let acknowledgement = try relaunched.acknowledgeRestore(session: "scene-1")
check(acknowledgement.version != nil, "the restore was acknowledged")
print("app: recorded, read version 3, restored \(payload.layers[0].entries.map(\.id)) and acknowledged")
EOF

# 3. Build it with the trap first on the include path, then check what was built (no backend, the
#    privacy manifest in NavStore's resource bundle) and run it.
cd "$app"
start=$(date +%s)
if ! swift build -Xcc -I"$poison" -Xswiftc -Xcc -Xswiftc -I"$poison" >"$scratch/build.log" 2>&1; then
  cat "$scratch/build.log" >&2
  echo "check-app-dependency: the app package did not build against the NavStore product" >&2
  exit 1
fi
echo "check-app-dependency: built in $(($(date +%s) - start)) s"
bin=$(swift build --show-bin-path)
# SwiftPM writes an output file map for every target of the graph, but compiles only what the
# product needs: an object file or a module of the backend (or the tools) is the failure.
for target in NavStorePostgreSQL CLibPQ navdb navdb_bench; do
  if [ -n "$(find "$bin/$target.build" -name '*.o' 2>/dev/null)" ] || [ -e "$bin/Modules/$target.swiftmodule" ]; then
    echo "check-app-dependency: the app's build compiled $target, which the NavStore product must not need" >&2
    exit 1
  fi
done
# NavStorePostgreSQL names the library it loads at run time; an app binary that names it holds
# the backend.
if grep -q "libpq.so" "$bin/App"; then
  echo "check-app-dependency: the app's binary names libpq.so: the PostgreSQL backend was linked in" >&2
  exit 1
fi
[ -f "$bin/NavStore_NavStore.resources/PrivacyInfo.xcprivacy" ] || {
  echo "check-app-dependency: the privacy manifest is not in NavStore's resource bundle" >&2
  exit 1
}
run=$scratch/run
rm -rf "$run" && mkdir -p "$run"
"$bin/App" "$run"
