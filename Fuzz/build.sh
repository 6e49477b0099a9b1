#!/usr/bin/env bash
# Builds the fuzz driver, reel-fuzz, with libFuzzer and AddressSanitizer (issue 32) into .build-fuzz, apart from the
# ordinary build, and prints its path. Every module it links is instrumented for coverage. Built plainly (swift
# build), the same driver replays files through a contract instead: `reel-fuzz TARGET FILE...`.
# Usage: Fuzz/build.sh [extra swift build options]
set -euo pipefail
cd "$(dirname "$0")/.."
# swiftc keeps only its last -sanitize= option, and SwiftPM passes one per --sanitize: with the two alone, Swift code
# was built with AddressSanitizer and no coverage at all (docs/quirks.md). The -Xswiftc list comes last and names both;
# the --sanitize options still instrument the C modules and link libFuzzer.
flags=(-c release --product reel-fuzz --sanitize fuzzer --sanitize address -Xswiftc -sanitize=fuzzer,address
    -Xswiftc -DREEL_FUZZING --build-path .build-fuzz)
swift build "${flags[@]}" "$@" >&2
echo "$(swift build "${flags[@]}" --show-bin-path)/reel-fuzz"
