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

release: deps
	$(SWIFT) build -c release --product reel

test: deps-test
	$(SWIFT) test

demo: release
	scripts/demo.sh $(REEL_BIN)

bench: deps-bench release
	scripts/bench.sh $(REEL_BIN)

clean:
	rm -rf .build
