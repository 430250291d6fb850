#!/usr/bin/env bash
# The package's shape (CONTRIBUTING.md, "Where each concept lives"): no function in Sources/ over
# 60 lines, and every file named for a type declares or extends it. The rules and what counts are
# in scripts/check-shape.swift, run by the toolchain's interpreter (a few seconds). Exits 1 with
# one line per finding.
set -euo pipefail
cd "$(dirname "$0")/.."
exec swift scripts/check-shape.swift Sources "$@"
