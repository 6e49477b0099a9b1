#!/usr/bin/env bash
# Time to playable (issue 64): from an upload being complete to the post being playable through `reel serve`, and to
# its complete ladder, with the worker's CPU per job. Today a post appears only once its whole ladder is published, so
# the two times are equal; this is the baseline the new design will be measured against.
# - Playable: `GET /v1/feed` lists the post, and its master playlist, the first variant playlist, that variant's init
#   segment and first two media segments all answer 200 through /media/ (polled every 50 ms on one keep-alive
#   connection by scripts/lib/playable_probe.py); then, off the clock, ffprobe must decode init + both segments as
#   fetched into video frames, or the bench fails.
# - Upload complete: `inbox`, the clip renamed into `reel serve --inbox`'s inbox (written and fsynced beside it first;
#   the server runs with --settle 0 --poll-interval 0.05, as scripts/bench-worker.sh runs the worker, so no settle time
#   is counted), and `tus`, the last 5 MiB PATCH of a tus upload answered.
# - Complete ladder: `GET /v1/jobs/{id}` says published.
# - CPU: the server's process tree (worker, job processes, and the answers to the probe's polls) from the upload being
#   complete to a second after publishing.
# Both library engines: a directory, and SeaweedFS (`weed mini`, same machine; `--library s3://...`). Six clips made
# with the ffmpeg CLI at bench time and cached like bench_clip's (never committed), across the design's range
# (15–60 s, up to 1080p60, H.264 or HEVC, 8 or 10 bits, phone-like bitrates under the 50 MB limit, AAC), one of them
# as `reel compress` makes them. One upload at a time; the next starts a second after the last was published.
# RUNS (10) runs per clip, engine and upload path; ENGINES ("dir s3"), MODES ("inbox tus") and CLIPS (names, all by
# default) narrow it. BASELINE=path/to/other/reel runs the same uploads with that binary too, interleaved (an A/B: its
# CPU per job as "today's ladder"), and then times one more decode of each clip alone (the floor of a provisional
# rendition decoded apart from the ladder); BASELINE_NAME names it in the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/weed-mini.sh
reel=$(realpath "${1:-.build/release/reel}")
baseline=${BASELINE:+$(realpath "$BASELINE")}
baseline_name=${BASELINE_NAME:-$baseline}
runs=${RUNS:-10}
engines=${ENGINES:-dir s3}
modes=${MODES:-inbox tus}
bench_workdir playable
command -v ffprobe >/dev/null || { echo "bench-playable: ffprobe checks the first segments decode" >&2; exit 2; }

clips_dir=${REEL_BENCH_CLIPS:-/tmp/reel-bench-clips}
footage=/usr/share/doc/opencv-doc/examples/data/Megamind.avi
[ -f "$footage" ] || { echo "bench-playable: no $footage (Debian's opencv-doc has it)" >&2; exit 2; }
# playable_clip NAME SECONDS INPUT... -- VIDEO-OUTPUT...: the path of the clip, made once in the clip cache: the
# video from INPUT, a 440 Hz tone as AAC 128 kb/s stereo, index first, as phones write MP4.
playable_clip() {
    local path="$clips_dir/playable-v1-$1.mp4" seconds=$2 input=()
    shift 2
    while [ "$1" != -- ]; do input+=("$1"); shift; done
    shift
    if [ ! -s "$path" ]; then
        mkdir -p "$clips_dir"
        ffmpeg -nostdin -hide_banner -loglevel error -y "${input[@]}" \
            -f lavfi -i "sine=frequency=440:sample_rate=48000" -map 0:v:0 -map 1:a:0 -t "$seconds" "$@" \
            -c:a aac -b:a 128k -ac 2 -movflags +faststart "$path.$$.mp4" \
            && mv "$path.$$.mp4" "$path" || return 1
    fi
    printf '%s\n' "$path"
}
# testsrc2 with moving noise (no flat colour for the encoder), at phone bitrates.
noisy_h264=(-vf "noise=alls=10:allf=t,format=yuv420p" -c:v libx264 -preset veryfast)
phone_h264=("${noisy_h264[@]}" -g 60 -b:v 14M -maxrate 16M -bufsize 28M)
# Real footage, looped, scaled and cropped to fill 1080x1920, at 30 fps, tagged BT.709 (the trailer is untagged).
film="scale=1080:1920:force_original_aspect_ratio=increase,crop=1080:1920,fps=30,setparams=color_primaries=bt709:\
color_trc=bt709:colorspace=bt709:range=tv"
hevc=(-c:v libx265 -preset superfast -x265-params log-level=error:keyint=60 -tag:v hvc1)
make_clip() { # NAME: the clip's path
    case $1 in
    h264-1080x1920-30fps-15s) playable_clip "$1" 15 -f lavfi -i testsrc2=size=1080x1920:rate=30 -- "${phone_h264[@]}" ;;
    h264-1920x1080-30fps-20s) playable_clip "$1" 20 -f lavfi -i testsrc2=size=1920x1080:rate=30 -- "${phone_h264[@]}" ;;
    # The slowest the design allows: 60 s at 60 fps, at the bitrate that keeps it under 50 MB.
    h264-1080x1920-60fps-60s) playable_clip "$1" 60 -f lavfi -i testsrc2=size=1080x1920:rate=60 -- \
        "${noisy_h264[@]}" -g 120 -b:v 6M -maxrate 6M -bufsize 12M ;;
    # A phone's HDR: 10-bit HEVC, HLG, BT.2020, SDR white at 203 cd/m² (as scripts/make-phone-testbed.sh makes it).
    hevc10-hlg-1080x1920-30fps-30s) playable_clip "$1" 30 -stream_loop -1 -i "$footage" -- \
        -vf "$film,zscale=t=arib-std-b67:p=bt2020:m=bt2020nc:r=tv:npl=203,format=yuv420p10le" "${hevc[@]}" \
        -b:v 10M -maxrate 12M -bufsize 20M -color_trc arib-std-b67 -color_primaries bt2020 -colorspace bt2020nc \
        -color_range tv ;;
    hevc8-1080x1920-30fps-20s) playable_clip "$1" 20 -stream_loop -1 -i "$footage" -- -vf "$film,format=yuv420p" \
        "${hevc[@]}" -b:v 8M -maxrate 10M -bufsize 16M -color_trc bt709 -color_primaries bt709 -colorspace bt709 ;;
    # As `reel upload` sends a phone's clip: `reel compress` (high: 1080p at 6 Mbps, faststart) of the first one.
    compressed-1080x1920-30fps-15s)
        local source path="$clips_dir/playable-v1-$1.mp4"
        source=$(make_clip h264-1080x1920-30fps-15s) || return 1
        if [ ! -s "$path" ]; then
            "$reel" compress "$source" --output "$path.$$.mp4" >/dev/null && mv "$path.$$.mp4" "$path" || return 1
        fi
        printf '%s\n' "$path" ;;
    *) return 1 ;;
    esac
}
all_clips="h264-1080x1920-30fps-15s h264-1920x1080-30fps-20s h264-1080x1920-60fps-60s hevc10-hlg-1080x1920-30fps-30s
hevc8-1080x1920-30fps-20s compressed-1080x1920-30fps-15s"
clips=${CLIPS:-$all_clips}
declare -A clip_path
for clip in $clips; do
    clip_path[$clip]=$(make_clip "$clip") || { echo "bench-playable: no clip $clip (clips: $all_clips)" >&2; exit 1; }
    size=$(stat -c %s "${clip_path[$clip]}")
    [ "$size" -lt 50000000 ] || { echo "bench-playable: $clip is $size bytes, over the upload limit" >&2; exit 1; }
