#!/usr/bin/env bash
# What content-aware rates cost where they cannot save (issue 35): the default H.264 ladder with content-aware rates
# on (Presets/ladder.json) against the same ladder with them off, in the same run, on clips made here (never
# committed): each clip's bytes, CRFs, whether the analysis stopped after its first probes, and CPU. Runs alternate
# off, on, off, on ... (ROUNDS pairs), and each on run is set against the mean of the off runs on either side of it,
# so a drift of the host between runs biases neither way. Goal: ≤ 1.10× the plain ladder's CPU where no CRF moves.
# Usage: scripts/bench-rate-cost.sh [path/to/reel]   (ROUNDS=2, CLIPS="patterns zoom bars mandelbrot noise still")
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
[ -x "$reel" ] || { echo "bench-rate-cost: no reel binary at $reel" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "bench-rate-cost: skipped, it needs the ffmpeg CLI to make its clips" >&2; exit 0; }
work=$(mktemp -d /tmp/reel-bench-rate-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
data=/usr/share/doc/opencv-doc/examples/data
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
# Sources as the multicodec bench makes them: H.264 CRF 16, capped at 16 Mb/s, BT.709, AAC stereo, 1080x1920 30 fps.
encode=(-c:v libx264 -preset veryfast -crf 16 -maxrate 16M -bufsize 32M -g 60
        -color_primaries bt709 -color_trc bt709 -colorspace bt709 -c:a aac -b:a 128k -ac 2 -ar 48000)
tone=(-f lavfi -i "sine=frequency=330:sample_rate=48000,aformat=channel_layouts=stereo")
make_clip() {  # name output: prints a description
    case $1 in
    patterns) # the issue's clip: 20 s of synthetic test patterns at 1080x1920
        ff -f lavfi -i "testsrc2=size=1080x1920:rate=30,format=yuv420p" "${tone[@]}" -t 20 "${encode[@]}" "$2"
        echo "testsrc2, 1080x1920 30 fps, 20 s" ;;
    zoom) # the issue's other clip: a 10 s slow zoom over a detailed photo
        ff -loop 1 -framerate 30 -i "$data/aero3.jpg" "${tone[@]}" -t 10 -filter_complex \
            "[0:v]scale=-2:2400:flags=lanczos,zoompan=z='1+0.0015*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=1080x1920:fps=30,setsar=1,format=yuv420p[v]" \
            -map "[v]" -map 1:a "${encode[@]}" "$2"
        echo "opencv-doc aero3.jpg, slow zoom (0.15 % a frame), 1080x1920 30 fps, 10 s" ;;
    bars) # SMPTE bars: flat areas and hard edges, still
        ff -f lavfi -i "smptebars=size=1080x1920:rate=30,format=yuv420p" "${tone[@]}" -t 10 "${encode[@]}" "$2"
        echo "smptebars, 1080x1920 30 fps, 10 s" ;;
    mandelbrot) # a zoom into the Mandelbrot set: new detail in every picture
        ff -f lavfi -i "mandelbrot=size=1080x1920:rate=30,format=yuv420p" "${tone[@]}" -t 10 "${encode[@]}" "$2"
        echo "mandelbrot zoom, 1080x1920 30 fps, 10 s" ;;
    noise) # temporal noise over testsrc2
        ff -f lavfi -i "testsrc2=size=1080x1920:rate=30,noise=alls=12:allf=t,format=yuv420p" "${tone[@]}" -t 10 \
            "${encode[@]}" "$2"
        echo "testsrc2 under temporal noise (alls=12), 1080x1920 30 fps, 10 s" ;;
    still) # an easy clip, where the CRFs rise: its savings must stay
        ff -loop 1 -framerate 30 -i "$data/building.jpg" "${tone[@]}" -t 10 -filter_complex \
            "[0:v]scale=-2:2000:flags=lanczos,crop=1080:1920:(iw-ow)/2:(ih-oh)/2,setsar=1,format=yuv420p[v]" \
            -map "[v]" -map 1:a "${encode[@]}" "$2"
        echo "opencv-doc building.jpg, static, 1080x1920 30 fps, 10 s" ;;
    *) echo "bench-rate-cost: unknown clip $1" >&2; return 1 ;;
    esac
}
python3 - Presets/ladder.json "$work/plain.json" <<'PY'
import json, sys
preset = json.load(open(sys.argv[1]))
preset["content_aware"]["enabled"] = False
json.dump(preset, open(sys.argv[2], "w"))
PY
run() {  # run clip preset name: the summary JSON to name.json, "cpu_s" to name.time
    /usr/bin/time -f "%U %S" -o "$work/$3.rawtime" "$reel" transcode "$work/$1.mp4" --output "$work/$3" \
        --ladder "$2" --json > "$work/$3.json" 2> "$work/$3.err" || { cat "$work/$3.err" >&2; exit 1; }
    awk '{printf "%.2f\n", $1 + $2}' "$work/$3.rawtime" > "$work/$3.time"
    rm -rf "${work:?}/$3"
}
rounds=${ROUNDS:-2}
for clip in ${CLIPS:-patterns zoom bars mandelbrot noise still}; do
    make_clip "$clip" "$work/$clip.mp4" > "$work/$clip.about"
    run "$clip" "$work/plain.json" "$clip-off-0"
    for n in $(seq "$rounds"); do
        run "$clip" Presets/ladder.json "$clip-on-$n"
        run "$clip" "$work/plain.json" "$clip-off-$n"
    done
done
python3 - "$work" "$rounds" ${CLIPS:-patterns zoom bars mandelbrot noise still} <<'PY'
import json, os, statistics, sys
work, rounds, clips = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def summary(name):  # the last line: --json prints progress events before it
    lines = [l for l in open(os.path.join(work, name + ".json")) if l.startswith("{") and '"renditions"' in l]
    return json.loads(lines[-1])
def cpu(name): return float(open(os.path.join(work, name + ".time")).read())
print("| clip | CRFs on (off: the rungs') | first probes | video+audio bytes on / off | analysis CPU s | CPU on / off, each round | median |")
print("|---|---|---|---|---|---|---|")
for clip in clips:
    about = open(os.path.join(work, clip + ".about")).read().strip()
    on, off = summary(f"{clip}-on-1"), summary(f"{clip}-off-0")
    crfs = "/".join(f"{r['crf']:g}" for r in on["renditions"])
    base = "/".join(f"{r['crf']:g}" for r in off["renditions"])
    analysis = on.get("rate_analysis") or {}
    first = analysis.get("first_probes")
    if first and first.get("stopped"):
        points = ", ".join(f"CRF {p['crf']:g} {p['kbps']:.0f} kb/s {p['ssim_y']:.4f}" for p in first["probes"])
        stop = f"stopped ({first['stopped']}): {first['rung']}, {points}"
    elif first:
        stop = "went on"
    else:
        stop = "none"
    size = lambda s: sum(r.get("bytes", 0) for r in s["renditions"])
    ratios = [cpu(f"{clip}-on-{n}") / ((cpu(f"{clip}-off-{n - 1}") + cpu(f"{clip}-off-{n}")) / 2)
              for n in range(1, rounds + 1)]
    print(f"| {clip}: {about} | {crfs} ({base}) | {stop} | {size(on) / size(off):.3f} | "
          f"{analysis.get('cpu_seconds', 0):.1f} | {', '.join(f'{r:.3f}×' for r in ratios)} | "
          f"**{statistics.median(ratios):.3f}×** |")
PY
