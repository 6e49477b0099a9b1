SWIFT ?= swift
REEL_BIN := .build/release/reel

.PHONY: deps deps-test deps-bench build release test demo bench clean

deps:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

deps-bench:
	@scripts/install-deps.sh bench

build: deps
	$(SWIFT) build

# The Swift runtime and Foundation linked statically: about 6 ms less dynamic linking each time reel starts
# (measured on `reel webp`, which is one process per chat image).
release: deps
	$(SWIFT) build -c release --product reel --static-swift-stdlib

test: deps-test
	$(SWIFT) test

demo: release
	scripts/demo.sh $(REEL_BIN)

bench: deps-bench release
	scripts/bench.sh $(REEL_BIN)

clean:
	rm -rf .build
