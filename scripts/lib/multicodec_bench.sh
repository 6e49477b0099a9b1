# Issue 16's benchmark, sourced by scripts/bench-transcode.sh (which sets reel, anchors, work, secs, ff): the
# H.264/HEVC/AV1 ladder of `reel transcode`, with content-aware CRF on and off, on an easy clip, a hard clip and real
# footage from Debian's opencv-doc (cut and turned vertical here, never committed), beside the ffmpeg CLI making the
# same ladder at the same CRFs (scripts/lib/ffmpeg_multicodec_ladder.sh). scripts/lib/multicodec_report.py prints
# the tables and computes every PASS/FAIL.
mc_data=/usr/share/doc/opencv-doc/examples/data
mc_lib=$(dirname "${BASH_SOURCE[0]}")

# Sources are H.264 CRF 16 (well above the ladder's quality), BT.709-tagged, AAC stereo 48 kHz, 1080x1920 30 fps,
# capped at 16 Mb/s so that a 20 s hard clip stays under reel's 50 MB admission limit (the noise would need 120).
mc_encode=(-c:v libx264 -preset veryfast -crf 16 -maxrate 16M -bufsize 32M -g 60
           -color_primaries bt709 -color_trc bt709 -colorspace bt709
           -c:a aac -b:a 128k -ac 2 -ar 48000)
mc_tone=(-f lavfi -i "sine=frequency=330:sample_rate=48000,aformat=channel_layouts=stereo")
mc_vertical="scale=1080:-2:flags=lanczos,pad=1080:1920:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p"

mc_make_clip() { # name output: writes the clip, prints its kind (easy: static or slow | hard | real) and a description
    case $1 in
    still) # a real photo, static: the issue's other kind of easy clip
        ff -loop 1 -framerate 30 -i "$mc_data/building.jpg" "${mc_tone[@]}" -t "$secs" -filter_complex \
            "[0:v]scale=-2:2000:flags=lanczos,crop=1080:1920:(iw-ow)/2:(ih-oh)/2,setsar=1,format=yuv420p[v]" \
            -map "[v]" -map 1:a "${mc_encode[@]}" "$2"
        printf 'easy\nopencv-doc building.jpg, static, 1080x1920 30 fps, %s s\n' "$secs" ;;
    easy) # a real photo, still, panned 2 pixels a frame: little to code but the pan
        ff -loop 1 -framerate 30 -i "$mc_data/building.jpg" "${mc_tone[@]}" -t "$secs" -filter_complex \
            "[0:v]scale=-2:2000:flags=lanczos,crop=1080:1920:'min(2*n,iw-ow)':'(ih-oh)/2',setsar=1,format=yuv420p[v]" \
            -map "[v]" -map 1:a "${mc_encode[@]}" "$2"
        printf 'easy\nopencv-doc building.jpg, still, panned 2 px per frame, 1080x1920 30 fps, %s s\n' "$secs" ;;
    hard) # testsrc2 scrolling both ways under temporal noise: motion and detail everywhere
        ff -f lavfi -i "testsrc2=size=1080x1920:rate=30,scroll=h=0.004:v=0.002,noise=alls=8:allf=t,format=yuv420p" \
            "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        printf 'hard\ntestsrc2 scrolling, temporal noise (alls=8), 1080x1920 30 fps, %s s\n' "$secs" ;;
    vtest) # real camera footage, slow (easy): pedestrians, fixed camera, 10 fps (each frame shown 3 times at 30 fps)
        ff -i "$mc_data/vtest.avi" "${mc_tone[@]}" -t "$secs" -filter_complex "[0:v]fps=30,$mc_vertical[v]" \
            -map "[v]" -map 1:a "${mc_encode[@]}" "$2"
        printf 'easy\nreal footage, slow: opencv-doc vtest.avi (768x576 10 fps fixed street camera, pedestrians), first %s s, Lanczos to 1080 wide, padded to 1080x1920, 30 fps\n' "$secs" ;;
    megamind) # real film: a trailer, cuts and motion, with its own sound; looped when the clip is longer
        ff -stream_loop -1 -i "$mc_data/Megamind.avi" -t "$secs" -filter_complex "[0:v]fps=30,$mc_vertical[v]" \
            -map "[v]" -map 0:a:0 "${mc_encode[@]}" "$2"
        printf 'real\nopencv-doc Megamind.avi (720x528 23.976 fps trailer with sound, looped past 11.3 s), %s s, Lanczos to 1080 wide, padded to 1080x1920, 30 fps\n' "$secs" ;;
    *) echo "unknown multicodec clip $1 (easy, still, hard, vtest, megamind)" >&2; return 1 ;;
    esac
}

