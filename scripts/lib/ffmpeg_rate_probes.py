#!/usr/bin/env python3
"""The ffmpeg CLI doing the content-aware analysis `reel transcode` did, for a like-for-like CPU and wall comparison
of the whole content-aware ladder (this, then scripts/lib/ffmpeg_multicodec_ladder.sh at the CRFs it leads to).

A script built on the ffmpeg CLI cannot choose a clip's CRFs without encoding samples of it and measuring them, so
this runs the probes Reel's summary lists: the same windows (`rate_analysis.window_starts`, `window_seconds`), and
for every rendition that was probed, the same rung size, codec, encoder options (those the ladder uses) and CRFs.
It runs them in Reel's order, because each step needs the one before: an H.264-only ladder's first probes (one rung
over the clip's first second, `rate_analysis.first_probes`; Reel reads the lower CRF's off its own ladder encode, a
script encodes both), then every H.264 probe, then the other codecs'
first two probes (their CRFs come from the H.264 choice), then any third probe (chosen from the second step). Each
step is one ffmpeg that seeks to each window, decodes it once, puts it on the ladder's clock, joins the windows one
after the other (each probe encoder gets them all in a row, as Reel's does: one encoder per window spent 3-9 % fewer
bytes at lower SSIM-Y than Reel's probes), scales once per rung (Lanczos) and encodes every probe of the step; then
one ffmpeg that decodes the windows again with every probe of the step and measures each probe's SSIM-Y with the
ssim filter, as ../shared/anchors/ladder_quality.sh measures renditions (both sides rebased to time 0, as there).
The CRFs are taken from Reel's summary (choosing them from these measurements is arithmetic).

Usage: scripts/lib/ffmpeg_rate_probes.py INPUT WORKDIR SUMMARY.json
  SUMMARY.json: `reel transcode --json` output (the last line, or the whole stdout) of a content-aware run.
Env: LADDER=preset.json (default Presets/ladder.json); THREADS=2 (threads per probe encoder, Reel's default).
Output (stdout): one line per probe, tab-separated: rendition, crf, the anchor's SSIM-Y and kb/s (the probe file's
bytes), Reel's SSIM-Y and kb/s for the same probe. Exit status 1 when an ffmpeg fails.
"""
import json
import os
import re
import subprocess
import sys


def fraction(rate):  # LadderPlanner.fraction: NTSC rates as n*1000/1001
    ntsc = rate * 1.001
    if abs(ntsc - round(ntsc)) < 0.01 and abs(rate - round(rate)) > 0.01:
        return f"{round(ntsc) * 1000}/1001"
    return f"{max(1, round(rate))}/1"


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: ffmpeg_rate_probes.py INPUT WORKDIR SUMMARY.json")
    src, work, summary_path = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    preset = json.load(open(os.environ.get("LADDER") or os.path.join(here, "..", "..", "Presets", "ladder.json")))
    threads = os.environ.get("THREADS", "2")
    lines = [l for l in open(summary_path) if l.strip().startswith("{")]
    summary = next(json.loads(l) for l in reversed(lines) if '"renditions"' in l)
    analysis = summary.get("rate_analysis")
    if not analysis:
        sys.exit(f"{summary_path} has no rate_analysis: the run was not content-aware")
    os.makedirs(work, exist_ok=True)

    fps = fraction(summary["frame_rate"])
    keyint = max(1, round(summary["frame_rate"] * preset.get("keyframe_interval_seconds", 2)))
    frames = max(1, round(analysis["window_seconds"] * summary["frame_rate"]))
    sizes = {r["id"]: (r["width"], r["height"]) for r in summary["renditions"]}
    caps = {r["id"]: (r["max_bitrate_kbps"], r["buffer_kbits"]) for r in preset["rungs"]}

    # The probes, in Reel's steps: an H.264-only ladder's first probes (one rung over the clip's first second), then every
    # H.264 probe, the other codecs' first two and any third, over every window.
    first = analysis.get("first_probes")
    if first:
        first_probes = [{"id": first["rung"], "rung": first["rung"], "codec": "h264", "crf": probe["crf"],
                         "reel_ssim": probe["ssim_y"], "reel_kbps": probe["kbps"]} for probe in first["probes"]]
        first_frames = max(1, round(first["seconds"] * summary["frame_rate"]))
        encode(src, work, "first", [first["window_start"]], first["seconds"], first_probes, fps, keyint,
               first_frames, sizes, caps, preset, threads)
        measure(src, work, "first", [first["window_start"]], first["seconds"], first_probes, fps, first_frames, sizes)
        for probe in first_probes:
            print(f'{probe["id"]} (first)\t{probe["crf"]:g}\t{probe["ssim"]:.5f}\t'
                  f'{probe["bytes"] * 8 / (first_frames / summary["frame_rate"]) / 1000:.1f}'
                  f'\t{probe["reel_ssim"]:.5f}\t{probe["reel_kbps"]:.1f}')
    steps = [[], [], []]
    for rendition in analysis["renditions"]:
        codec = rendition.get("video_codec", "h264")
        for index, probe in enumerate(rendition.get("probes", [])):
            step = 0 if codec == "h264" else (1 if index < 2 else 2)
            steps[step].append({"id": rendition["id"], "rung": rendition["rung"], "codec": codec, "crf": probe["crf"],
                                "reel_ssim": probe["ssim_y"], "reel_kbps": probe["kbps"]})

    starts, seconds = analysis["window_starts"], analysis["window_seconds"]
    for number, probes in enumerate(steps):
        if probes:
            encode(src, work, number, starts, seconds, probes, fps, keyint, frames, sizes, caps, preset, threads)
            measure(src, work, number, starts, seconds, probes, fps, frames, sizes)

    seconds = frames * len(analysis["window_starts"]) / summary["frame_rate"]
    for probe in (p for step in steps for p in step):
        print(f'{probe["id"]}\t{probe["crf"]:g}\t{probe["ssim"]:.5f}\t{probe["bytes"] * 8 / seconds / 1000:.1f}'
              f'\t{probe["reel_ssim"]:.5f}\t{probe["reel_kbps"]:.1f}')


