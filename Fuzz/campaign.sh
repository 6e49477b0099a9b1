#!/usr/bin/env bash
# A campaign over the fuzz targets (issue 32): Fuzz/run.sh on each for SECONDS, PARALLEL targets at a time, then a
# Markdown table totalled over every run kept in .build-fuzz/logs (this one and any before it): CPU hours, executions,
# the coverage reached (the highest `cov`, edges, and `ft`, features), the corpus grown, and the inputs that broke a
# contract (kept in .build-fuzz/crashes/TARGET). SECONDS=0 prints the table without fuzzing.
# Usage: Fuzz/campaign.sh [SECONDS=60] [PARALLEL=2] [TARGET...]   (Fuzz/build.sh first)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
parallel=${2:-2}
shift $(($# > 2 ? 2 : $#))
targets=("$@")
# Every target has a seed corpus of its name (FuzzCorpusReplayTests holds them to it).
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ls Fuzz/Corpus)
if [ "$seconds" -gt 0 ]; then
    running=0
    for target in "${targets[@]}"; do
        Fuzz/run.sh "$target" "$seconds" 1 > /dev/null 2>&1 &
        running=$((running + 1))
        if [ "$running" -ge "$parallel" ]; then wait -n || true; running=$((running - 1)); fi
    done
    wait || true
fi
echo "| target | runs | CPU hours | executions | edges (cov) | features (ft) | corpus | contract broken |"
echo "|---|---|---|---|---|---|---|---|"
for target in "${targets[@]}"; do
    logs=(.build-fuzz/logs/$target/*.log)
    [ -f "${logs[0]}" ] || { echo "| $target | 0 | 0 | 0 | ? | ? | 0 | 0 |"; continue; }
    cpu=$(cat "${logs[@]}" | awk '/^cpu_seconds:/ {s += $2 + $3} END {printf "%.2f", s / 3600}')
    # Executions: the final stats, or libFuzzer's "Done N runs" where they are missing; a -fork run (admission)
    # counts its children's in its "#N: cov: ..." lines, and the parent's own stats only what it ran itself.
    runs=$(for log in "${logs[@]}"; do
        awk '/stat::number_of_executed_units:/ {u += $2} /^Done [0-9]+ runs/ {d += $2}
            /^#[0-9]+: cov:/ {f = substr($1, 2) + 0} END {m = u > d ? u : d; print (f > m ? f : m)}' "$log"
    done | awk '{s += $1} END {print s + 0}')
    cov=$(cat "${logs[@]}" | sed -n 's/.* cov: \([0-9]*\) .*/\1/p' | sort -n | tail -1)
    ft=$(cat "${logs[@]}" | sed -n 's/.* ft: \([0-9]*\) .*/\1/p' | sort -n | tail -1)
    corpus=$(find ".build-fuzz/corpus/$target" -type f | wc -l)
    # Slow units (slow-unit-*) are kept too, but a starved nice 19 run makes them: only these broke something.
    crashes=$(find ".build-fuzz/crashes/$target" -type f \( -name "crash-*" -o -name "leak-*" -o -name "timeout-*" -o -name "oom-*" \) 2> /dev/null | wc -l)
    echo "| $target | ${#logs[@]} | $cpu | $runs | ${cov:-?} | ${ft:-?} | $corpus | $crashes |"
done
