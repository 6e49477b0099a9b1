#!/usr/bin/env bash
# Shows the leak LeakSanitizer reports in ChatImagesTests to be libheif's x265 encoder's own: builds
# scripts/asan/heif-x265-leak.c, which encodes one HEVC still through libheif and frees everything, with
# AddressSanitizer, and runs it. docs/quirks.md, "Sanitizers".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
clang -fsanitize=address -fno-omit-frame-pointer -g "$here/heif-x265-leak.c" -lheif -o "$work/heif-x265-leak" 2>&1 |
    grep -v "ld.gold: warning: Cannot export local symbol" || true
rc=0
ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 "$work/heif-x265-leak" 2>"$work/report.txt" || rc=$?
head -1 "$work/report.txt"
grep -E "leak of|x265_encoder_open|heif_context_encode_image|SUMMARY" "$work/report.txt" || echo "no leak reported"
echo "exit $rc"
