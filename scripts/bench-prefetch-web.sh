#!/usr/bin/env bash
# The web client's prefetch (issue 34): `?prefetch=aware` (prefetch.js: each neighbour buffered as far as its
# retention curve says, 1 to 3 s, and each new player's first rung from the measured throughput) against today's fixed
# 3 s window, in headless Chromium with hls.js and the default pool of 3, in a network namespace whose link tc shapes
# to a profile's rate (scripts/lib/netns.sh; this kernel has no netem, so no added round trip).
#  - Library: the three sample clips, each published 4 times by the worker (a copy is made distinct by a trailing
#    MP4 `free` box, so the worker does not take it for a re-upload): 12 videos.
#  - Retention: before any session, 40 views per video go to POST /v1/events (one session per video, its views one
#    after another, as the route takes a batch of one session's events). On every other video of the feed
#    ("skipped") 60 % of viewers leave after 0.5 s, so r(1) / r(0) = 0.4 and aware buffers it 1 s; on the others
#    viewers stay 4 s or more (aware: 3 s, as the window). A server with --stats-interval 1 rolls them up; the sessions
#    then run on one with --stats-interval 3600, so their own events leave the curves as they were.
#  - Sessions: each watches 8 items, its stay on an item drawn (seeded) from that item's viewers: on a skipped video
#    0.5 s with probability 0.6, else 4 to 8 s. Per profile and rep, the same stays under window and then aware.
# Printed per profile and policy: the first view's mean start (no sample or curve yet: the same code under both, so
# the noise), the swipes' start p50 / p90 / p95 / mean, stalls and media MB per session, and aware / window.
# Needs root (ip netns, tc), chromium, python3. Usage: scripts/bench-prefetch-web.sh [path/to/reel]  (REPS=2;
# SESSIONS=FILE keeps every session's report, its views with their renditions, as JSON lines)
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
reps=${REPS:-2}
bench=bench-prefetch-web
source scripts/lib/browser_bench.sh
browser_bench_start p

# --- the library -------------------------------------------------------------------------------------------------
copy=0
for clip in SampleMedia/vertical-1080x1920-16s.mp4 SampleMedia/landscape-1280x720-mono.mp4 SampleMedia/rotated-90-640x360.mp4; do
    for _ in 1 2 3 4; do
        copy=$((copy + 1))
        name=$work/inbox/copy$copy.mp4
        cp "$clip" "$name"
        printf '\x00\x00\x00\x10free%08d' "$copy" >> "$name"
    done
done
publish_inbox 12

# --- the retention curves ----------------------------------------------------------------------------------------
serve rollup "$catalog" --stats-interval 1
curl -s "$base_rollup/v1/feed?limit=12" > "$work/feed.json"
python3 - "$work/feed.json" "$work/views" <<'PY'
import json, os, random, sys
items = json.load(open(sys.argv[1]))["items"]
os.makedirs(sys.argv[2])
draw = random.Random(1)
for position, item in enumerate(items):
    events = []
    for view in range(40):
        if position % 2 == 1 and view < 24:
            watched = 0.5
        else:
            watched = round(draw.uniform(4, max(4.5, item["duration_s"])), 2)
        completed = watched >= item["duration_s"]
        events.append({"type": "view_start", "video": item["id"], "rendition": "360p", "startup_ms": 300})
        events.append({"type": "view_end", "video": item["id"], "watched_s": min(watched, item["duration_s"]),
                       "completed": completed, "bytes": 100000})
    with open(os.path.join(sys.argv[2], f"{position}.json"), "w") as out:
        json.dump(events, out)