def rung_graph(probes, sizes, fps, frames, windows, label):
    """The windows (inputs 0 ... windows-1, each seeked to its start) on the ladder's clock, `frames` pictures each,
    one after the other as Reel's probe encoders get them, split per rung, scaled once per rung and split per probe:
    probe i is [{label}{i}]."""
    rungs = sorted({p["rung"] for p in probes}, key=lambda r: sizes[r][0])
    graph = [f"[{w}:v:0]fps={fps},trim=end_frame={frames},setpts=PTS-STARTPTS[w{w}]" for w in range(windows)]
    graph.append("".join(f"[w{w}]" for w in range(windows)) + f"concat=n={windows}:v=1:a=0,format=yuv420p,"
                 f"split={len(rungs)}" + "".join(f"[r{k}]" for k in range(len(rungs))))
    for k, rung in enumerate(rungs):
        mine = [i for i, p in enumerate(probes) if p["rung"] == rung]
        width, height = sizes[rung]
        graph.append(f"[r{k}]scale={width}:{height}:flags=lanczos,split={len(mine)}" + "".join(f"[{label}{i}]" for i in mine))
    return graph


def window_inputs(src, starts, seconds):
    args = []
    for start in starts:
        args += ["-ss", f"{start:g}", "-t", f"{seconds + 0.5:g}", "-i", src]
    return args


def encode(src, work, step, starts, seconds, probes, fps, keyint, frames, sizes, caps, preset, threads):
    args = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y", *window_inputs(src, starts, seconds),
            "-filter_complex", ";".join(rung_graph(probes, sizes, fps, frames, len(starts), "p"))]
    for i, probe in enumerate(probes):
        if probe["rung"] not in caps:
            sys.exit(f"rung {probe['rung']} is not in the ladder preset (a native rung): its caps are not known here")
        maxrate, bufsize = caps[probe["rung"]]
        crf = format(probe["crf"], "g")
        args += ["-map", f"[p{i}]", "-an", "-g", str(keyint), "-maxrate", f"{maxrate}k",
                 "-bufsize", f"{bufsize}k", "-threads", threads, "-force_key_frames", f"expr:eq(mod(n,{keyint}),0)"]
        if probe["codec"] == "h264":
            args += ["-c:v", "libx264", "-preset", preset.get("x264_preset", "veryfast"), "-profile:v", "high",
                     "-crf", crf, "-forced-idr", "1",
                     "-x264-params", f"keyint={keyint}:min-keyint={keyint}:scenecut=0:open-gop=0"]
        elif probe["codec"] == "hevc":
            args += ["-c:v", "libx265", "-preset", preset.get("hevc", {}).get("preset", "medium"), "-crf", crf,
                     "-forced-idr", "1",
                     "-x265-params", f"keyint={keyint}:min-keyint={keyint}:scenecut=0:open-gop=0:pools={threads}:log-level=error"]
        elif probe["codec"] == "av1":
            args += ["-c:v", "libsvtav1", "-preset", str(preset.get("av1", {}).get("preset", 8)), "-crf", crf,
                     "-svtav1-params", f"scd=0:irefresh-type=2:lp={threads}"]
        else:
            sys.exit(f"unknown video codec {probe['codec']}")
        args.append(path(work, step, i))
    run(args)
    for i, probe in enumerate(probes):
        probe["bytes"] = os.path.getsize(path(work, step, i))


def measure(src, work, step, starts, seconds, probes, fps, frames, sizes):
    args = ["ffmpeg", "-hide_banner", "-nostdin", *window_inputs(src, starts, seconds)]
    for i in range(len(probes)):
        args += ["-i", path(work, step, i)]
    graph = rung_graph(probes, sizes, fps, frames, len(starts), "ref")
    for i in range(len(probes)):
        graph.append(f"[{i + len(starts)}:v:0]setpts=PTS-STARTPTS,format=yuv420p[d{i}];"
                     f"[d{i}][ref{i}]ssim@probe{i}=shortest=1[s{i}]")
    args += ["-filter_complex", ";".join(graph)]
    for i in range(len(probes)):
        args += ["-map", f"[s{i}]", "-f", "null", "-"]
    log = run(args)
    for i, probe in enumerate(probes):
        found = re.search(rf"\[ssim@probe{i} @ [^\]]*\] SSIM Y:([0-9.]+)", log)
        if not found:
            sys.exit(f"no SSIM for probe {i} ({probe['id']} CRF {probe['crf']:g}) in step {step}")
        probe["ssim"] = float(found.group(1))


def path(work, step, index):
    return os.path.join(work, f"step{step}-probe{index}.mp4")


def run(args):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr[-2000:])
        sys.exit(f"ffmpeg failed ({done.returncode}): {' '.join(args[:12])} ...")
    return done.stderr


if __name__ == "__main__":
    main()
