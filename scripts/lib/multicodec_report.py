#!/usr/bin/env python3
"""Issue 16's tables from what scripts/bench-transcode.sh's multicodec section left in each clip's folder.

Usage: multicodec_report.py CLIPDIR...
A clip folder holds: clip.txt (kind, then a description), on.out / off.out / timing.out / h264.out (`reel transcode
--json` stdout: content-aware, fixed CRF, content-aware without --ssim, H.264 only without --ssim), *.time ("wall cpu peak_kb" or "FAILED"),
ffprobes.time / ffprobes.out (scripts/lib/ffmpeg_rate_probes.py), q-on.csv / q-off.csv / q-ff.csv
(../shared/anchors/ladder_quality.sh), checks.txt ("name<TAB>PASS|FAIL<TAB>detail"),
content_aware.txt ("present" or "absent") and the HLS folders on/, off/, ff/.
Every PASS/FAIL is computed here from the measurements; goals are the constants below.
"""
import csv, json, os, subprocess, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_result import result

HEVC_BYTES, AV1_BYTES, SSIM_TOLERANCE = 0.65, 0.55, 0.002
CPU_PER_CODEC = 3.0
EASY_SAVING, HARD_GROWTH, CA_SSIM_DROP = -20.0, 2.0, 0.003
ANCHOR_RATIO = 1.0
CODECS = ["h264", "hevc", "av1"]
NAMES = {"h264": "H.264", "hevc": "HEVC", "av1": "AV1"}


def verdict(ok):
    return "–" if ok is None else ("PASS" if ok else "FAIL")


def fmt(value, spec, missing="–"):
    return missing if value is None else format(value, spec)


def read_summary(path):
    if not os.path.exists(path):
        return None
    lines = [l for l in open(path) if l.strip().startswith("{")]
    return next((json.loads(l) for l in reversed(lines) if '"renditions"' in l), None)


def read_time(path):
    if not os.path.exists(path):
        return None
    fields = open(path).read().split()
    return None if len(fields) != 3 else (float(fields[0]), float(fields[1]), int(fields[2]))


def read_quality(path):
    if not os.path.exists(path):
        return {}
    rows = csv.DictReader(l for l in open(path) if "," in l)
    out = {}
    for r in rows:
        try:
            out[r["rendition"]] = {"ssim_y": float(r["ssim_y"]), "bytes": int(r["bytes"])}
        except (ValueError, KeyError):
            pass
    return out


def video_bytes(folder, rendition):
    """The video packets' bytes (audio is the same AAC in every codec of a rung, so ratios leave it out)."""
    playlist = os.path.join(folder, rendition, "index.m3u8")
    if not os.path.exists(playlist):
        return None
    sizes = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size",
                            "-of", "csv=p=0", playlist], capture_output=True, text=True).stdout.split()
    return sum(int(s) for s in sizes if s.isdigit()) or None


class Run:
    """One `reel transcode` (or the anchor's folder) with the measurements taken on it."""

    def __init__(self, clip, name, summary_name=None):
        self.reports_ssim = summary_name is None  # the anchor's folder borrows Reel's summary, not its ssim_y
        self.folder = os.path.join(clip, name)
        self.summary = read_summary(os.path.join(clip, f"{summary_name or name}.out"))
        self.time = read_time(os.path.join(clip, f"{name}.time"))
        self.quality = read_quality(os.path.join(clip, f"q-{name}.csv"))
        self.renditions = {r["id"]: r for r in (self.summary or {}).get("renditions", [])}
        self._video = {}

    def video(self, rendition):
        if rendition not in self._video:
            self._video[rendition] = video_bytes(self.folder, rendition)
        return self._video[rendition]

    def ssim(self, rendition):
        """ladder_quality.sh's SSIM-Y, else Reel's own."""
        q = self.quality.get(rendition)
        if q or not self.reports_ssim:
            return q["ssim_y"] if q else None
        return self.renditions.get(rendition, {}).get("ssim_y")

    def rungs(self):
        seen = []
        for r in self.renditions.values():
            rung = r.get("rung", r["id"])
            if rung not in seen:
                seen.append(rung)
        return seen


