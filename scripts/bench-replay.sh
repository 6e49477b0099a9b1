#!/usr/bin/env bash
# The simulator against real sessions (issue 33): headless Chromium watches the feed in a network namespace whose
# link tc shapes to a profile's rate (as scripts/bench-startup.sh does: tbf each way, TEST-NET-3 addresses; this
# kernel has no netem, so no added round trip), REPS sessions per profile, each watching 3 items for 2 to 10 s
# (seeded) with hls.js and the default pool. Their viewer events go to the catalog like any viewer's; then
# `reel simulate --replay` predicts every session in the client model on its own fetches and reports the error
# against what its page measured: the median absolute startup error, and how often the model and the page agree on
# whether a view stalled.
# Needs root (ip netns, tc), chromium, python3. Usage: scripts/bench-replay.sh [path/to/reel]   (REPS=4)
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
reps=${REPS:-4}
bench=bench-replay
source scripts/lib/browser_bench.sh
browser_bench_start r

# --- the library: the sample clips, published by the worker ----------------------------------------------------
cp SampleMedia/vertical-1080x1920-16s.mp4 SampleMedia/landscape-1280x720-mono.mp4 SampleMedia/rotated-90-640x360.mp4 "$work/inbox/"
publish_inbox 3

# --- the network: a veth pair into a namespace, hls.js and reel serve on the root side -------------------------
netns_up "$ns" "$host" "$peer"
serve_hlsjs
serve replay "$catalog" --host 203.0.113.1 --stats-interval 5 --hls-js-url "$files/hls.mjs"
base=$base_replay

# --- the sessions ----------------------------------------------------------------------------------------------
profiles=("3g 1.5mbit" "4g 5mbit" "wifi 20mbit")
: > "$work/sessions.tsv"
seed=0
for rep in $(seq "$reps"); do
    for profile in "${profiles[@]}"; do
        read -r name rate <<< "$profile"
        netns_shape "$ns" "$host" "$peer" "$rate"
        seed=$((seed + 1))
        ip netns exec "$ns" python3 Tests/Browser/feed_browser.py --url "$base" --out "$work/out" --viewer \
            --seed "$seed" --items 3 --engine hls.js > "$work/viewer.json" || true
        python3 - "$work/viewer.json" "$name" >> "$work/sessions.tsv" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
if "session" not in report:
    print(f"bench-replay: a {sys.argv[2]} session failed: {report.get('harnessError')}", file=sys.stderr)
else:
    print(f"{report['session']}\t{sys.argv[2]}")
PY
    done
done
tc qdisc del dev "$host" root 2>/dev/null || true
sleep 2  # the last keepalive fetch (the page sends its last view's end as it goes)

"$reel" simulate --replay "$catalog" --json > "$work/replay.json"
echo "\$ reel simulate --replay catalog.sqlite"
"$reel" simulate --replay "$catalog"
echo
python3 - "$work/replay.json" "$work/sessions.tsv" <<'PY'
import json, statistics, sys
report = json.load(open(sys.argv[1]))
profile = dict(line.rstrip("\n").split("\t") for line in open(sys.argv[2]) if line.strip())
rows = {}
for session in report["per_session"]:
    rows.setdefault(profile.get(session["name"], "?"), []).extend(session["views"])
print(f"Replay of {report['sessions']} Chromium sessions ({report['views']} views) in the client model, window policy, 3 players:")
print("| profile | views | started in the model | measured startup p50 ms | predicted p50 ms | median abs error ms | stalled or not agreed | stall count agreed | stalls measured / predicted |")
print("|---|---|---|---|---|---|---|---|---|")
for name in ["3g", "4g", "wifi", "?"]:
    views = rows.get(name)
    if not views:
        continue
    started = [v for v in views if v.get("predicted_startup_ms") is not None]
    errors = [abs(v["predicted_startup_ms"] - v["measured_startup_ms"]) for v in started]
    agree = sum((v["measured_stalls"] > 0) == (v["predicted_stalls"] > 0) for v in views) / len(views)
    counted = sum(v["measured_stalls"] == v["predicted_stalls"] for v in views) / len(views)
    median = lambda xs: int(statistics.median_low(xs)) if xs else 0
    print(f"| {name} | {len(views)} | {len(started)} | {median([v['measured_startup_ms'] for v in views])} | "
          f"{median([v['predicted_startup_ms'] for v in started])} | {median(errors)} | {agree:.0%} | {counted:.0%} | "
          f"{sum(v['measured_stalls'] for v in views)} / {sum(v['predicted_stalls'] for v in views)} |")
print(f"| all | {report['views']} | {report['views_started']} | {report['startup_measured_median_ms']} | "
      f"{report['startup_predicted_median_ms']} | {report['startup_median_abs_error_ms']} | {report['stall_agreement']:.0%} | {report['stall_count_agreement']:.0%} | "
      f"{report['stalls_measured']} / {report['stalls_predicted']} |")
sys.path.insert(0, "scripts/lib")
from bench_result import result
result("median startup, reel simulate --replay", report['startup_predicted_median_ms'], "measured in Chromium",
       report['startup_measured_median_ms'], "ms", "closer")
PY
