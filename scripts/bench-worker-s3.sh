#!/usr/bin/env bash
# Publishing to object storage: `reel worker --once --jobs 1` on the worker bench's clips (generated 720x1280 videos)
# and photos, into a local library directory and into SeaweedFS (`--library s3://...`, the same machine), in one run,
# the two interleaved. Reports wall seconds for each and the ratio (store / directory): what storing the originals,
# fetching nothing (one host) and uploading every output before the commit costs over renames on one disk.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
source scripts/weed-mini.sh
bench_workdir worker-s3
start_weed "$work"
videos=${VIDEOS:-4}
seconds=${SECONDS_PER_VIDEO:-10}
mkdir -p "$work/media"
for i in $(seq 1 "$videos"); do
    cp "$(bench_clip 720 1280 30 "$seconds" "$i")" "$work/media/clip-$i.mp4"
done
for photo in SampleMedia/*.jpg SampleMedia/*.png; do cp "$photo" "$work/media/"; done
count=$(ls "$work/media" | wc -l)
bytes=$(du -sb "$work/media" | cut -f1)
now() { date +%s.%N; }

run() { # round target → wall seconds
    local dir=$work/run-$1-$2
    mkdir -p "$dir/inbox"
    cp "$work/media"/* "$dir/inbox/"
    local library=$dir/library
    [ "$2" = s3 ] && library="s3://reel/run-$1?endpoint=http://127.0.0.1:$s3"
    local start
    start=$(now)
    "$reel" worker --inbox "$dir/inbox" --library "$library" --database "$dir/catalog.sqlite" --once --jobs 1 \
        --settle 0 --poll-interval 0.05 --json --log-level warning >"$dir/reports.json"
    local wall
    wall=$(python3 -c "print($(now) - $start)")
    local published
    published=$(grep -c '"state":"published"' "$dir/reports.json" || true)
    [ "$published" -eq "$count" ] || { echo "bench-worker-s3: $2 published $published of $count" >&2; exit 1; }
    echo "$wall"
}
d1=$(run 1 dir); s1=$(run 1 s3); s2=$(run 2 s3); d2=$(run 2 dir)
objects=$(python3 - "$work" <<'PY'
import os, sys
root = os.path.join(sys.argv[1], "run-1-dir", "library")
print(sum(len(f) for d in ("videos", "images", "originals") for _, _, f in os.walk(os.path.join(root, d))))
PY
)
python3 - "$d1" "$d2" "$s1" "$s2" "$count" "$bytes" "$objects" "$weed_version" <<'PY'
import sys
d1, d2, s1, s2 = map(float, sys.argv[1:5])
count, size, objects, version = int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]), sys.argv[8]
d, s = (d1 + d2) / 2, (s1 + s2) / 2
print(f"{count} uploads ({size / 1e6:.1f} MB; {objects} files published per run), reel worker --once --jobs 1:")
print()
print("| library | wall s (two runs) | mean | ratio |")
print("|---|---|---|---|")
print(f"| directory | {d1:.1f}, {d2:.1f} | {d:.1f} | 1.00x |")
print(f"| SeaweedFS {version} (s3://, same machine) | {s1:.1f}, {s2:.1f} | {s:.1f} | {s / d:.2f}x |")
sys.path.insert(0, "scripts/lib")
from bench_result import result
result(f"publishing {count} uploads, wall s, library in SeaweedFS {version}", s, "the same into a library directory", d,
       "s", "lower")
PY
