#!/usr/bin/env python3
"""The tables and figures of scripts/bench-playable.sh from scripts/lib/playable_probe.py's JSON lines.

Usage: playable_report.py RESULTS.jsonl RUNS [BASELINE_NAME DECODE.jsonl]
Each line has the probe's fields and the labels engine (directory or the SeaweedFS name), binary (reel or baseline)
and clip. Prints a table per engine (p50, p95 and max time to playable, p50 time to the complete ladder, p50 CPU s per
job, per clip and upload path) and the harness's figures: the time to playable over every clip and run against Mux's
published figures, and with a baseline the CPU per job and the time to playable against it, and, from DECODE.jsonl
(one decode of each clip's video alone), the least CPU a provisional rendition decoded apart from the ladder adds.
"""
import json
import sys

sys.path.insert(0, sys.path[0])
from bench_result import result  # noqa: E402

# Mux's published figures for "standard" inputs under a minute, not measured here.
MUX = {"p50": 1.8, "p95": 3.6}
MUX_NAME = "Mux's published figure ({} for clips under a minute, standard inputs; not measured here)"


def percentile(values, p):
    """Linear between the closest ranks (numpy's default); the median is p = 50."""
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def main(path, runs, baseline_name=None, decode_path=None):
    with open(path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    decodes = {}
    if decode_path:
        with open(decode_path) as f:
            decodes = {d["clip"]: d["decode_cpu_s"] for d in (json.loads(line) for line in f if line.strip())}
    if not records:
        raise SystemExit("playable_report: no runs recorded")
    engines = list(dict.fromkeys(r["engine"] for r in records))
    clips = list(dict.fromkeys(r["clip"] for r in records))
    modes = list(dict.fromkeys(r["mode"] for r in records))
    binaries = list(dict.fromkeys(r["binary"] for r in records))

    def runs_of(engine, mode, binary, clip=None):
        return [r for r in records if (r["engine"], r["mode"], r["binary"]) == (engine, mode, binary)
                and (clip is None or r["clip"] == clip)]

    for engine in engines:
        print(f"\nLibrary: {engine}; seconds from the upload being complete, {runs} runs per clip:\n")
        print("| clip | upload | binary | p50 to playable | p95 | max | p50 to complete ladder | CPU s per job (p50) |")
        print("|---|---|---|---|---|---|---|---|")
        for clip in clips:
            for mode in modes:
                for binary in binaries:
                    rs = runs_of(engine, mode, binary, clip)
                    if not rs:
                        continue
                    playable = [r["playable_s"] for r in rs]
                    print(f"| {clip} | {mode} | {binary} | {percentile(playable, 50):.2f} | "
                          f"{percentile(playable, 95):.2f} | {max(playable):.2f} | "
                          f"{percentile([r['published_s'] for r in rs], 50):.2f} | "
                          f"{percentile([r['cpu_s'] for r in rs], 50):.1f} |")

    for engine in engines:
        for mode in modes:
            rs = runs_of(engine, mode, "reel")
            if not rs:
                continue
            playable = [r["playable_s"] for r in rs]
            what = f"{len(clips)} clips × {runs} runs, {mode}, library: {engine}"
            for p in ("p50", "p95"):
                result(f"time to playable, {p} over {what}", percentile(playable, int(p[1:])),
                       MUX_NAME.format(f"{MUX[p]} s {'median' if p == 'p50' else 'p95'}"), MUX[p], "s", "lower")
            base = runs_of(engine, mode, "baseline")
            if base:
                def per_clip_sum(records, key):
                    return sum(percentile([r[key] for r in records if r["clip"] == c], 50) for c in clips)
                result(f"CPU s per job, sum over {len(clips)} clips of each one's p50, {mode}, library: {engine}, A/B",
                       per_clip_sum(rs, "cpu_s"), f"today's ladder ({baseline_name})", per_clip_sum(base, "cpu_s"),
                       "CPU s", "lower")
                result(f"time to playable, p50 over {what}, A/B", percentile(playable, 50),
                       f"today's ladder ({baseline_name})", percentile([r["playable_s"] for r in base], 50), "s",
                       "lower")
                if decodes:
                    print(f"\nA second decode alone (ffmpeg CLI, 2 threads, video to null) against today's ladder, "
                          f"{engine}, {mode}:\n")
                    print("| clip | decode CPU s | ladder CPU s (p50) | ladder + decode / ladder | "
                          "with the provisional rendition / ladder |")
                    print("|---|---|---|---|---|")
                    for c in clips:
                        ladder = percentile([r["cpu_s"] for r in base if r["clip"] == c], 50)
                        ours = percentile([r["cpu_s"] for r in rs if r["clip"] == c], 50)
                        if c in decodes and ladder > 0:
                            print(f"| {c} | {decodes[c]:.1f} | {ladder:.1f} | {(ladder + decodes[c]) / ladder:.3f}× | "
                                  f"{ours / ladder:.3f}× |")
                    floor = per_clip_sum(base, "cpu_s") + sum(decodes.get(c, 0) for c in clips)
                    result(f"CPU s per job with one more decode and nothing else, sum over {len(clips)} clips, {mode}, "
                           f"library: {engine}", floor, f"today's ladder ({baseline_name})",
                           per_clip_sum(base, "cpu_s"), "CPU s", "lower")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4, 5):
        raise SystemExit(__doc__)
    main(sys.argv[1], int(sys.argv[2]), *sys.argv[3:])
