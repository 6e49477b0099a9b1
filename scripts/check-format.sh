#!/usr/bin/env bash
# The sources as `.swift-format` writes them (4 spaces, 120 columns, ordered imports, /// docs): `make format`
# applies it, and `make test` runs this check first, so a change that skipped it fails in seconds, naming the lines.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! swift format --version >/dev/null 2>&1; then
    echo "check-format: \`swift format\` is missing from this Swift toolchain (it ships with Swift 6)" >&2
    exit 1
fi
if ! swift format lint --configuration .swift-format --strict --recursive --parallel Sources Tests Fuzz Package.swift; then
    echo "check-format: the lines above are not as .swift-format writes them; run \`make format\`" >&2
    exit 1
fi