PY
for batch in "$work"/views/*.json; do
    session=$(curl -s -X POST "$base_rollup/v1/sessions" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
    status=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H "Reel-Session: $session" \
        --data-binary "@$batch" "$base_rollup/v1/events")
    [ "$status" = 204 ] || { echo "bench-prefetch-web: POST /v1/events answered $status" >&2; exit 1; }
done
for _ in $(seq 100); do
    views=$(curl -s "$base_rollup/v1/videos/$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["items"][-1]["id"])' "$work/feed.json")/stats" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["views"])')
    [ "$views" = 40 ] && break
    sleep 0.2
done
[ "$views" = 40 ] || { echo "bench-prefetch-web: the views were not rolled up" >&2; exit 1; }
stop_servers
pids=()

# --- the sessions ------------------------------------------------------------------------------------------------
netns_up "$ns" "$host" "$peer"
serve_hlsjs
serve sessions "$catalog" --host 203.0.113.1 --stats-interval 3600 --hls-js-url "$files/hls.mjs"

profiles=("3g 1.5mbit" "4g 5mbit" "wifi 20mbit")
: > "$work/sessions.jsonl"
seed=0
for rep in $(seq "$reps"); do
    for profile in "${profiles[@]}"; do
        read -r name rate <<< "$profile"
        seed=$((seed + 1))
        dwells=$(python3 -c '
import random, sys
draw = random.Random(int(sys.argv[1]))
print(",".join(str(0.5 if position % 2 == 1 and draw.random() < 0.6 else round(draw.uniform(4, 8), 2)) for position in range(8)))
' "$seed")
        for policy in window aware; do
            netns_shape "$ns" "$host" "$peer" "$rate"
            ip netns exec "$ns" python3 Tests/Browser/feed_browser.py --url "$base_sessions" --out "$work/out" --viewer \
                --items 8 --dwells "$dwells" --engine hls.js --prefetch "$policy" > "$work/viewer.json" || true
            python3 - "$work/viewer.json" "$name" "$policy" "$rep" >> "$work/sessions.jsonl" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
if "startups" not in report:
    print(f"bench-prefetch-web: a {sys.argv[2]} {sys.argv[3]} session failed: {report.get('harnessError')}", file=sys.stderr)
else:
    print(json.dumps({"profile": sys.argv[2], "policy": sys.argv[3], "rep": int(sys.argv[4]), "startups": report["startups"],
                      "stalls": report["stalls"], "bytes": report["mediaBytes"], "views": len(report["views"]),
                      "caps": report["neighbourCaps"], "errors": report["errors"], "detail": report["views"],
                      "throughputBps": report.get("throughputBps")}))
PY
        done
    done
done

python3 - "$work/sessions.jsonl" "$reps" <<'PY'
import json, statistics, sys
sessions = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else 0
# A session's first view loads before any throughput sample or retention curve, so it runs the same code under both
# policies: its start is shown apart, as a measure of the noise. The swipes (views 2 to 8) are what prefetch decides.
print(f"Web client prefetch, hls.js, 3 players, 8 items a session, {sys.argv[2]} reps per profile (same stays under both):")
print("| profile | policy | sessions | first start mean ms | swipes | swipe start p50 ms | p90 ms | p95 ms | mean ms "
      "| stalls / session | MB / session |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
summary = {}
for name in ["3g", "4g", "wifi"]:
    for policy in ["window", "aware"]:
        rows = [s for s in sessions if s["profile"] == name and s["policy"] == policy]
        if not rows:
            continue
        first = statistics.mean(s["startups"][0] for s in rows if s["startups"])
        swipes = [ms for s in rows for ms in s["startups"][1:]]
        stalls = statistics.mean(s["stalls"] for s in rows)
        megabytes = statistics.mean(s["bytes"] for s in rows) / 1e6
        mean = statistics.mean(swipes) if swipes else 0
        summary[(name, policy)] = (pct(swipes, 0.5), pct(swipes, 0.9), pct(swipes, 0.95), mean, stalls, megabytes)
        print(f"| {name} | {policy} | {len(rows)} | {first:.0f} | {len(swipes)} | {pct(swipes, 0.5)} | {pct(swipes, 0.9)} | "
              f"{pct(swipes, 0.95)} | {mean:.0f} | {stalls:.2f} | {megabytes:.2f} |")
print()
for name in ["3g", "4g", "wifi"]:
    if (name, "window") in summary and (name, "aware") in summary:
        w, a = summary[(name, "window")], summary[(name, "aware")]
        ratio = lambda x, y: f"{x / y:.2f}×" if y else ("=" if x == y else "n/a")
        print(f"{name}: aware / window: swipe start p50 {ratio(a[0], w[0])}, p90 {ratio(a[1], w[1])}, "
              f"p95 {ratio(a[2], w[2])}, mean {ratio(a[3], w[3])}, stalls {a[4]:.2f} vs {w[4]:.2f}, bytes {ratio(a[5], w[5])}")
        sys.path.insert(0, "scripts/lib")
        from bench_result import result
        result(f"{name}: swipe start p50, prefetch=aware", a[0], "the fixed 3 s window", w[0], "ms", "lower")
        result(f"{name}: MB downloaded, prefetch=aware", a[5], "the fixed 3 s window", w[5], "MB", "lower")
errors = [e for s in sessions for e in s["errors"]]
if errors:
    print(f"page errors: {errors[:5]}")
PY
[ -z "${SESSIONS:-}" ] || cp "$work/sessions.jsonl" "$SESSIONS"
