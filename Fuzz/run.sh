#!/usr/bin/env bash
# One fuzz run (issue 32): libFuzzer on TARGET for SECONDS with JOBS processes, its corpus grown in
# .build-fuzz/corpus/TARGET from the seeds in Fuzz/Corpus/TARGET, its dictionary from Fuzz/Dictionaries, and any
# input that breaks the contract kept in .build-fuzz/crashes/TARGET. Each run's log, with the CPU seconds it used, is
# kept in .build-fuzz/logs/TARGET/, and its totals (CPU seconds, executions, edges, features, corpus, contract failures)
# are appended to Fuzz/Campaign/ledger.tsv, which is committed: a campaign spans sessions and machines, and
# Fuzz/campaign.sh totals the ledger. It fuzzes a private copy of the driver, so Fuzz/build.sh may rebuild
# meanwhile. A reproducer belongs in Fuzz/Regressions/TARGET once the parser is fixed.
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
json | event-batch | preset) dict=(-dict=Fuzz/Dictionaries/json.dict) ;;
trace) dict=(-dict=Fuzz/Dictionaries/trace.dict) ;;
image-header | mp4 | admission) dict=() ;;  # binary: libFuzzer's comparisons find the magic
*) dict=(-dict=Fuzz/Dictionaries/headers.dict) ;;
esac
root=$(pwd)
corpus=$root/.build-fuzz/corpus/$target crashes=$root/.build-fuzz/crashes/$target work=$root/.build-fuzz/work/$target
logs=$root/.build-fuzz/logs/$target
mkdir -p "$corpus" "$crashes" "$work" "$logs"
log=$logs/$(date -u +%Y%m%dT%H%M%S)-$$.log
binary=$work/reel-fuzz-$$
cp "$fuzz" "$binary"
trap 'rm -f "$binary"' EXIT
# Several jobs write fuzz-N.log into the current folder: each target has its own.
parallel=()
[ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
# admission opens each input with libav: one process per input (-fork), so one input's leak or state never reaches
# the next, and a slow input is cut off by -timeout rather than stalling the run.
[ "$target" = admission ] && parallel=(-fork="$jobs" -ignore_crashes=0 -timeout=20)
broken() { find "$crashes" -type f \( -name "crash-*" -o -name "leak-*" -o -name "timeout-*" -o -name "oom-*" \) | wc -l; }
broken_before=$(broken)
cd "$work"
status=0
REEL_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=1 /usr/bin/time -o "$log.cpu" -f 'cpu_seconds: %U %S' \
    "$binary" -max_total_time="$seconds" "${parallel[@]}" "${dict[@]/#-dict=/-dict=$root/}" \
    -artifact_prefix="$crashes/" -print_final_stats=1 -max_len=4096 "$corpus" "$root/Fuzz/Corpus/$target" \
    > "$log" 2>&1 || status=$?
# With -jobs the work is in the workers' logs.
for worker in fuzz-*.log; do [ -f "$worker" ] && { cat "$worker" >> "$log"; rm "$worker"; }; done
cat "$log.cpu" >> "$log" && rm "$log.cpu"
cd "$root"
# Executions: the final stats, or libFuzzer's "Done N runs" where they are missing; a -fork run (admission) counts
# its children's in its "#N: cov: ..." lines, and the parent's own stats only what it ran itself.
cpu=$(awk '/^cpu_seconds:/ {s += $2 + $3} END {printf "%.1f", s}' "$log")
executions=$(awk '/stat::number_of_executed_units:/ {u += $2} /^Done [0-9]+ runs/ {d += $2}
    /^#[0-9]+: cov:/ {f = substr($1, 2) + 0} END {m = u > d ? u : d; print (f > m ? f : m)}' "$log")
cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$log" | sort -n | tail -1)
ft=$(sed -n 's/.* ft: \([0-9]*\) .*/\1/p' "$log" | sort -n | tail -1)
ledger=Fuzz/Campaign/ledger.tsv
[ -f "$ledger" ] || printf 'run\tcommit\ttarget\tseconds\tcpu_seconds\texecutions\tcov\tft\tcorpus\tbroken\n' > "$ledger"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$log" .log)@$(hostname)" "$(git rev-parse --short HEAD)" "$target" \
    "$seconds" "$cpu" "$executions" "${cov:-0}" "${ft:-0}" "$(find "$corpus" -type f | wc -l)" \
    "$(($(broken) - broken_before))" >> "$ledger"
tail -n 20 "$log"
exit "$status"
