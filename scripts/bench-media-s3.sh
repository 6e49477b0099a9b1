#!/usr/bin/env bash
# /media/ from object storage: GETs of one HLS segment and one playlist through `reel serve --library s3://...`
# (answered from its memory, the default --media-cache-mb, and streamed from SeaweedFS, --media-cache-mb 0) against the same objects fetched from SeaweedFS directly (a presigned URL, as
# --media-redirect hands out, so both paths check a signature), in one run, with the wrk settings of the shared feed
# anchor (../shared/anchors/feed_load.sh: a 2 s warm-up, then 2 threads, 16 connections, 10 s), which itself only
# takes JSON bodies. The goal: Reel at least 0.8x the direct path.
# The media: SampleMedia's vertical clip transcoded by `reel transcode`, copied with `reel library copy`.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 2; }
source scripts/weed-mini.sh
bench_workdir media-s3
start_weed "$work"
url="s3://reel/bench?endpoint=http://127.0.0.1:$s3"

mkdir -p "$work/library/videos"
"$reel" transcode SampleMedia/vertical-1080x1920-16s.mp4 --output "$work/library/videos/v1" >/dev/null
"$reel" library copy --from "$work/library" --to "$url" 2>&1 | tail -1

# Not called in $(...): a subshell's pids+= would not reach the EXIT trap, and the server would outlive the bench.
serve() {
  "$reel" serve --database "$work/catalog.sqlite" --library "$url" --port 0 --log-level warning "$@" >"$work/serve$#.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q '^listening on' "$work/serve$#.out" 2>/dev/null && break; sleep 0.1; done
  started=$(sed -n 's/^listening on //p' "$work/serve$#.out")
}
serve
base=$started
serve --media-cache-mb 0
streamed=$started
serve --media-redirect --media-redirect-seconds 3600
redirect=$started
segment=videos/v1/$(cd "$work/library/videos/v1" && ls -d */ | head -1)seg_000.m4s
playlist=videos/v1/master.m3u8
direct() { curl -s -o /dev/null -w '%{redirect_url}' "$redirect/media/$1"; }

# One URL under load, printed as the feed anchor prints it.
load() {
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$1")
  [ "$code" = 200 ] || { echo "sanity check failed: HTTP $code: $1" >&2; exit 1; }
  wrk -t1 -c4 -d2s "$1" >/dev/null 2>&1 || true
  result=$(wrk -t2 -c16 -d"${DURATION:-10s}" --timeout 5s --latency "$1")
  rps=$(awk '/^Requests\/sec:/{print $2}' <<<"$result")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx/{print $2}' <<<"$result")
  serr=$(awk '/Socket errors/{gsub(",","");s=$4+$6+$8+$10; print s}' <<<"$result")
  echo "conns=16 req/s=$rps non2xx=${non2xx:-0} sock_err=${serr:-0} load1=$(cut -d' ' -f1 /proc/loadavg) url=$1"
}
out=$work/load.txt
for u in "$base/media/$segment" "$(direct "$segment")" "$base/media/$playlist" "$(direct "$playlist")" \
  "$streamed/media/$segment" "$streamed/media/$playlist"; do
  load "$u"
done | tee "$out"
python3 - "$out" "$weed_version" "$(stat -c %s "$work/library/$segment")" <<'PY'
import re, sys
rows = [dict(re.findall(r"(\S+?)=(\S+)", line)) for line in open(sys.argv[1]) if line.startswith("conns=")]
reel_seg, direct_seg, reel_pl, direct_pl, streamed_seg, streamed_pl = rows
size = int(sys.argv[3])
rps = lambda r: float(r["req/s"])
print()
print(f"segment ({size} bytes): SeaweedFS {sys.argv[2]} direct {rps(direct_seg):.0f} req/s "
      f"({rps(direct_seg) * size / 1e6:.1f} MB/s)")
print(f"  Reel, held in memory: {rps(reel_seg):.0f} req/s ({rps(reel_seg) * size / 1e6:.1f} MB/s): "
      f"ratio {rps(reel_seg) / rps(direct_seg):.2f}x (goal >= 0.8x)")
print(f"  Reel, streamed from the store (--media-cache-mb 0): {rps(streamed_seg):.0f} req/s "
      f"({rps(streamed_seg) * size / 1e6:.1f} MB/s): ratio {rps(streamed_seg) / rps(direct_seg):.2f}x")
print(f"playlist: SeaweedFS direct {rps(direct_pl):.0f} req/s")
print(f"  Reel, held in memory: {rps(reel_pl):.0f} req/s: ratio {rps(reel_pl) / rps(direct_pl):.2f}x")
print(f"  Reel, streamed: {rps(streamed_pl):.0f} req/s: ratio {rps(streamed_pl) / rps(direct_pl):.2f}x")
for name, r in [("reel segment", reel_seg), ("direct segment", direct_seg), ("reel playlist", reel_pl),
                ("direct playlist", direct_pl), ("streamed segment", streamed_seg), ("streamed playlist", streamed_pl)]:
    if r["non2xx"] != "0" or r["sock_err"] != "0":
        print(f"WARNING: {name}: non2xx={r['non2xx']} sock_err={r['sock_err']}")
PY
