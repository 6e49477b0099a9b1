#!/usr/bin/env python3
"""`make bench`: runs the benchmarks through one harness and writes their figures to docs/benchmarks.md.

Each scripts/bench-NAME.sh runs Reel and its reference tool in the same run and prints its figures as
`BENCH-RESULT {json}` lines (scripts/lib/bench_result.py, or `bench_result` from scripts/lib/bench.sh), beside its own
detailed tables. The harness gives every bench the same set-up (the release binary, a shared clip cache in
$REEL_BENCH_CLIPS so a clip is made once, the checkout as working directory), accounts for the machine's CPU while
each bench runs (/proc/stat: how busy both cores were, and how much was stolen by the hypervisor, which makes a run
worth less), and writes one table, "Latest figures", between the markers in docs/benchmarks.md: for each figure Reel,
the reference, the ratio, the date, the commit and the machine. Rows of benches that did not run this time are kept.

Usage: bench_harness.py REEL [NAME...]   (NAME: `feed` for scripts/bench-feed.sh; none: every bench)
"""
import datetime
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
BEGIN = "<!-- bench-harness:begin (written by `make bench`; edit scripts/lib/bench_harness.py, not this table) -->"
END = "<!-- bench-harness:end -->"
HEADER = ("| bench | figure | Reel | reference | Reel / reference | date (UTC) | commit | machine while it ran |\n"
          "|---|---|---|---|---|---|---|---|")
RESULT = re.compile(r"^BENCH-RESULT (\{.*\})\s*$")


def available():
    names = [f[len("bench-"):-len(".sh")] for f in os.listdir(os.path.join(ROOT, "scripts"))
             if f.startswith("bench-") and f.endswith(".sh")]
    return sorted(names)


def cpu_times():
    """(busy, steal, total) jiffies of all cores since boot."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    busy = user + nice + system + irq + softirq
    return busy, steal, busy + idle + iowait + steal


def commit():
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    # The table's own page does not count: an earlier bench of the same run has just written it.
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no", "--", ".",
                            ":!docs/benchmarks.md"], capture_output=True, text=True)
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def number(value):
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 10:
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return f"{value:.3g}"


def row(result, when, revision, machine):
    reel, reference = result["reel"], result["reference"]
    ratio = f"{reel / reference:.2f}×" if reference else "n/a (reference 0)"
    direction = {"higher": "higher is better", "lower": "lower is better", "closer": "1.00× is exact"}[result["better"]]
    unit = result["unit"]
    cells = [result["bench"], result["measure"], f"{number(reel)} {unit}",
             f"{result['reference_name']}: {number(reference)} {unit}", f"{ratio} ({direction})", when, revision,
             machine]
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def run(reel, name, clips):
    """Runs one bench; returns (status, results, machine) with its output streamed through."""
    script = os.path.join(ROOT, "scripts", f"bench-{name}.sh")
    env = dict(os.environ, REEL_BENCH_CLIPS=clips, REEL_BENCH_HARNESS="1")
    busy0, steal0, total0 = cpu_times()
    started = time.monotonic()
    results = []
    with subprocess.Popen(["bash", script, reel], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
                          bufsize=1) as process:
        for line in process.stdout:
            sys.stdout.write(line)
            match = RESULT.match(line)
            if match:
                results.append(dict(json.loads(match.group(1)), bench=name))
        status = process.wait()
    busy1, steal1, total1 = cpu_times()
    seconds = time.monotonic() - started
    span = max(total1 - total0, 1)
    cores = os.cpu_count()
    machine = (f"{cores} cores, {100 * (busy1 - busy0) / span:.0f} % busy, {100 * (steal1 - steal0) / span:.1f} % "
               f"stolen, {seconds:.0f} s")
    return status, results, machine


def read_table():
    with open(DOC) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{DOC} has no harness markers ({BEGIN!r} ... {END!r})")
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    rows = [line for line in body.splitlines() if line.startswith("| ") and not line.startswith("| bench |")]
    return head, rows, tail


def write_table(fresh):
    """Replaces the rows of every bench in `fresh` (name -> rows), keeping the others, in bench order."""
    head, rows, tail = read_table()
    kept = [r for r in rows if r.split(" | ")[0][2:] not in fresh]
    merged = kept + [r for name in fresh for r in fresh[name]]
    merged.sort(key=lambda r: r.split(" | ")[0])
    with open(DOC, "w") as f:
        f.write(head + BEGIN + "\n" + HEADER + "\n" + "\n".join(merged) + "\n" + END + tail)


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    reel = os.path.abspath(argv[1])
    names = [n for arg in argv[2:] for n in re.split(r"[,\s]+", arg) if n]
    known = available()
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"no such bench: {', '.join(unknown)} (there are: {', '.join(known)})")
    if not os.access(reel, os.X_OK):
        raise SystemExit(f"{reel} is not an executable reel binary (make release builds it)")
    clips = os.environ.get("REEL_BENCH_CLIPS") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "reel-bench", "clips")
    os.makedirs(clips, exist_ok=True)
    read_table()  # the markers are there before an hour of benches
    revision = commit()
    failed, fresh = [], {}
    for name in names or known:
        print(f"\n## bench-{name}.sh ({datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC)", flush=True)
        status, results, machine = run(reel, name, clips)
        when = f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M}"
        if status != 0:
            failed.append(f"{name} (exit {status})")
            continue
        if not results:
            print(f"bench-{name}.sh printed no figure (skipped: a tool it needs is missing?)", flush=True)
            continue
        fresh[name] = [row(r, when, revision, machine) for r in results]
        write_table({name: fresh[name]})
        print(f"bench-{name}.sh: {len(results)} figures written to docs/benchmarks.md ({machine})", flush=True)
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
