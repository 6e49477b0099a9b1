#!/usr/bin/env bash
# A campaign over every fuzz target (issue 32): Fuzz/run.sh on each for SECONDS, PARALLEL targets at a time, then a
# Markdown table of what libFuzzer reported: executions, coverage (edges, `cov`), features (`ft`), the corpus grown,
# and the inputs that broke a contract (kept in .build-fuzz/crashes/TARGET). Logs in .build-fuzz/logs.
# Usage: Fuzz/campaign.sh [SECONDS=60] [PARALLEL=2] [TARGET...]   (Fuzz/build.sh first)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
parallel=${2:-2}
shift $(($# > 2 ? 2 : $#))
fuzz=.build-fuzz/release/reel-fuzz
[ -x "$fuzz" ] || { echo "campaign: no $fuzz; run Fuzz/build.sh first" >&2; exit 1; }
targets=("$@")
# Every target has a seed corpus of its name (FuzzCorpusReplayTests holds them to it).
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ls Fuzz/Corpus)
mkdir -p .build-fuzz/logs
running=0
for target in "${targets[@]}"; do
    Fuzz/run.sh "$target" "$seconds" 1 > ".build-fuzz/logs/$target.log" 2>&1 &
    running=$((running + 1))
    if [ "$running" -ge "$parallel" ]; then wait -n || true; running=$((running - 1)); fi
done
wait || true
echo "| target | seconds | executions | edges (cov) | features (ft) | corpus | contract broken |"
echo "|---|---|---|---|---|---|---|"
for target in "${targets[@]}"; do
    log=.build-fuzz/logs/$target.log
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s += $2} END {print s + 0}' || true)
    last=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE).*cov: ' "$log" | tail -1 || true)
    cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<< "$last")
    ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<< "$last")
    corpus=$(find ".build-fuzz/corpus/$target" -type f | wc -l)
    crashes=$(find ".build-fuzz/crashes/$target" -type f | wc -l)
    echo "| $target | $seconds | $runs | ${cov:-?} | ${ft:-?} | $corpus | $crashes |"
done
