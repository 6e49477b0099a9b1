#!/usr/bin/env bash
# Regenerates SampleMedia/: small phone-like clips and photos for `make demo`.
# A dev tool: it uses the ffmpeg CLI and python3, which Reel itself never runs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=SampleMedia
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }

# 1. Vertical 1080x1920, 16 s, 30 fps, stereo 48 kHz: the typical upload, at a low bitrate to stay small.
ff -f lavfi -i "testsrc2=size=1080x1920:rate=30,format=yuv420p" \
   -f lavfi -i "sine=frequency=440:sample_rate=48000,aformat=channel_layouts=stereo" -t 16 \
   -c:v libx264 -profile:v high -preset medium -crf 34 -maxrate 700k -bufsize 1400k -g 60 \
   -c:a aac -b:a 64k -movflags +faststart "$out/vertical-1080x1920-16s.mp4"

# 2. A phone portrait clip as phones store it: landscape pixels plus a display matrix saying "turn 90° clockwise".
#    FFmpeg 5.1's mov muxer writes the `rotate` tag with the opposite sign, so rotate=270 yields a 90° clockwise matrix;
#    `reel probe` must report rotation 90 and display size 360x640.
ff -f lavfi -i "testsrc2=size=640x360:rate=30,format=yuv420p" \
   -f lavfi -i "sine=frequency=660:sample_rate=48000,aformat=channel_layouts=stereo" -t 6 \
   -c:v libx264 -preset medium -crf 30 -g 60 -c:a aac -b:a 64k "$tmp/rotated.mp4"
ff -i "$tmp/rotated.mp4" -c copy -metadata:s:v:0 rotate=270 "$out/rotated-90-640x360.mp4"

# 3. Landscape 1280x720 with mono 44.1 kHz audio, which the ladder must convert to stereo 48 kHz.
ff -f lavfi -i "testsrc2=size=1280x720:rate=30,format=yuv420p" \
   -f lavfi -i "sine=frequency=330:sample_rate=44100" -t 8 \
   -c:v libx264 -preset medium -crf 32 -maxrate 800k -bufsize 1600k -g 60 \
   -c:a aac -ac 1 -b:a 48k "$out/landscape-1280x720-mono.mp4"

# 4. A camera-style JPEG stored sideways with EXIF orientation 6 (rotate 90° clockwise to view).
ff -f lavfi -i "testsrc2=size=1600x1200:rate=1" -frames:v 1 -q:v 4 "$tmp/photo.jpg"
python3 - "$tmp/photo.jpg" "$out/photo-exif-orientation-6.jpg" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:2] == b"\xff\xd8"
# Little-endian TIFF, IFD0 with Orientation (274) = 6 and Make/Model strings, so metadata stripping is visible.
make, model = b"ReelCam\0", b"Sample One\0"
entries = 3
ifd_size = 2 + entries * 12 + 4
strings_at = 8 + ifd_size
ifd = struct.pack("<H", entries)
ifd += struct.pack("<HHIHH", 274, 3, 1, 6, 0)
ifd += struct.pack("<HHII", 271, 2, len(make), strings_at)
ifd += struct.pack("<HHII", 272, 2, len(model), strings_at + len(make))
ifd += struct.pack("<I", 0)
tiff = b"II*\0" + struct.pack("<I", 8) + ifd + make + model
payload = b"Exif\0\0" + tiff
segment = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
open(sys.argv[2], "wb").write(data[:2] + segment + data[2:])
PY

# 5. A PNG sticker with real transparency: a disc on a transparent background.
ff -f lavfi -i "testsrc2=size=800x800:rate=1" -frames:v 1 \
   -vf "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(hypot(X-400,Y-400),360),255,0)'" \
   "$out/sticker-alpha-800x800.png"

du -ch "$out"/* | tail -1

# The two real phone photos (photo-jolla-phone.jpg, photo-iphone11-gps.heic) are unmodified copies from the
# exif-samples collection, credited in SampleMedia/CREDITS.md; they are not generated.
