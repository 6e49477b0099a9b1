#!/usr/bin/env bash
# The ffmpeg CLI doing the multi-codec ladder `reel transcode` made, for a like-for-like CPU and wall comparison:
# one ffmpeg process decodes INPUT once, `fps` to Reel's rate, splits per rung, scales each rung once (Lanczos) to
# the size Reel gave it, splits it per codec and encodes every rendition with the options Reel's RungOutput uses
# (libx264 High / libx265 / libsvtav1, fixed closed GOP, no scene-cut keyframes, an IDR every keyframe interval, the
# rung's maxrate and bufsize) at the CRF Reel's summary says that rendition used. Audio is AAC per variant (the
# ffmpeg CLI cannot mux one encoded stream into several variants; Reel encodes once per rung). fMP4 HLS VOD.
#
# Usage: scripts/lib/ffmpeg_multicodec_ladder.sh INPUT OUTDIR SUMMARY.json
#   SUMMARY.json: `reel transcode --json` output (the last line, or the whole stdout), for the renditions, their
#   sizes, codecs and CRFs, and the frame rate.
# Env: LADDER=preset.json (default Presets/ladder.json: caps, audio bitrates, encoder presets, GOP and segment
#      length); THREADS=2 (threads per video encoder, Reel's default).
# Output: OUTDIR/<rendition id>/index.m3u8 + init + seg_NNN.m4s, and OUTDIR/master.m3u8 written from the measured
# segments (for ../shared/anchors/ladder_quality.sh and the like).
set -euo pipefail
in=${1:?usage: ffmpeg_multicodec_ladder.sh INPUT OUTDIR SUMMARY.json}
out=${2:?usage: ffmpeg_multicodec_ladder.sh INPUT OUTDIR SUMMARY.json}
summary=${3:?usage: ffmpeg_multicodec_ladder.sh INPUT OUTDIR SUMMARY.json}
ladder=${LADDER:-$(dirname "$0")/../../Presets/ladder.json}
mkdir -p "$out"

has_audio=0
[ -n "$(ffprobe -v error -select_streams a:0 -show_entries stream=index -of csv=p=0 "$in")" ] && has_audio=1

