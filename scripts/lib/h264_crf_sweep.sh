#!/usr/bin/env bash
# What content-aware H.264 could have saved on one clip: `reel transcode` H.264-only ladders at fixed CRFs (content-aware
# off) beside the content-aware one, each rendition's SSIM-Y measured by ../shared/anchors/ladder_quality.sh and its
# video bytes by ffprobe, as the multi-codec bench measures them. The whole clip's curve is then known, so the table
# shows the most a choice of per-rung CRFs could save within issue 16's SSIM-Y bound (an oracle), against what the
# probes chose.
#
# Usage: scripts/lib/h264_crf_sweep.sh REEL CLIP.mp4 WORKDIR CRF...   (e.g. 21 22 23 24)
# The first CRF is the reference (CRF 21 in issue 16). Env: LADDER (default Presets/ladder.json).
set -euo pipefail
reel=${1:?usage: h264_crf_sweep.sh REEL CLIP.mp4 WORKDIR CRF...}
clip=${2:?usage}
work=${3:?usage}
shift 3
[ $# -ge 2 ] || { echo "h264_crf_sweep.sh: give the reference CRF and at least one more" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
anchors=$(realpath "$root/../shared/anchors")
mkdir -p "$work"
python3 - "${LADDER:-$root/Presets/ladder.json}" "$work" "$@" <<'PY'
import copy, json, sys
source, work, *crfs = sys.argv[1:]
preset = json.load(open(source))
preset["codecs"] = ["h264"]
json.dump(preset, open(f"{work}/preset-on.json", "w"))
for crf in crfs:
    fixed = copy.deepcopy(preset)
    fixed["content_aware"]["enabled"] = False
    for rung in fixed["rungs"]:
        rung["crf"] = float(crf)
    json.dump(fixed, open(f"{work}/preset-{crf}.json", "w"))
PY
for run in on "$@"; do
    rm -rf "${work:?}/$run"
    "$reel" transcode "$clip" --output "$work/$run" --ladder "$work/preset-$run.json" --json 2>/dev/null | tail -1 >"$work/$run.json"
    "$anchors/ladder_quality.sh" "$clip" "$work/$run" >"$work/q-$run.csv"
    for playlist in "$work/$run"/*/index.m3u8; do
        rendition=$(basename "$(dirname "$playlist")")
        ffprobe -v error -select_streams v:0 -show_entries packet=size -of csv=p=0 "$playlist" \
            | awk -v r="$rendition" '{s += $1} END {print r "," s}'
    done >"$work/bytes-$run.csv"
done
python3 - "$work" "$@" <<'PY'
import csv, itertools, json, math, sys
work, *crfs = sys.argv[1:]
BOUND = 0.003  # issue 16: SSIM-Y never more than 0.003 below CRF 21's

def load(run):
    ssim = {r["rendition"]: float(r["ssim_y"]) for r in csv.DictReader(open(f"{work}/q-{run}.csv"))}
    size = {l.split(",")[0]: int(l.split(",")[1]) for l in open(f"{work}/bytes-{run}.csv") if "," in l}
    return {r: (ssim[r], size[r]) for r in ssim}

runs = {run: load(run) for run in ["on", *crfs]}
rungs = list(runs[crfs[0]])
base = runs[crfs[0]]
total = sum(b for _, b in base.values())
print(f"| CRF | " + " | ".join(f"{r} SSIM-Y (Δ), video kB" for r in rungs) + " | video bytes vs CRF " + crfs[0] + " |")
print("|---" * (len(rungs) + 2) + "|")
chosen = {r["id"]: r["crf"] for r in json.load(open(f"{work}/on.json"))["renditions"]}
for run in [*crfs, "on"]:
    cells = [f"{runs[run][r][0]:.4f} ({runs[run][r][0] - base[r][0]:+.4f}), {runs[run][r][1] / 1000:.0f}" for r in rungs]
    name = "content-aware (" + "/".join(format(chosen[r], "g") for r in rungs) + ")" if run == "on" else run
    print(f"| {name} | " + " | ".join(cells) + f" | {100 * (sum(b for _, b in runs[run].values()) / total - 1):+.1f} % |")

# The oracle: per rung, the highest swept CRF within the bound, and between two swept CRFs the point where the
# whole clip's SSIM-Y meets the bound (log(1 - SSIM-Y) and log(bytes) linear in the CRF between them).
print()
best = 0
for rung in rungs:
    points = sorted((float(c), runs[c][rung][0], runs[c][rung][1]) for c in crfs)
    floor = base[rung][0] - BOUND
    crf, size = points[0][0], points[0][2]
    for (c0, s0, b0), (c1, s1, b1) in zip(points, points[1:]):
        if s1 >= floor:
            crf, size = c1, b1
            continue
        if s0 >= floor:
            t = (math.log(1 - floor) - math.log(1 - s0)) / (math.log(1 - s1) - math.log(1 - s0))
            crf, size = c0 + t * (c1 - c0), math.exp(math.log(b0) + t * (math.log(b1) - math.log(b0)))
        break
    best += size
    print(f"- {rung}: the whole clip keeps SSIM-Y within {BOUND} of CRF {crfs[0]}'s up to CRF {crf:.2f} ({size / 1000:.0f} kB)")
print(f"- every rung at that CRF: {100 * (best / total - 1):+.1f} % video bytes against CRF {crfs[0]}"
      f" (content-aware: {100 * (sum(b for _, b in runs['on'].values()) / total - 1):+.1f} %)")
PY
