#!/usr/bin/env bash
# Startup: time to first frame for 4 s against 2 s HLS segments, in the browser and in the simulator.
#
# One source (SampleMedia/vertical-1080x1920-16s.mp4), two ladder presets that differ only in segment_seconds
# (4 and 2, both with Presets/ladder.json's 2 s keyframe interval), each published by `reel worker --once` into
# its own library, so the catalog carries the real prefetch hints.
#  1. Browser: headless Chromium + hls.js through ../shared/anchors/browser/hls_check.py (copied to the work
#     directory at run time, with .build/vendor/hls.mjs from scripts/fetch-hlsjs.py), in a network namespace whose
#     veth pair is shaped by tc tbf to the profile's rate, each way. This kernel has no netem, so the round trips
#     are added by the server instead (python3, HTTP/1.1 keep-alive, from the root namespace): one RTT before
#     each response and one more on a new connection (its TCP handshake). TCP slow start is not modelled.
#     Profiles: 3g 1.5 Mbit/s 150 ms RTT, 4g 5 Mbit/s 60 ms, wifi 20 Mbit/s 20 ms. REPS runs per variant and
#     profile, interleaved; medians of playback.timeToFirstFrameMs. The veth pair uses 203.0.113.0/24
#     (TEST-NET-3): Chromium's local-network checks block an insecure page on a private address such as 10/8.
#  2. Simulator: `reel simulate --feed-catalog` (the client model with the catalog's real init and first-segment
#     sizes) on the challenge's traces (../shared/data/prefetch, never committed), policies none (every start is
#     cold) and window (the product's prefetch), startup p50/p95.
# Needs root (ip netns, tc), chromium, python3. Usage: scripts/bench-startup.sh [path/to/reel]   (REPS=5)
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
reps=${REPS:-5}
anchors=$(realpath ../shared/anchors/browser)
data=$(realpath ../shared/data/prefetch)
[ -x "$reel" ] || { echo "bench-startup: no reel binary at $reel" >&2; exit 1; }
# `make bench` runs every script: without root or Chromium this one says it skipped, rather than stop the others.
[ "$(id -u)" = 0 ] || { echo "bench-startup: skipped, it needs root for ip netns and tc"; exit 0; }
command -v chromium >/dev/null || { echo "bench-startup: skipped, it needs chromium (apt-get install chromium)"; exit 0; }
python3 scripts/fetch-hlsjs.py >&2

work=$(mktemp -d /tmp/reel-bench-startup.XXXXXX)
ns=reelstartup$$
host=vs$$h
peer=vs$$n
server=
source scripts/lib/netns.sh
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    netns_down "$ns" "$host"
    rm -rf "$work"
}
trap cleanup EXIT

# --- ladders: the same source through two presets, published by the worker ---------------------------------
for seconds in 4 2; do
    python3 - "$seconds" Presets/ladder.json > "$work/ladder-${seconds}s.json" <<'PY'
import json, sys
preset = json.load(open(sys.argv[2]))
preset["segment_seconds"] = int(sys.argv[1])
json.dump(preset, sys.stdout, indent=1)
PY
    mkdir -p "$work/inbox-$seconds" "$work/lib-$seconds"
    cp SampleMedia/vertical-1080x1920-16s.mp4 "$work/inbox-$seconds/clip.mp4"
    "$reel" worker --inbox "$work/inbox-$seconds" --library "$work/lib-$seconds" --database "$work/lib-$seconds/catalog.sqlite" \
        --ladder "$work/ladder-${seconds}s.json" --once --settle 0 --log-level error >&2
    id=$(ls "$work/lib-$seconds/videos")
    [ -f "$work/lib-$seconds/videos/$id/master.m3u8" ] || { echo "bench-startup: the ${seconds}s ladder was not published" >&2; exit 1; }
    echo "$id" > "$work/id-$seconds"
