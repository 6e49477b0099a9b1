#!/usr/bin/env bash
# Issue 32's sanitizer runs on the C boundary, built into .build-asan (never the ordinary .build).
#   scripts/sanitize.sh [suites]   the suites over the C wrappers under AddressSanitizer, pass/fail per suite
#   scripts/sanitize.sh leaks      LeakSanitizer over 100+ worker jobs (videos and chat images), then one
#                                  `reel webp` batch of the same images in a single process
# SUITES="LibAVTests ..." picks other test targets; VIDEOS=N and IMAGES=N (per format) size the leak run.
# Logs and the leak run's files stay in .build-asan/sanitize/. docs/fuzzing.md says how; docs/records.md has the results.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=.build-asan
out="$root/$build/sanitize"
mkdir -p "$out"

# UBSan reaches the C targets only: swiftc 6.3.1 on Linux refuses -sanitize=undefined ("unsupported option ... for
# target x86_64-unknown-linux-gnu"), and SwiftPM's --sanitize=undefined hands it to swiftc, so that build fails.
# clang takes -fsanitize=undefined (-Xcc), and ASan's runtime carries UBSan's handlers. With one --sanitize there
# is no last-option-wins trap for swiftc (docs/quirks.md, "Sanitizers").
flags=(--sanitize=address -Xcc -fsanitize=undefined --build-path "$build")

# Every report is fatal; leaks are looked for at exit. The suppressions file lists only leaks shown not to be
# Reel's (inside a system library, or a false positive in a dependency), each with its reason and reproducer.
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$root/scripts/sanitize-lsan.supp:print_suppressions=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# Suites over the C wrappers. LibTurboJPEG, LibHeif and LibPNG have no test target of their own: ChatImagesTests
# decodes JPEG (libjpeg-turbo), HEIC (libheif) and PNG (libpng) through them.
suites() {
    local targets=(${SUITES:-LibAVTests LibWebPTests ChatImagesTests FileSystemTests})
    # Whole stacks through C libraries built without frame pointers (x265's), so a suppression names the call.
    local ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0"
    local started=$SECONDS
    swift build --build-tests "${flags[@]}" 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol" || true; } >&2
    echo "sanitize: built in $((SECONDS - started)) s" >&2
    local failed=0
    for target in "${targets[@]}"; do
        local log="$out/$target.log" begun=$SECONDS status=pass
        # These targets hold Swift Testing suites only; XCTest's empty run leaks 144 bytes in libXCTest.so itself.
        swift test --skip-build "${flags[@]}" --disable-xctest --filter "^$target\." >"$log" 2>&1 || status=fail
        # Swift Testing's closing line, e.g. "Test run with 12 tests in 3 suites passed after 4.2 seconds."
        local summary findings
        summary=$(grep -Eo "Test run with [0-9]+ tests? in [0-9]+ suites? (passed|failed).*" "$log" | tail -1)
        findings=$(grep -cE "ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:" "$log" || true)
        [ "$findings" -eq 0 ] || status=fail
        [ "$status" = pass ] || failed=$((failed + 1))
        echo "$target: $status, ${summary:-no closing line}, sanitizer reports: $findings, $((SECONDS - begun)) s ($log)"
    done
    return "$failed"
}

# Distinct inputs (the worker sees identical uploads as duplicates), made with the ffmpeg CLI as
# scripts/make-sample-media.sh does, plus copies of SampleMedia's phone photos with a trailing byte each.
make_media() {
    local dir=$1 videos=$2 images=$3
    ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }
    local sizes=(240x426 426x240 360x640 320x240)
    for i in $(seq 1 "$videos"); do
        local size=${sizes[$((i % 4))]} audio=(-f lavfi -i "sine=frequency=$((200 + i * 20)):sample_rate=48000")
        # Every fifth clip has no audio; every seventh has mono 44.1 kHz, which the ladder converts.
        [ $((i % 5)) -eq 0 ] && audio=()
        [ $((i % 7)) -eq 0 ] && audio=(-f lavfi -i "sine=frequency=330:sample_rate=44100")
        ff -f lavfi -i "testsrc2=size=$size:rate=30,hue=h=$((i * 9)),format=yuv420p" "${audio[@]}" -t 15 \
            -c:v libx264 -preset ultrafast -crf 28 -g 60 -c:a aac -b:a 64k "$dir/clip-$i.mp4"
    done
    for i in $(seq 1 "$images"); do
        local w=$((480 + i * 64)) h=$((360 + i * 48))
        ff -f lavfi -i "testsrc2=size=${w}x$h:rate=1,hue=h=$((i * 20))" -frames:v 1 -q:v $((2 + i % 8)) "$dir/photo-$i.jpg"
        ff -f lavfi -i "testsrc2=size=${h}x$w:rate=1,hue=h=$((i * 20))" -frames:v 1 \
            -vf "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(hypot(X-W/2,Y-H/2),W/3),255,$i)'" \
            "$dir/sticker-$i.png"
        if [ $((i % 2)) -eq 0 ]; then
            ff -f lavfi -i "testsrc2=size=${w}x$h:rate=1,hue=h=$((i * 20))" -frames:v 1 -c:v libwebp -quality 70 \
                "$dir/chat-$i.webp"
        else
            ff -f lavfi -i "testsrc2=size=${h}x$h:rate=1,hue=h=$((i * 20)),format=yuva420p" -frames:v 1 \
                -c:v libwebp -lossless 1 "$dir/chat-$i.webp"
        fi
        { cat SampleMedia/photo-iphone11-gps.heic; printf '%s' "$i"; } >"$dir/iphone-$i.heic"
    done
    { cat SampleMedia/photo-jolla-phone.jpg; printf 'j'; } >"$dir/jolla.jpg"
    { cat SampleMedia/photo-exif-orientation-6.jpg; printf 'o'; } >"$dir/exif-6.jpg"
}

