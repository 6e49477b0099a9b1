#!/usr/bin/env bash
# Shows that ThreadSanitizer reports Synchronization.Mutex's own protected accesses as races on Linux (a false
# positive in the toolchain, not in Reel): builds scripts/tsan/MutexOnly.swift with -sanitize=thread at -Onone (as
# `swift test --sanitize=thread` builds), runs it and prints how many reports it made. docs/testing.md, "ThreadSanitizer".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swiftc -sanitize=thread -Onone "$here/MutexOnly.swift" -o "$work/mutex-only"
# TSan exits 66 when it reported anything; the count below is the result.
TSAN_OPTIONS="halt_on_error=0" "$work/mutex-only" 2> "$work/tsan.txt" || true
reports=$(grep -c "WARNING: ThreadSanitizer" "$work/tsan.txt" || true)
grep -m1 "SUMMARY" "$work/tsan.txt" || true
echo "ThreadSanitizer reports for a program whose only shared state is one Mutex: $reports"
