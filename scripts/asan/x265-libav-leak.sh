#!/usr/bin/env bash
# Shows the x265 leaks LeakSanitizer reports in TranscodeTests' HEVC encodes to be x265's own: builds
# scripts/asan/x265-libav-leak.c, one HEVC encode through libavcodec freed as FFmpeg's examples free it, with
# AddressSanitizer, and runs it. docs/quirks.md, "Sanitizers".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
clang -fsanitize=address -fno-omit-frame-pointer -g "$here/x265-libav-leak.c" -lavcodec -lavutil \
    -o "$work/x265-libav-leak" 2>&1 | grep -v "ld.gold: warning: Cannot export local symbol" || true
rc=0
ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 "$work/x265-libav-leak" 2>"$work/report.txt" || rc=$?
head -1 "$work/report.txt"
grep SUMMARY "$work/report.txt" || echo "no leak reported"
# Each leak's stack, split at its first line: how many pass through x265_encoder_open or x265_param_parse.
awk '/leak of/ { n++; inside[n] = 0 } /x265_encoder_open|x265_param_parse/ { if (n) inside[n] = 1 }
    END { m = 0; for (i = 1; i <= n; i++) m += inside[i]; print m " of " n " leaks inside x265_encoder_open or x265_param_parse" }' \
    "$work/report.txt"
echo "exit $rc"
