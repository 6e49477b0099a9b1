#!/usr/bin/env bash
# Prefetch simulator in the ACM MM'22 challenge's semantics, on its real traces (../shared/data/prefetch, never
# committed). For each trace set: Reel's W0/W1/W2/W4/A2 against the challenge simulator's own results (the
# reference table), then stall %, waste % and Score for none/next1/window/aware beside the challenge's two
# baselines (reference rows), the medium set with 50 seeded users, and the simulation speed.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
data=$(realpath ../shared/data/prefetch)
[ -f "$data/reference_results.tsv" ] || { echo "bench-sim: $data is missing" >&2; exit 1; }
catalog=(--catalog "$data/mmgc2022/short_video_size" --retention "$data/mmgc2022/user_ret")
net() { if [ "$1" = hsdpa ]; then echo "$data/traces/pensieve_hsdpa_norway_test"; else echo "$data/mmgc2022/network_traces/$1"; fi; }
run() { "$reel" simulate --mode mmgc --network "$(net "$1")" "${catalog[@]}" --policy "$2" --json "${@:3}"; }
python3 - "$data/reference_results.tsv" <<'PY' > /tmp/.reel-bench-ref.json
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
json.dump({f"{r['policy']}|{r['trace_set']}|{r['users']}": r for r in rows}, sys.stdout)
PY
echo "| set | policy | reel score | reference score | reel bytes / reference |"
echo "|---|---|---|---|---|"
for set in high medium low mixed hsdpa; do
    for policy in W0 W1 W2 W4 A2; do
        run "$set" "$policy" | python3 -c "
import json, sys
ref = json.load(open('/tmp/.reel-bench-ref.json'))['$policy|$set|sample0']
r = json.load(sys.stdin)
print(f\"| $set | $policy | {r['score']:.4f} | {float(ref['score']):.4f} | {r['bytes_downloaded'] / float(ref['bytes_downloaded']):.5f} |\")
sys.path.insert(0, 'scripts/lib')
from bench_result import result
result('$set, $policy: bytes downloaded', r['bytes_downloaded'], \"the challenge's own simulator\", float(ref['bytes_downloaded']), 'bytes', 'closer')"
    done
done
echo
echo "| set | policy | stall % | waste % | Score |"
echo "|---|---|---|---|---|"
for set in high medium low mixed hsdpa; do
    for policy in none next1 window aware; do
        run "$set" "$policy" | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"| $set | $policy | {100 * d['stall_ratio']:.1f} | {100 * d['waste_ratio']:.1f} | {d['score']:.3f} |\")"
    done
    for baseline in no_save fixed_preload; do
        python3 -c "
import json
r = json.load(open('/tmp/.reel-bench-ref.json'))['$baseline|$set|sample0']
print(f\"| $set | $baseline (reference) | {100 * float(r['rebuffer_ms']) / float(r['watch_ms']):.1f} | {100 * float(r['wasted_bytes']) / float(r['bytes_downloaded']):.1f} | {float(r['score']):.3f} |\")"
        run "$set" "$baseline" | python3 -c "
import json, sys
d = json.load(sys.stdin)
r = json.load(open('/tmp/.reel-bench-ref.json'))['$baseline|$set|sample0']
print(f\"| $set | $baseline (Reel's, from the description) | {100 * d['stall_ratio']:.1f} | {100 * d['waste_ratio']:.1f} | {d['score']:.3f} (Δ {d['score'] - float(r['score']):+.2f}) |\")"
    done
done
echo
echo "Medium set, 50 seeded users (reference: the challenge's own 50 users):"
for policy in window aware; do
    run medium "$policy" --users 50 --seed 7 | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"  $policy: stall {100 * d['stall_ratio']:.1f} %, waste {100 * d['waste_ratio']:.1f} %, Score {d['score']:.3f}\")"
done
python3 -c "
import json
for p in ['W2', 'A2', 'no_save', 'fixed_preload']:
    r = json.load(open('/tmp/.reel-bench-ref.json'))[p + '|medium|samples50']
    print(f\"  {p} (reference): stall {100 * float(r['rebuffer_ms']) / float(r['watch_ms']):.1f} %, waste {100 * float(r['wasted_bytes']) / float(r['bytes_downloaded']):.1f} %, Score {float(r['score']):.3f}\")"
echo
echo "Client model (player pool of 3, next 2 / previous 1), 50 seeded users per trace. Startup is from arriving at an"
echo "item to its first frame; mid-play stall % is stalled time over watched time, startup excluded."
echo "| set | policy | startup p50 / p95 / mean ms | mid-play stall % | stalls | MB | waste % | prefetch hit % | players |"
echo "|---|---|---|---|---|---|---|---|---|"
for set in high medium low mixed hsdpa; do
    for policy in none next1 window aware; do
        "$reel" simulate --network "$(net "$set")" "${catalog[@]}" --policy "$policy" --users 50 --seed 7 --json --mode client > "/tmp/.reel-bench-client-$policy.json"
        python3 -c "
import json, sys
d = json.load(open('/tmp/.reel-bench-client-$policy.json'))
print(f\"| $set | $policy | {d['startup_p50_ms']} / {d['startup_p95_ms']} / {d['startup_mean_ms']:.0f} | {100 * d['stall_ms'] / d['watch_ms']:.2f} | {d['stall_count']} | {d['bytes_downloaded'] / 1e6:.0f} | {100 * d['waste_ratio']:.1f} | {100 * d['prefetch_hit_rate']:.1f} | {d['players_created']} |\")"
    done
    python3 -c "
import json
w, a = (json.load(open(f'/tmp/.reel-bench-client-{p}.json')) for p in ('window', 'aware'))
print(f\"| $set | aware / window | {a['startup_p95_ms'] / max(1, w['startup_p95_ms']):.3f} (p95), {a['startup_mean_ms'] / max(1e-9, w['startup_mean_ms']):.3f} (mean) | {a['stall_ms'] / max(1, w['stall_ms']):.3f} | | {a['bytes_downloaded'] / w['bytes_downloaded']:.3f} | | | |\")
import sys
sys.path.insert(0, 'scripts/lib')
from bench_result import result
result('$set: client model, startup p95 with the aware prefetch', a['startup_p95_ms'], 'the fixed 3 s window', w['startup_p95_ms'], 'ms', 'lower')"
done
rm -f /tmp/.reel-bench-client-*.json
echo
run medium aware --users 500 --seed 7 | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"Speed, mmgc mode: {d['chunk_events_per_second'] / 1e6:.2f} M simulated chunk events per second on one core (medium set, 500 users)\")"
"$reel" simulate --mode client --network "$(net medium)" "${catalog[@]}" --policy window --users 200 --seed 7 --json | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"Speed, client mode: {d['chunk_events_per_second'] / 1e6:.2f} M simulated chunk events per second on one core (medium set, 200 users)\")"
rm -f /tmp/.reel-bench-ref.json
