#!/usr/bin/env python3
"""Runs `swift test` (or any command) under a watchdog, so a hung test fails CI with a diagnosis instead of a timeout.

A test that deadlocks (a blocked cooperative-pool thread, a lost continuation, a child process nobody reaps) makes
`swift test` go silent until the CI job's own limit kills it, and the log then says nothing about which test hung or
where. This watchdog streams the command's stdout and stderr through unchanged, remembers when it last printed
anything, and keeps track of which tests are in flight: precisely from Swift Testing's JSON event stream (which it
asks `swift test` to write with `--event-stream-output-path FILE --event-stream-version 0`), and otherwise from the
console lines (`◇ Test foo() started.`, `✔ Test foo() passed after 0.1 seconds.`, XCTest's `Test Case '…' started`).

When nothing has happened for --silence seconds (default 300, or $REEL_TEST_SILENCE_SECONDS) it prints the tests
in flight and how long each has run, lists the command's process tree, dumps every thread of the test processes
with gdb, ends the test processes (so `swift test` prints the console lines it was holding), then the whole process
group (SIGTERM, then SIGKILL after 10 s) and any descendant that left the group, and exits 124. Otherwise it exits
with the command's status (128 + signal when a signal ended it). SIGINT, SIGTERM and SIGHUP are forwarded to the
command's process group. At the end it prints the recorded failures and the start of any crash report again (CI keeps
only the end of a long log, and a crash report's list of loaded images alone fills it), then one line with the wall
time and the slowest tests.

"Nothing has happened" means no byte on stdout or stderr and no new record in the event stream. The event stream
has to count: when its stdout is a pipe (CI), `swift test` 6.3 holds back the test process's console output until
that process ends, so a Swift Testing run that takes ten minutes is ten minutes of console silence.

Tests also announce their bounded waits (MediaFixtures' `TestWaits`, in the file named by $REEL_TEST_WAITS, which the
watchdog sets): a wait's start and end count as something happening, and while an announced wait is within its bound
(plus --wait-grace, 30 s) the watchdog holds off, because a test may rightly wait longer than the silence on a loaded machine. A
test that hangs outside any announced wait, or inside one past its bound, is still caught, and the report names the
waits still open.

Usage: scripts/test-watchdog.py [--silence SECONDS] [--event-stream PATH|auto|none] -- swift test [args...]
"""
import argparse
import ctypes
import json
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TIMEOUT_STATUS = 124
PARTIAL_LINE_FLUSH_SECONDS = 0.2
DRAIN_AFTER_EXIT_SECONDS = 5.0
REAP_EVERY_SECONDS = 5.0
STREAM_FLAGS = ("--event-stream-output-path", "--experimental-event-stream-output")
ANSI_ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")
# Swift Testing's console lines (Event.HumanReadableOutputRecorder): "<symbol> Test <name> started." and
# "<symbol> Test <name> passed after 0.001 seconds[ with 1 known issue]." / "... failed after ...".
# The symbol is a Unicode glyph here (◇ ✔ ✘ ↳ …); any short token is accepted, so other symbol sets parse too.
SWIFT_TESTING_STARTED = re.compile(r"^\S{1,4}\s+(Test|Suite)\s+(.+?)\s+started\.$")
SWIFT_TESTING_ENDED = re.compile(r"^\S{1,4}\s+(Test|Suite)\s+(.+?)\s+(passed|failed) after ([0-9.]+) seconds?(?: with .*)?\.$")
SWIFT_TESTING_SKIPPED = re.compile(r"^\S{1,4}\s+(Test|Suite)\s+(.+?)\s+skipped(?:\.|:.*)$")
XCTEST_STARTED = re.compile(r"^Test Case '(.+?)' started")
XCTEST_ENDED = re.compile(r"^Test Case '(.+?)' (passed|failed|skipped) \(([0-9.]+) seconds\)")
TEST_RUNNER = re.compile(r"(\.xctest|PackageTests|-test-runner)$")
# A crash report from the Swift runtime's backtracer (or a fatal error before it), and Swift Testing's failures: CI
# keeps only the end of a long log, so they are printed again after everything else.
CRASH_START = re.compile(r"(Fatal error|Precondition failed|Assertion failed|Program crashed|SWIFT TASK CONTINUATION MISUSE"
                         r"|Thread \d+ crashed|Segmentation fault|Illegal instruction|Bus error)")
