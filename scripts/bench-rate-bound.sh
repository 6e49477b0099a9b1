#!/usr/bin/env bash
# Whether content-aware rates keep their bound on every rendition of every clip (issue 35): on a wide test bed made
# here (never committed), the default ladder (Presets/ladder.json, H.264) with content-aware rates against the same
# ladder with them off, both read back for SSIM-Y (`--ssim`), and on the clips of MULTI the same with H.264, HEVC and
# AV1. Per rendition: video+audio bytes against CRF 21, ΔSSIM-Y against its bound (H.264 against the plain ladder's
# rendition, 0.0025; HEVC and AV1 against the same run's H.264, 0.002), and the run's CPU against the plain ladder's.
# Usage: scripts/bench-rate-bound.sh [path/to/reel]   (SECS=10, CLIPS="...", MULTI="patterns easy megamind")
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
[ -x "$reel" ] || { echo "bench-rate-bound: no reel binary at $reel" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "bench-rate-bound: skipped, it needs the ffmpeg CLI to make its clips" >&2; exit 0; }
work=$(mktemp -d /tmp/reel-bench-rate-bound.XXXXXX)
trap 'rm -rf "$work"' EXIT
secs=${SECS:-10}
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
# shellcheck source=lib/multicodec_bench.sh
source scripts/lib/multicodec_bench.sh   # mc_make_clip: the multicodec bench's five clips, and its source settings
data=$mc_data
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
photo() {  # image zoom|pan output: a slow zoom (0.15 % a frame) or pan (2 px a frame) over a photo, 1080x1920
    local move
    if [ "$2" = zoom ]; then
        move="scale=-2:2400:flags=lanczos,zoompan=z='1+0.0015*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=1080x1920:fps=30"
    else
        move="scale=-2:2000:flags=lanczos,crop=1080:1920:'min(2*n,iw-ow)':'(ih-oh)/2'"
    fi
    ff -loop 1 -framerate 30 -i "$data/$1" "${mc_tone[@]}" -t "$secs" -filter_complex "[0:v]$move,setsar=1,format=yuv420p[v]" \
        -map "[v]" -map 1:a "${mc_encode[@]}" "$3"
}
make_clip() {  # name output: prints a description
    case $1 in
    patterns) ff -f lavfi -i "testsrc2=size=1080x1920:rate=30,format=yuv420p" "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        echo "synthetic: testsrc2" ;;
    bars) ff -f lavfi -i "smptebars=size=1080x1920:rate=30,format=yuv420p" "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        echo "synthetic: smptebars" ;;
    text) # lines of text scrolling up over a flat background
        [ -f "$font" ] || { echo "bench-rate-bound: no $font for the text clip" >&2; return 2; }
        ff -f lavfi -i "color=c=0x20242a:size=1080x1920:rate=30" "${mc_tone[@]}" -t "$secs" -vf \
            "drawtext=fontfile=$font:textfile=README.md:fontsize=34:fontcolor=0xe8e8e8:x=40:y=h-40*t*3:line_spacing=10,format=yuv420p" \
            "${mc_encode[@]}" "$2"
        echo "synthetic: moving text (README.md scrolling up 120 px/s over a flat background)" ;;
    zoom) photo aero3.jpg zoom "$2"; echo "slow zoom over a detailed photo (opencv-doc aero3.jpg)" ;;
    pan) photo aero3.jpg pan "$2"; echo "slow pan over a detailed photo (opencv-doc aero3.jpg, 2 px a frame)" ;;
    flatzoom) photo orange.jpg zoom "$2"; echo "slow zoom over a flat photo (opencv-doc orange.jpg)" ;;
    flatpan) photo gradient.png pan "$2"; echo "slow pan over a flat picture (opencv-doc gradient.png)" ;;
    head) # a person moving a little in front of a blurred, static background
        ff -loop 1 -framerate 30 -i "$data/building.jpg" -loop 1 -framerate 30 -i "$data/messi5.jpg" "${mc_tone[@]}" -t "$secs" \
            -filter_complex "[0:v]scale=-2:1920,crop=1080:1920,gblur=sigma=12[bg];[1:v]crop=260:300:200:60,scale=780:900:flags=lanczos[p];[bg][p]overlay=x='150+20*sin(2*PI*t/3)':y='520+12*sin(2*PI*t/2)',setsar=1,format=yuv420p[v]" \
            -map "[v]" -map 2:a "${mc_encode[@]}" "$2"
        echo "talking-head stand-in: a crop of opencv-doc messi5.jpg swaying over a blurred static building.jpg" ;;
    mandelbrot) ff -f lavfi -i "mandelbrot=size=1080x1920:rate=30,format=yuv420p" "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        echo "high motion: mandelbrot zoom" ;;
    noise) ff -f lavfi -i "testsrc2=size=1080x1920:rate=30,noise=alls=12:allf=t,format=yuv420p" "${mc_tone[@]}" -t "$secs" \
            "${mc_encode[@]}" "$2"
        echo "high motion: testsrc2 under temporal noise (alls=12)" ;;
    animation) # flat colours and hard edges that move: Conway's life, cells 4 px, a fading mould
        ff -f lavfi -i "life=s=270x480:rate=30:mold=12:ratio=0.2:death_color=#1e3a5f:life_color=#ffcc00:mold_color=#c0392b,scale=1080:1920:flags=neighbor,format=yuv420p" \
            "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        echo "animation: life with flat colours, scaled up 4x (nearest)" ;;
    easy | still | hard | vtest | megamind) mc_make_clip "$1" "$2" | tail -1 | sed 's/^/bench clip: /' ;;
    *) echo "bench-rate-bound: unknown clip $1" >&2; return 1 ;;
    esac
}
python3 - Presets/ladder.json "$work" <<'PY'
import json, sys
preset = json.load(open(sys.argv[1]))
def write(name, aware, codecs):
    p = json.loads(json.dumps(preset)); p["content_aware"]["enabled"] = aware; p["codecs"] = codecs
    json.dump(p, open(f"{sys.argv[2]}/{name}.json", "w"))
