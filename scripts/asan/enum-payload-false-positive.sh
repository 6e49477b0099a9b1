#!/usr/bin/env bash
# Shows LeakSanitizer reporting reachable Swift memory as leaked when a multi-payload enum holds it (a false
# positive of the toolchain, the one scripts/sanitize-lsan.supp suppresses in swift-nio): builds
# scripts/asan/EnumPayload.swift with -sanitize=address at -Onone and runs it with the payload in case 0, which keeps
# the pointer as it is, then in case 1, which tags it. docs/quirks.md, "Sanitizers".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swiftc -sanitize=address -Onone "$here/EnumPayload.swift" -o "$work/enum-payload" 2>&1 | grep -v "ld.gold: warning" || true
for run in first second; do
    args=()
    [ "$run" = second ] && args=(second)
    # AddressSanitizer exits 1 when LeakSanitizer reported anything.
    rc=0
    ASAN_OPTIONS=detect_leaks=1 "$work/enum-payload" "${args[@]}" 2>"$work/$run.txt" || rc=$?
    head -1 "$work/$run.txt"
    echo "  exit $rc; $(grep -m1 SUMMARY "$work/$run.txt" || echo 'no leak reported')"
done
