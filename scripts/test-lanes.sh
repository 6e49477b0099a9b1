#!/usr/bin/env bash
# `make test`'s test step: the tests in two lanes at once, each `swift test --skip-build` under its own watchdog.
#  - waits: the suites that mostly wait (the multi-host takeovers on leases, cut links and PostgreSQL's connection
#    timeouts; the browser suites' real-time playback), all `.serialized`;
#  - the rest: the CPU-bound tests (encodes, tone mapping, simulations) and the quick ones.
# In one process the waiting suites queued for a turn behind the encodes (at most TEST_WIDTH cases run at once) and
# then waited in real time at the end: a run's last 5-10 minutes were a multi-host suite alone (docs/testing.md).
# Each lane runs the test bundle `swift test --skip-build` would run, directly: two `swift test`s started together
# wait for each other's lock on .build for the whole run.
# Usage: scripts/test-lanes.sh WIDTH   (WIDTH: the CPU lane's case limit; the waiting lane's is WAIT_WIDTH, 3)
set -uo pipefail
cd "$(dirname "$0")/.."
width=${1:-4}
bundle=$(swift build --show-bin-path)/ReelPackageTests.xctest
[ -x "$bundle" ] || { echo "test-lanes: no test bundle at $bundle (swift build --build-tests makes it)" >&2; exit 2; }
waits='MultiHostTests\.|BrowserTests'
lane() {  # lane NAME WIDTH test-bundle-arguments...
    local name=$1 lane_width=$2
    shift 2
    SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$lane_width \
        python3 scripts/test-watchdog.py -- "$bundle" --testing-library swift-testing "$@" 2>&1 | sed -u "s/^/[$name] /"
    return "${PIPESTATUS[0]}"
}
started=$(date +%s)
lane waits "${WAIT_WIDTH:-3}" --filter "$waits" &
waiting=$!
lane cpu "$width" --skip "$waits"
cpu_status=$?
wait "$waiting"
wait_status=$?
echo "test lanes: cpu exit $cpu_status, waits exit $wait_status, wall $(( $(date +%s) - started )) s"
[ "$cpu_status" -eq 0 ] && [ "$wait_status" -eq 0 ]
