#!/usr/bin/env bash
# Policies scored under the MM'22 challenge's protocol: users 0..<50 of test_user_samples (reel simulate --users
# challenge:50) on each set's 20 traces, for three seeds (42 is the challenge's RANDOM_SEED), averaged over the
# seeds, with each score's ratio to pdas. Also hsdpa (142 traces). Prints a Markdown table for docs/simulator.md.
#
# usage: scripts/bench-mmgc-protocol.sh [REEL] [POLICIES] [SEEDS]
#   REEL      default .build/release/reel
#   POLICIES  default "no_save fixed_preload A2 aware pdas"
#   SEEDS     default "42 43 44"
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
policies=${2:-"no_save fixed_preload A2 aware pdas"}
seeds=${3:-"42 43 44"}
data=$(realpath ../shared/data/prefetch)
[ -x "$reel" ] || { echo "bench-mmgc-protocol: no reel at $reel (make release, or give its path)" >&2; exit 1; }
[ -d "$data/mmgc2022/user_ret" ] || { echo "bench-mmgc-protocol: $data is missing" >&2; exit 1; }
net() { if [ "$1" = hsdpa ]; then echo "$data/traces/pensieve_hsdpa_norway_test"; else echo "$data/mmgc2022/network_traces/$1"; fi; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sets="high medium low mixed hsdpa"
for set in $sets; do
    for policy in $policies; do
        for seed in $seeds; do
            "$reel" simulate --mode mmgc --policy "$policy" --users challenge:50 --seed "$seed" --json \
                --network "$(net "$set")" --catalog "$data/mmgc2022/short_video_size" \
                --retention "$data/mmgc2022/user_ret" > "$work/$set.$policy.$seed.json"
        done
    done
done
python3 - "$work" "$sets" "$policies" "$seeds" <<'PY'
import json, os, sys
work, sets, policies, seeds = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4].split()
def load(s, p, seed):
    return json.load(open(os.path.join(work, f"{s}.{p}.{seed}.json")))
print("Score (mean of seeds " + ", ".join(seeds) + "; per seed in brackets), and its ratio to pdas where pdas is positive.\n")
print("| policy | " + " | ".join(sets) + " |")
print("|---|" + "---|" * len(sets))
means = {}
for p in policies:
    cells = []
    for s in sets:
        scores = [load(s, p, seed)["score"] for seed in seeds]
        means[(p, s)] = sum(scores) / len(scores)
        cells.append(f"{means[(p, s)]:.2f} [" + " / ".join(f"{x:.2f}" for x in scores) + "]")
    print(f"| {p} | " + " | ".join(cells) + " |")
if "pdas" in policies:
    print("\n| ratio to pdas | " + " | ".join(sets) + " |")
    print("|---|" + "---|" * len(sets))
    for p in policies:
        cells = []
        for s in sets:
            base = means[("pdas", s)]
            cells.append(f"{means[(p, s)] / base:.3f}" if base > 0 else "n/a")
        print(f"| {p} | " + " | ".join(cells) + " |")
    sys.path.insert(0, "scripts/lib")
    from bench_result import result
    for s in sets:
        if "aware" in policies and means[("pdas", s)] > 0:
            result(f"challenge score, {s} traces (mean of seeds {'/'.join(seeds)})", means[("aware", s)],
                   "pdas, the challenge's winner", means[("pdas", s)], "score")
print("\nStall and waste (mean of seeds): rebuffer / watch time, wasted / downloaded bytes.\n")
print("| policy | " + " | ".join(sets) + " |")
print("|---|" + "---|" * len(sets))
for p in policies:
    cells = []
    for s in sets:
        runs = [load(s, p, seed) for seed in seeds]
        stall = sum(r["stall_ratio"] for r in runs) / len(runs)
        waste = sum(r["waste_ratio"] for r in runs) / len(runs)
        cells.append(f"{100 * stall:.1f} % / {100 * waste:.1f} %")
    print(f"| {p} | " + " | ".join(cells) + " |")
PY
