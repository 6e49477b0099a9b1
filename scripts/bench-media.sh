#!/usr/bin/env bash
# /media/ from a library directory: GETs of one HLS segment (whole, and a 64 KiB range) and of the master playlist
# (as it is, and gzipped for a client that accepts it) through `reel serve --library DIR`, with the wrk settings of
# bench-media-s3.sh (a 2 s warm-up, then 2 threads, 16 connections, DURATION, 10 s by default). The media:
# SampleMedia's vertical clip transcoded by `reel transcode`, or the library at $LIBRARY (reused across binaries, so
# two builds can be compared in one sitting: `LIBRARY=/tmp/lib scripts/bench-media.sh old/reel`, then the new one).
# The reference: nginx (one worker, sendfile) serving the same library directory under /media/, the same GETs.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 2; }
source scripts/lib/bench.sh
source scripts/lib/nginx.sh
bench_workdir media
library=${LIBRARY:-$work/library}
if [ ! -f "$library/videos/v1/master.m3u8" ]; then
  mkdir -p "$library/videos"
  "$reel" transcode SampleMedia/vertical-1080x1920-16s.mp4 --output "$library/videos/v1" >/dev/null
fi
"$reel" serve --database "$work/catalog.sqlite" --library "$library" --port 0 --log-level warning >"$work/serve.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q '^listening on' "$work/serve.out" 2>/dev/null && break; sleep 0.1; done
base=$(sed -n 's/^listening on //p' "$work/serve.out")
segment=videos/v1/$(cd "$library/videos/v1" && ls -d */ | head -1)seg_000.m4s
playlist=videos/v1/master.m3u8
# nginx's worker reads the media; the key files reel serve keeps beside them stay the owner's (it refuses others).
chmod -R a+rX "$work" "$library/videos"
chmod a+rX "$library"
nginx_start "sendfile on; tcp_nopush on; gzip on; gzip_types application/vnd.apple.mpegurl; gzip_min_length 0;
    types { application/vnd.apple.mpegurl m3u8; video/iso.segment m4s; video/mp4 mp4; }" \
    "location /media/ { alias $library/; }"
nginx_version=$(nginx -v 2>&1 | sed 's|.*nginx/||')

load() {
  local name=$1 url=$2
  shift 2
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@" "$url")
  [[ $code == 200 || $code == 206 ]] || { echo "sanity check failed: HTTP $code: $url" >&2; exit 1; }
  local headers=()
  for header in "$@"; do [[ $header == -H ]] || headers+=(-H "$header"); done
  wrk -t1 -c4 -d2s "${headers[@]}" "$url" >/dev/null 2>&1 || true
  result=$(wrk -t2 -c16 -d"${DURATION:-10s}" --timeout 5s --latency "${headers[@]}" "$url")
  rps=$(awk '/^Requests\/sec:/{print $2}' <<<"$result")
  p99=$(awk '/ 99%/{print $2}' <<<"$result")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx/{print $2}' <<<"$result")
  echo "$name req/s=$rps p99=$p99 non2xx=${non2xx:-0} load1=$(cut -d' ' -f1 /proc/loadavg)"
}
# Reel, then nginx on the same GET: one figure each.
compare() {
  local name=$1 path=$2
  shift 2
  load "reel $name" "$base/media/$path" "$@"
  local reel_rps=$rps
  load "nginx $name" "$nginx_base/media/$path" "$@"
  bench_result "$name req/s" "$reel_rps" "nginx $nginx_version (one worker)" "$rps" req/s
}
echo "reel $(git rev-parse --short HEAD 2>/dev/null || echo '?') binary $reel, segment $(stat -c %s "$library/$segment") bytes"
compare "segment ($(stat -c %s "$library/$segment") bytes)" "$segment"
compare "segment, a 64 KiB range" "$segment" -H "Range: bytes=0-65535"
compare "master playlist" "$playlist"
compare "master playlist, gzip" "$playlist" -H "Accept-Encoding: gzip"
