#!/usr/bin/env bash
# `make release`'s last step: the release binary carries no test switch (issue 29). Fault injection, kill points, a
# job's acted-out faults and the synthetic frames compile only into debug builds (REEL_TEST_HOOKS, Package.swift);
# the claim benchmark lives in reel-bench; the test-support modules (Tests/Support: MediaFixtures, TestServers,
# TestTraits) are linked by test targets only, and their module names show in any symbol of theirs. A name from that
# code found by `strings` fails the build.
set -euo pipefail
binary=${1:?usage: check-release-switches.sh BINARY}
found=0
for name in REEL_FAULT_INJECTION "fault injection" "injected at" job-crash job-hang job-transient job-disk-full job-sandbox-probe \
            probe-escaped after-staging after-rename after-commit hash-upload create-staging publish-outputs bench-claims \
            fillTestPattern MediaFixtures TestServers TestTraits; do
    if strings "$binary" | grep -qF -- "$name"; then
        echo "check-release-switches: '$name' is in $binary: test-only code reached the release build" >&2
        found=1
    fi
done
exit $found
