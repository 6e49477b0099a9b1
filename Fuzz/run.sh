#!/usr/bin/env bash
# One fuzz campaign (issue 32): libFuzzer on TARGET for SECONDS with JOBS processes, its corpus grown in
# .build-fuzz/corpus/TARGET from the seeds in Fuzz/Corpus/TARGET, its dictionary from Fuzz/Dictionaries, and any
# input that breaks the contract kept in .build-fuzz/crashes/TARGET. Prints libFuzzer's final stats (executions,
# coverage in edges) per job. A reproducer belongs in Fuzz/Regressions/TARGET once the parser is fixed.
# Usage: Fuzz/run.sh TARGET [SECONDS=60] [JOBS=1]   (Fuzz/build.sh first; `reel-fuzz --list` for the targets)
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Fuzz/run.sh TARGET [SECONDS] [JOBS]}
seconds=${2:-60}
jobs=${3:-1}
fuzz=.build-fuzz/release/reel-fuzz
[ -x "$fuzz" ] || { echo "run.sh: no $fuzz; run Fuzz/build.sh first" >&2; exit 1; }
[ -d "Fuzz/Corpus/$target" ] || { echo "run.sh: no seed corpus Fuzz/Corpus/$target" >&2; exit 1; }
case $target in
playlist) dict=(-dict=Fuzz/Dictionaries/playlist.dict) ;;
image-header) dict=() ;;  # binary: libFuzzer's own comparisons find the magic numbers
*) dict=(-dict=Fuzz/Dictionaries/headers.dict) ;;
esac
root=$(pwd)
corpus=$root/.build-fuzz/corpus/$target crashes=$root/.build-fuzz/crashes/$target work=$root/.build-fuzz/work/$target
mkdir -p "$corpus" "$crashes" "$work"
# Several jobs write fuzz-N.log into the current folder: each target has its own.
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
cd "$work"
REEL_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 "$root/$fuzz" -max_total_time="$seconds" "${parallel[@]}" \
    "${dict[@]/#-dict=/-dict=$root/}" -artifact_prefix="$crashes/" -print_final_stats=1 -max_len=4096 \
    "$corpus" "$root/Fuzz/Corpus/$target"
