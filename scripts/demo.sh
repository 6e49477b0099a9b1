#!/usr/bin/env bash
# `make demo`: the main job on SampleMedia/. Today that is admission and probing; the worker and the feed join later.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=${1:-.build/release/reel}
[ -x "$reel" ] || { echo "demo: $reel is not built (run make release)" >&2; exit 1; }

echo "== reel check: every sample against Presets/limits.json"
status=0
for file in SampleMedia/*.{mp4,jpg,png,heic}; do
    if "$reel" check "$file"; then :; else status=$?; fi
done

for file in SampleMedia/*.{mp4,jpg,png,heic}; do
    echo
    echo "== reel probe $file"
    "$reel" probe "$file"
done

echo
echo "== reel transcode: the vertical sample to an HLS ladder, then reel compress to one MP4"
out=$(mktemp -d)
"$reel" transcode SampleMedia/vertical-1080x1920-16s.mp4 --output "$out/ladder"
cat "$out/ladder/master.m3u8"
"$reel" compress SampleMedia/vertical-1080x1920-16s.mp4 --output "$out/compressed.mp4" --quality medium
rm -rf "$out"

echo
echo "== reel webp: the sample photos as chat images (high preset)"
chat=$(mktemp -d)
mkdir -p "$chat/in"
cp SampleMedia/*.{jpg,png,heic} "$chat/in/"
"$reel" webp "$chat/in" --output "$chat/out" --quality high
ls -l "$chat/out"
rm -rf "$chat"

echo
echo "== a hostile upload: an HLS playlist named .mp4 that points at /etc/passwd"
hostile=$(mktemp -d)
trap 'rm -rf "$hostile"' EXIT
printf '#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/etc/passwd\n#EXT-X-ENDLIST\n' > "$hostile/clip.mp4"
"$reel" check --json "$hostile/clip.mp4" || echo "(exit $? : refused, as it should be)"
exit $status