mc_timed() { # folder name command...: stdout to folder/name.out, "wall cpu peak_kb" to folder/name.time
    local dir=$1 name=$2
    shift 2
    if /usr/bin/time -f "%e %U %S %M" -o "$dir/$name.rawtime" "$@" >"$dir/$name.out" 2>"$dir/$name.err"; then
        awk '{printf "%.2f %.2f %d\n", $1, $2 + $3, $4}' "$dir/$name.rawtime" >"$dir/$name.time"
    else
        echo "FAILED" >"$dir/$name.time"
        echo "  $name failed: $*" >&2
        tail -n 5 "$dir/$name.err" "$dir/$name.out" >&2
        return 1
    fi
}

mc_presets() { # the ladder preset with all three codecs, content-aware on and off (when the preset knows it), and H.264 only
    python3 - "${LADDER:-Presets/ladder.json}" "$work/mc" <<'PY'
import copy, json, sys
source, out = sys.argv[1:]
preset = json.load(open(source))
preset["codecs"] = ["h264", "hevc", "av1"]
present = isinstance(preset.get("content_aware"), dict)
on, off = copy.deepcopy(preset), copy.deepcopy(preset)
if present:
    on["content_aware"]["enabled"] = True
    off["content_aware"]["enabled"] = False
h264 = copy.deepcopy(on)
h264["codecs"] = ["h264"]
for name, value in (("preset-on.json", on), ("preset-off.json", off), ("preset-h264.json", h264)):
    json.dump(value, open(f"{out}/{name}", "w"), indent=2)
open(f"{out}/content_aware.txt", "w").write("present\n" if present else "absent\n")
PY
}

