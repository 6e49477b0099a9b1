#!/usr/bin/env python3
"""Runs the MM'22 challenge's own simulator and prints its averages as one JSON line.

usage: mmgc-challenge-reference.py CHALLENGE_CHECKOUT POLICY SET USERS

POLICY is no_save or fixed_preload (the challenge's baselines), SET one of high, medium, low, mixed, USERS 0 for the
default user (run.py's own run) or N for users 0..<N of its test_user_samples. The checkout is copied to a
temporary directory first, because the simulator writes logs beside itself. Nothing of the challenge is kept in
Reel: this only imports it. Needs NumPy. Two shims let it run on today's Python and NumPy, neither changing a
number: random.seed gets a plain int where the challenge passes a NumPy integer (Python 3.10 and older hashed it
to the same int; 3.11 refuses it), and numpy.lib.utils, gone in NumPy 2, is stubbed for an unused import.
"""

import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
import types


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[2])
    checkout, policy, trace_set, users = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    if policy not in ("no_save", "fixed_preload"):
        sys.exit(f"policy must be no_save or fixed_preload, not {policy}")
    if trace_set not in ("high", "medium", "low", "mixed"):
        sys.exit(f"set must be high, medium, low or mixed, not {trace_set}")
    if not 0 <= users <= 1001:
        sys.exit(f"users must be 0 (the default user) to 1001 (the seeds test_user_samples draws), not {users}")
    if not os.path.isfile(os.path.join(checkout, "run.py")):
        sys.exit(f"{checkout} has no run.py: give a checkout of AItransCompetition/Short-Video-Streaming-Challenge")

    work = tempfile.mkdtemp(prefix="mmgc-reference-")
    try:
        for name in ("run.py", "simulator", "baseline", "quickstart", "data"):
            source = os.path.join(checkout, name)
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(work, name))
            else:
                shutil.copy(source, work)
        os.makedirs(os.path.join(work, "logs", "sample_user"), exist_ok=True)
        print(json.dumps(run_challenge(work, policy, trace_set, users)))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_challenge(work, policy, trace_set, users):
    seed = random.seed
    random.seed = lambda a=None, version=2: seed(int(a) if hasattr(a, "__index__") else a, version)
    import numpy

    if not hasattr(numpy.lib, "utils"):
        stub = types.ModuleType("numpy.lib.utils")
        stub._split_line = None
        sys.modules["numpy.lib.utils"] = stub
    os.chdir(work)
    sys.path.insert(0, work)
    sys.argv = ["run.py"]
    baseline = policy == "no_save"
    per_trace_set = []
    with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
        import run

        original = run.test_all_traces

        def recording(*args):
            averages = original(*args)
            per_trace_set.append([float(x) for x in averages])
            return averages

        run.test_all_traces = recording
        if users == 0:
            run.test_all_traces(baseline, not baseline, policy, trace_set, 0)
        else:
            run.test_user_samples(baseline, not baseline, policy, trace_set, users)
    columns = list(zip(*per_trace_set))
    mean = [sum(column) / len(column) for column in columns]
    return {
        "policy": policy,
        "set": trace_set,
        "users": users if users else "sample0",
        "score": mean[0],
        "bytes_downloaded": mean[1],
        "qoe": mean[2],
        "wasted_bytes": mean[3],
        "download_watch_ratio": mean[4],
    }


if __name__ == "__main__":
    main()