CRASH_LINES = 40
FAILURE_LINE = re.compile(r"^\S{1,4}\s+(Test|Suite) .* (recorded an issue|failed after)")
FAILURES_KEPT = 60


def log(message):
    try:
        sys.stderr.write(f"watchdog: {message}\n")
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        pass


# MARK: - Tracking tests in flight

class ConsoleTracker:
    """Follows the console lines; knows only the test function's name, so same-named tests share a slot."""

    def __init__(self):
        self.in_flight = {}   # name -> [start times]
        self.finished = []    # (seconds, name)
        self.saw_swift_testing = False

    def feed(self, line):
        text = line.strip()
        if re.match(r"^\S{1,4}\s+Test run( with .*)? (started|passed|failed)", text):
            return   # "◇ Test run started.", "✔ Test run with 3 tests in 1 suite passed after …": the whole run
        if match := SWIFT_TESTING_STARTED.match(text):
            self.saw_swift_testing = True
            self._start(self._name(match.group(1), match.group(2)))
        elif match := SWIFT_TESTING_ENDED.match(text):
            self.saw_swift_testing = True
            self._end(self._name(match.group(1), match.group(2)), float(match.group(4)))
        elif match := SWIFT_TESTING_SKIPPED.match(text):
            self._end(self._name(match.group(1), match.group(2)), None)
        elif match := XCTEST_STARTED.match(text):
            self._start("XCTest " + match.group(1))
        elif match := XCTEST_ENDED.match(text):
            self._end("XCTest " + match.group(1), float(match.group(3)))

    @staticmethod
    def _name(title, name):
        return name if title == "Test" else f"{name} (suite)"

    def _start(self, name):
        self.in_flight.setdefault(name, []).append(time.time())

    def _end(self, name, seconds):
        starts = self.in_flight.get(name)
        if starts:
            starts.pop(0)
            if not starts:
                del self.in_flight[name]
        if seconds is not None and not name.endswith("(suite)"):
            self.finished.append((seconds, name))

    def running(self, now, xctest_only=False):
        return [(now - start, name) for name, starts in self.in_flight.items() for start in starts
                if not xctest_only or name.startswith("XCTest ")]


class EventStreamTracker:
    """Tails the JSON-lines event stream Swift Testing writes: full test IDs and exact start and end instants."""

    def __init__(self, path, findings=None):
        self.path = path
        self.findings = findings
        self.offset = 0
        self.inode = None
        self.partial = b""
        self.tests = {}       # id -> {"name", "displayName", "kind"}
        self.in_flight = {}   # id -> (since1970, absolute)
        self.finished = []    # (seconds, id)
        self.events = 0

    def poll(self):
        """Reads what was appended since the last call; True when there was something."""
        try:
            status = os.stat(self.path)
        except OSError:
            return False
        if status.st_ino != self.inode or status.st_size < self.offset:   # recreated or truncated by a new run
            self.inode, self.offset, self.partial = status.st_ino, 0, b""
        if status.st_size == self.offset:
            return False
        with open(self.path, "rb") as stream:
            stream.seek(self.offset)
            data = stream.read()
        self.offset += len(data)
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            self._record(line)
        return True

    def _record(self, line):
        try:
            record = json.loads(line)
        except ValueError:
            return
        payload = record.get("payload") or {}
        if record.get("kind") == "test":
            self.tests[payload.get("id")] = payload
            return
        if record.get("kind") != "event":
            return
        kind, test_id = payload.get("kind"), payload.get("testID")
        instant = payload.get("instant") or {}
        if kind == "issueRecorded" and self.findings is not None and not (payload.get("issue") or {}).get("isKnown"):
            # The console's copy of this line is held back while `swift test` writes to a pipe, and lost with a hang.
            text = " ".join(message.get("text", "") for message in payload.get("messages") or [])
            self.findings.record_issue(f"{self.describe(test_id) if test_id else 'the run'}: {text}")
        if kind == "testStarted" and test_id:
            self.events += 1
            self.in_flight[test_id] = (instant.get("since1970", time.time()), instant.get("absolute"))
        elif kind in ("testEnded", "testSkipped") and test_id:
            self.events += 1
            started = self.in_flight.pop(test_id, None)
            if kind == "testEnded" and started and not self.is_suite(test_id):
                self.finished.append((self._seconds(started, instant), test_id))

    @staticmethod
    def _seconds(started, instant):
        if started[1] is not None and instant.get("absolute") is not None:
            return instant["absolute"] - started[1]
        return instant.get("since1970", time.time()) - started[0]

    def is_suite(self, test_id):
        return (self.tests.get(test_id) or {}).get("kind") == "suite"

    def describe(self, test_id):
        """`Module.Suite/test()` plus its display name and source location, from the test's full ID."""
        test = self.tests.get(test_id) or {}
        name, _, location = test_id.rpartition("/")
        if not re.fullmatch(r"[^/]+\.swift:\d+:\d+", location):
            name, location = test_id, ""
        text = name
        if test.get("displayName"):
            text += f' "{test["displayName"]}"'
        if self.is_suite(test_id):
            text += " (suite)"
        return text + (f" ({location})" if location else "")

    def running(self, now):
        return [(now - since1970, self.describe(test_id)) for test_id, (since1970, _) in self.in_flight.items()]