# The argument list, NUL-separated, from the summary and the preset.
mapfile -d '' args < <(python3 - "$in" "$out" "$summary" "$ladder" "$has_audio" "${THREADS:-2}" <<'PY'
import json, sys
src, out, summary_path, ladder_path, has_audio, threads = sys.argv[1:]
has_audio = has_audio == "1"
lines = [l for l in open(summary_path) if l.strip().startswith("{")]
summary = next(json.loads(l) for l in reversed(lines) if '"renditions"' in l)
preset = json.load(open(ladder_path))
rungs = sorted(preset["rungs"], key=lambda r: r["short_side"])

def fraction(rate):  # LadderPlanner.fraction: NTSC rates as n*1000/1001
    ntsc = rate * 1.001
    if abs(ntsc - round(ntsc)) < 0.01 and abs(rate - round(rate)) > 0.01:
        return f"{round(ntsc) * 1000}/1001"
    return f"{max(1, round(rate))}/1"

def caps(rung_id, short):  # the preset rung's caps, or LadderPlanner's interpolation for a native rung
    for r in rungs:
        if r["id"] == rung_id:
            return r["max_bitrate_kbps"], r["buffer_kbits"]
    low = [r for r in rungs if r["short_side"] <= short]
    high = [r for r in rungs if r["short_side"] >= short]
    if not low: return rungs[0]["max_bitrate_kbps"], rungs[0]["buffer_kbits"]
    lo = low[-1]
    if not high or high[0]["short_side"] == lo["short_side"]: return lo["max_bitrate_kbps"], lo["buffer_kbits"]
    hi = high[0]
    t = (short ** 2 - lo["short_side"] ** 2) / (hi["short_side"] ** 2 - lo["short_side"] ** 2)
    rate = round(lo["max_bitrate_kbps"] + (hi["max_bitrate_kbps"] - lo["max_bitrate_kbps"]) * t)
    return rate, rate * 2

def audio_kbps(short):  # the nearest rung at or above
    return next((r for r in rungs if r["short_side"] >= short), rungs[-1])["audio_bitrate_kbps"]

fps = fraction(summary["frame_rate"])
keyint = max(1, round(summary["frame_rate"] * preset.get("keyframe_interval_seconds", 2)))
seg = preset.get("segment_seconds", 2)
x264 = preset.get("x264_preset", "veryfast")
x265 = preset.get("hevc", {}).get("preset", "fast")
svt = preset.get("av1", {}).get("preset", 8)

# Renditions grouped by rung, in the summary's order (H.264 first).
by_rung = {}
for r in summary["renditions"]:
    by_rung.setdefault(r.get("rung", r["id"]), []).append(r)
graph = [f"[0:v:0]fps={fps},format=yuv420p,split={len(by_rung)}" + "".join(f"[r{i}]" for i in range(len(by_rung)))]
outputs = []  # (label, rendition)
for i, (rung, renditions) in enumerate(by_rung.items()):
    w, h = renditions[0]["width"], renditions[0]["height"]
    labels = [f"[v{i}_{j}]" for j in range(len(renditions))]
    graph.append(f"[r{i}]scale={w}:{h}:flags=lanczos,split={len(renditions)}" + "".join(labels))
    outputs += list(zip(labels, renditions))

args = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-i", src, "-filter_complex", ";".join(graph)]
stream_map = []
for k, (label, r) in enumerate(outputs):
    codec = r.get("video_codec", "h264")
    crf = format(r["crf"], "g")
    short = min(r["width"], r["height"])
    maxrate, bufsize = caps(r.get("rung", r["id"]), short)
    v = f":v:{k}"
    args += ["-map", label, f"-g{v}", str(keyint), f"-maxrate{v}", f"{maxrate}k", f"-bufsize{v}", f"{bufsize}k",
             f"-threads{v}", threads, f"-force_key_frames{v}", f"expr:eq(mod(n,{keyint}),0)"]
    if codec == "h264":
        args += [f"-c{v}", "libx264", f"-preset{v}", x264, f"-profile{v}", "high", f"-crf{v}", crf, f"-forced-idr{v}", "1",
                 f"-x264-params{v}", f"keyint={keyint}:min-keyint={keyint}:scenecut=0:open-gop=0"]
    elif codec == "hevc":
        args += [f"-c{v}", "libx265", f"-preset{v}", x265, f"-crf{v}", crf, f"-forced-idr{v}", "1", f"-tag{v}", "hvc1",
                 f"-x265-params{v}", f"keyint={keyint}:min-keyint={keyint}:scenecut=0:open-gop=0:pools={threads}:log-level=error"]
    elif codec == "av1":
        args += [f"-c{v}", "libsvtav1", f"-preset{v}", str(svt), f"-crf{v}", crf,
                 f"-svtav1-params{v}", f"scd=0:irefresh-type=2:lp={threads}"]
    else:
        sys.exit(f"unknown video codec {codec} in {summary_path}")
    if has_audio:
        a = f":a:{k}"
        args += ["-map", "0:a:0", f"-c{a}", "aac", f"-b{a}", f"{audio_kbps(short)}k", f"-ac{a}", "2", f"-ar{a}", "48000"]
        stream_map.append(f"v:{k},a:{k},name:{r['id']}")
    else:
        stream_map.append(f"v:{k},name:{r['id']}")
args += ["-f", "hls", "-hls_time", str(seg), "-hls_playlist_type", "vod",
         "-hls_segment_type", "fmp4", "-hls_flags", "independent_segments", "-hls_fmp4_init_filename", "init.mp4",
         "-hls_segment_filename", f"{out}/%v/seg_%03d.m4s", "-master_pl_name", "ffmpeg_master.m3u8",
         "-var_stream_map", " ".join(stream_map), f"{out}/%v/index.m3u8"]
sys.stdout.write("\0".join(args) + "\0")
PY
)
ffmpeg "${args[@]}"

# master.m3u8 from the measured segments (ffmpeg's own is written before encoding): peak and average segment
# bitrate, size and frame rate, in the summary's order.
python3 - "$out" "$summary" <<'PY'
import json, os, re, sys
out, summary_path = sys.argv[1:]
lines = [l for l in open(summary_path) if l.strip().startswith("{")]
summary = next(json.loads(l) for l in reversed(lines) if '"renditions"' in l)
master = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
for r in summary["renditions"]:
    folder = os.path.join(out, r["id"])
    segments, duration = [], None
    for line in open(os.path.join(folder, "index.m3u8")):
        line = line.strip()
        if line.startswith("#EXTINF:"): duration = float(line[8:].split(",")[0])
        elif line and not line.startswith("#"): segments.append((os.path.getsize(os.path.join(folder, line)), duration))
    peak = max(8 * b / t for b, t in segments)
    average = 8 * sum(b for b, _ in segments) / sum(t for _, t in segments)
    master.append(f"#EXT-X-STREAM-INF:BANDWIDTH={round(peak)},AVERAGE-BANDWIDTH={round(average)},"
                  f"RESOLUTION={r['width']}x{r['height']},FRAME-RATE={summary['frame_rate']:.3f}")
    master.append(f"{r['id']}/index.m3u8")
open(os.path.join(out, "master.m3u8"), "w").write("\n".join(master) + "\n")
PY
