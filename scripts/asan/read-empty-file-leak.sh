#!/usr/bin/env bash
# Shows the leak LeakSanitizer reports under MediaFixtures' ChildProcess.stdout and .stderr to be Foundation's:
# builds scripts/asan/ReadEmptyFile.swift with -sanitize=address at -Onone and runs it on an empty file, then on a
# file of two bytes. docs/quirks.md, "Sanitizers".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swiftc -sanitize=address -Onone "$here/ReadEmptyFile.swift" -o "$work/read-empty-file" 2>&1 |
    grep -v "ld.gold: warning" || true
for run in empty full; do
    args=()
    [ "$run" = full ] && args=(full)
    rc=0
    ASAN_OPTIONS=detect_leaks=1 "$work/read-empty-file" "${args[@]}" 2>"$work/$run.txt" || rc=$?
    head -1 "$work/$run.txt"
    echo "  exit $rc; $(grep -m1 SUMMARY "$work/$run.txt" || echo 'no leak reported')"
done
