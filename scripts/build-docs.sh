#!/usr/bin/env bash
# Builds NavStore's documentation (Sources/NavStore/NavStore.docc plus the doc comments) with the
# toolchain's own swift-symbolgraph-extract and docc, no package plugin. Fails on any warning
# (a broken ``Symbol`` or <doc:Article> link, a parameter documented under the wrong name, ...).
#
#   scripts/build-docs.sh [OUTPUT]      default OUTPUT: .build/docs/NavStore.doccarchive
#
# Open the archive with `docc preview` or serve it statically (it is built for static hosting).
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs/NavStore.doccarchive}
symbols=.build/docs/symbol-graphs

# 1. Build the module: the symbol graph is read from its .swiftmodule.
swift build --target NavStore
bin=$(swift build --show-bin-path)

# 2. Extract the public symbols. The system libraries' module maps (CSQLite, ...) must be
#    findable, since NavStore imports them.
triple=$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -n 1)
sdk=()
if command -v xcrun >/dev/null 2>&1; then sdk=(-sdk "$(xcrun --show-sdk-path)"); fi
includes=(-I "$bin/Modules" -I "$bin")
for map in Sources/*/module.modulemap; do includes+=(-I "$(dirname "$map")"); done
rm -rf "$symbols" && mkdir -p "$symbols"
swift-symbolgraph-extract -module-name NavStore -target "$triple" "${sdk[@]}" "${includes[@]}" \
    -experimental-allowed-reexported-modules=NavStoreModel \
    -minimum-access-level public -skip-synthesized-members -output-dir "$symbols"

# 3. Convert catalog and symbols into an archive; a warning is an error.
rm -rf "$output" && mkdir -p "$(dirname "$output")"
docc convert Sources/NavStore/NavStore.docc \
    --additional-symbol-graph-dir "$symbols" \
    --fallback-display-name NavStore --fallback-bundle-identifier org.navstore.NavStore \
    --transform-for-static-hosting \
    --warnings-as-errors \
    --output-path "$output"
echo "Documentation: $output"