done

declare -A base_of pid_of engine_name
engine_name[dir]=directory
binaries=(reel)
[ -z "$baseline" ] || binaries=(baseline reel)
# Not called in $(...): a subshell's pids+= would not reach the EXIT trap, and the server would outlive the bench.
start_server() { # ENGINE BINARY-NAME BINARY: reel serve --inbox, one job at a time, no settle time; a tus token
    local name=$1-$2 dir=$work/$1-$2 library
    library=$dir/library
    [ "$1" = s3 ] && library="s3://reel/$name?endpoint=http://127.0.0.1:$s3"
    mkdir -p "$dir/inbox"
    "$3" token create --database "$dir/catalog.sqlite" --name bench >"$dir/token" 2>/dev/null
    "$3" serve --database "$dir/catalog.sqlite" --library "$library" --inbox "$dir/inbox" --port 0 --jobs 1 \
        --settle 0 --poll-interval 0.05 --log-level warning >"$dir/out" 2>"$dir/err" &
    pids+=($!)
    pid_of[$name]=$!
    for _ in $(seq 300); do grep -q '^listening on' "$dir/out" 2>/dev/null && break; sleep 0.1; done
    base_of[$name]=$(sed -n 's/^listening on //p' "$dir/out")
    [ -n "${base_of[$name]}" ] || { echo "bench-playable: $name did not start" >&2; cat "$dir/err" >&2; exit 1; }
}
for engine in $engines; do
    if [ "$engine" = s3 ]; then
        start_weed "$work"
        engine_name[s3]="SeaweedFS $weed_version (s3://, same machine)"
    fi
    [ -z "$baseline" ] || start_server "$engine" baseline "$baseline"
    start_server "$engine" reel "$reel"
done

mkdir -p "$work/keep"
for run in $(seq "$runs"); do
    for clip in $clips; do
        for engine in $engines; do
            for mode in $modes; do
                for binary in "${binaries[@]}"; do
                    name=$engine-$binary
                    upload=(--inbox "$work/$name/inbox" --database "$work/$name/catalog.sqlite")
                    [ "$mode" = tus ] && upload=(--token-file "$work/$name/token")
                    line=$(python3 scripts/lib/playable_probe.py --server "${base_of[$name]}" \
                        --server-pid "${pid_of[$name]}" --clip "${clip_path[$clip]}" --tag "$clip-$mode-$run" \
                        "${upload[@]}" --keep "$work/keep" --label engine="${engine_name[$engine]}" \
                        --label binary="$binary" --label clip="$clip")
                    echo "$line" >>"$work/results.jsonl"
                    echo "run $run/$runs: $line" >&2
                done
            done
        done
    done
done

# With a baseline: the floor under any provisional rendition that decodes the upload apart from the ladder, the CPU
# of decoding each clip's video once more, alone (the ffmpeg CLI, 2 threads, to null), against today's ladder.
if [ -n "$baseline" ]; then
    for clip in $clips; do
        cpu=$( { /usr/bin/time -f '%U %S' ffmpeg -nostdin -hide_banner -loglevel error -threads 2 \
            -i "${clip_path[$clip]}" -map 0:v:0 -f null - ; } 2>&1 | tail -1 | awk '{print $1 + $2}')
        printf '{"clip": "%s", "decode_cpu_s": %s}\n' "$clip" "$cpu" >>"$work/decode.jsonl"
    done
fi
python3 scripts/lib/playable_report.py "$work/results.jsonl" "$runs" ${baseline:+"$baseline_name" "$work/decode.jsonl"}
