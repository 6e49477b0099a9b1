#!/usr/bin/env bash
# Signed media (issue 65): GETs of one HLS segment and of the master playlist of a private post through its signed
# URL (/media/s/<token>/...), against the same bytes of a public post without one, through one `reel serve
# --library DIR`, with bench-media.sh's wrk settings (a 2 s warm-up, then 2 threads, 16 connections, DURATION, 10 s
# by default). The goal: a signed request at no less than 0.9x an unsigned one's req/s. The reference is Reel itself:
# the signature's check (the post's access from the catalog once per generation, an HMAC-SHA256) is what is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 2; }
source scripts/lib/bench.sh
bench_workdir media-signed
library=$work/library
catalog=$work/catalog.sqlite
"$reel" db seed --database "$catalog" --count 2 >/dev/null 2>&1
mkdir -p "$library/videos"
"$reel" transcode SampleMedia/vertical-1080x1920-16s.mp4 --output "$library/videos/v000000000" >/dev/null
cp -r "$library/videos/v000000000" "$library/videos/v000000001"
admin=$("$reel" token create --database "$catalog" --name bench --admin 2>/dev/null)
"$reel" serve --database "$catalog" --library "$library" --port 0 --log-level warning >"$work/serve.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q '^listening on' "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$work/serve.out")
signed_master=$(curl -s -X PATCH -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
  -d '{"visibility":"private"}' "$base/v1/videos/v000000001?expires_in=86400" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["master_url"])')
rung=$(cd "$library/videos/v000000000" && ls -d */ | head -1)
code=$(curl -s -o /dev/null -w '%{http_code}' "$base/media/videos/v000000001/master.m3u8")
[[ $code == 403 ]] || { echo "sanity check failed: the private post's unsigned master is HTTP $code, not 403" >&2; exit 1; }

load() {
  local name=$1 url=$2
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$url")
  [[ $code == 200 ]] || { echo "sanity check failed: HTTP $code: $url" >&2; exit 1; }
  wrk -t1 -c4 -d2s "$url" >/dev/null 2>&1 || true
  result=$(wrk -t2 -c16 -d"${DURATION:-10s}" --timeout 5s --latency "$url")
  rps=$(awk '/^Requests\/sec:/{print $2}' <<<"$result")
  p99=$(awk '/ 99%/{print $2}' <<<"$result")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx/{print $2}' <<<"$result")
  echo "$name req/s=$rps p99=$p99 non2xx=${non2xx:-0} load1=$(cut -d' ' -f1 /proc/loadavg)"
}
compare() {
  local name=$1 signed=$2 unsigned=$3
  load "signed $name" "$base$signed"
  local signed_rps=$rps
  load "unsigned $name" "$base/media/$unsigned"
  bench_result "signed $name req/s" "$signed_rps" "the same server, a public post's unsigned URL" "$rps" req/s
}
echo "reel $(git rev-parse --short HEAD 2>/dev/null || echo '?') binary $reel, segment $(stat -c %s "$library/videos/v000000000/${rung}seg_000.m4s") bytes"
compare "segment" "${signed_master%master.m3u8}${rung}seg_000.m4s" "videos/v000000000/${rung}seg_000.m4s"
compare "master playlist" "$signed_master" "videos/v000000000/master.m3u8"
