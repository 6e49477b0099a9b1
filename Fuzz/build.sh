#!/usr/bin/env bash
# Builds the fuzz driver, reel-fuzz, with libFuzzer and AddressSanitizer (issue 32) into .build-fuzz, apart from the
# ordinary build, and prints its path. Every module it links is instrumented for coverage. Built plainly (swift
# build), the same driver replays files through a contract instead: `reel-fuzz TARGET FILE...`.
# Usage: Fuzz/build.sh [extra swift build options]
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --product reel-fuzz --sanitize fuzzer --sanitize address -Xswiftc -DREEL_FUZZING
    --build-path .build-fuzz)
swift build "${flags[@]}" "$@" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/reel-fuzz"