def rid(rung, codec):
    return rung if codec == "h264" else f"{rung}-{codec}"


def report(clip, goals):
    kind, _, description = open(os.path.join(clip, "clip.txt")).read().strip().partition("\n")
    name = os.path.basename(clip.rstrip("/"))
    ca_present = open(os.path.join(clip, "content_aware.txt")).read().strip() == "present"
    on, off, ff = Run(clip, "on"), Run(clip, "off"), Run(clip, "ff", summary_name="on")
    timing, h264only = Run(clip, "timing"), Run(clip, "h264")
    ff_probes = read_time(os.path.join(clip, "ffprobes.time"))
    print(f"\n### {name} ({kind}): {description}\n")
    if on.summary is None:
        print("reel transcode (content-aware run) failed: see the log above.")
        goals.append((name, "reel transcode", "failed", False))
        return
    if not ca_present:
        print("The ladder preset has no `content_aware` object yet: both Reel runs are fixed CRF.\n")
    analysis = on.summary.get("rate_analysis")

    print("Every rendition of the content-aware run (video kB: the video packets; kB (all): with the AAC), beside the "
          "ffmpeg CLI anchor at the same CRF.\n")
    print("| rendition | CRF | kB (all) | video kB | SSIM-Y (ladder_quality) | ssim_y (reel) | encode CPU s "
          "| anchor video kB | anchor SSIM-Y |")
    print("|---|---|---|---|---|---|---|---|---|")
    for rendition_id, r in on.renditions.items():
        q = on.quality.get(rendition_id, {})
        total = q.get("bytes", r.get("bytes"))
        video, ffvideo = on.video(rendition_id), ff.video(rendition_id)
        print(f"| {rendition_id} | {fmt(r.get('crf'), 'g')} | {fmt(total and total / 1000, '.0f')} "
              f"| {fmt(video and video / 1000, '.0f')} | {fmt(q.get('ssim_y'), '.4f')} | {fmt(r.get('ssim_y'), '.4f')} "
              f"| {fmt(r.get('encode_cpu_seconds'), '.2f')} | {fmt(ffvideo and ffvideo / 1000, '.0f')} "
              f"| {fmt(ff.ssim(rendition_id), '.4f')} |")

    # Codecs against H.264, rung by rung, on the content-aware run (the product's configuration).
    print(f"\n| rung | video kB H.264 / HEVC / AV1 | SSIM-Y H.264 / HEVC / AV1 | CRF H.264 / HEVC / AV1 "
          f"| HEVC/H.264 bytes | ΔSSIM-Y HEVC | HEVC goal (≤ {HEVC_BYTES}×, ΔSSIM-Y ≥ −{SSIM_TOLERANCE}) "
          f"| AV1/H.264 bytes | ΔSSIM-Y AV1 | AV1 goal (≤ {AV1_BYTES}×, ΔSSIM-Y ≥ −{SSIM_TOLERANCE}) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for rung in on.rungs():
        ids = [rid(rung, c) for c in CODECS]
        sizes = [on.video(i) for i in ids]
        cells = [rung, " / ".join(fmt(b and b / 1000, ".0f") for b in sizes),
                 " / ".join(fmt(on.ssim(i), ".4f") for i in ids),
                 " / ".join(fmt(on.renditions.get(i, {}).get("crf"), "g") for i in ids)]
        base_bytes, base_ssim = sizes[0], on.ssim(ids[0])
        for codec, limit in (("hevc", HEVC_BYTES), ("av1", AV1_BYTES)):
            b, s = on.video(rid(rung, codec)), on.ssim(rid(rung, codec))
            if None in (b, base_bytes, s, base_ssim):
                cells += ["–", "–", "–"]
                continue
            ratio, delta = b / base_bytes, s - base_ssim
            ok = ratio <= limit and delta >= -SSIM_TOLERANCE
            note = " (SSIM-Y higher by > 0.002: another operating point)" if delta > SSIM_TOLERANCE else ""
            cells += [f"{ratio:.3f}", f"{delta:+.4f}", verdict(ok) + note]
            goals.append((name, f"{NAMES[codec]} {rung} ≤ {limit}× bytes at SSIM-Y ≥ H.264 − {SSIM_TOLERANCE}",
                          f"{ratio:.3f}×, {delta:+.4f}", ok))
        print("| " + " | ".join(cells) + " |")

    # CPU per codec: its renditions' encoders plus its probes' (both encode_cpu_seconds), from the run without --ssim
    # when there is one, against the whole H.264 ladder: an H.264-only run of the same preset (decode, scaling, audio,
    # posters, its own analysis and encoders), which is what the other codecs are added to.
    costed = timing if timing.summary else on
    probes = {}
    for r in ((costed.summary or {}).get("rate_analysis") or {}).get("renditions", []):
        for p in r.get("probes", []):
            probes.setdefault(r.get("video_codec", "h264"), []).append(p.get("encode_cpu_seconds"))
    h264_ladder = h264only.time[1] if h264only.time else None
    print(f"\n| codec | encoders CPU s (all rungs) | probes CPU s | together | × the H.264 encoders "
          f"| × the whole H.264 ladder ({fmt(h264_ladder, '.1f')} CPU s) | goal ≤ {CPU_PER_CODEC:g}× the H.264 ladder |")
    print("|---|---|---|---|---|---|---|")
    encoders = {}
    for codec in CODECS:
        values = [r.get("encode_cpu_seconds") for r in costed.renditions.values() if r.get("video_codec", "h264") == codec]
        encoders[codec] = sum(values) if values and None not in values else None
    for codec in CODECS:
        own = probes.get(codec, [])
        probe_cpu = sum(own) if own and None not in own else (0.0 if not own else None)
        total = encoders[codec] + probe_cpu if encoders[codec] is not None and probe_cpu is not None else None
        per_encoder = encoders[codec] / encoders["h264"] if encoders[codec] is not None and encoders["h264"] else None
        ratio = total / h264_ladder if total is not None and h264_ladder else None
        ok = None if ratio is None or codec == "h264" else ratio <= CPU_PER_CODEC
        print(f"| {NAMES[codec]} | {fmt(encoders[codec], '.2f')} | {fmt(probe_cpu, '.2f')} | {fmt(total, '.2f')} "
              f"| {fmt(per_encoder, '.2f')} | {fmt(ratio, '.2f')} | {verdict(ok) if codec != 'h264' else ''} |")
        if codec != "h264":
            goals.append((name, f"{NAMES[codec]} rungs' CPU (encoders + probes) ≤ {CPU_PER_CODEC:g}× the H.264 ladder's",
                          fmt(ratio, ".2f") + "×" if ratio is not None else "not measured", ok))
    cpu = analysis.get("cpu_seconds") if isinstance(analysis, dict) else None
    print(f"\nRate analysis (content-aware) CPU s: {fmt(cpu, '.2f')}")

    # Content-aware H.264 against the fixed-CRF run.
    print("\n| H.264 rung | fixed CRF | content-aware CRF | fixed video kB | content-aware video kB | bytes change "
          f"| fixed SSIM-Y | content-aware SSIM-Y | ΔSSIM-Y | goal ΔSSIM-Y ≥ −{CA_SSIM_DROP} |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    total_fixed = total_aware = 0
    worst = None
    complete = off.summary is not None
    for rung in on.rungs():
        a, f = on.renditions.get(rung, {}), off.renditions.get(rung, {})
        ab, fb = on.video(rung), off.video(rung)
        as_, fs = on.ssim(rung), off.ssim(rung)
        change = 100 * (ab / fb - 1) if ab and fb else None
        delta = as_ - fs if as_ is not None and fs is not None else None
        ok = None if delta is None or not ca_present else delta >= -CA_SSIM_DROP
        if ab and fb:
            total_fixed += fb
            total_aware += ab
        else:
            complete = False
        if delta is not None:
            worst = delta if worst is None else min(worst, delta)
        print(f"| {rung} | {fmt(f.get('crf'), 'g')} | {fmt(a.get('crf'), 'g')} | {fmt(fb and fb / 1000, '.0f')} "
              f"| {fmt(ab and ab / 1000, '.0f')} | {fmt(change, '+.1f')} % | {fmt(fs, '.4f')} | {fmt(as_, '.4f')} "
              f"| {fmt(delta, '+.4f')} | {verdict(ok)} |")
    change = 100 * (total_aware / total_fixed - 1) if complete and total_fixed else None
    if kind == "easy":
        bytes_goal, bytes_ok = f"≥ {-EASY_SAVING:g} % fewer bytes", None if change is None else change <= EASY_SAVING
    elif kind == "hard":
        bytes_goal, bytes_ok = f"≤ +{HARD_GROWTH:g} % bytes", None if change is None else change <= HARD_GROWTH
    else:
        bytes_goal, bytes_ok = "no bytes goal for this kind", None
    ssim_ok = None if worst is None else worst >= -CA_SSIM_DROP
    if not ca_present:  # both runs are fixed CRF: nothing to judge
        bytes_ok = ssim_ok = None
    print(f"| all rungs | | | {total_fixed / 1000:.0f} | {total_aware / 1000:.0f} | {fmt(change, '+.1f')} % | | "
          f"| worst {fmt(worst, '+.4f')} | {verdict(ssim_ok)}; bytes {bytes_goal}: {verdict(bytes_ok)} |")
    why = "" if ca_present else " (no content_aware in the preset)"
    if kind in ("easy", "hard"):
        goals.append((name, f"content-aware H.264 {bytes_goal}", f"{fmt(change, '+.1f')} %{why}", bytes_ok))
    goals.append((name, f"content-aware H.264 SSIM-Y ≥ fixed − {CA_SSIM_DROP}", f"worst {fmt(worst, '+.4f')}{why}",
                  ssim_ok))

    # Whole runs against the ffmpeg CLI anchor (same CRFs). Reel's --ssim read-back costs CPU the anchor does not
    # spend, so the ratio uses the run without --ssim when there is one.
    print("\n| run | wall s | CPU s | peak RSS MB |\n|---|---|---|---|")
    rows = [("reel, content-aware, --ssim", on.time), ("reel, fixed CRF, --ssim", off.time),
            ("reel, content-aware, no --ssim", timing.time), ("reel, H.264 only, content-aware, no --ssim", h264only.time),
            ("ffmpeg CLI anchor, same CRFs", ff.time), ("ffmpeg CLI anchor, the same probes (ffmpeg_rate_probes.py)", ff_probes)]
    for label, t in rows:
        if t is not None:
            print(f"| {label} | {t[0]:.2f} | {t[1]:.2f} | {t[2] // 1024} |")
        elif "no --ssim" not in label or os.path.exists(os.path.join(clip, "timing.time")):
            print(f"| {label} | failed | | |")
    # Twice: Reel as it runs (the content-aware analysis, work the anchor does not do, included), and Reel's ladder
    # alone (the same run less the analysis's CPU and wall, from its summary), which is the same work as the anchor's.
    reel_run, label = (timing, "no --ssim") if timing.time else (on, "with --ssim")
    spent = (reel_run.summary or {}).get("rate_analysis") or {}
    if reel_run.time and ff.time:
        for what, wall_s, cpu_s in (
                (f"{label}, with its analysis", reel_run.time[0], reel_run.time[1]),
                (f"{label}, ladder alone", reel_run.time[0] - spent.get("elapsed_seconds", 0),
                 reel_run.time[1] - spent.get("cpu_seconds", 0))):
            wall, cpu = wall_s / ff.time[0], cpu_s / ff.time[1]
            print(f"| ratio reel ({what}) / anchor | {wall:.2f} {verdict(wall <= ANCHOR_RATIO)} "
                  f"| {cpu:.2f} {verdict(cpu <= ANCHOR_RATIO)} | |")
            goals.append((name, f"reel CPU ≤ {ANCHOR_RATIO:g}× the ffmpeg anchor ({what})", f"{cpu:.2f}×", cpu <= ANCHOR_RATIO))
            goals.append((name, f"reel wall ≤ {ANCHOR_RATIO:g}× the ffmpeg anchor ({what})", f"{wall:.2f}×", wall <= ANCHOR_RATIO))
    # Third: the whole content-aware job on both sides. The anchor above is handed Reel's CRFs; a script on the ffmpeg
    # CLI has to encode and measure the same probes to find them (ffmpeg_rate_probes.py), then make the ladder.
    if reel_run.time and ff.time and ff_probes:
        wall = reel_run.time[0] / (ff.time[0] + ff_probes[0])
        cpu = reel_run.time[1] / (ff.time[1] + ff_probes[1])
        result(f"{name}: content-aware multi-codec ladder, CPU s", reel_run.time[1],
               "the ffmpeg CLI making the same probes and ladder", ff.time[1] + ff_probes[1], "s", "lower")
        result(f"{name}: content-aware multi-codec ladder, wall s", reel_run.time[0],
               "the ffmpeg CLI making the same probes and ladder", ff.time[0] + ff_probes[0], "s", "lower")
        what = f"{label}, with its analysis, against the anchor's same probes + ladder"
        print(f"| ratio reel ({what}) | {wall:.2f} {verdict(wall <= ANCHOR_RATIO)} | {cpu:.2f} {verdict(cpu <= ANCHOR_RATIO)} | |")
        goals.append((name, f"reel CPU ≤ {ANCHOR_RATIO:g}× the ffmpeg CLI's probes + ladder", f"{cpu:.2f}×", cpu <= ANCHOR_RATIO))
        goals.append((name, f"reel wall ≤ {ANCHOR_RATIO:g}× the ffmpeg CLI's probes + ladder", f"{wall:.2f}×", wall <= ANCHOR_RATIO))
    agreement = os.path.join(clip, "ffprobes.out")
    if ff_probes and os.path.exists(agreement):
        rows = [l.rstrip("\n").split("\t") for l in open(agreement) if l.count("\t") == 5]
        if rows:
            worst = max(abs(float(r[2]) - float(r[4])) for r in rows)
            print(f"\nThe anchor's {len(rows)} probes measured SSIM-Y within {worst:.4f} of Reel's own probes "
                  f"(kb/s: the anchor's files, with their headers, {min(float(r[3]) / float(r[5]) for r in rows):.2f}–"
                  f"{max(float(r[3]) / float(r[5]) for r in rows):.2f}× Reel's packets).")

    path = os.path.join(clip, "checks.txt")
    checks = [l.rstrip("\n").split("\t") for l in open(path) if "\t" in l] if os.path.exists(path) else []
    if checks:
        print("\n| check (content-aware run) | result | detail |\n|---|---|---|")
        for check, result, detail in checks:
            print(f"| {check} | {result} | {detail} |")
            goals.append((name, check, detail, result == "PASS"))


def main():
    goals = []
    for clip in sys.argv[1:]:
        report(clip, goals)
    print("\n### Goals, every clip\n\n| clip | goal | measured | result |\n|---|---|---|---|")
    for clip, goal, measured, ok in goals:
        print(f"| {clip} | {goal} | {measured} | {verdict(ok)} |")
    counted = [ok for *_, ok in goals if ok is not None]
    print(f"\n{sum(counted)} of {len(counted)} measured goals pass; "
          f"{len(goals) - len(counted)} not measurable with this binary (–).")


if __name__ == "__main__":
    main()
