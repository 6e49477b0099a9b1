#!/usr/bin/env bash
# Uploads into object storage: one 40 MB `reel upload` (tus, 5 MiB PATCHes, --no-wait) to `reel serve` with the
# library in a directory (each chunk fsynced and committed) and with it in SeaweedFS (`--library s3://...`, the same
# machine: each chunk's full 5 MiB parts go up as multipart parts and the rest as the tail object before the commit),
# in one run, interleaved, RUNS times each; the table shows the median MB/s and the ratio (store / directory).
# The clip is a real 1080x1920 H.264/AAC video of 30 s; a presets file raises the remux bound and the high tier's
# bitrate so that `reel upload` sends it as it is (the measurement is the upload, not the compressor).
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
runs=${RUNS:-5}
source scripts/weed-mini.sh
source scripts/lib/bench.sh
bench_workdir upload-s3
start_weed "$work"
ffmpeg -nostdin -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=1080x1920:rate=30,noise=alls=24:allf=t,format=yuv420p" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000" -t 30 \
    -c:v libx264 -preset ultrafast -b:v 10400k -maxrate 10400k -bufsize 20800k -c:a aac -b:a 128k \
    -movflags +faststart "$work/clip.mp4"
size=$(stat -c %s "$work/clip.mp4")
python3 - "$work/presets.json" <<'PY'
import json, sys
presets = json.load(open("Presets/compress.json"))
presets["remux_below_bytes"] = 50_000_000
presets["presets"]["high"]["bitrate_kbps"] = 12_000
presets["presets"]["high"]["buffer_kbits"] = 24_000
json.dump(presets, open(sys.argv[1], "w"))
PY

# Not called in $(...): a subshell's pids+= would not reach the EXIT trap, and the server would outlive the bench.
serve() { # name library: starts the server (its pid in pids) and sets $base
    local dir=$work/$1
    mkdir -p "$dir"
    "$reel" token create --database "$dir/catalog.sqlite" --name bench >"$dir/token" 2>/dev/null
    "$reel" serve --database "$dir/catalog.sqlite" --library "$2" --port 0 --log-level warning \
        >"$dir/out" 2>"$dir/err" &
    pids+=($!)
    for _ in $(seq 100); do grep -q '^listening on' "$dir/out" 2>/dev/null && break; sleep 0.1; done
    base=$(sed -n 's/^listening on //p' "$dir/out")
}
serve dir "$work/dir/library"
dir_base=$base
serve s3 "s3://reel/bench?endpoint=http://127.0.0.1:$s3"
s3_base=$base
[ -n "$dir_base" ] && [ -n "$s3_base" ] || { echo "reel serve did not start" >&2; cat "$work"/*/err >&2; exit 1; }

now() { date +%s.%N; }
upload() { # name base run → MB/s
    local cache=$work/cache-$1-$3 start end
    start=$(now)
    XDG_CACHE_HOME=$cache "$reel" upload "$work/clip.mp4" --server "$2" --token "$(cat "$work/$1/token")" \
        --presets "$work/presets.json" --no-wait --json >"$work/$1/upload-$3.json" 2>"$work/$1/upload-$3.err" \
        || { echo "reel upload to $1 failed: $(cat "$work/$1/upload-$3.err")" >&2; exit 1; }
    end=$(now)
    grep -q '"compress' "$work/$1/upload-$3.json" && { echo "reel upload compressed the clip" >&2; exit 1; }
    python3 -c "print($size / ($end - $start) / 1e6)"
}
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
dir_rates=() s3_rates=()
for run in $(seq "$runs"); do
    dir_rates+=("$(upload dir "$dir_base" "$run")")
    s3_rates+=("$(upload s3 "$s3_base" "$run")")
    rm -rf "$work/dir/library/.incoming"/*
done
d=$(printf '%s\n' "${dir_rates[@]}" | median)
s=$(printf '%s\n' "${s3_rates[@]}" | median)
echo "One $((size / 1000000)) MB reel upload (5 MiB PATCHes, --no-wait), median of $runs:"
echo
echo "| library | MB/s | ratio |"
echo "|---|---|---|"
printf '| directory (fsync + catalog commit per chunk) | %.0f | 1.00x |\n' "$d"
printf '| SeaweedFS %s (s3://, same machine; parts + tail per chunk) | %.0f | %.2fx |\n' "$weed_version" "$s" \
    "$(python3 -c "print($s / $d)")"
bench_result "$((size / 1000000)) MB reel upload into SeaweedFS $weed_version (s3://), median of $runs" "$s" \
    "the same upload into a library directory" "$d" MB/s
