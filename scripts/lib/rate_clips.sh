# The clips of the content-aware benches (bench-rate-bound.sh, bench-rate-cost.sh), made at bench time and never
# committed: synthetic patterns, slow zooms and pans over photos, a talking-head stand-in, high motion, animation,
# and the multicodec bench's five clips. The caller sets `secs` (each clip's length); `rate_clip NAME OUTPUT` writes
# one as 1080x1920 30 fps H.264 CRF 16 with AAC (scripts/lib/multicodec_bench.sh's settings) and prints what it is,
# or returns 2 when this machine cannot make it.
ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
# shellcheck source=multicodec_bench.sh
source "$(dirname "${BASH_SOURCE[0]}")/multicodec_bench.sh"   # mc_make_clip: the five clips, the source settings
data=$mc_data
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
photo() {  # image zoom|pan output: a slow zoom (0.15 % a frame) or pan (2 px a frame) over a photo, 1080x1920
    local move
    if [ "$2" = zoom ]; then
        move="scale=-2:2400:flags=lanczos,zoompan=z='1+0.0015*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=1080x1920:fps=30"
    else
        move="scale=-2:2000:flags=lanczos,crop=1080:1920:'min(2*n,iw-ow)':'(ih-oh)/2'"
    fi
    ff -loop 1 -framerate 30 -i "$data/$1" "${mc_tone[@]}" -t "$secs" -filter_complex "[0:v]$move,setsar=1,format=yuv420p[v]" \
        -map "[v]" -map 1:a "${mc_encode[@]}" "$3"
}
rate_clip() {  # name output: prints a description
    case $1 in
    patterns) ff -f lavfi -i "testsrc2=size=1080x1920:rate=30,format=yuv420p" "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        echo "synthetic: testsrc2" ;;
    bars) ff -f lavfi -i "smptebars=size=1080x1920:rate=30,format=yuv420p" "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        echo "synthetic: smptebars" ;;
    text) # lines of text scrolling up over a flat background
        [ -f "$font" ] || { echo "rate_clip: no $font for the text clip" >&2; return 2; }
        # The README as it stood before it became a manual (bd86b92), so the clip stays the one earlier runs measured.
        local text; text=$(mktemp)
        git show bd86b92:README.md > "$text" 2>/dev/null || cp README.md "$text"
        ff -f lavfi -i "color=c=0x20242a:size=1080x1920:rate=30" "${mc_tone[@]}" -t "$secs" -vf \
            "drawtext=fontfile=$font:textfile=$text:fontsize=34:fontcolor=0xe8e8e8:x=40:y=h-40*t*3:line_spacing=10,format=yuv420p" \
            "${mc_encode[@]}" "$2"
        rm -f "$text"
        echo "synthetic: moving text (bd86b92's README.md scrolling up 120 px/s over a flat background)" ;;
    zoom) photo aero3.jpg zoom "$2"; echo "slow zoom over a detailed photo (opencv-doc aero3.jpg)" ;;
    pan) photo aero3.jpg pan "$2"; echo "slow pan over a detailed photo (opencv-doc aero3.jpg, 2 px a frame)" ;;
    flatzoom) photo orange.jpg zoom "$2"; echo "slow zoom over a flat photo (opencv-doc orange.jpg)" ;;
    flatpan) photo gradient.png pan "$2"; echo "slow pan over a flat picture (opencv-doc gradient.png)" ;;
    head) # a person moving a little in front of a blurred, static background
        ff -loop 1 -framerate 30 -i "$data/building.jpg" -loop 1 -framerate 30 -i "$data/messi5.jpg" "${mc_tone[@]}" -t "$secs" \
            -filter_complex "[0:v]scale=-2:1920,crop=1080:1920,gblur=sigma=12[bg];[1:v]crop=260:300:200:60,scale=780:900:flags=lanczos[p];[bg][p]overlay=x='150+20*sin(2*PI*t/3)':y='520+12*sin(2*PI*t/2)',setsar=1,format=yuv420p[v]" \
            -map "[v]" -map 2:a "${mc_encode[@]}" "$2"
        echo "talking-head stand-in: a crop of opencv-doc messi5.jpg swaying over a blurred static building.jpg" ;;
    mandelbrot) ff -f lavfi -i "mandelbrot=size=1080x1920:rate=30,format=yuv420p" "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        echo "high motion: mandelbrot zoom" ;;
    noise) ff -f lavfi -i "testsrc2=size=1080x1920:rate=30,noise=alls=12:allf=t,format=yuv420p" "${mc_tone[@]}" -t "$secs" \
            "${mc_encode[@]}" "$2"
        echo "high motion: testsrc2 under temporal noise (alls=12)" ;;
    animation) # flat colours and hard edges that move: Conway's life, cells 4 px, a fading mould
        ff -f lavfi -i "life=s=270x480:rate=30:mold=12:ratio=0.2:death_color=#1e3a5f:life_color=#ffcc00:mold_color=#c0392b,scale=1080:1920:flags=neighbor,format=yuv420p" \
            "${mc_tone[@]}" -t "$secs" "${mc_encode[@]}" "$2"
        echo "animation: life with flat colours, scaled up 4x (nearest)" ;;
    easy | still | hard | vtest | megamind) mc_make_clip "$1" "$2" | tail -1 | sed 's/^/bench clip: /' ;;
    *) echo "rate_clip: unknown clip $1" >&2; return 1 ;;
    esac
}