write("plain", False, ["h264"]); write("aware", True, ["h264"])
write("plain-multi", False, ["h264", "hevc", "av1"]); write("aware-multi", True, ["h264", "hevc", "av1"])
PY
run() {  # clip preset name: the summary JSON to name.json, CPU seconds to name.time
    /usr/bin/time -f "%U %S" -o "$work/$3.rawtime" "$reel" transcode "$work/$1.mp4" --output "$work/$3" \
        --ladder "$work/$2.json" --ssim --json > "$work/$3.json" 2> "$work/$3.err" || { cat "$work/$3.err" >&2; exit 1; }
    awk '{printf "%.2f\n", $1 + $2}' "$work/$3.rawtime" > "$work/$3.time"
    rm -rf "${work:?}/$3"
}
clips=${CLIPS:-patterns bars text zoom pan flatzoom flatpan head mandelbrot noise animation easy still hard vtest megamind}
multi=${MULTI:-patterns easy megamind}
made=()
for clip in $clips; do
    if ! make_clip "$clip" "$work/$clip.mp4" > "$work/$clip.about"; then continue; fi
    made+=("$clip")
    run "$clip" plain "$clip-plain"
    run "$clip" aware "$clip-aware"
    if [[ " $multi " == *" $clip "* ]]; then
        run "$clip" plain-multi "$clip-plain-multi"
        run "$clip" aware-multi "$clip-aware-multi"
    fi
done
python3 - "$work" "${made[@]}" <<'PY'
import json, os, sys
work, clips = sys.argv[1], sys.argv[2:]
def summary(name):
    path = os.path.join(work, name + ".json")
    if not os.path.exists(path): return None
    return json.loads([l for l in open(path) if l.startswith("{") and '"renditions"' in l][-1])
def cpu(name): return float(open(os.path.join(work, name + ".time")).read())
print("| clip | rendition | CRF (first encode → published) | bytes vs CRF 21 | ΔSSIM-Y (bound) | inside | run's CPU vs the plain ladder |")
print("|---|---|---|---|---|---|---|")
outside = 0
for clip in clips:
    about = open(os.path.join(work, clip + ".about")).read().strip()
    for suffix in ["", "-multi"]:
        aware, plain = summary(f"{clip}-aware{suffix}"), summary(f"{clip}-plain{suffix}")
        if not aware: continue
        base = {r["id"]: r for r in summary(f"{clip}-plain")["renditions"]}
        plains = {r["id"]: r for r in plain["renditions"]}
        h264 = {r["rung"]: r for r in aware["renditions"] if r["video_codec"] == "h264"}
        check = {r["id"]: r for r in (aware.get("rate_check") or {}).get("renditions", [])}
        ratio = cpu(f"{clip}-aware{suffix}") / cpu(f"{clip}-plain{suffix}")
        for r in aware["renditions"]:
            attempts = check.get(r["id"], {}).get("attempts", [])
            crfs = " → ".join(f"{a['crf']:g}" for a in attempts) if len(attempts) > 1 else f"{r['crf']:g}"
            if r["video_codec"] == "h264":
                delta, bound = r["ssim_y"] - base[r["id"]]["ssim_y"], 0.0025
            else:
                delta, bound = r["ssim_y"] - h264[r["rung"]]["ssim_y"], 0.002
            inside = delta >= -bound
            outside += not inside
            print(f"| {clip}{' (3 codecs)' if suffix else ''}: {about} | {r['id']} | {crfs} | "
                  f"{r['bytes'] / plains[r['id']]['bytes']:.3f} | {delta:+.4f} ({-bound:+.4f}) | "
                  f"{'yes' if inside else '**no**'} | {ratio:.2f}× |")
        passes = (aware.get("rate_check") or {}).get("passes", 0)
        total = sum(r["bytes"] for r in aware["renditions"]) / sum(r["bytes"] for r in plain["renditions"])
        print(f"| {clip}{' (3 codecs)' if suffix else ''} | all | passes again: {passes} | **{total:.3f}** | | | |")
print(f"\nrenditions outside their bound: {outside}")
PY