class Findings:
    """The lines worth repeating at the end: the start of each crash report and the recorded failures."""

    def __init__(self):
        self.crash = []          # lines of crash reports, each report at most CRASH_LINES long
        self.crash_budget = 0    # lines still to keep of the report being read
        self.failures = []
        self.issues = []         # from the event stream

    def record_issue(self, text):
        if len(self.issues) < FAILURES_KEPT:
            self.issues.append(text[:2000])

    def feed(self, text):
        if CRASH_START.search(text) and len(self.crash) < 4 * CRASH_LINES:
            self.crash_budget = max(self.crash_budget, CRASH_LINES)
        if self.crash_budget > 0:
            self.crash.append(text[:300])
            self.crash_budget -= 1
        if FAILURE_LINE.match(text) and len(self.failures) < FAILURES_KEPT:
            self.failures.append(text[:300])

    def print(self):
        if self.issues:
            log(f"issues recorded (event stream, {len(self.issues)}{'+' if len(self.issues) == FAILURES_KEPT else ''}):")
            sys.stderr.write("".join(f"  {line}\n" for line in self.issues))
        if self.failures:
            log(f"failures ({len(self.failures)}{'+' if len(self.failures) == FAILURES_KEPT else ''}), again:")
            sys.stderr.write("".join(f"  {line}\n" for line in self.failures))
        if self.crash:
            log("a process crashed; the start of its report, again:")
            sys.stderr.write("".join(f"  {line}\n" for line in self.crash))
        sys.stderr.flush()


class Tracker:
    """Prefers the event stream once it has reported anything; XCTest tests only ever come from the console."""

    def __init__(self, stream_path):
        self.console = ConsoleTracker()
        self.findings = Findings()
        self.stream = EventStreamTracker(stream_path, self.findings) if stream_path else None

    def using_stream(self):
        return self.stream is not None and self.stream.events > 0

    def running(self):
        now = time.time()
        if self.using_stream():
            return sorted(self.stream.running(now) + self.console.running(now, xctest_only=True), reverse=True)
        return sorted(self.console.running(now), reverse=True)

    def finished(self):
        if self.using_stream():
            xctest = [item for item in self.console.finished if item[1].startswith("XCTest ")]
            return [(seconds, self.stream.describe(test_id)) for seconds, test_id in self.stream.finished] + xctest
        return list(self.console.finished)


# MARK: - The event stream

def is_swift_test(command):
    """`swift test …`, `/opt/swift/usr/bin/swift test …`, `swift-test …`, or the test bundle `swift test` runs."""
    program = os.path.basename(command[0])
    return (program == "swift-test" or (program == "swift" and len(command) > 1 and command[1] == "test")
            or program.endswith(".xctest"))


