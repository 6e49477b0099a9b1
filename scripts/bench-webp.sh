#!/usr/bin/env bash
# Chat images: `reel webp` against `cwebp -resize` and `vipsthumbnail` on the same photos in one run, at the high
# preset (longest side 2048, quality 80, method 4). Prints CPU seconds, bytes and SSIM-Y per image (SSIM from
# ../shared/anchors/webp_quality.sh against the EXIF-oriented, Lanczos-resized source), the ratios, and the
# directory-batch speed-up of two workers over one.
# Photos: PHOTOS=dir (default: the photos in SampleMedia/). CPU is the median of RUNS runs (default 5) per tool and photo.
set -euo pipefail
cd "$(dirname "$0")/.."
reel=$(realpath "${1:-.build/release/reel}")
anchors=$(realpath ../shared/anchors)
photos=${PHOTOS:-SampleMedia}
for tool in cwebp vipsthumbnail /usr/bin/time python3; do
    command -v "$tool" >/dev/null || { echo "bench-webp: $tool missing (make deps-bench)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/set"
for f in "$photos"/*; do
    case "${f,,}" in *.jpg|*.jpeg|*.png|*.heic|*.heif|*.webp|*.tif|*.tiff) cp "$f" "$work/set/";; esac
done

cpu() { # prints user+sys CPU seconds of a command: the median of RUNS runs (default 5), from wait4's rusage in
          # microseconds (GNU time rounds to 10 ms, which is the whole cost of a small photo); nan if it fails
    python3 - "${RUNS:-5}" "$@" <<'PY'
import os, statistics, subprocess, sys
runs, command = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(runs):
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status != 0:
        print("nan"); sys.exit()
    times.append(usage.ru_utime + usage.ru_stime)
print(f"{statistics.median(times):.3f}", end="")
PY
}
quality() { # prints "ssim bytes" of OUT against SRC
    "$anchors/webp_quality.sh" "$1" "$2" --no-ffmpeg 2>/dev/null \
        | awk -F'[= ]' '/^ssim_y=/{s=$2} /out_bytes=/{for(i=1;i<=NF;i++) if($i=="out_bytes") b=$(i+1)} END{printf "%s %s\n", s, b}'
}

printf '| photo | reel CPU s | cwebp CPU s | vips CPU s | reel SSIM / KB | cwebp SSIM / KB | vips SSIM / KB |\n|---|---|---|---|---|---|---|\n'
: > "$work/rows"
for src in "$work/set"/*; do
    name=$(basename "$src")
    r_cpu=$(cpu "$reel" webp "$src" --output "$work/$name.reel.webp" --quality high)
    read -r w h orient < <("$reel" webp "$src" --output "$work/$name.reel.webp" --quality high --json \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["width"], d["height"], d["orientation"])')
    # cwebp ignores EXIF orientation. Its CPU is timed on the file as stored (decoding and resizing a picture cost
    # the same either way up), resized to the same size turned sideways. Its picture, compared with Reel's, is
    # made from the upright pixels, as the issue asks (orientation applied on both sides): VP8 is not
    # rotation-invariant, so an encode of the sideways picture turned upright afterwards is a different picture.
    if [ "$orient" -ge 5 ]; then cw=$h; ch=$w; else cw=$w; ch=$h; fi
    c_cpu=$(cpu cwebp -quiet -q 80 -m 4 -resize "$cw" "$ch" "$src" -o "$work/$name.cwebp.webp")
    if [ "$orient" -gt 1 ] && [ -s "$work/$name.cwebp.webp" ]; then
        vips autorot "$src" "$work/$name.upright.png"   # lossless: the decoded pixels, turned as EXIF says
        cwebp -quiet -q 80 -m 4 -resize "$w" "$h" "$work/$name.upright.png" -o "$work/$name.cwebp.webp"
    fi
    v_cpu=$(cpu vipsthumbnail "$src" -s 2048 -o "$work/$name.vips.webp[Q=80,strip]")
    read -r r_ssim r_bytes < <(quality "$src" "$work/$name.reel.webp")
    c_ssim=n/a; c_bytes=0
    [ -s "$work/$name.cwebp.webp" ] && read -r c_ssim c_bytes < <(quality "$src" "$work/$name.cwebp.webp")
    v_ssim=n/a; v_bytes=0
    [ -s "$work/$name.vips.webp" ] && read -r v_ssim v_bytes < <(quality "$src" "$work/$name.vips.webp")
    printf '| %s | %s | %s | %s | %s / %d | %s / %d | %s / %d |\n' "$name" "$r_cpu" "$c_cpu" "$v_cpu" \
        "$r_ssim" $((r_bytes / 1000)) "$c_ssim" $((c_bytes / 1000)) "$v_ssim" $((v_bytes / 1000))
    echo "$name $r_cpu $c_cpu $r_ssim $c_ssim $r_bytes $c_bytes" >> "$work/rows"
done

python3 - "$work/rows" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
both = [r for r in rows if r[2] != "nan" and r[4] != "n/a"]
if both:
    rc = sum(float(r[1]) for r in both); cc = sum(float(r[2]) for r in both)
    rb = sum(int(r[5]) for r in both); cb = sum(int(r[6]) for r in both)
    better = sum(1 for r in both if float(r[3]) >= float(r[4]))
    print(f"\nOn the {len(both)} photos cwebp reads: CPU reel/cwebp = {rc / cc:.2f}, bytes reel/cwebp = {rb / cb:.2f}, "
          f"reel SSIM >= cwebp on {better}/{len(both)}")
    sys.path.insert(0, "scripts/lib")
    from bench_result import result
    n = len(both)
    result(f"CPU per photo, one process each ({n} photos)", rc / n, "cwebp -q 80 -m 4 -resize", cc / n, "s", "lower")
    result(f"bytes per photo ({n} photos)", rb / n, "cwebp -q 80 -m 4 -resize", cb / n, "bytes", "lower")
    result(f"mean SSIM-Y ({n} photos)", sum(float(r[3]) for r in both) / n, "cwebp -q 80 -m 4 -resize",
           sum(float(r[4]) for r in both) / n, "SSIM-Y")
PY

# Batch CPU per image: the worker and `reel webp DIR` convert many photos in one process, so the ~45 ms of
# loading libav's shared libraries is paid once. Same photos as cwebp read, one worker.
mkdir -p "$work/readable"
while read -r name _ c_cpu _; do [ "$c_cpu" != nan ] && cp "$work/set/$name" "$work/readable/"; done < "$work/rows"
n=$(ls "$work/readable" | wc -l)
if [ "$n" -gt 0 ]; then
    b_cpu=$(cpu "$reel" webp "$work/readable" --output "$work/out0" --jobs 1)
    python3 - "$work/rows" "$b_cpu" "$n" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.split()[2] != "nan"]
cw = sum(float(r[2]) for r in rows)
b, n = float(sys.argv[2]), int(sys.argv[3])
print(f"Batch CPU per image on those {n}: reel {b / n:.3f} s, cwebp {cw / n:.3f} s, ratio {b / cw:.2f}")
sys.path.insert(0, "scripts/lib")
from bench_result import result
result(f"CPU per photo, a directory in one process ({n} photos)", b / n, "cwebp, one process each", cw / n, "s", "lower")
PY
fi

# Throughput: two workers against one worker pinned to one core (libheif would otherwise thread a single job).
mkdir -p "$work/batch"
n=0; for f in "$work/set"/*; do for k in 1 2 3; do cp "$f" "$work/batch/$k-$(basename "$f")"; n=$((n + 1)); done; done
t1=$( { /usr/bin/time -f "%e" taskset -c 0 "$reel" webp "$work/batch" --output "$work/out1" --jobs 1 >/dev/null; } 2>&1 | tail -1)
t2=$( { /usr/bin/time -f "%e" "$reel" webp "$work/batch" --output "$work/out2" --jobs 2 >/dev/null; } 2>&1 | tail -1)
python3 -c "print(f'Batch of $n images: one core {float(\"$t1\"):.2f} s, two workers {float(\"$t2\"):.2f} s, throughput {float(\"$t1\") / float(\"$t2\"):.2f}x one core')"
