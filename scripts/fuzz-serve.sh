#!/usr/bin/env bash
# Request-level fuzzing of a live `reel serve --inbox` with a bearer token (issue 32: the server cannot be crashed
# from outside). Builds nothing: it takes a built reel.
#
# Usage: scripts/fuzz-serve.sh [MINUTES=30] [REEL=.build/release/reel]     (or REEL=... in the environment)
#
# For MINUTES, side by side: schemathesis 4.32.5 over the server's own openapi.yaml in all its modes and phases
# (rounds of up to 5 minutes, a new seed each), and scripts/lib/raw_http_fuzz.py sending malformed HTTP/1.1 over
# plain sockets. Every 5 s it samples the server's VmRSS and GET /healthz. Then it prints requests per tool, their
# status histograms, every 5xx but 503 with its request, whether the server is still up, and RSS start/end/peak.
# RSS "start" is the first sample once a minute of traffic has passed (allocators and caches warm up first); "end"
# is taken 5 s after the traffic stops.
# Exits 1 if the server exited, answered a 5xx other than 503, stopped answering GET /v1/feed, or its end RSS is
# more than 20 % from the start. Everything it writes stays in the work directory it prints (not in git).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-30}
reel=$(realpath "${2:-${REEL:-.build/release/reel}}")
[ -x "$reel" ] || { echo "fuzz-serve: $reel is not built (swift build -c release --product reel)" >&2; exit 1; }
python3 -c 'import schemathesis, sys; sys.exit(schemathesis.__version__ != "4.32.5")' 2>/dev/null ||
    { echo "fuzz-serve: needs schemathesis 4.32.5 (scripts/install-deps.sh test)" >&2; exit 69; }

work=$(mktemp -d /tmp/reel-fuzz-serve.XXXXXX)
echo "fuzz-serve: $minutes min against $reel; work directory $work"
source scripts/lib/serve.sh
trap stop_servers EXIT

# A catalog with published videos: 30 synthetic ones, and files for v000000029, the one openapi.yaml's /media/
# examples name (as OpenAPIContractTests does), so ranges, ETags and gzip meet real bytes.
"$reel" db seed --database "$work/c.sqlite" --count 30 >/dev/null
video=$work/library/videos/v000000029
mkdir -p "$video/360p" "$work/inbox"
printf '#EXTM3U\n#EXT-X-VERSION:7\n' >"$video/master.m3u8"
head -c 3000 /dev/urandom >"$video/poster.jpg"
head -c 5000 /dev/urandom >"$video/360p/seg_000.m4s"
printf 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nstoryboard.webp#xywh=0,0,160,284\n' >"$video/storyboard.vtt"
token=$("$reel" token create --database "$work/c.sqlite" --name fuzz 2>/dev/null)

# The viewer-event budgets raised: the fuzzers send from one address and one session, and should reach the batch
# parser rather than meet 429s (the budgets themselves are ViewerEventBoundaryTests').
serve main "$work/c.sqlite" --inbox "$work/inbox" --settle 0.5 --events-session-rate 1000 --events-session-burst 1000 \
    --events-address-rate 1000 --events-address-burst 1000
pid=${pids[0]}
base=$base_main
# /metrics is on the operations listener (loopback, a port of its own); the public port answers it 404.
admin=$(sed -n 's/^admin on //p' "$work/main.out")
# A viewer session for schemathesis's POST /v1/events (raw_http_fuzz.py asks for its own).
session=$(curl -s -X POST "$base/v1/sessions" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
echo "fuzz-serve: reel serve (pid $pid) on $base"
# Two real uploads through the in-process worker too, so it runs jobs while the fuzzers run (as a dotfile, then
# renamed, as an uploader would).
for f in SampleMedia/rotated-90-640x360.mp4 SampleMedia/photo-exif-orientation-6.jpg; do
    cp "$f" "$work/inbox/.$(basename "$f")" && mv "$work/inbox/.$(basename "$f")" "$work/inbox/$(basename "$f")"
done

rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo dead; }
health() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$base/healthz" || true; }

