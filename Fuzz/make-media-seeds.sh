#!/usr/bin/env bash
# Makes the binary seeds of the mp4 and admission fuzz targets (issue 32) into Fuzz/Corpus: tiny fMP4 init and media
# segments in each codec the ladder writes, and one tiny upload of each accepted format. A dev tool: it runs the
# ffmpeg CLI, which Reel itself never does. The outputs are committed (about 60 KB), so a campaign never needs it.
# Usage: Fuzz/make-media-seeds.sh
set -euo pipefail
cd "$(dirname "$0")/Corpus"
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=(-f lavfi -i "testsrc2=size=64x64:rate=10" -f lavfi -i "sine=frequency=440:sample_rate=48000" -t 2)

# mp4: one HLS fMP4 rendition per codec; the init segment and the first media segment of each.
for codec in libx264 libx265 libsvtav1; do
    mkdir -p "$tmp/$codec"
    ff "${src[@]}" -c:v "$codec" -pix_fmt yuv420p -g 10 -c:a aac -b:a 32k -f hls -hls_time 1 \
        -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$tmp/$codec/seg%d.m4s" \
        "$tmp/$codec/index.m3u8"
    cp "$tmp/$codec/init.mp4" "mp4/init-$codec.mp4"
    cp "$tmp/$codec/seg0.m4s" "mp4/segment-$codec.m4s"
    cat "$tmp/$codec/init.mp4" "$tmp/$codec/seg0.m4s" > "mp4/init-and-segment-$codec.mp4"
done

# admission: each accepted container and image format, small enough for libFuzzer's 4 KB inputs where it can be.
ff "${src[@]}" -c:v libx264 -preset ultrafast -crf 40 -c:a aac -b:a 16k admission/clip.mp4
ff "${src[@]}" -c:v libvpx-vp9 -b:v 20k -c:a libopus -b:a 16k admission/clip.webm 2> /dev/null \
    || ff "${src[@]}" -c:v libvpx-vp9 -b:v 20k -an admission/clip.webm
ff -f lavfi -i "testsrc2=size=64x48:rate=10" -t 2 -c:v mpeg4 -q:v 20 admission/clip-mpeg4.mkv
ff -f lavfi -i "testsrc2=size=32x24" -frames:v 1 admission/picture.jpg
ff -f lavfi -i "testsrc2=size=32x24" -frames:v 1 admission/picture.png
ff -f lavfi -i "testsrc2=size=32x24" -frames:v 1 -c:v libwebp admission/picture.webp
ff -f lavfi -i "testsrc2=size=32x24:rate=5" -t 1 admission/animation.gif
ff -f lavfi -i "testsrc2=size=16x12" -frames:v 1 admission/picture.bmp
ff -f lavfi -i "testsrc2=size=16x12" -frames:v 1 admission/picture.tiff
cp image-header/heic-head.heic admission/picture-head.heic
# What the sniffer must refuse, and why.
printf '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nhttp://127.0.0.1/a.ts\n' > admission/playlist.m3u8
printf '%%PDF-1.4\n%%\xe2\xe3\xcf\xd3\n' > admission/document.pdf
printf 'RIFF\x24\x00\x00\x00WAVEfmt ' > admission/sound.wav
ls -l mp4 admission | awk '{s += $5} END {print s " bytes"}'
