#!/usr/bin/env bash
# What the job sandbox (issue 62) costs per job: `reel worker --once` over the same videos and photos with
# --job-sandbox off, auto (Landlock + seccomp here) and namespaces (the fallback), interleaved round by round in
# one run. Reports each mode's wall time, each job's own CPU time (all its threads, from its outcome: the
# `cpu_seconds` of `reel worker --json`) and the sandbox's set-up time inside each job (`sandbox_setup_ms`).
# GNU time around the worker is no measure of the jobs: it counts the children the worker reaped, and a `--once`
# worker may exit before it reaps its job server, whose jobs' CPU is then counted nowhere (seen: rounds of 0.007 s
# per photo job).
# Usage: scripts/bench-sandbox.sh [path/to/reel]   (ROUNDS=3 VIDEOS=4 SECONDS_PER_VIDEO=4 by default)
# BASELINE=path/to/other/reel adds that binary's runs, interleaved with these, with BASELINE_ARGS (for instance
# "--job-sandbox off" for a build of this branch, nothing for one that predates the option).
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
source scripts/lib/bench.sh
bench_workdir sandbox
rounds=${ROUNDS:-3}
videos=${VIDEOS:-4}
seconds=${SECONDS_PER_VIDEO:-4}
modes=(off auto namespaces)
baseline=${BASELINE:+$(realpath "$BASELINE")}
[ -z "$baseline" ] || modes+=(baseline)

mkdir -p "$work/videos" "$work/images"
for i in $(seq 1 "$videos"); do
    # Distinct bytes per clip (identical uploads would be answered as duplicates without a job).
    cp "$(bench_clip 720 1280 30 "$seconds" "$i")" "$work/videos/clip-$i.mp4"
done
n=0
for photo in SampleMedia/*.jpg SampleMedia/*.heic SampleMedia/*.png; do
    for copy in 1 2 3 4; do
        n=$((n + 1))
        # A trailing byte after the image data keeps each copy decodable and distinct.
        { cat "$photo"; printf '%s' "$copy"; } > "$work/images/photo-$n.${photo##*.}"
    done
done

run() { # mode kind round → appends "mode kind wall user sys jobs setup_ms..." to $work/results
    local dir="$work/run-$1-$2-$3"
    mkdir -p "$dir/inbox"
    cp "$work/$2"/* "$dir/inbox/"
    local binary=$reel sandbox=(--job-sandbox "$1")
    if [ "$1" = baseline ]; then
        binary=$baseline
        read -r -a sandbox <<< "${BASELINE_ARGS:-}"
    fi
    local start
    start=$(date +%s.%N)
    "$binary" worker --inbox "$dir/inbox" --library "$dir/library" \
        --database "$dir/catalog.sqlite" --once --json --jobs 1 --settle 0 --poll-interval 0.05 \
        --log-level warning "${sandbox[@]}" > "$dir/reports.jsonl" 2> "$dir/worker.log"
    python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$start" "$(date +%s.%N)" > "$dir/wall"
    python3 - "$1" "$2" "$dir" "$(ls "$work/$2" | wc -l)" "$3" >> "$work/results" <<'EOF'
import json, sys
mode, kind, directory, expected, round_ = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
reports = [json.loads(line) for line in open(directory + "/reports.jsonl") if line.strip()]
published = [r for r in reports if r["state"] == "published"]
if len(published) != expected:
    sys.exit(f"bench-sandbox: {mode} {kind}: {len(published)} of {expected} published: {reports}")
wall = open(directory + "/wall").read().strip()
if any("cpu_seconds" not in r for r in published):
    sys.exit(f"bench-sandbox: {mode} {kind}: a job reported no cpu_seconds (a binary from before they were reported?)")
cpu = sum(r["cpu_seconds"] for r in published)
setup = [str(r.get("sandbox_setup_ms", 0)) for r in published]
protection = sorted({r.get("sandbox", "-") for r in published})  # "-": a binary that does not report it
print(mode, kind, round_, wall, cpu, 0, len(published), ",".join(protection), " ".join(setup))
EOF
}
for round in $(seq 1 "$rounds"); do
    for kind in videos images; do
        for mode in "${modes[@]}"; do run "$mode" "$kind" "$round"; done
    done
done

python3 - "$work/results" "$rounds" "$videos" "$seconds" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
rounds, videos, seconds = sys.argv[2], sys.argv[3], sys.argv[4]
print(f"{rounds} rounds, interleaved; {videos} videos of {seconds} s (720x1280 → the shipped ladder) and the sample photos")
print("(4 copies each), --jobs 1. CPU is each job's own (all its threads, sandbox set-up included), from its outcome.")
print()
print("| uploads | --job-sandbox | protection | jobs | wall s (median) | CPU s per job (median) | CPU vs off | set-up ms per job (median, max) |")
print("|---|---|---|---|---|---|---|---|")
def cpu(row): return (float(row[4]) + float(row[5])) / int(row[6])
for kind in ("videos", "images"):
    base = None
    for mode in ("off", "auto", "namespaces", "baseline"):
        runs = [r for r in rows if r[0] == mode and r[1] == kind]
        if not runs:
            continue
        median = statistics.median(cpu(r) for r in runs)
        base = median if mode == "off" else base
        setup = [float(x) for r in runs for x in r[8:]]
        delta = f"{(median - base) / base * 100:+.1f} %" if mode != "off" else "-"
        setup_text = f"{statistics.median(setup):.2f}, {max(setup):.2f}" if mode in ("auto", "namespaces") else "-"
        wall = statistics.median(float(r[3]) for r in runs)
        print(f"| {kind} | {mode} | {runs[0][7]} | {runs[0][6]} | {wall:.2f} | {median:.3f} | {delta} | {setup_text} |")
sys.path.insert(0, "scripts/lib")
from bench_result import result
for kind in ("videos", "images"):
    medians = {mode: statistics.median(cpu(r) for r in rows if r[0] == mode and r[1] == kind)
               for mode in ("off", "auto") if any(r[0] == mode and r[1] == kind for r in rows)}
    if len(medians) == 2:
        result(f"{kind}: CPU s per job, sandboxed (Landlock + seccomp)", medians["auto"], "the same jobs unconfined",
               medians["off"], "s", "lower")
print()
print("CPU s per job, round by round (off / auto / namespaces, then baseline if any):")
for kind in ("videos", "images"):
    for round_ in sorted({r[2] for r in rows}, key=int):
        cells = [f"{cpu(r):.3f}" for mode in ("off", "auto", "namespaces", "baseline") for r in rows
                 if r[0] == mode and r[1] == kind and r[2] == round_]
        print(f"- {kind}, round {round_}: {' / '.join(cells)}")
EOF