done
echo "Ladders: init + first segment bytes per rung"
for seconds in 4 2; do
    for dir in "$work/lib-$seconds/videos/$(cat "$work/id-$seconds")"/*/; do
        [ -f "$dir/init.mp4" ] || continue
        printf '  %ss segments, %-5s init %s B, seg_000 %s B, %s segments\n' "$seconds" "$(basename "$dir")" "$(stat -c %s "$dir/init.mp4")" \
            "$(stat -c %s "$dir/seg_000.m4s")" "$(ls "$dir" | grep -c '\.m4s$')"
    done
done

# --- browser ------------------------------------------------------------------------------------------------
cp -r "$anchors" "$work/harness"
chmod -R u+w "$work/harness"
mkdir -p "$work/harness/vendor"
cp .build/vendor/hls.mjs "$work/harness/vendor/hls.mjs"

netns_up "$ns" "$host" "$peer"

port=$((20000 + $$ % 20000))
cat > "$work/rtt_server.py" <<'PY'
# A static file server over HTTP/1.1 that adds the profile's round trips (the file rtt_ms says how many ms).
import functools, os, sys, time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
root, port = sys.argv[1], int(sys.argv[2])
def rtt():
    return int(open(os.path.join(root, "rtt_ms")).read()) / 1000
class Handler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def setup(self):
        super().setup()
        time.sleep(rtt())        # the TCP handshake of a new connection
    def send_head(self):
        time.sleep(rtt())        # the request's way up and the response's first byte down
        return super().send_head()
    def log_message(self, *args):
        pass
ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("203.0.113.1", port), functools.partial(Handler, directory=root)).serve_forever()
PY
echo 0 > "$work/rtt_ms"
python3 "$work/rtt_server.py" "$work" "$port" >/dev/null 2>&1 &
server=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://203.0.113.1:$port/rtt_ms" && break; sleep 0.1; done

shape() {   # rate (tbf, each way), RTT in ms (the server)
    netns_shape "$ns" "$host" "$peer" "$1"
    echo "$2" > "$work/rtt_ms"
}

profiles=("3g 1.5mbit 150" "4g 5mbit 60" "wifi 20mbit 20")
: > "$work/browser.tsv"
for profile in "${profiles[@]}"; do
    read -r name rate rtt <<< "$profile"
    shape "$rate" "$rtt"
    ip netns exec "$ns" curl -s -o /dev/null -w "$name: the 4 s ladder's 360p seg_000 in %{time_total} s (%{size_download} B, %{speed_download} B/s)\n" \
        "http://203.0.113.1:$port/lib-4/videos/$(cat "$work/id-4")/360p/seg_000.m4s" >&2
    for rep in $(seq "$reps"); do
        for seconds in 4 2; do
            url="http://203.0.113.1:$port/lib-$seconds/videos/$(cat "$work/id-$seconds")/master.m3u8"
            ip netns exec "$ns" python3 "$work/harness/hls_check.py" "$url" --no-levels --seconds 1 --start-timeout 30 \
                --out "$work/out-$name-$seconds-$rep" > "$work/report.json" || true
            python3 - "$work/report.json" "$name" "$seconds" "$rep" >> "$work/browser.tsv" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
playback = report.get("playback") or {}
ms = playback.get("timeToFirstFrameMs")
if ms is None:
    why = report.get("harnessError") or report.get("reasons") or report.get("errors")
    print(f"bench-startup: {sys.argv[2]} {sys.argv[3]} s run {sys.argv[4]} did not start: {json.dumps(why)[:600]}", file=sys.stderr)
print("\t".join([sys.argv[2], sys.argv[3], sys.argv[4], str(ms if ms is not None else "failed"), str(playback.get("initialLevel"))]))
PY
        done
    done
done
tc qdisc del dev "$host" root 2>/dev/null || true

echo
echo "Browser (Chromium $(chromium --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1), hls.js; time to first frame, median of $reps; ms):"
python3 - "$work/browser.tsv" <<'PY'
import statistics, sys
sys.path.insert(0, "scripts/lib")
from bench_result import result
runs, levels = {}, {}
for line in open(sys.argv[1]):
    profile, seconds, rep, ms, level = line.rstrip("\n").split("\t")
    runs.setdefault((profile, seconds), []).append(ms)
    levels.setdefault((profile, seconds), []).append(f"{ms}@{level}")
print("runs are ms@level: the rendition hls.js played first (0 = 360p, 1 = 720p, 2 = 1080p)")
print("| profile | 4 s segments | 2 s segments | 2 s / 4 s | runs (4 s) | runs (2 s) |")
print("|---|---|---|---|---|---|")
for profile in ["3g", "4g", "wifi"]:
    four = [int(m) for m in runs.get((profile, "4"), []) if m != "failed"]
    two = [int(m) for m in runs.get((profile, "2"), []) if m != "failed"]
    if not four or not two:
        print(f"| {profile} | failed runs: {runs.get((profile, '4'))} | {runs.get((profile, '2'))} | | | |")
        continue
    m4, m2 = statistics.median(four), statistics.median(two)
    print(f"| {profile} | {m4:.0f} | {m2:.0f} | {m2 / m4:.2f} | {' '.join(levels[(profile, '4')])} | {' '.join(levels[(profile, '2')])} |")
    result(f"time to first frame, Chromium + hls.js, {profile} (median)", m2, "the same ladder in 4 s segments", m4,
           "ms", "lower")
PY

# --- simulator ----------------------------------------------------------------------------------------------
echo
echo "Simulator (client model, 3 players, sample0 user, real init + first-segment sizes from the catalogs; startup ms):"
echo "| trace set | policy | 4 s p50 | 2 s p50 | 4 s p95 | 2 s p95 | 2 s / 4 s (p50) |"
echo "|---|---|---|---|---|---|---|"
for set in high medium low mixed hsdpa; do
    if [ "$set" = hsdpa ]; then network="$data/traces/pensieve_hsdpa_norway_test"; else network="$data/mmgc2022/network_traces/$set"; fi
    for policy in none window; do
        four=$("$reel" simulate --network "$network" --feed-catalog "$work/lib-4/catalog.sqlite" --policy "$policy" --json)
        two=$("$reel" simulate --network "$network" --feed-catalog "$work/lib-2/catalog.sqlite" --policy "$policy" --json)
        python3 - "$set" "$policy" "$four" "$two" <<'PY'
import json, sys
four, two = json.loads(sys.argv[3]), json.loads(sys.argv[4])
p50 = lambda r: r["startup_p50_ms"]
ratio = f"{p50(two) / p50(four):.2f}" if p50(four) else "-"
print(f"| {sys.argv[1]} | {sys.argv[2]} | {p50(four)} | {p50(two)} | {four['startup_p95_ms']} | {two['startup_p95_ms']} | {ratio} |")
PY
    done
done