def stream_flag_names(command):
    """The event-stream flags this toolchain's `swift test` takes, from its hidden help; None when it has none. The
    test bundle itself (`.build/debug/*.xctest`, which `swift test` runs) takes the same flags as its `swift test`."""
    swift = command[0] if os.path.basename(command[0]) == "swift" else shutil.which("swift") or "swift"
    try:
        result = subprocess.run([swift, "test", "--help-hidden"], capture_output=True, text=True, timeout=60,
                                stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if "--event-stream-output-path" in result.stdout:
        return "--event-stream-output-path", "--event-stream-version"
    if "--experimental-event-stream-output" in result.stdout:
        return "--experimental-event-stream-output", "--experimental-event-stream-version"
    return None


def existing_stream_path(command):
    for index, argument in enumerate(command):
        for flag in STREAM_FLAGS:
            if argument == flag and index + 1 < len(command):
                return command[index + 1]
            if argument.startswith(flag + "="):
                return argument.split("=", 1)[1]
    return None


def prepare_event_stream(command, choice):
    """Returns (command, path to tail or None, temporary folder to remove or None)."""
    if choice == "none" or not is_swift_test(command):
        return command, None, None
    if path := existing_stream_path(command):
        return command, path, None
    flags = stream_flag_names(command)
    if flags is None:
        log("this `swift test` has no event-stream option; following the console lines only")
        return command, None, None
    folder = None
    if choice == "auto":
        folder = tempfile.mkdtemp(prefix="test-watchdog-")
        path = os.path.join(folder, "events.jsonl")
    else:
        path = os.path.abspath(choice)
    after_test = 2 if os.path.basename(command[0]) == "swift" else 1
    injected = [flags[0], path, flags[1], "0"]
    return command[:after_test] + injected + command[after_test:], path, folder


# MARK: - Processes

def read_stat(pid):
    """(ppid, pgid, start time in clock ticks after boot, state) from /proc/PID/stat, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[1]), int(fields[2]), int(fields[19]), fields[0]
    except (OSError, IndexError, ValueError):
        return None


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def executable(pid):
    try:
        return os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return command_line(pid).split(" ", 1)[0]


def descendants(root, excluded=()):
    """Every process below root, parents first, walking /proc (root itself not included)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := read_stat(int(entry))):
            children.setdefault(stat[0], []).append(int(entry))
    found, queue = [], list(children.get(root, []))
    while queue:
        pid = queue.pop(0)
        if pid in excluded:
            continue
        found.append(pid)
        queue.extend(children.get(pid, []))
    return found


def elapsed_seconds(start_ticks):
    with open("/proc/uptime") as uptime:
        return float(uptime.read().split()[0]) - start_ticks / os.sysconf("SC_CLK_TCK")


def print_process_tree(pids):
    log(f"process tree ({len(pids)} processes):")
    sys.stderr.write(f"  {'PID':>7} {'PPID':>7} {'ELAPSED':>9}  COMMAND\n")
    for pid in pids:
        if stat := read_stat(pid):
            sys.stderr.write(f"  {pid:>7} {stat[0]:>7} {elapsed_seconds(stat[2]):>8.1f}s  {command_line(pid)[:400]}\n")
    sys.stderr.flush()


def is_test_runner(pid):
    """…PackageTests.xctest, by its executable or (for a script) by one of its first two arguments."""
    names = [executable(pid)] + command_line(pid).split(" ")[:2]
    return any(TEST_RUNNER.search(name) for name in names)


def test_processes(pids):
    """The test runners among pids (…PackageTests.xctest); without any, the leaves of the tree."""
    runners = [pid for pid in pids if is_test_runner(pid)]
    if runners:
        return runners
    parents = {stat[0] for pid in pids if (stat := read_stat(pid))}
    return [pid for pid in pids if pid not in parents]


def dump_threads(pid, timeout):
    gdb = shutil.which("gdb")
    log(f"threads of {pid} ({command_line(pid)[:200]}):")
    if gdb is None:
        log("gdb is not installed; no thread dump")
        return
    command = [gdb, "-batch", "-nx", "-p", str(pid), "-ex", "set pagination off", "-ex", "info threads",
               "-ex", "thread apply all bt"]
    try:
        result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
                                errors="replace")
        sys.stderr.write(result.stdout)
        if "Thread " not in result.stdout:   # attaching failed (no ptrace permission, or the process is gone)
            sys.stderr.write(result.stderr[-2000:])
    except subprocess.TimeoutExpired:
        log(f"gdb on {pid} did not finish in {timeout:.0f} s")
    sys.stderr.flush()


