#!/usr/bin/env bash
# Probe speed: `reel probe --json` (in-process libavformat, with admission's header and first-frame checks)
# against `ffprobe -show_format -show_streams` on the same files, timed by hyperfine in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=${1:-.build/release/reel}
command -v hyperfine >/dev/null || { echo "bench-probe: hyperfine missing (make deps-bench)" >&2; exit 1; }
printf '| file | reel probe (ms) | ffprobe (ms) | ratio reel/ffprobe |\n|---|---|---|---|\n'
# ffprobe 5.1 has no HEIF demuxer, so the HEIC photo is left out.
for file in SampleMedia/*.mp4 SampleMedia/*.jpg SampleMedia/*.png; do
    json=$(mktemp)
    hyperfine --warmup 3 --runs 20 --style none --export-json "$json" \
        "$reel probe --json '$file'" \
        "ffprobe -v error -show_format -show_streams -of json '$file'" >/dev/null
    python3 - "$json" "$file" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
reel, ff = r[0]["mean"] * 1000, r[1]["mean"] * 1000
print(f"| {sys.argv[2].split('/')[-1]} | {reel:.1f} | {ff:.1f} | {reel / ff:.2f} |")
sys.path.insert(0, "scripts/lib")
from bench_result import result
result(f"probe {sys.argv[2].split('/')[-1]}, mean wall", reel, "ffprobe -show_format -show_streams", ff, "ms", "lower")
PY
    rm -f "$json"
done
