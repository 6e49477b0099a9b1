"""One benchmark figure in the harness's report format, from Python (bench summaries) or the command line.

`result(measure, reel, reference_name, reference, unit, better="higher")` prints a line
`BENCH-RESULT {json}` that scripts/lib/bench_harness.py collects into docs/benchmarks.md: Reel's value and the
reference tool's, measured in the same run. `better` says which way is good ("higher": req/s, MB/s; "lower": seconds,
CPU, bytes; "closer": 1.00× is exact, for a model against what it models), so the harness states every ratio the
same way.
"""
import json
import math
import sys


def result(measure, reel, reference_name, reference, unit, better="higher"):
    if better not in ("higher", "lower", "closer"):
        raise ValueError(f"better must be 'higher', 'lower' or 'closer', not {better!r}")
    reel, reference = float(reel), float(reference)
    if not (math.isfinite(reel) and math.isfinite(reference)):
        raise ValueError(f"{measure}: values must be finite numbers, got {reel} and {reference}")
    record = {"measure": measure, "reel": reel, "reference_name": reference_name,
              "reference": reference, "unit": unit, "better": better}
    print("BENCH-RESULT " + json.dumps(record, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    if len(sys.argv) not in (6, 7):
        sys.exit("usage: bench_result.py MEASURE REEL REFERENCE_NAME REFERENCE UNIT [higher|lower]")
    result(*sys.argv[1:])