def become_subreaper():
    """Orphaned descendants (a daemonised server a test started) then stay below this process, where /proc finds them."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def reap_strays(main_pid):
    """Collects exited orphans that the subreaper inherited, never the main child (Popen waits for that one)."""
    for pid in descendants(os.getpid()):
        # One read: a process can exit between two (a quiet clean-clone run lost its watchdog to that).
        if pid != main_pid and (stat := read_stat(pid)) and stat[0] == os.getpid():
            try:
                os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                pass


def lingering(main_pid, patience=1.0):
    """Descendants still alive (not zombies) once the command has exited, after a moment to finish dying."""
    deadline = time.monotonic() + patience
    while True:
        reap_strays(main_pid)
        alive = [pid for pid in descendants(os.getpid(), {os.getpid()}) if (read_stat(pid) or "ZZZZ")[3] != "Z"]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.1)


def signal_all(group, pids, number):
    if group is not None:
        try:
            os.killpg(group, number)
        except ProcessLookupError:
            pass
    for pid in pids:
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            pass


def terminate(child, grace):
    """SIGTERM to the group and to every descendant (also those that left it), SIGKILL to what remains after grace."""
    excluded = {os.getpid()}
    pids = descendants(os.getpid(), excluded)
    signal_all(child.pid, pids, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        reap_strays(child.pid)
        if child.poll() is not None and not descendants(os.getpid(), excluded):
            return
        time.sleep(0.1)
    remaining = descendants(os.getpid(), excluded)
    if remaining or child.poll() is None:
        log(f"still running after {grace:.0f} s; SIGKILL to {len(remaining)} processes")
    signal_all(child.pid, remaining, signal.SIGKILL)
    child.wait()
    time.sleep(0.1)
    reap_strays(child.pid)


# MARK: - Running

class Passthrough:
    """Copies one pipe to one of our streams line by line, and hands each line to the tracker."""

    def __init__(self, pipe, out, tracker):
        self.pipe, self.out, self.tracker = pipe, out, tracker
        self.open = True
        self.pending = b""
        self.pending_since = None

    def feed(self, data):
        lines = (self.pending + data).split(b"\n")
        self.pending = lines.pop()
        self.pending_since = time.monotonic() if self.pending else None
        for line in lines:
            text = ANSI_ESCAPE.sub(b"", line).decode("utf-8", errors="replace")
            self.tracker.console.feed(text)
            self.tracker.findings.feed(text)
        self._write(b"".join(line + b"\n" for line in lines))

    def flush_partial(self, force=False):
        """A prompt or progress text without a newline still shows up, a moment later."""
        if self.pending and (force or time.monotonic() - self.pending_since >= PARTIAL_LINE_FLUSH_SECONDS):
            self._write(self.pending)
            self.pending, self.pending_since = b"", None

    def _write(self, data):
        """A closed reader (`| head`) must not kill the watchdog and leave the tests running unwatched."""
        if self.out is None or not data:
            return
        try:
            self.out.write(data)
            self.out.flush()
        except (BrokenPipeError, ValueError):
            self.out = None


def forward_signals(holder):
    """Installed before the child starts, so it runs with default handlers even where ours were ignored (`cmd &`).
    The first SIGINT/SIGTERM/SIGHUP is passed on to the command's process group; a second one becomes SIGKILL."""
    received = []

    def forward(number, _frame):
        received.append(number)
        if not holder:
            sys.exit(128 + number)
        sent = signal.SIGKILL if len(received) > 1 else number
        log(f"got signal {number}; sending {sent} to the command's process group")
        try:
            os.killpg(holder[0].pid, sent)
        except ProcessLookupError:
            pass
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, forward)


