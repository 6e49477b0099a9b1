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
# shellcheck source=lib/rate_clips.sh
source scripts/lib/rate_clips.sh
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
    if ! rate_clip "$clip" "$work/$clip.mp4" > "$work/$clip.about"; then continue; fi
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
sys.path.insert(0, "scripts/lib")
from bench_result import result
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
        result(f"{clip}{' (3 codecs)' if suffix else ''}: ladder bytes, content-aware rates",
               sum(r["bytes"] for r in aware["renditions"]), "the same ladder at the rungs' CRFs",
               sum(r["bytes"] for r in plain["renditions"]), "bytes", "lower")
print(f"\nrenditions outside their bound: {outside}")
PY
