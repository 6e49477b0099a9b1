# The shared set-up of every scripts/bench-*.sh. Source it first (after `cd` to the checkout), then:
#   bench_workdir NAME          makes $work (/tmp/reel-bench-NAME.XXXXXX), removed on exit with every pid in $pids
#                               killed first (append the pids of the servers you start)
#   bench_result MEASURE REEL REFERENCE_NAME REFERENCE UNIT [higher|lower]
#                               one figure in the harness's report format (a `BENCH-RESULT {json}` line on stdout):
#                               Reel's value and the reference tool's from the same run; `higher` (the default) when a
#                               larger value is better. Python summaries use scripts/lib/bench_result.py instead.
#   bench_clip W H FPS SECONDS [N]
#                               prints the path of clip number N (default 0) of that size, rate and length: testsrc2
#                               turned N * 40 degrees in hue with a (300 + N * 50) Hz tone, so clips of different N
#                               have distinct bytes (a worker takes identical uploads for duplicates); H.264 CRF 20
#                               veryfast, AAC 128k. Made once by the ffmpeg CLI and kept in $REEL_BENCH_CLIPS (the
#                               harness's cache; /tmp/reel-bench-clips otherwise), so benches share their clips
#   cpu_seconds PID...          the user+system CPU seconds of each pid and its reaped children, one per line
#   free_port                   a free TCP port on 127.0.0.1
bench_workdir() {
    work=$(mktemp -d "/tmp/reel-bench-$1.XXXXXX")
    pids=()
    trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
}

bench_result() {
    python3 "$(dirname "${BASH_SOURCE[0]}")/bench_result.py" "$@"
}

bench_clip() {
    local w=$1 h=$2 fps=$3 seconds=$4 n=${5:-0}
    local dir=${REEL_BENCH_CLIPS:-/tmp/reel-bench-clips}
    local path="$dir/testsrc2-${w}x${h}-${fps}fps-${seconds}s-$n.mp4"
    if [ ! -s "$path" ]; then
        command -v ffmpeg >/dev/null || { echo "bench_clip: the ffmpeg CLI makes the bench clips" >&2; return 1; }
        mkdir -p "$dir"
        ffmpeg -nostdin -hide_banner -loglevel error -y \
            -f lavfi -i "testsrc2=size=${w}x${h}:rate=$fps,hue=h=$((n * 40)),format=yuv420p" \
            -f lavfi -i "sine=frequency=$((300 + n * 50)):sample_rate=48000" -t "$seconds" \
            -c:v libx264 -preset veryfast -crf 20 -g $((fps * 2)) -c:a aac -b:a 128k "$path.$$.mp4"
        mv "$path.$$.mp4" "$path"
    fi
    printf '%s\n' "$path"
}

cpu_seconds() {
    local tick
    tick=$(getconf CLK_TCK)
    for pid in "$@"; do
        awk -v t="$tick" '{ print ($14 + $15 + $16 + $17) / t }' "/proc/$pid/stat" 2>/dev/null || echo 0
    done
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
