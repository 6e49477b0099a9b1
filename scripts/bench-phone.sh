#!/usr/bin/env bash
# Phone footage (issue 61), every figure from one run on the test bed (scripts/make-phone-testbed.sh):
#   colour:   each HDR clip through `reel transcode`, through the ladder before tone mapping (BASELINE, a release build
#             of an earlier commit) and through the ffmpeg CLI's zscale+tonemap chain (hable, as most guides give it,
#             mobius, and clip: a plain conversion), each against the SDR source: mean CIEDE2000 and the fraction of
#             newly clipped white pixels (../shared/anchors/colour_difference.py, scikit-image), and the CPU seconds
#             of each ladder, and the conversion's own share of Reel's CPU (perf: samples under the lookup table's
#             build and its per-picture mapping, page faults included), when perf is installed. The highlight clips carry a 3x gain, so their CIEDE2000 against the un-gained source
#             measures the gain, not the conversion: read their clipped fractions.
#   loudness: each loudness clip through `reel transcode`, measured before and after by ffmpeg's ebur128
#             (../shared/anchors/loudness.sh).
# Usage: scripts/bench-phone.sh [REEL_BINARY]
# Env: BASELINE=447efb6 (the commit whose ladder has no tone mapping; built once into .build-baseline),
#      SECONDS_CLIP=8, SECTIONS="colour loudness", KEEP_WORK=1.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/bench.sh
reel=$(realpath "${1:-.build/release/reel}")
anchors=$(realpath ../shared/anchors)
work=$(mktemp -d)
if [ "${KEEP_WORK:-0}" = 1 ]; then trap 'echo "kept $work" >&2' EXIT; else trap 'rm -rf "$work"' EXIT; fi
sections=" ${SECTIONS:-colour loudness} "
wants() { [[ $sections == *" $1 "* ]]; }
source=/usr/share/doc/opencv-doc/examples/data/Megamind.avi
bright=/usr/share/doc/opencv-doc/examples/data/vtest.avi
scripts/make-phone-testbed.sh "$work/bed" "${SECONDS_CLIP:-8}" "$source" "$bright" >/dev/null
cpu() { # command...: prints user+system CPU seconds
    /usr/bin/time -f "%U %S" -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }
    awk '{printf "%.2f", $1 + $2}' "$work/time"
}
# The percentage of a transcode's CPU samples under the conversion's two entry points: the table's build and the
# per-picture mapping (both run on dispatch threads, so their own frames are the roots); "-" without perf.
conversion_share() { # INPUT
    command -v perf >/dev/null || { echo "-"; return; }
    rm -rf "$work/perf-out"
    perf record -q -g -o "$work/perf.data" "$reel" transcode "$1" --output "$work/perf-out" >/dev/null 2>&1 \
        || { echo "-"; return; }
    perf report -i "$work/perf.data" --children --sort symbol --stdio -g none 2>/dev/null \
        | awk '$4 ~ /5FrameC3map33_|ToneMapping0A8MapTableV_7threads.*XEfU_$/ { gsub("%", "", $1); s += $1 } END { printf "%.1f", s }'
}
top_rung() { ls -d "$1"/*/ | sort -t p -k1 -n | tail -1; }
colour() { # REFERENCE TEST: "ciede clipped"
    python3 "$anchors/colour_difference.py" "$1" "$2" --times 1,3,5,7 --json \
        | python3 -c 'import json,sys; m=json.load(sys.stdin)["mean"]; print("%.2f %.5f" % (m["ciede2000"], m["clipped_fraction"]))'
}

if wants colour; then
    baseline=${BASELINE:-447efb6}
    old=.build-baseline/release/reel
    if [ ! -x "$old" ] || [ "$(cat .build-baseline/commit 2>/dev/null)" != "$baseline" ]; then
        rm -rf .build-baseline/src && mkdir -p .build-baseline
        git worktree add -f --detach .build-baseline/src "$baseline" >/dev/null 2>&1
        (cd .build-baseline/src && swift build -c release --product reel --scratch-path ../scratch >/dev/null)
        mkdir -p .build-baseline/release && cp .build-baseline/scratch/release/reel "$old"
        echo "$baseline" > .build-baseline/commit
        git worktree remove --force .build-baseline/src
    fi
    # The earlier binary reads the preset of its own day (newer keys, such as loudness, are unknown to it).
    git show "$baseline:Presets/ladder.json" > "$work/ladder-before.json"
    echo "| clip | Reel ΔE2000 | Reel clipped | Reel CPU s | before ($baseline) ΔE | before CPU s | Reel / before CPU | ffmpeg hable ΔE | hable clipped | ffmpeg mobius ΔE | mobius clipped | plain (clip) clipped | ffmpeg hable chain CPU s | conversion's share of Reel CPU % |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    "$reel" transcode "$work/bed/sdr.mp4" --output "$work/sdr-reel" >/dev/null 2>&1
    for clip in hlg pq-mastering pq-bare dv84 hlg-highlights pq-highlights sdr10; do
        in=$work/bed/$clip.mp4
        ref=$source
        [[ $clip == *highlights ]] && ref=$bright
        new_cpu=$(cpu "$reel" transcode "$in" --output "$work/$clip-reel")
        old_cpu=$(cpu "$old" transcode "$in" --ladder "$work/ladder-before.json" --output "$work/$clip-old")
        read -r new_de new_clip <<<"$(colour "$ref" "$(top_rung "$work/$clip-reel")")"
        read -r old_de _ <<<"$(colour "$ref" "$(top_rung "$work/$clip-old")")"
        # The ffmpeg CLI: SDR white at npl=203 (HLG and PQ alike), BT.709 primaries, the tone operator, BT.709 out.
        chain() { echo "zscale=t=linear:npl=203,format=gbrpf32le,zscale=p=bt709,tonemap=$1:desat=0,zscale=t=bt709:m=bt709:r=tv,format=yuv420p"; }
        if [ "$clip" = sdr10 ]; then chain() { echo "format=yuv420p"; }; fi
        ff_cpu=$(cpu ffmpeg -nostdin -v error -y -i "$in" -vf "$(chain hable)" -c:v libx264 -preset veryfast -crf 21 "$work/$clip-hable.mp4")
        ffmpeg -nostdin -v error -y -i "$in" -vf "$(chain mobius)" -c:v libx264 -preset veryfast -crf 21 "$work/$clip-mobius.mp4"
        ffmpeg -nostdin -v error -y -i "$in" -vf "$(chain clip)" -c:v libx264 -preset veryfast -crf 21 "$work/$clip-clip.mp4"
        read -r hable_de hable_clip <<<"$(colour "$ref" "$work/$clip-hable.mp4")"
        read -r mobius_de mobius_clip <<<"$(colour "$ref" "$work/$clip-mobius.mp4")"
        read -r _ plain_clip <<<"$(colour "$ref" "$work/$clip-clip.mp4")"
        ratio=$(awk -v a="$new_cpu" -v b="$old_cpu" 'BEGIN { printf "%.2f", a / b }')
        share=$(conversion_share "$in")
        echo "| $clip | $new_de | $new_clip | $new_cpu | $old_de | $old_cpu | $ratio | $hable_de | $hable_clip | $mobius_de | $mobius_clip | $plain_clip | $ff_cpu | $share |"
        bench_result "$clip: CIEDE2000 of the top rung to the SDR source" "$new_de" \
            "the ffmpeg CLI (zscale + tonemap=hable)" "$hable_de" ΔE lower
        bench_result "$clip: transcode CPU (Reel: the whole ladder)" "$new_cpu" \
            "the ffmpeg CLI (one tone-mapped rendition)" "$ff_cpu" s lower
    done
    read -r sdr_de _ <<<"$(colour "$source" "$(top_rung "$work/sdr-reel")")"
    echo
    echo "Reel's ladder on the SDR source itself: ΔE2000 $sdr_de (the floor the encode sets)."
fi

if wants loudness; then
    echo
    echo "| clip | source LUFS | source dBTP | Reel LUFS | Reel dBTP |"
    echo "|---|---|---|---|---|"
    for clip in quiet loud speech music silent; do
        [ -f "$work/bed/$clip.mp4" ] || continue
        "$reel" transcode "$work/bed/$clip.mp4" --output "$work/$clip-reel" >/dev/null 2>&1
        src=$("$anchors/loudness.sh" "$work/bed/$clip.mp4")
        out=$("$anchors/loudness.sh" "$(top_rung "$work/$clip-reel")")
        field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" <<<"$2"; }
        echo "| $clip | $(field integrated_lufs "$src") | $(field true_peak_dbtp "$src") | $(field integrated_lufs "$out") | $(field true_peak_dbtp "$out") |"
        # How far from the -14 LUFS target, by the shared loudness meter: Reel's output against its source.
        off() { awk -v v="$1" 'BEGIN { d = v + 14; if (d < 0) d = -d; printf "%.2f", d }'; }
        if [ "$(field integrated_lufs "$src")" != "-inf" ] && [ -n "$(field integrated_lufs "$out")" ]; then
            bench_result "$clip: LU from the -14 LUFS target" "$(off "$(field integrated_lufs "$out")")" \
                "the upload as recorded" "$(off "$(field integrated_lufs "$src")")" LU lower
        fi
    done
fi