mc_checks() { # folder: the content-aware run's ladder through Reel's and the anchors' checkers
    local dir=$1 out line played=0 total=0 failed=""
    if out=$("$reel" hls-check "$dir/on" 2>&1); then line=PASS; else line=FAIL; fi
    printf 'reel hls-check\t%s\t%s\n' "$line" "$(tail -1 <<<"$out" | tr '\t|' '  ')"
    if out=$(python3 "$anchors/hls_check.py" "$dir/on" 2>&1); then line=PASS; else line=FAIL; fi
    printf 'hls_check.py (m3u8 parser)\t%s\t%s\n' "$line" "$(tail -1 <<<"$out" | tr '\t|' '  ')"
    if out=$("$anchors/check_keyframes.sh" "$dir/on" 2>&1); then line=PASS; else line=FAIL; fi
    printf 'check_keyframes.sh\t%s\t%s\n' "$line" "$(tail -1 <<<"$out" | tr '\t|' '  ')"
    command -v gst-launch-1.0 >/dev/null || { printf 'GStreamer playback\tFAIL\tno gst-launch-1.0\n'; return; }
    # GStreamer plays each variant's media playlist (it does not play a master that mixes codecs). hlsdemux2 1.22
    # sometimes aborts on short playlists ("Couldn't download fragments"), so a failure is tried once more, then with
    # the legacy hlsdemux; a variant that needed it is reported with its first failure.
    local retried="" id first demux ok
    while read -r playlist; do
        total=$((total + 1))
        id=${playlist%%/*}
        first="" ok=0
        for demux in hlsdemux2 hlsdemux2 hlsdemux; do
            if DEMUX=$demux "$anchors/play_hls_gst.sh" "$dir/on" "$playlist" >"$dir/gst-$id.log" 2>&1; then
                ok=1
                break
            fi
            [ -n "$first" ] || first=$(grep -m1 -E '^ERROR|rc=' "$dir/gst-$id.log" | tr '\t|' '  ' | cut -c1-100)
        done
        if [ "$ok" = 1 ]; then
            played=$((played + 1))
            [ -z "$first" ] || retried+=" $id with $demux after: $first;"
        else
            failed+=" $id: $first;"
        fi
    done < <(grep -v '^#' "$dir/on/master.m3u8" | sed '/^\s*$/d')
    [ "$played" = "$total" ] && line=PASS || line=FAIL
    printf 'GStreamer plays every variant to EOS\t%s\t%s/%s played%s%s\n' "$line" "$played" "$total" \
        "${failed:+, failed:$failed}" "${retried:+, played after a retry:$retried}"
}

mc_clip() { # name: makes the clip, runs reel (content-aware, fixed CRF, and without --ssim) and the anchor, measures
    local name=$1 dir="$work/mc/$1" run
    mkdir -p "$dir"
    cp "$work/mc/content_aware.txt" "$dir/"
    echo "multicodec: $name: making the clip..." >&2
    mc_make_clip "$name" "$dir/src.mp4" >"$dir/clip.txt" || return 1
    echo "multicodec: $name: reel, content-aware..." >&2
    mc_timed "$dir" on "$reel" transcode "$dir/src.mp4" --output "$dir/on" --ladder "$work/mc/preset-on.json" --ssim --json \
        || return 0
    echo "multicodec: $name: reel, fixed CRF..." >&2
    mc_timed "$dir" off "$reel" transcode "$dir/src.mp4" --output "$dir/off" --ladder "$work/mc/preset-off.json" --ssim --json || true
    if [ "${MC_TIMING:-1}" = 1 ]; then
        echo "multicodec: $name: reel, content-aware, no --ssim..." >&2
        mc_timed "$dir" timing "$reel" transcode "$dir/src.mp4" --output "$dir/timing" --ladder "$work/mc/preset-on.json" --json || true
        rm -rf "$dir/timing"
        echo "multicodec: $name: reel, H.264 only (the CPU the other codecs are measured against)..." >&2
        mc_timed "$dir" h264 "$reel" transcode "$dir/src.mp4" --output "$dir/h264" --ladder "$work/mc/preset-h264.json" --json || true
        rm -rf "$dir/h264"
    fi
    echo "multicodec: $name: the ffmpeg CLI anchor at Reel's CRFs..." >&2
    SVT_LOG=1 LADDER="$work/mc/preset-on.json" mc_timed "$dir" ff "$mc_lib/ffmpeg_multicodec_ladder.sh" "$dir/src.mp4" "$dir/ff" "$dir/on.out" || true
    if grep -q '"rate_analysis"' "$dir/on.out"; then
        # The analysis as a script on the ffmpeg CLI would do it: Reel's probes, encoded and measured by ffmpeg.
        echo "multicodec: $name: the ffmpeg CLI anchor doing the same content-aware probes..." >&2
        LADDER="$work/mc/preset-on.json" mc_timed "$dir" ffprobes "$mc_lib/ffmpeg_rate_probes.py" "$dir/src.mp4" "$dir/ffprobes" "$dir/on.out" || true
        rm -rf "$dir/ffprobes"
    fi
    echo "multicodec: $name: SSIM-Y of every rendition (ladder_quality.sh)..." >&2
    for run in on off ff; do
        [ "$run" = ff ] && [ "${MC_ANCHOR_QUALITY:-1}" != 1 ] && continue
        [ -f "$dir/$run/master.m3u8" ] || continue
        "$anchors/ladder_quality.sh" "$dir/src.mp4" "$dir/$run" >"$dir/q-$run.csv" 2>"$dir/q-$run.err" \
            || echo "  ladder_quality.sh failed on $run: $(tail -1 "$dir/q-$run.err")" >&2
    done
    echo "multicodec: $name: playlist, keyframe and playback checks..." >&2
    mc_checks "$dir" >"$dir/checks.txt"
}

multicodec_section() {
    local clips=${MC_CLIPS:-easy still hard vtest megamind} name dirs=()
    clips=${clips//,/ }
    echo
    if [ ! -d "$mc_data" ] && [[ " $clips " == *" vtest "* || " $clips " == *" megamind "* || " $clips " == *" easy "* || " $clips " == *" still "* ]]; then
        echo "multicodec: $mc_data is missing (scripts/install-deps.sh bench installs opencv-doc); only the hard clip runs." >&2
        clips=hard
    fi
    mkdir -p "$work/mc"
    mc_presets
    echo "## Multi-codec ladder (issue 16): $reel (its repository at $(git -C "$(dirname "$reel")" rev-parse --short HEAD 2>/dev/null || echo ?))," \
         "clips of $secs s, load average at start $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
    for name in $clips; do
        mc_clip "$name" && dirs+=("$work/mc/$name")
    done
    [ ${#dirs[@]} -gt 0 ] && python3 "$mc_lib/multicodec_report.py" "${dirs[@]}"
}
