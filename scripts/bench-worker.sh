#!/usr/bin/env bash
# Worker throughput: `reel worker --once` with --jobs 1 and --jobs 2 on a batch of generated videos and of photos,
# next to the single-file CLI (`reel transcode` / `reel webp`, one process per file, one after the other) on the
# same files, in one run. Reports media seconds processed per wall second (videos) and images per second.
# BASELINE=path/to/other/reel adds that binary's worker runs on the same files, interleaved with these (an A/B).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/bench.sh
reel=$(realpath "${1:-.build/release/reel}")
baseline=${BASELINE:+$(realpath "$BASELINE")}
# The baseline as the table names it: BASELINE_NAME, or its path.
baseline_name=${BASELINE_NAME:-$baseline}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
videos=${VIDEOS:-4}
seconds=${SECONDS_PER_VIDEO:-10}

mkdir -p "$work/videos" "$work/images"
for i in $(seq 1 "$videos"); do
    # Distinct bytes per clip (the worker would recognise identical uploads as duplicates).
    cp "$(bench_clip 720 1280 30 "$seconds" "$i")" "$work/videos/clip-$i.mp4"
done
n=0
for photo in SampleMedia/*.jpg SampleMedia/*.heic SampleMedia/*.png; do
    for copy in 1 2 3 4; do
        n=$((n + 1))
        ext=${photo##*.}
        # A trailing byte after the image data keeps each copy decodable and distinct.
        { cat "$photo"; printf '%s' "$copy"; } > "$work/images/photo-$n.$ext"
    done
done
images=$(ls "$work/images" | wc -l)
media_seconds=$((videos * seconds))

now() { date +%s.%N; }
rate() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}')" "$@"; }

# Single-file CLI, one process per file.
mkdir -p "$work/cli-out" "$work/cli-img"
t0=$(now)
for f in "$work"/videos/*.mp4; do "$reel" transcode "$f" --output "$work/cli-out/$(basename "$f" .mp4)" >/dev/null; done
cli_video=$(python3 -c "print($(now) - $t0)")
t0=$(now)
for f in "$work"/images/*; do "$reel" webp "$f" --output "$work/cli-img/$(basename "$f").webp" >/dev/null; done
cli_image=$(python3 -c "print($(now) - $t0)")

worker_run() { # jobs kind [binary] → wall seconds
    local binary=${3:-$reel}
    local dir
    dir=$(mktemp -d "$work/run-$1-$2-XXXX")
    mkdir -p "$dir/inbox"
    cp "$work/$2"/* "$dir/inbox/"
    local start
    start=$(now)
    "$binary" worker --inbox "$dir/inbox" --library "$dir/library" --database "$dir/catalog.sqlite" --once --jobs "$1" \
        --settle 0 --poll-interval 0.05 --log-level warning >/dev/null
    local published
    published=$(ls "$dir/library/originals" | wc -l)
    [ "$published" -eq "$(ls "$work/$2" | wc -l)" ] || { echo "bench-worker: only $published published" >&2; exit 1; }
    python3 -c "print($(now) - $start)"
}
if [ -n "$baseline" ]; then
    b1v=$(worker_run 1 videos "$baseline"); w1v=$(worker_run 1 videos); b1i=$(worker_run 1 images "$baseline"); w1i=$(worker_run 1 images)
    b2v=$(worker_run 2 videos "$baseline"); w2v=$(worker_run 2 videos); b2i=$(worker_run 2 images "$baseline"); w2i=$(worker_run 2 images)
else
    w1v=$(worker_run 1 videos); w1i=$(worker_run 1 images)
    w2v=$(worker_run 2 videos); w2i=$(worker_run 2 images)
fi

echo "$videos videos of $seconds s (720x1280 30 fps → 360p/720p ladder), $images photos (high preset WebP):"
echo
echo "| run | videos wall s | media s per wall s | images wall s | images per s |"
echo "|---|---|---|---|---|"
printf '| CLI, one process per file | %.1f | %s | %.1f | %s |\n' "$cli_video" "$(rate $media_seconds "$cli_video")" "$cli_image" "$(rate "$images" "$cli_image")"
if [ -n "$baseline" ]; then
    printf '| baseline worker --jobs 1 | %.1f | %s | %.1f | %s |\n' "$b1v" "$(rate $media_seconds "$b1v")" "$b1i" "$(rate "$images" "$b1i")"
fi
printf '| reel worker --jobs 1 | %.1f | %s | %.1f | %s |\n' "$w1v" "$(rate $media_seconds "$w1v")" "$w1i" "$(rate "$images" "$w1i")"
if [ -n "$baseline" ]; then
    printf '| baseline worker --jobs 2 | %.1f | %s | %.1f | %s |\n' "$b2v" "$(rate $media_seconds "$b2v")" "$b2i" "$(rate "$images" "$b2i")"
fi
printf '| reel worker --jobs 2 | %.1f | %s | %.1f | %s |\n' "$w2v" "$(rate $media_seconds "$w2v")" "$w2i" "$(rate "$images" "$w2i")"
if [ -n "$baseline" ]; then echo; echo "baseline: $baseline"; fi
bench_result "videos: wall s, reel worker --jobs 2 ($videos clips)" "$w2v" "reel transcode, one process per file" "$cli_video" s lower
bench_result "photos: wall s, reel worker --jobs 2 ($images photos)" "$w2i" "reel webp, one process per file" "$cli_image" s lower
if [ -n "$baseline" ]; then
    bench_result "videos: wall s, reel worker --jobs 2 ($videos clips), A/B" "$w2v" "baseline reel worker --jobs 2 ($baseline_name)" "$b2v" s lower
    bench_result "photos: wall s, reel worker --jobs 2 ($images photos), A/B" "$w2i" "baseline reel worker --jobs 2 ($baseline_name)" "$b2i" s lower
fi
