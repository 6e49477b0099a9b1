SWIFT ?= swift
# Debug builds (`swift test`) compile the few modules whose loops dominate the tests' CPU with -O (Package.swift, `hot`).
export REEL_OPTIMIZE_HOT_MODULES ?= 1
REEL_BIN := .build/release/reel

.PHONY: deps deps-test deps-bench build release test demo bench format clean

deps:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

deps-bench:
	@scripts/install-deps.sh bench

build: deps
	$(SWIFT) build

# The Swift runtime and Foundation linked statically: about 6 ms less dynamic linking each time reel starts
# (measured on `reel webp`, which is one process per chat image). Foundation's libcurl then becomes a load-time
# dependency with ~28 libraries of its own; every curl function Reel's Foundation calls is a trampoline that
# opens libcurl on first use (Sources/CLazyLoader/curl.c), so the unused entry is dropped: 60 -> 32 libraries,
# about 10 ms less CPU per `reel webp` on a small photo.
release: deps
	$(SWIFT) build -c release --product reel --static-swift-stdlib
	patchelf --remove-needed libcurl.so.4 $(REEL_BIN)
	scripts/check-release-switches.sh $(REEL_BIN)

# The format and blocking-call checks first (seconds), then the tests in two lanes (scripts/test-lanes.sh: the suites
# that mostly wait beside the CPU-bound rest), each under a watchdog: a run that prints nothing for 5 minutes
# (REEL_TEST_SILENCE_SECONDS) is stopped with the tests in flight and every thread's stack, never left to CI's limit.
# At most twice as many test cases run at once as there are cores (Swift Testing's own bound, off by default in 6.3):
# a case waits for a turn before its time limit starts. Unbounded, all 731 cases started at once, and on a slow 2-core
# machine (CI's) the encoding tests starved the ones that only wait: 21-35 failed on time limits, in about the same
# wall time (docs/testing.md).
TEST_WIDTH ?= $(shell echo $$(( $$(nproc) * 2 )))

test: deps-test
	scripts/check-format.sh
	python3 scripts/check-blocking.py --sync-tests
	python3 scripts/dev/package-access.py --check
	$(SWIFT) build --build-tests
	scripts/test-lanes.sh $(TEST_WIDTH)

demo: release
	scripts/demo.sh $(REEL_BIN)

# reel-bench holds the benchmark drivers (job claims under contention): built for benchmarks only, never in release.
# BENCH=feed runs scripts/bench-feed.sh alone (BENCH="feed media" several); the figures go to docs/benchmarks.md.
BENCH ?=
bench: deps-bench release
	$(SWIFT) build -c release --product reel-bench
	scripts/bench.sh $(REEL_BIN) $(BENCH)

# Rewrites the sources as .swift-format says (make test checks it).
format:
	swift format --configuration .swift-format --in-place --recursive --parallel Sources Tests Fuzz Package.swift

clean:
	rm -rf .build