# LeakSanitizer's verdict from one run's log files (one per process, written only at exit with atexit=1): how many
# processes ran the exit check, which reported an error, and what the suppressions hid.
verdict() {
    local prefix=$1 label=$2
    local files=("$prefix".*)
    [ -e "${files[0]}" ] || { echo "$label: no process ran its exit check"; return 1; }
    local errors
    errors=$(grep -lE "ERROR: |runtime error:" "${files[@]}" || true)
    echo "$label: ${#files[@]} process(es) ran their exit check, $(echo -n "$errors" | grep -c . || true) reported"
    grep -h -A2 "^Suppressions used:" "${files[@]}" | grep -vE "^(Suppressions used|--|  count)" | sort | uniq -c |
        sed 's/^/  suppressed (processes, count, bytes, template): /' || true
    [ -z "$errors" ] && return 0
    grep -h "SUMMARY:" $errors | sort | uniq -c
    # The frames under the allocator of each report, to tell Reel's code from a library's.
    grep -h -A4 -E "leak of|ERROR: AddressSanitizer" $errors | grep -E "#[1-4] " |
        sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ in //' | sort | uniq -c | sort -rn | head -20
    return 1
}

leaks() {
    local videos=${VIDEOS:-40} images=${IMAGES:-16}
    local run="$out/leaks"
    rm -rf "$run"
    mkdir -p "$run/media" "$run/inbox" "$run/reports"
    local started=$SECONDS
    swift build --product reel "${flags[@]}" 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol" || true; } >&2
    local reel
    reel="$(swift build "${flags[@]}" --show-bin-path)/reel"
    echo "sanitize: reel built in $((SECONDS - started)) s: $reel" >&2
    make_media "$run/media" "$videos" "$images"
    local total
    total=$(ls "$run/media" | wc -l)
    echo "sanitize: $total uploads ($(ls "$run/media" | sed 's/.*\.//' | sort | uniq -c | tr '\n' ' '))" >&2

    # Every process writes to reports/asan.PID (the worker passes the options on to its jobs): a report, or with
    # atexit=1 the allocator's statistics once the leak check at exit found nothing. The job server is killed
    # with the worker and has no exit. The jobs' address-space limit must not bite: ASan reserves 20 TB at start.
    cp "$run/media"/* "$run/inbox/"
    local rc=0 begun=$SECONDS
    ASAN_OPTIONS="$ASAN_OPTIONS:atexit=1:log_path=$run/reports/asan" "$reel" worker --inbox "$run/inbox" \
        --library "$run/library" --database "$run/catalog.sqlite" --once --jobs 1 --settle 0 --poll-interval 0.05 \
        --job-memory-mb 67108864 --json --log-level warning >"$run/jobs.jsonl" 2>"$run/worker.stderr" || rc=$?
    local jobs published
    jobs=$(wc -l <"$run/jobs.jsonl")
    published=$(grep -c '"state":"published"' "$run/jobs.jsonl" || true)
    echo "worker: exit $rc, $jobs jobs finished of $total uploads, $published published, $((SECONDS - begun)) s"
    grep -v '"state":"published"' "$run/jobs.jsonl" | head -5 || true
    local failed=0
    [ "$rc" -eq 0 ] && [ "$jobs" -ge 100 ] && [ "$published" -eq "$total" ] || failed=1
    verdict "$run/reports/asan" "worker and its jobs" || failed=1

    # The same images in one long-lived process, so whatever a conversion leaks adds up before LSan looks.
    mkdir -p "$run/images" "$run/reports-batch"
    cp "$run/media"/*.jpg "$run/media"/*.png "$run/media"/*.webp "$run/media"/*.heic "$run/images/"
    rc=0 begun=$SECONDS
    ASAN_OPTIONS="$ASAN_OPTIONS:atexit=1:log_path=$run/reports-batch/asan" "$reel" webp "$run/images" \
        --output "$run/webp" --jobs 2 >"$run/webp.stdout" 2>&1 || rc=$?
    echo "reel webp batch: exit $rc, $(cat "$run/webp.stdout" | tail -1), $((SECONDS - begun)) s"
    [ "$rc" -eq 0 ] || failed=1
    verdict "$run/reports-batch/asan" "reel webp batch" || failed=1
    return "$failed"
}

case "${1:-suites}" in
    suites) suites ;;
    leaks) leaks ;;
    *) echo "usage: scripts/sanitize.sh [suites|leaks]" >&2; exit 64 ;;
esac
