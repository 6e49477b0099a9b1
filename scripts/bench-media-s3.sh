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

# $LIBRARY: a library already transcoded (reused across binaries, so two builds are compared in one sitting).
if [ -n "${LIBRARY:-}" ]; then
  mkdir -p "$work/library" && cp -r "$LIBRARY/videos" "$work/library/"
else
  mkdir -p "$work/library/videos"
  "$reel" transcode SampleMedia/vertical-1080x1920-16s.mp4 --output "$work/library/videos/v1" >/dev/null
fi
"$reel" library copy --from "$work/library" --to "$url" 2>&1 | tail -1

# Not called in $(...): a subshell's pids+= would not reach the EXIT trap, and the server would outlive the bench.
serve() {
  "$reel" serve --database "$work/catalog.sqlite" --library "$url" --port 0 --log-level warning "$@" >"$work/serve$#.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do grep -q '^listening on' "$work/serve$#.out" 2>/dev/null && break; sleep 0.1; done
  started=$(sed -n 's/^listening on //p' "$work/serve$#.out")
  server_pid=$!
}
serve
base=$started
base_pid=$server_pid
serve --media-cache-mb 0
streamed=$started
streamed_pid=$server_pid
serve --media-redirect --media-redirect-seconds 3600
redirect=$started
weed_pid=${pids[0]}
segment=videos/v1/$(cd "$work/library/videos/v1" && ls -d */ | head -1)seg_000.m4s
playlist=videos/v1/master.m3u8
direct() { curl -s -o /dev/null -w '%{redirect_url}' "$redirect/media/$1"; }

# CPU seconds used so far: "machine" (every core's busy time, /proc/stat), then each pid given with its descendants.
cpu_seconds() {
  python3 - "$@" <<'PY'
import os, sys
hz = os.sysconf("SC_CLK_TCK")
fields = open("/proc/stat").readline().split()[1:]
busy = sum(int(v) for i, v in enumerate(fields[:8]) if i not in (3, 4))  # all but idle and iowait
children, ticks = {}, {}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    after = stat[stat.rindex(")") + 2:].split()
    children.setdefault(int(after[1]), []).append(int(pid))
    ticks[int(pid)] = int(after[11]) + int(after[12])
def tree(pid):
    return ticks.get(pid, 0) + sum(tree(c) for c in children.get(pid, []))
print(" ".join(f"{t / hz:.2f}" for t in [busy] + [tree(int(p)) if p != "none" else 0 for p in sys.argv[1:]]))
PY
}

# One URL under load, printed as the feed anchor prints it, with the CPU each side used per request: the machine in
# all, SeaweedFS, and the Reel server ($2, or none when the URL goes to the store directly).
load() {
  code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$1")
  [ "$code" = 200 ] || { echo "sanity check failed: HTTP $code: $1" >&2; exit 1; }
  wrk -t1 -c4 -d2s "$1" >/dev/null 2>&1 || true
  read -r m0 w0 r0 < <(cpu_seconds "$weed_pid" "${2:-none}")
  result=$(wrk -t2 -c16 -d"${DURATION:-10s}" --timeout 5s --latency "$1")
  read -r m1 w1 r1 < <(cpu_seconds "$weed_pid" "${2:-none}")
  rps=$(awk '/^Requests\/sec:/{print $2}' <<<"$result")
  requests=$(awk '/requests in/{print $1}' <<<"$result")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx/{print $2}' <<<"$result")
  serr=$(awk '/Socket errors/{gsub(",","");s=$4+$6+$8+$10; print s}' <<<"$result")
  per() { python3 -c "print(f'{($2 - $1) * 1e6 / $requests:.0f}')"; }
  echo "conns=16 req/s=$rps non2xx=${non2xx:-0} sock_err=${serr:-0} load1=$(cut -d' ' -f1 /proc/loadavg)" \
    "machine_us=$(per "$m0" "$m1") weed_us=$(per "$w0" "$w1") reel_us=$(per "$r0" "$r1") url=$1"
}
out=$work/load.txt
{
  load "$base/media/$segment" "$base_pid"
  load "$(direct "$segment")"
  load "$base/media/$playlist" "$base_pid"
  load "$(direct "$playlist")"
  load "$streamed/media/$segment" "$streamed_pid"
  load "$streamed/media/$playlist" "$streamed_pid"
} | tee "$out"
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
# The streamed path's ceiling on one machine: the store does the same work for Reel as for wrk, so even a Reel that
# cost nothing could not beat the machine's CPU per direct request over (that, plus what the store and wrk still do).
print("CPU per request, in microseconds of the machine's cores (SeaweedFS, the Reel server, everything):")
for name, streamed, direct in [("segment", streamed_seg, direct_seg), ("playlist", streamed_pl, direct_pl)]:
    machine_d, machine_s = float(direct["machine_us"]), float(streamed["machine_us"])
    reel_s = float(streamed["reel_us"])
    print(f"  {name}: direct: SeaweedFS {direct['weed_us']}, all {direct['machine_us']}; streamed: SeaweedFS "
          f"{streamed['weed_us']}, Reel {streamed['reel_us']}, all {streamed['machine_us']}; held: Reel "
          f"{(reel_seg if name == 'segment' else reel_pl)['reel_us']}")
    print(f"    with both on these cores, streamed <= {machine_d / machine_s:.2f}x measured; a Reel that cost "
          f"nothing: <= {machine_d / (machine_s - reel_s):.2f}x; to reach 0.8x Reel may use at most "
          f"{max(0.0, machine_d / 0.8 - (machine_s - reel_s)):.0f} us per request")
sys.path.insert(0, "scripts/lib")
from bench_result import result
anchor = f"SeaweedFS {sys.argv[2]} directly (presigned GET)"
result(f"segment ({size} bytes) req/s, held in memory", rps(reel_seg), anchor, rps(direct_seg), "req/s")
result("master playlist req/s, held in memory", rps(reel_pl), anchor, rps(direct_pl), "req/s")
result(f"segment ({size} bytes) req/s, streamed from the store", rps(streamed_seg), anchor, rps(direct_seg), "req/s")
result("master playlist req/s, streamed from the store", rps(streamed_pl), anchor, rps(direct_pl), "req/s")
for name, r in [("reel segment", reel_seg), ("direct segment", direct_seg), ("reel playlist", reel_pl),
                ("direct playlist", direct_pl), ("streamed segment", streamed_seg), ("streamed playlist", streamed_pl)]:
    if r["non2xx"] != "0" or r["sock_err"] != "0":
        print(f"WARNING: {name}: non2xx={r['non2xx']} sock_err={r['sock_err']}")
PY