started=$(date +%s)
deadline=$((started + minutes * 60))
# Sampler: seconds since the start, VmRSS in kB, /healthz's status (000: no answer).
(while [ "$(date +%s)" -lt "$deadline" ]; do
    echo "$(($(date +%s) - started)) $(rss) $(health)"
    sleep 5
done) >"$work/samples.txt" &
sampler=$!

python3 scripts/lib/raw_http_fuzz.py --url "$base" --token "$token" --seed 1 --threads 4 \
    --seconds $((minutes * 60)) --out "$work/raw.json" >"$work/raw.log" 2>&1 &
raw=$!

# schemathesis in rounds: each a fresh seed and its own HAR, so a round that dies loses only itself.
export SCHEMATHESIS_HOOKS=$PWD/Tests/Contract/schemathesis_hooks.py
mkdir -p "$work/schemathesis"
(cd "$work/schemathesis"
round=1
while left=$((deadline - $(date +%s))); [ "$left" -gt 30 ]; do
    budget=$((left < 300 ? left : 300))
    timeout $((budget + 120)) python3 -m schemathesis.cli run "$base/openapi.yaml" --url "$base" \
        --mode all --phases examples,coverage,fuzzing,stateful --checks all --continue-on-failure \
        --max-examples 1000 --max-time "$budget" --seed "$round" --no-shrink --workers 2 --request-timeout 20 \
        --suppress-health-check all --generation-database none --no-color \
        -H "Authorization: Bearer $token" -H "Reel-Session: $session" --report har --report-har-path "round-$round.har" \
        >"round-$round.log" 2>&1 || true  # its exit status counts schema conformance too; the HAR is judged below
    round=$((round + 1))
done) &
schema=$!

wait "$raw" || true
wait "$schema" || true
wait "$sampler" || true
sleep 5
end_rss=$(rss)
feed=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$base/v1/feed?limit=1" || true)
final_health=$(health)
curl -s --max-time 10 "$admin/metrics" >"$work/metrics.txt" || true
alive=no
kill -0 "$pid" 2>/dev/null && [ "$end_rss" != dead ] && alive=yes
# A graceful stop is worth knowing too: SIGTERM should end it with 0.
term_status=none
if [ "$alive" = yes ]; then
    kill -TERM "$pid"
    (sleep 90; kill -KILL "$pid" 2>/dev/null) &
    watchdog=$!
    term_status=0
    wait "$pid" || term_status=$?
    kill "$watchdog" 2>/dev/null || true
fi

python3 - "$work" "$minutes" "$alive" "$feed" "$final_health" "$end_rss" "$term_status" <<'EOF'
import glob, json, os, re, sys
from collections import Counter
work, minutes, alive, feed, health, end_rss, term = sys.argv[1:]
failures = []

raw = json.load(open(f"{work}/raw.json")) if os.path.exists(f"{work}/raw.json") else {}
st_status, st_5xx, st_requests, rounds = Counter(), [], 0, 0
for har in sorted(glob.glob(f"{work}/schemathesis/round-*.har")):
    rounds += 1
    try:
        entries = json.load(open(har))["log"]["entries"]
    except (ValueError, KeyError) as error:
        print(f"note: {har} is unreadable ({error})")
        continue
    for e in entries:
        st_requests += 1
        status = e["response"]["status"]
        st_status[str(status) if status else "no answer"] += 1
        if status >= 500 and status != 503:
            req = e["request"]
            st_5xx.append({"method": req["method"], "url": req["url"],
                           "headers": {h["name"]: h["value"] for h in req["headers"]},
                           "body": (req.get("postData") or {}).get("text", "")[:2000], "status": status})

# schemathesis's own findings beyond 5xx (with --checks all: answers outside openapi.yaml), for reading, not judged.
conformance = Counter()
for log in glob.glob(f"{work}/schemathesis/round-*.log"):
    for m in re.finditer(r"❌ (\w+ [^:\n]+): (\d+)", open(log, errors="replace").read()):
        conformance[m.group(1)] += int(m.group(2))

