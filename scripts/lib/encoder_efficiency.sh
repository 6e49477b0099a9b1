#!/usr/bin/env bash
# How many bytes x265 and SVT-AV1 need against x264 at equal SSIM-Y on one clip, and at what CPU: the ceiling issue
# 16's HEVC/AV1 bytes goals meet on that footage, whatever a ladder does around the encoders. The ffmpeg CLI only
# (Reel is not run): the clip at one rung's size on Reel's clock, rendered once to a lossless Y4M so that each
# encode's CPU is the encoder's own, is encoded with the ladder's settings (fixed closed 2 s GOPs, no scene-cut key
# frames, the rung's VBV cap, 2 threads) at four CRFs per configuration; SSIM-Y against the source as
# ../shared/anchors/ladder_quality.sh measures it (Lanczos to the rung's size).
#
# Usage: scripts/lib/encoder_efficiency.sh CLIP.mp4 WORKDIR [WIDTHxHEIGHT [MAXRATE_KBPS]]   (default 720x1280 3000)
# Env: CONFIGS="x264 x265-medium x265-medium-ssim x265-slow svt-8 svt-6" (any of them; x264 is always run).
set -euo pipefail
clip=${1:?usage: encoder_efficiency.sh CLIP.mp4 WORKDIR [WIDTHxHEIGHT [MAXRATE_KBPS]]}
work=${2:?usage}
size=${3:-720x1280}
maxrate=${4:-3000}
configs=" x264 ${CONFIGS:-x265-medium x265-medium-ssim x265-slow svt-8 svt-6} "
mkdir -p "$work"
picture="fps=30,scale=${size/x/:}:flags=lanczos,format=yuv420p"
gop=keyint=60:min-keyint=60:scenecut=0:open-gop=0
ffmpeg -nostdin -hide_banner -loglevel error -y -i "$clip" -vf "$picture" -an -f yuv4mpegpipe -strict -1 "$work/ref.y4m"

encoder() { # configuration crf: the encoder's arguments
    local x265="$gop:pools=2:log-level=error:vbv-maxrate=$maxrate:vbv-bufsize=$((2 * maxrate))"
    case $1 in
    x264) echo "-c:v libx264 -preset veryfast -profile:v high -crf $2 -maxrate ${maxrate}k -bufsize $((2 * maxrate))k -threads 2 -x264-params $gop" ;;
    x265-medium) echo "-c:v libx265 -preset medium -crf $2 -x265-params $x265" ;;
    x265-medium-ssim) echo "-c:v libx265 -preset medium -tune ssim -crf $2 -x265-params $x265" ;;
    x265-slow) echo "-c:v libx265 -preset slow -crf $2 -x265-params $x265" ;;
    svt-8 | svt-6) echo "-c:v libsvtav1 -preset ${1#svt-} -crf $2 -g 60 -maxrate ${maxrate}k -bufsize $((2 * maxrate))k -svtav1-params scd=0:irefresh-type=2:lp=2" ;;
    *) echo "unknown configuration $1" >&2; return 1 ;;
    esac
}
crfs() { case $1 in x264) echo 21 23 25 27 ;; x265*) echo 23 26 29 32 ;; svt*) echo 36 42 48 54 ;; esac; }

echo "configuration,crf,bytes,ssim_y,cpu_seconds" >"$work/points.csv"
for config in $configs; do
    for crf in $(crfs "$config"); do
        out="$work/$config-$crf.mp4"
        # shellcheck disable=SC2046 # the encoder's arguments are words
        /usr/bin/time -f "%U %S" -o "$out.time" ffmpeg -nostdin -hide_banner -loglevel error -y -i "$work/ref.y4m" -an \
            $(encoder "$config" "$crf") "$out"
        ssim=$(ffmpeg -nostdin -hide_banner -i "$out" -i "$clip" -lavfi "[1:v]$picture[r];[0:v]format=yuv420p[d];[d][r]ssim" \
            -f null - 2>&1 | sed -n 's/.*SSIM Y:\([0-9.]*\).*/\1/p' | tail -1)
        echo "$config,$crf,$(stat -c %s "$out"),$ssim,$(awk '{print $1 + $2}' "$out.time")" >>"$work/points.csv"
    done
done
rm -f "$work/ref.y4m"

python3 - "$work/points.csv" "$size" <<'PY'
import collections, csv, math, sys
points = collections.defaultdict(list)
for row in csv.DictReader(open(sys.argv[1])):
    points[row["configuration"]].append((float(row["crf"]), int(row["bytes"]), float(row["ssim_y"]), float(row["cpu_seconds"])))
others = [c for c in points if c != "x264"]
print(f"\n| configuration at {sys.argv[2]} | CRF: kB, SSIM-Y, CPU s |\n|---|---|")
for config, rows in points.items():
    print(f"| {config} | " + " / ".join(f"{c:g}: {b / 1000:.0f}, {s:.4f}, {t:.1f}" for c, b, s, t in rows) + " |")

def bytes_at(rows, ssim):
    """log(bytes) linear in log(1 - SSIM-Y) between the two points around `ssim` (* when outside them)."""
    line = sorted((math.log(1 - s), math.log(b)) for _, b, s, _ in rows)
    x = math.log(1 - ssim)
    i = next((k for k in range(len(line) - 1) if line[k][0] <= x <= line[k + 1][0]), None)
    outside = i is None
    if outside:
        i = 0 if x < line[0][0] else len(line) - 2
    (x0, y0), (x1, y1) = line[i], line[i + 1]
    return math.exp(y0 + (y1 - y0) * (x - x0) / (x1 - x0)), outside

print(f"\n| x264 CRF (SSIM-Y) | " + " | ".join(f"{c} bytes ÷ x264's at its SSIM-Y" for c in others) + " |")
print("|---" * (len(others) + 1) + "|")
for crf, size, ssim, _ in points["x264"]:
    cells = []
    for config in others:
        value, outside = bytes_at(points[config], ssim)
        cells.append(f"{value / size:.2f}{' (outside its CRFs)' if outside else ''}")
    print(f"| {crf:g} ({ssim:.4f}) | " + " | ".join(cells) + " |")
mean = lambda rows: sum(r[3] for r in rows) / len(rows)
print(f"| encoder CPU ÷ x264's | " + " | ".join(f"{mean(points[c]) / mean(points['x264']):.1f}×" for c in others) + " |")
PY