class BoundedWaits:
    """Tails the waits file: lines `ID<TAB>DEADLINE<TAB>WHAT` (Unix seconds) when a wait starts, `ID<TAB>done` when
    it ends."""
    def __init__(self, path, grace):
        self.path = path
        self.grace = grace
        self.offset = 0
        self.partial = b""
        self.open = {}   # id -> (deadline, what)

    def poll(self):
        """Reads new lines; True when there were any."""
        try:
            with open(self.path, "rb") as waits:
                waits.seek(self.offset)
                data = waits.read()
        except FileNotFoundError:
            return False
        if not data:
            return False
        self.offset += len(data)
        lines = (self.partial + data).split(b"\n")
        self.partial = lines.pop()
        for line in lines:
            fields = line.decode("utf-8", "replace").split("\t")
            if len(fields) == 2 and fields[1] == "done":
                self.open.pop(fields[0], None)
            elif len(fields) == 3:
                try:
                    self.open[fields[0]] = (float(fields[1]), fields[2])
                except ValueError:
                    pass
        return True

    def within_bounds(self, now):
        """The open waits still within their bound (plus the grace), latest deadline first."""
        return sorted(((deadline, what) for deadline, what in self.open.values()
                       if now <= deadline + self.grace), reverse=True)


def pump(child, passthroughs, tracker, silence, deadline=None, waits=None):
    """Streams output until the child exits (returns True), or nothing happens for `silence` seconds or the
    deadline passes (returns False). A record in the event stream counts as output: when its stdout is a pipe,
    `swift test` holds back the test process's console lines until that process ends, so during a long Swift
    Testing run the event stream is the only sign of life."""
    selector = selectors.DefaultSelector()
    for passthrough in passthroughs:
        if passthrough.open:
            os.set_blocking(passthrough.pipe.fileno(), False)
            selector.register(passthrough.pipe, selectors.EVENT_READ, passthrough)
    last_output = time.monotonic()
    exited_at = None
    last_reap = time.monotonic()
    while True:
        if time.monotonic() - last_reap >= REAP_EVERY_SECONDS:
            # Orphans that exit are this subreaper's to collect; otherwise a long run piles up hundreds of zombies.
            reap_strays(child.pid)
            last_reap = time.monotonic()
        for key, _ in selector.select(timeout=0.1 if exited_at else 0.5):   # epoll: fine with nothing registered
            data = os.read(key.fileobj.fileno(), 65536)
            if data:
                key.data.feed(data)
                last_output = time.monotonic()
            else:
                selector.unregister(key.fileobj)
                key.data.open = False
                key.data.flush_partial(force=True)
        for passthrough in passthroughs:
            passthrough.flush_partial()
        if tracker.stream and tracker.stream.poll():
            last_output = time.monotonic()
        if waits and waits.poll():
            last_output = time.monotonic()
        if exited_at is None and child.poll() is not None:
            exited_at = time.monotonic()
        if exited_at is not None and (not selector.get_map()
                                      or time.monotonic() - exited_at > DRAIN_AFTER_EXIT_SECONDS):
            break   # after the exit, a leftover grandchild may hold the pipes open; do not wait for it
        silent = time.monotonic() - last_output >= silence
        if silent and waits and waits.within_bounds(time.time()):
            silent = False   # a test is in a wait it announced, and within its bound
        if exited_at is None and (silent or (deadline is not None and time.monotonic() >= deadline)):
            break
    for passthrough in passthroughs:
        passthrough.flush_partial(force=True)
    selector.close()
    return exited_at is not None


def stop_test_runners(child, passthroughs, tracker, runners, grace):
    """SIGTERM to the test processes alone first: `swift test` then prints the console lines it was holding back
    (which tests passed, which issues were recorded) before the rest of the group is ended."""
    if not runners:
        return
    signal_all(None, runners, signal.SIGTERM)
    pump(child, passthroughs, tracker, silence=min(grace, 5), deadline=time.monotonic() + grace)


def report_hang(child, tracker, silence, gdb_timeout, waits=None):
    """The banner, the process tree and the thread dumps; returns the test runner processes."""
    running = tracker.running()
    listed = "; ".join(f"{name} ({seconds:.1f} s)" for seconds, name in running) or "none known"
    sys.stderr.write("\n" + "=" * 100 + "\n")
    log(f"no output for {silence:g} s; tests in flight: {listed}")
    for seconds, name in running:
        sys.stderr.write(f"  {seconds:9.1f} s  {name}\n")
    if waits and waits.open:
        now = time.time()
        log(f"announced waits still open ({len(waits.open)}), none within its bound:")
        for deadline, what in sorted(waits.open.values()):
            sys.stderr.write(f"  {what}: its bound passed {now - deadline:.1f} s ago\n")
    if tracker.stream:
        sys.stderr.write(f"  (event stream: {tracker.stream.path})\n")
    pids = descendants(os.getpid(), {os.getpid()})
    print_process_tree(pids)
    targets = test_processes(pids)
    log(f"dumping threads of {len(targets)} test process(es): {' '.join(map(str, targets))}")
    for pid in targets:
        dump_threads(pid, gdb_timeout)
    sys.stderr.write("=" * 100 + "\n")
    sys.stderr.flush()
    return [pid for pid in targets if is_test_runner(pid)]


