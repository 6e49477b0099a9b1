#!/usr/bin/env bash
# The phone-footage test bed (issue 61), made at test or bench time by tools Reel did not write (the ffmpeg CLI, its
# zscale on libzimg, x265, espeak-ng), never committed. From one SDR source (real footage: opencv-doc's Megamind
# trailer by default) it makes HDR clips the way phones record them: 10-bit HEVC, BT.2020, with SDR white where
# ITU-R BT.2408 puts it (HLG 75 %, PQ 203 cd/m², zscale's npl=203), so the SDR source is their ground truth; and
# short clips for the loudness cases.
# The highlight clips come from a brighter scene (opencv-doc's vtest, a fifth of whose pixels a 3x gain lifts past
# SDR white), since the trailer is dark.
# Usage: scripts/make-phone-testbed.sh OUTDIR [SECONDS] [SOURCE] [BRIGHT_SOURCE]        prints one line per clip
set -euo pipefail
out=${1:?usage: make-phone-testbed.sh OUTDIR [SECONDS] [SOURCE]}
secs=${2:-8}
src=${3:-/usr/share/doc/opencv-doc/examples/data/Megamind.avi}
bright=${4:-/usr/share/doc/opencv-doc/examples/data/vtest.avi}
here=$(cd "$(dirname "$0")" && pwd)
for f in "$src" "$bright"; do
  [ -f "$f" ] || { echo "make-phone-testbed: no source clip at $f (Debian's opencv-doc has it)" >&2; exit 1; }
done
command -v ffmpeg >/dev/null || { echo "make-phone-testbed: the ffmpeg CLI is missing" >&2; exit 1; }
mkdir -p "$out"
ff() { ffmpeg -nostdin -v error -y "$@"; }

# SDR in, tagged BT.709 (the trailer is untagged), to HDR with SDR white at NPL cd/m².
hdr() { # NAME TRANSFER NPL X265PARAMS [SOURCE]
  ff -i "${5:-$src}" -t "$secs" -an -vf "setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv,\
zscale=t=$2:p=bt2020:m=bt2020nc:r=tv:npl=$3,format=yuv420p10le" \
    -c:v libx265 -preset fast -crf 16 -x265-params "log-level=error${4:+:$4}" -tag:v hvc1 \
    -color_trc "$2" -color_primaries bt2020 -colorspace bt2020nc -color_range tv "$out/$1.mp4"
  echo "$1.mp4 $2 npl=$3"
}
mastering="hdr10=1:master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,1)"
hdr hlg arib-std-b67 203 ""
hdr pq-mastering smpte2084 203 "$mastering:max-cll=1000,400"
hdr pq-bare smpte2084 203 ""
# Highlights: a 3x gain above SDR white before the conversion (the bright source's white lands at 609 cd/m²).
hdr hlg-highlights arib-std-b67 609 "" "$bright"
hdr pq-highlights smpte2084 609 "$mastering:max-cll=1000,400" "$bright"

# Dolby Vision 8.4 as iPhones write it: an HLG base layer with a dvvC record (no RPU: x265 cannot make one).
dvtool="$out/.dv-remux"
if [ ! -x "$dvtool" ]; then
  cc -O1 -o "$dvtool" "$here/testbed/dv-remux.c" $(pkg-config --cflags --libs libavformat libavcodec libavutil)
fi
"$dvtool" "$out/hlg.mp4" "$out/dv84.mp4" 8 4
echo "dv84.mp4 Dolby Vision 8.4 (HLG base layer)"

# The SDR source as an upload (the trailer is an AVI, which admission refuses): Reel's own floor on it.
ff -i "$src" -t "$secs" -an -vf "setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv,\
format=yuv420p" -c:v libx264 -preset fast -crf 12 -color_trc bt709 -color_primaries bt709 -colorspace bt709 \
  "$out/sdr.mp4"
echo "sdr.mp4 bt709 8-bit"

# 10-bit SDR: nothing to tone map, only the depth to reduce.
ff -i "$src" -t "$secs" -an -vf "setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv,\
format=yuv420p10le" -c:v libx265 -preset fast -crf 16 -x265-params log-level=error -tag:v hvc1 \
  -color_trc bt709 -color_primaries bt709 -colorspace bt709 "$out/sdr10.mp4"
echo "sdr10.mp4 bt709 10-bit"

# Loudness cases: 6 s of a 640x360 picture with the sound under test, AAC in MP4 as phones write it.
sound() { # NAME LAVFI-AUDIO [AUDIO-FILTER]
  ff -f lavfi -i "testsrc2=s=640x360:r=30:d=6" -f lavfi -i "$2" -t 6 ${3:+-af "$3"} \
    -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -b:a 192k -ar 48000 -ac 2 "$out/$1.mp4"
  echo "$1.mp4 $("$here/../../shared/anchors/loudness.sh" "$out/$1.mp4" 2>/dev/null || true)"
}
sound quiet "anoisesrc=c=pink:a=0.02:d=6:r=48000" "volume=11dB"
sound loud "aevalsrc=0.6*sgn(sin(2*PI*110*t))*(0.8+0.2*sin(2*PI*3*t))|0.6*sgn(sin(2*PI*111*t)):d=6:s=48000"
sound music "aevalsrc=0.2*sin(2*PI*220*t)*exp(-3*mod(t\,0.5))+0.15*sin(2*PI*277.2*t)+0.12*sin(2*PI*329.6*t)+0.05*sin(2*PI*880*t)*exp(-6*mod(t\,0.25)):d=6:s=48000"
if command -v espeak-ng >/dev/null; then
  espeak-ng -w "$out/.speech.wav" "Reel turns the clips people film on their phones into videos that look and sound \
right on every screen. This sentence is here so that the loudness meter hears real speech, with its pauses." 2>/dev/null
  sound speech "amovie=$out/.speech.wav,apad=whole_dur=6,aresample=48000"
else
  echo "make-phone-testbed: espeak-ng is missing, no speech clip" >&2
fi
sound silent "anullsrc=r=48000:cl=stereo"
