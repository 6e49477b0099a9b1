#!/usr/bin/env bash
# What content-aware rates cost where they cannot save (issue 35): the default H.264 ladder with content-aware rates
# on (Presets/ladder.json) against the same ladder with them off, in the same run, on clips made here (never
# committed): each clip's bytes, CRFs, whether the analysis stopped after its first probes, and CPU. Runs alternate
# off, on, off, on ... (ROUNDS pairs), and each on run is set against the mean of the off runs on either side of it,
# so a drift of the host between runs biases neither way. Goal: ≤ 1.10× the plain ladder's CPU where no CRF moves.
# Usage: scripts/bench-rate-cost.sh [path/to/reel]   (ROUNDS=2, SECS=10, CLIPS: scripts/lib/rate_clips.sh's names)
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
[ -x "$reel" ] || { echo "bench-rate-cost: no reel binary at $reel" >&2; exit 1; }
command -v ffmpeg >/dev/null || { echo "bench-rate-cost: skipped, it needs the ffmpeg CLI to make its clips" >&2; exit 0; }
work=$(mktemp -d /tmp/reel-bench-rate-cost.XXXXXX)
trap 'rm -rf "$work"' EXIT
secs=${SECS:-10}
# shellcheck source=lib/rate_clips.sh
source scripts/lib/rate_clips.sh
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
made=()
for clip in ${CLIPS:-patterns zoom pan text flatzoom animation noise hard bars mandelbrot still}; do
    if ! rate_clip "$clip" "$work/$clip.mp4" > "$work/$clip.about"; then continue; fi
    made+=("$clip")
    run "$clip" "$work/plain.json" "$clip-off-0"
    for n in $(seq "$rounds"); do
        run "$clip" Presets/ladder.json "$clip-on-$n"
        run "$clip" "$work/plain.json" "$clip-off-$n"
    done
done
python3 - "$work" "$rounds" "${made[@]}" <<'PY'
import json, os, statistics, sys
sys.path.insert(0, "scripts/lib")
from bench_result import result
work, rounds, clips = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def summary(name):  # the last line: --json prints progress events before it
    lines = [l for l in open(os.path.join(work, name + ".json")) if l.startswith("{") and '"renditions"' in l]
    return json.loads(lines[-1])
def cpu(name): return float(open(os.path.join(work, name + ".time")).read())
print("| clip | CRFs on (off: the rungs') | first probes | video+audio bytes on / off | analysis CPU s | check: passes, CPU s (sample's) | CPU on / off, each round | median |")
print("|---|---|---|---|---|---|---|---|")
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
    check = on.get("rate_check")
    checked = (f"{check['passes']}, {check['cpu_seconds']:.1f} ({check['sample_cpu_seconds']:.1f})"
               if check else "not checked")
    ratios = [cpu(f"{clip}-on-{n}") / ((cpu(f"{clip}-off-{n - 1}") + cpu(f"{clip}-off-{n}")) / 2)
              for n in range(1, rounds + 1)]
    print(f"| {clip}: {about} | {crfs} ({base}) | {stop} | {size(on) / size(off):.3f} | "
          f"{analysis.get('cpu_seconds', 0):.1f} | {checked} | {', '.join(f'{r:.3f}×' for r in ratios)} | "
          f"**{statistics.median(ratios):.3f}×** |")
    cpu_on = statistics.mean(cpu(f"{clip}-on-{n}") for n in range(1, rounds + 1))
    cpu_off = statistics.mean(cpu(f"{clip}-off-{n}") for n in range(rounds + 1))
    result(f"{clip}: ladder CPU, content-aware rates", cpu_on, "the same ladder, content-aware off", cpu_off, "s",
           "lower")
PY