print(f"\n== fuzz-serve summary ({minutes} min; work directory {work})")
print(f"{'tool':16} {'requests':>9}  statuses")
print(f"{'schemathesis':16} {st_requests:>9}  {dict(sorted(st_status.items()))}  ({rounds} rounds)")
print(f"{'raw_http_fuzz':16} {raw.get('requests', 0):>9}  {dict(sorted(raw.get('statuses', {}).items()))}"
      f"  (+ no answer: {raw.get('no_answer', {})}; {raw.get('cases', 0)} cases: {raw.get('families', {})})")
print(f"{'':16} schemathesis's conformance findings (not judged here): {dict(conformance) or 'none'}")
server = Counter()
for line in open(f"{work}/metrics.txt") if os.path.exists(f"{work}/metrics.txt") else []:
    m = re.match(r'reel_http_requests_total\{.*status="(\d+)".*\} (\S+)', line)
    if m:
        server[m.group(1)] += int(float(m.group(2)))
print(f"{'server /metrics':16} {sum(server.values()):>9}  {dict(sorted(server.items()))}  (routed requests only)")

bad = st_5xx + raw.get("server_errors", []) + [
    {"metrics": f"{n} answers {s}"} for s, n in server.items() if s.startswith("5") and s != "503"]
print(f"\n5xx other than 503: {len(bad)}")
for b in bad[:20]:
    print("  " + json.dumps(b)[:800])  # whole in summary.json
if bad:
    failures.append("5xx other than 503")
if raw.get("server_down"):
    failures.append(f"raw fuzzer: {raw['server_down']}")
if raw.get("malformed_answered_2xx"):
    print(f"malformed requests answered 2xx (lenient, not failures): {len(raw['malformed_answered_2xx'])}, e.g.")
    for b in raw["malformed_answered_2xx"][:3]:
        print("  " + json.dumps(b)[:400])
if raw.get("fuzzer_errors"):
    print(f"raw fuzzer's own errors: {raw['fuzzer_errors'][:5]}")

samples = [l.split() for l in open(f"{work}/samples.txt") if len(l.split()) == 3]
down = [s for s in samples if s[1] == "dead"]
unhealthy = Counter(s[2] for s in samples if s[2] != "200")
rss = [(int(t), int(k)) for t, k, _ in samples if k != "dead"]
print(f"\nserver up at the end: {alive}; GET /v1/feed?limit=1 -> {feed}, /healthz -> {health}; "
      f"SIGTERM exit status: {term}")
print(f"liveness samples: {len(samples)}, process gone in {len(down)}, /healthz not 200: {dict(unhealthy)}")
if alive != "yes" or down:
    failures.append("the server exited")
if feed != "200":
    failures.append(f"GET /v1/feed answered {feed} at the end")
warm = [k for t, k in rss if t >= 60]
if warm and end_rss != "dead":
    start, end, peak = warm[0], int(end_rss), max(k for _, k in rss)
    ratio = end / start
    print(f"RSS (VmRSS): start {start} kB (first sample after 60 s of traffic), end {end} kB (5 s after it stopped), "
          f"peak {peak} kB; end/start {ratio:.3f}")
    if abs(ratio - 1) > 0.20:
        failures.append(f"RSS end/start {ratio:.3f} is more than 20 % from 1")
else:
    failures.append("no RSS after the warm-up minute")
json.dump({"schemathesis": {"requests": st_requests, "statuses": st_status, "rounds": rounds,
                            "conformance": conformance},
           "raw_http_fuzz": raw, "server_metrics": server, "bad": bad, "alive": alive, "feed": feed,
           "samples": samples, "failures": failures}, open(f"{work}/summary.json", "w"), indent=1)
print("\nPASS" if not failures else "\nFAIL: " + "; ".join(failures))
sys.exit(1 if failures else 0)
EOF
