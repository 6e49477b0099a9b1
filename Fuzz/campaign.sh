#!/usr/bin/env bash
# A campaign over the fuzz targets (issue 32): Fuzz/run.sh on each target, PARALLEL targets at a time, then a
# Markdown table totalled over Fuzz/Campaign/ledger.tsv, the committed record of every run (this campaign's and
# those of earlier sessions, on other machines too): CPU hours, executions, the coverage reached (the highest `cov`,
# edges, and `ft`, features), the largest corpus, and the inputs that broke a contract.
# - SECONDS: each target runs once for that long.
# - to:CPU: each target runs in rounds of at most ROUND seconds (default 900) until the ledger holds CPU seconds of
#   fuzzing for it, the least-fuzzed first; a campaign stopped half way goes on from the ledger next time.
# - 0: the table alone.
# Usage: Fuzz/campaign.sh [SECONDS|to:CPU] [PARALLEL=2] [TARGET...]   (Fuzz/build.sh first; ROUND=900 in the environment)
set -euo pipefail
cd "$(dirname "$0")/.."
goal=${1:-60}
parallel=${2:-2}
shift $(($# > 2 ? 2 : $#))
targets=("$@")
ledger=Fuzz/Campaign/ledger.tsv
# Every target has a seed corpus of its name (FuzzCorpusReplayTests holds them to it).
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(ls Fuzz/Corpus)
# CPU seconds the ledger holds for a target.
spent() { [ -f "$ledger" ] && awk -F'\t' -v t="$1" '$3 == t {s += $5} END {printf "%d", s}' "$ledger" || echo 0; }
if [[ $goal == to:* ]]; then
    cpu_goal=${goal#to:}
    round=${ROUND:-900}
    declare -A busy=()
    while true; do
        # Reap finished runs, then start the least-fuzzed idle target that is short of the goal.
        for target in "${!busy[@]}"; do kill -0 "${busy[$target]}" 2> /dev/null || unset "busy[$target]"; done
        if [ ${#busy[@]} -lt "$parallel" ]; then
            next=$(for target in "${targets[@]}"; do
                [ -n "${busy[$target]:-}" ] && continue
                left=$((cpu_goal - $(spent "$target")))
                [ "$left" -gt 0 ] && echo "$(spent "$target") $target $left"
            done | sort -n | head -1)
            if [ -n "$next" ]; then
                read -r _ target left <<< "$next"
                Fuzz/run.sh "$target" $((left < round ? (left < 60 ? 60 : left) : round)) 1 > /dev/null 2>&1 &
                busy[$target]=$!
                continue
            fi
            [ ${#busy[@]} -eq 0 ] && break
        fi
        sleep 5
    done
elif [ "$goal" -gt 0 ]; then
    running=0
    for target in "${targets[@]}"; do
        Fuzz/run.sh "$target" "$goal" 1 > /dev/null 2>&1 &
        running=$((running + 1))
        if [ "$running" -ge "$parallel" ]; then wait -n || true; running=$((running - 1)); fi
    done
    wait || true
fi
echo "| target | runs | CPU hours | executions | edges (cov) | features (ft) | corpus | contract broken |"
echo "|---|---|---|---|---|---|---|---|"
for target in "${targets[@]}"; do
    [ -f "$ledger" ] || { echo "| $target | 0 | 0 | 0 | ? | ? | 0 | 0 |"; continue; }
    awk -F'\t' -v t="$target" '$3 == t {n++; cpu += $5; runs += $6; if ($7 > cov) cov = $7; if ($8 > ft) ft = $8;
        if ($9 > corpus) corpus = $9; broken += $10}
        END {printf "| %s | %d | %.2f | %d | %d | %d | %d | %d |\n", t, n, cpu / 3600, runs, cov, ft, corpus, broken}' "$ledger"
done
