#!/usr/bin/env bash
# A shopping app's recorded session with the back-navigation defects users report, then
# `navdb lint` on it: compiler-style findings, the same as JSON, and the gate a UI-test
# pipeline uses (exit 2 when a finding reaches --fail-on).
#
#   Examples/lint-session.sh [DATABASE]     (default: a fresh file in a temporary directory)
#
# NAVDB names the binary (default: .build/release/navdb, then .build/debug/navdb).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step happens 5 seconds after the one before, from 10:00 on 3 November 2026.
. Examples/common.sh shop.sqlite 5 2026-11-03 10 "$@"

nav session start shop --name "Shop on iPad"
nav push shop home --title "Home"
# The classic way to hide the back title: an empty back title. The button shows a chevron,
# and the long-press menu shows a blank row for this screen (blank-menu-row).
nav push shop catalog --title "Catalog" --back-button-title ""
# A product screen whose title is set only after loading: until then it has no title at all,
# so its row in the menu says "Back" (untitled-menu-row).
nav push shop product-17 --route shop://product/17
nav push shop reviews --title "Reviews"
nav update shop product-17 --title "Trail Shoe"
# Checkout asks before it is left ("navigationBar(_:shouldPop:)")...
nav push shop checkout --title "Checkout" --pop-guard "Leave checkout? Your cart is kept."
# ...but the user long-presses the back button and picks Catalog: UIKit does not ask
# (guard-bypassed, an error).
nav menu-select shop 3
# A custom back item that also sets a back title UIKit then ignores (ignored-back-setting),
# with a title too wide for a compact bar (custom-label-truncated with --width).
nav push shop search --title "Search" --back-bar-button-title "All Search Results" --back-button-title "Results"
nav push shop filters --title "Filters"
# A confirmation screen that hides the back button without a button of its own (no-way-back).
nav push shop done --title "Order placed" --hides-back-button

echo "== navdb lint shop"
"$NAVDB" lint shop || echo "(exit $?: a finding at or above --fail-on error)"
echo
echo "== navdb lint shop --width 12 --fail-on never     (the two width rules too; never fails)"
"$NAVDB" lint shop --width 12 --fail-on never
echo
echo "== navdb lint shop --rule guard-bypassed --json"
"$NAVDB" lint shop --rule guard-bypassed --json || true
echo
echo "== a UI-test pipeline's gate: fail the build on a warning or worse"
if "$NAVDB" lint --fail-on warning >/dev/null; then
  echo "gate passed"
else
  echo "gate failed with exit $? (2: lint found a defect)"
fi
echo
echo "== the same lint on a shared export, with no database"
"$NAVDB" export --all > "$workdir/shop.ndjson"
"$NAVDB" lint --input "$workdir/shop.ndjson" --fail-on never | tail -n 1
