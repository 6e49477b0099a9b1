#!/usr/bin/env bash
# Transcode, every ratio from one run on the same inputs (the machine is shared: compare ratios, not times).
#   h264:       `reel transcode` against the ffmpeg CLI anchor (../shared/anchors/ffmpeg_ladder.sh, same settings) on
#               a generated 1080x1920 30 fps clip: wall and CPU ratios, per-rung SSIM and bytes, keyframe alignment,
#               playlist checks and GStreamer playback.
#   compress:   `reel compress` against ffmpeg_compress.sh on a generated ~40 MB 4K 60 fps clip.
#   rss:        reel's peak RSS on a 5 s and a 40 s clip.
#   multicodec: issue 16, the H.264/HEVC/AV1 ladder with content-aware CRF on and off, on an easy, a hard and real
#               clips, beside the ffmpeg CLI making the same ladder (scripts/lib/multicodec_bench.sh).
#   crfsweep:   H.264-only ladders at fixed CRFs beside the content-aware one on the multicodec clips SWEEP_CLIPS
#               (default easy; SWEEP_CRFS="21 22 23 24 25"): the most any per-rung CRFs could save within issue 16's
#               SSIM-Y bound, against what the probes chose (scripts/lib/h264_crf_sweep.sh).
#   efficiency: x265 and SVT-AV1 against x264 at equal SSIM-Y at 720p, at several presets, with the ffmpeg CLI alone,
#               on EFFICIENCY_CLIPS (default vtest megamind): the ceiling for the HEVC/AV1 bytes goals on that footage
#               (scripts/lib/encoder_efficiency.sh).
# Usage: scripts/bench-transcode.sh [REEL_BINARY]
# Env: SECTIONS="h264 compress rss multicodec" (any of them, space- or comma-separated; default these four; crfsweep
#      and efficiency, which measure what the footage allows rather than Reel against a reference, only when named),
#      SECONDS_CLIP=20 (length of the generated and cut clips; 5-6 for a quick run),
#      MC_CLIPS="easy still hard vtest megamind" (multicodec clips), LADDER=Presets/ladder.json (the preset the multicodec
#      presets are copied from), MC_TIMING=1 (a third reel run without --ssim for the CPU and wall ratios),
#      MC_ANCHOR_QUALITY=1 (ladder_quality.sh on the anchor's ladder too), KEEP_WORK=1 (keep the media and logs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/bench.sh
reel=$(realpath "${1:-.build/release/reel}")
anchors=$(realpath ../shared/anchors)
work=$(mktemp -d)
if [ "${KEEP_WORK:-0}" = 1 ]; then trap 'echo "kept $work" >&2' EXIT; else trap 'rm -rf "$work"' EXIT; fi
secs=${SECONDS_CLIP:-20}
sections=" ${SECTIONS:-h264 compress rss multicodec} "
sections=${sections//,/ }
wants() { [[ $sections == *" $1 "* ]]; }
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
measure() { # label, command...: prints "wall cpu peak_kb"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }
    awk '{printf "%.2f %.2f %d\n", $1, $2 + $3, $4}' "$work/time"
}
clip() { # seconds width height fps output; RATE_SRC=15500k targets a bitrate instead of CRF 18
    local rate=(-crf 18)
    [ -n "${RATE_SRC:-}" ] && rate=(-b:v "$RATE_SRC" -maxrate "$RATE_SRC" -bufsize "$RATE_SRC")
    ff -f lavfi -i "testsrc2=size=$2x$3:rate=$4,format=yuv420p" \
       -f lavfi -i "sine=frequency=440:sample_rate=48000,aformat=channel_layouts=stereo" -t "$1" \
       -c:v libx264 -preset veryfast "${rate[@]}" -g "$(( $4 * 2 ))" -c:a aac -b:a 128k "$5"
}

if wants h264; then
echo "Generating a $secs s 1080x1920 30 fps source..."
clip "$secs" 1080 1920 30 "$work/src.mp4"
read -r rw rc rm < <(measure "$reel" transcode "$work/src.mp4" --output "$work/reel")
read -r fw fc fm < <(measure "$anchors/ffmpeg_ladder.sh" "$work/src.mp4" "$work/ffmpeg")
printf '\n| ladder, %s s 1080x1920 30 fps | wall s | CPU s | peak RSS MB |\n|---|---|---|---|\n' "$secs"
printf '| reel transcode | %s | %s | %d |\n| ffmpeg CLI anchor | %s | %s | %d |\n' "$rw" "$rc" $((rm / 1024)) "$fw" "$fc" $((fm / 1024))
python3 -c "print(f'| ratio reel/ffmpeg | {$rw / $fw:.2f} | {$rc / $fc:.2f} | |')"
bench_result "H.264 ladder, $secs s 1080x1920 30 fps, CPU s" "$rc" "the ffmpeg CLI ladder anchor" "$fc" s lower
bench_result "H.264 ladder, $secs s 1080x1920 30 fps, wall s" "$rw" "the ffmpeg CLI ladder anchor" "$fw" s lower

"$anchors/ladder_quality.sh" "$work/src.mp4" "$work/reel" > "$work/q-reel.csv" 2>/dev/null
"$anchors/ladder_quality.sh" "$work/src.mp4" "$work/ffmpeg" > "$work/q-ffmpeg.csv" 2>/dev/null
python3 - "$work/q-reel.csv" "$work/q-ffmpeg.csv" <<'PY'
import csv, sys
def rows(p): return {r["rendition"]: r for r in csv.DictReader(l for l in open(p) if "," in l)}
reel, ff = rows(sys.argv[1]), rows(sys.argv[2])
print("\n| rung | reel SSIM-Y | ffmpeg SSIM-Y | ΔSSIM | reel kB | ffmpeg kB | bytes ratio |\n|---|---|---|---|---|---|---|")
for name in sorted(reel, key=lambda n: int(reel[n]["height"]) * int(reel[n]["width"])):
    r, f = reel[name], ff.get(name)
    if not f: print(f"| {name} | {float(r['ssim_y']):.4f} | – | – | {int(r['bytes'])//1000} | – | – |"); continue
    print(f"| {name} | {float(r['ssim_y']):.4f} | {float(f['ssim_y']):.4f} | {float(r['ssim_y']) - float(f['ssim_y']):+.4f} | "
          f"{int(r['bytes'])//1000} | {int(f['bytes'])//1000} | {int(r['bytes']) / int(f['bytes']):.3f} |")
PY
echo
python3 "$anchors/hls_check.py" "$work/reel" | tail -1
"$anchors/check_keyframes.sh" "$work/reel" | tail -1
if command -v gst-launch-1.0 >/dev/null; then "$anchors/play_hls_gst.sh" "$work/reel" | tail -1; fi
fi

if wants compress; then
echo
echo "Generating a ~$((secs * 2)) MB $secs s 4K 60 fps source (this takes a while)..."
RATE_SRC=15500k clip "$secs" 2160 3840 60 "$work/4k60.mp4"
src_bytes=$(stat -c %s "$work/4k60.mp4")
read -r cw cc cm < <(measure "$reel" compress "$work/4k60.mp4" --output "$work/reel.mp4" --quality high)
read -r aw ac am < <(measure "$anchors/ffmpeg_compress.sh" "$work/4k60.mp4" "$work/ffmpeg.mp4")
"$anchors/ladder_quality.sh" "$work/4k60.mp4" "$work/reel.mp4" > "$work/c-reel.csv" 2>/dev/null
"$anchors/ladder_quality.sh" "$work/4k60.mp4" "$work/ffmpeg.mp4" > "$work/c-ffmpeg.csv" 2>/dev/null
python3 - "$src_bytes" "$work/reel.mp4" "$work/ffmpeg.mp4" "$work/c-reel.csv" "$work/c-ffmpeg.csv" "$cw" "$cc" "$aw" "$ac" <<'PY'
import csv, os, sys
src = int(sys.argv[1])
def q(p): return float(next(csv.DictReader(l for l in open(p) if "," in l))["ssim_y"])
rb, fb = os.path.getsize(sys.argv[2]), os.path.getsize(sys.argv[3])
cw, cc, aw, ac = map(float, sys.argv[6:10])
print(f"\n| compress high, {src / 1e6:.1f} MB 4K60 | MB | smaller by | SSIM-Y vs source at 1080p | wall s | CPU s |\n|---|---|---|---|---|---|")
print(f"| reel compress | {rb / 1e6:.2f} | {100 * (1 - rb / src):.1f} % | {q(sys.argv[4]):.4f} | {cw:.1f} | {cc:.1f} |")
print(f"| ffmpeg_compress.sh | {fb / 1e6:.2f} | {100 * (1 - fb / src):.1f} % | {q(sys.argv[5]):.4f} | {aw:.1f} | {ac:.1f} |")
print(f"| ratio reel/ffmpeg | {rb / fb:.2f} | | | {cw / aw:.2f} | {cc / ac:.2f} |")
sys.path.insert(0, "scripts/lib")
from bench_result import result
result(f"compress --quality high, {src / 1e6:.1f} MB 4K60, bytes", rb, "ffmpeg_compress.sh", fb, "bytes", "lower")
result(f"compress --quality high, {src / 1e6:.1f} MB 4K60, CPU s", cc, "ffmpeg_compress.sh", ac, "s", "lower")
PY
fi

if wants rss; then
echo
echo "Peak RSS against clip length (1080x1920 30 fps):"
clip 5 1080 1920 30 "$work/short.mp4"
clip 40 1080 1920 30 "$work/long.mp4"
read -r _ _ sm < <(measure "$reel" transcode "$work/short.mp4" --output "$work/short")
read -r _ _ lm < <(measure "$reel" transcode "$work/long.mp4" --output "$work/long")
echo "| clip | peak RSS MB |"; echo "|---|---|"
echo "| 5 s | $((sm / 1024)) |"; echo "| 40 s | $((lm / 1024)) |"
fi

if wants multicodec; then
    # shellcheck source=lib/multicodec_bench.sh
    source scripts/lib/multicodec_bench.sh
    multicodec_section
fi

if wants crfsweep; then
    # shellcheck source=lib/multicodec_bench.sh
    source scripts/lib/multicodec_bench.sh
    for name in ${SWEEP_CLIPS:-easy}; do
        mkdir -p "$work/sweep/$name"
        mc_make_clip "$name" "$work/sweep/$name/src.mp4" >"$work/sweep/$name/clip.txt"
        echo
        echo "## H.264 CRF sweep (issue 16's content-aware saving against the whole clip's curve): $name, $secs s," \
             "$(tail -1 "$work/sweep/$name/clip.txt")"
        scripts/lib/h264_crf_sweep.sh "$reel" "$work/sweep/$name/src.mp4" "$work/sweep/$name" ${SWEEP_CRFS:-21 22 23 24 25}
    done
fi

if wants efficiency; then
    # shellcheck source=lib/multicodec_bench.sh
    source scripts/lib/multicodec_bench.sh
    for name in ${EFFICIENCY_CLIPS:-vtest megamind}; do
        mkdir -p "$work/efficiency/$name"
        mc_make_clip "$name" "$work/efficiency/$name/src.mp4" >"$work/efficiency/$name/clip.txt"
        echo
        echo "## Encoder efficiency at equal SSIM-Y, 720p (the ffmpeg CLI alone): $name, $secs s, $(tail -1 "$work/efficiency/$name/clip.txt")"
        scripts/lib/encoder_efficiency.sh "$work/efficiency/$name/src.mp4" "$work/efficiency/$name"
    done
fi