def print_summary(started, tracker, count):
    slowest = sorted(tracker.finished(), reverse=True)[:count]
    tests = ", ".join(f"{name} {seconds:.2f} s" for seconds, name in slowest) or "none recorded"
    log(f"wall time {time.monotonic() - started:.1f} s; slowest {len(slowest)} tests: {tests}")


def exit_status(returncode):
    return 128 - returncode if returncode < 0 else returncode


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default_silence = float(os.environ.get("REEL_TEST_SILENCE_SECONDS") or 300)
    parser.add_argument("--silence", type=float, default=default_silence,
                        help="seconds without output before the watchdog acts (default: %(default)g)")
    parser.add_argument("--event-stream", default="auto", metavar="PATH|auto|none",
                        help="where `swift test` writes its JSON event stream (auto: a temporary file)")
    parser.add_argument("--wait-grace", type=float, default=30,
                        help="seconds past an announced wait's bound before it no longer holds the watchdog off")
    parser.add_argument("--gdb-timeout", type=float, default=120, help="seconds allowed for each gdb (default 120)")
    parser.add_argument("--kill-grace", type=float, default=10, help="seconds between SIGTERM and SIGKILL")
    parser.add_argument("--slowest", type=int, default=10, help="how many of the slowest tests to list at the end")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- the command to run")
    arguments = parser.parse_args(argv)
    if arguments.command and arguments.command[0] == "--":
        arguments.command = arguments.command[1:]
    if not arguments.command:
        parser.error("no command given (put it after --)")
    return arguments


def main(argv):
    arguments = parse_arguments(argv)
    command, stream_path, stream_folder = prepare_event_stream(arguments.command, arguments.event_stream)
    tracker = Tracker(stream_path)
    if stream_path and os.path.exists(stream_path) and stream_folder is None:
        os.truncate(stream_path, 0)   # a stale file from an earlier run would report its tests as in flight
    become_subreaper()
    started = time.monotonic()
    holder = []
    forward_signals(holder)
    waits_folder = tempfile.mkdtemp(prefix="reel-test-waits-")
    waits = BoundedWaits(os.path.join(waits_folder, "waits"), arguments.wait_grace)
    environment = dict(os.environ, REEL_TEST_WAITS=waits.path)
    try:
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 process_group=0, env=environment)
    except OSError as error:
        log(f"cannot start {command[0]}: {error}")
        shutil.rmtree(waits_folder, ignore_errors=True)
        return 127
    holder.append(child)
    passthroughs = [Passthrough(child.stdout, sys.stdout.buffer, tracker),
                    Passthrough(child.stderr, sys.stderr.buffer, tracker)]
    try:
        if pump(child, passthroughs, tracker, arguments.silence, waits=waits):
            status = exit_status(child.wait())
            strays = lingering(child.pid)
            if strays:
                log(f"{len(strays)} processes outlived the command; ending them")
                print_process_tree(strays)
                terminate(child, arguments.kill_grace)
        else:
            runners = report_hang(child, tracker, arguments.silence, arguments.gdb_timeout, waits)
            stop_test_runners(child, passthroughs, tracker, runners, arguments.kill_grace)
            terminate(child, arguments.kill_grace)
            log(f"killed the command after {arguments.silence:g} s of silence; exiting {TIMEOUT_STATUS}")
            status = TIMEOUT_STATUS
        if tracker.stream:
            tracker.stream.poll()
        tracker.findings.print()
        print_summary(started, tracker, arguments.slowest)
        return status
    except BaseException:
        signal_all(child.pid, descendants(os.getpid(), {os.getpid()}), signal.SIGKILL)   # never leave it unwatched
        raise
    finally:
        if stream_folder:
            shutil.rmtree(stream_folder, ignore_errors=True)
        shutil.rmtree(waits_folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
