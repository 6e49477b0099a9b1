#!/usr/bin/env python3
"""Drives Reel's web client (GET /) in headless Chromium and prints what happened as one JSON report.

    python3 Tests/Browser/feed_browser.py --url http://127.0.0.1:PORT --out DIR [--players 3] [--page-size 5]

It talks to Debian's Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe), with Python's standard
library only. The scenario: open the page on a 360-pixel phone, wait for the first frame, swipe up by touch, move on
with the arrow keys past the page threshold, go back one item, then open the page on a desktop and turn the wheel.
With --events it plays a session under a shaped link instead (run_events), and with --stats-videos it reads what
the /stats page drew (run_stats), both for ViewerEventsBrowserTests.
It measures and reports; the Swift test (WebClientBrowserTests) decides. Exit 0 = report written, 2 = the harness itself failed.
"""
import argparse, base64, fcntl, json, os, queue, shutil, signal, subprocess, sys, tempfile, threading, time


class BrowserError(Exception):
    pass


class Browser:
    """Chromium with its DevTools pipe: it reads commands on fd 3 and writes replies and events on fd 4."""

    def __init__(self, executable, profile, log_path):
        command_read, self._write = os.pipe()
        self._read, event_write = os.pipe()
        # Move the child's ends out of the way, so placing them on 3 and 4 cannot close one of them.
        child_read = fcntl.fcntl(command_read, fcntl.F_DUPFD, 30)
        child_write = fcntl.fcntl(event_write, fcntl.F_DUPFD, 31)
        os.close(command_read)
        os.close(event_write)

        def place_pipes():
            os.dup2(child_read, 3)
            os.dup2(child_write, 4)

        self.log = open(log_path, "wb")
        # A Chromium left behind by a driver that a timeout killed must not outlive it: a parent-death signal ends it
        # with this driver. (One once spun both cores for 20 minutes at SCHED_FIFO 99, a class it inherited from the
        # test process, whose threads SVT-AV1 had made real time; Reel now opens encoders so that it cannot.)
        confine = ["setpriv", "--pdeathsig", "KILL", "--"] if shutil.which("setpriv") else []
        arguments = confine + [executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
                     f"--user-data-dir={profile}", "--no-first-run", "--no-default-browser-check", "--mute-audio",
                     "--disable-dev-shm-usage", "--disable-extensions", "--disable-component-update", "--disable-sync",
                     "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                     "--hide-scrollbars", "--password-store=basic", "about:blank"]
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                        pass_fds=(3, 4), preexec_fn=place_pipes, start_new_session=True)
        os.close(child_read)
        os.close(child_write)
        self._next_id = 0
        self._lock = threading.Lock()
        self._waiting = {}
        self._listeners = {}
        self._closed = False
        threading.Thread(target=self._read_messages, daemon=True).start()

    def _read_messages(self):
        pending = b""
        while True:
            try:
                chunk = os.read(self._read, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                break
            pending += chunk
            while b"\0" in pending:
                raw, pending = pending.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    slot = self._waiting.pop(message["id"], None)
                    if slot:
                        slot.put(message)
                elif message.get("method") in self._listeners:
                    self._listeners[message["method"]](message.get("params", {}))
        self._closed = True
        for slot in list(self._waiting.values()):
            slot.put({"error": {"message": "the browser closed its pipe"}})

    def on(self, method, listener):
        self._listeners[method] = listener

    def send(self, method, params=None, session=None, timeout=30):
        slot = queue.Queue(maxsize=1)
        with self._lock:
            if self._closed:
                raise BrowserError(f"{method}: the browser closed its pipe")
            self._next_id += 1
            self._waiting[self._next_id] = slot
            message = {"id": self._next_id, "method": method, "params": params or {}}
            if session:
                message["sessionId"] = session
            data = json.dumps(message).encode() + b"\0"
            while data:
                data = data[os.write(self._write, data):]
        try:
            reply = slot.get(timeout=timeout)
        except queue.Empty:
            raise BrowserError(f"{method}: no answer in {timeout} s")
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except BrowserError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self.log.close()


class Page:
    def __init__(self, browser):
        self.browser = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]

    def send(self, method, params=None, timeout=30):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def evaluate(self, expression, timeout=30):
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise BrowserError("page: " + (details.get("exception", {}).get("description") or details.get("text", "")))
        return result.get("result", {}).get("value")

    def snapshot(self):
        return self.evaluate("window.reel ? window.reel.snapshot() : null")

    def wait_for(self, what, predicate, timeout):
        """Polls the page's snapshot until predicate(snapshot) holds; returns that snapshot."""
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            last = self.snapshot()
            if last is not None and predicate(last):
                return last
            time.sleep(0.05)
        raise BrowserError(f"timed out after {timeout} s waiting for {what}; last snapshot: {json.dumps(last)[:3000]}")

    def emulate(self, width, height, mobile):
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 2 if mobile else 1, "mobile": mobile})
        self.send("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5 if mobile else 1})

    def key(self, name, code, key_code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": code,
                                                 "windowsVirtualKeyCode": key_code})

    def swipe_up(self, x, y, distance, steps=15):
        """A finger dragging the page up, as on a phone: touch events at about 60 Hz, then the finger lifts."""
        self.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for step in range(1, steps + 1):
            time.sleep(0.016)
            self.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                                   "touchPoints": [{"x": x, "y": y - distance * step / steps}]})
        self.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def tap(self, x, y):
        self.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        self.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def wheel(self, x, y, delta):
        self.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": delta})

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        return path


def find_chromium():
    for candidate in (os.environ.get("CHROMIUM"), "/usr/lib/chromium/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    raise BrowserError("chromium is not installed: scripts/install-deps.sh test installs it")


def holder(snapshot, item):
    """The pool player that holds `item`, or None."""
    return next((player for player in snapshot["players"] if player["item"] == item), None)


def run(arguments, report):
    profile = tempfile.mkdtemp(prefix="reel-browser-")
    browser = Browser(find_chromium(), profile, os.path.join(arguments.out, "chromium.log"))
    requests, console = {}, []
    max_elements = {"videos": 0, "created": 0}
    try:
        report["browser"] = browser.send("Browser.getVersion")["product"]

        def on_request(params):
            requests[params["requestId"]] = {"url": params["request"]["url"], "at": time.time()}

        def on_response(params):
            requests.setdefault(params["requestId"], {"url": params["response"]["url"]})["status"] = params["response"]["status"]

        def on_failure(params):
            entry = requests.setdefault(params["requestId"], {})
            entry["failed"] = params.get("errorText")
            entry["canceled"] = params.get("canceled", False)

        def on_console(params):
            if params.get("type") in ("error", "assert", "warning"):
                text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
                console.append({"level": params["type"], "text": text[:500]})

        def on_exception(params):
            details = params.get("exceptionDetails", {})
            console.append({"level": "exception",
                            "text": (details.get("exception", {}).get("description") or details.get("text", ""))[:500]})

        def on_log(params):
            entry = params.get("entry", {})
            if entry.get("level") in ("error", "warning"):
                console.append({"level": "log-" + entry["level"], "text": entry.get("text", "")[:500],
                                "url": entry.get("url")})

        for method, listener in (("Network.requestWillBeSent", on_request), ("Network.responseReceived", on_response),
                                 ("Network.loadingFailed", on_failure), ("Runtime.consoleAPICalled", on_console),
                                 ("Runtime.exceptionThrown", on_exception), ("Log.entryAdded", on_log)):
            browser.on(method, listener)

        page = Page(browser)
        for domain in ("Network", "Runtime", "Log", "Page"):
            page.send(domain + ".enable")
        page.send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.emulate(360, 740, mobile=True)

        def track(snapshot):
            max_elements["videos"] = max(max_elements["videos"], snapshot["videoElements"])
            max_elements["created"] = max(max_elements["created"], snapshot["playersCreated"])
            playing = sum(1 for player in snapshot["players"] if player["state"] in ("playing", "waiting"))
            max_elements["playing"] = max(max_elements.get("playing", 0), playing)
            return snapshot

        url = f"{arguments.url}/?players={arguments.players}&pageSize={arguments.page_size}&debug=1"
        if arguments.engine != "auto":
            url += f"&engine={arguments.engine}"
        started = time.time()
        page.send("Page.navigate", {"url": url})
        first = track(page.wait_for("the first video's first frame", lambda s: "0" in s["firstFrameAt"], 20))
        report["engine"] = first["engine"]
        report["firstFrameMs"] = round(first["firstFrameAt"]["0"])
        report["posterShownMs"] = round(first["posterShownAt"]["0"]) if "0" in first["posterShownAt"] else None
        report["wallToFirstFrameMs"] = round((time.time() - started) * 1000)
        time.sleep(0.6)
        report["screenshots"] = {"phone": page.screenshot(os.path.join(arguments.out, "phone.png"))}
        # A tap on the video turns the sound on, and it keeps playing.
        report["mutedBeforeTap"] = first["muted"]
        page.tap(180, 370)
        tapped = track(page.wait_for("the tap to turn the sound on", lambda s: not s["muted"], 10))
        report["afterTap"] = {"muted": tapped["muted"], "current": holder(tapped, 0)}

        # Before the swipe: the next item must already be buffering in a pool player.
        track(page.wait_for("the next item to buffer", lambda s: (holder(s, 1) or {}).get("bufferedSeconds", 0) >= 1.0, 15))
        time.sleep(1.5)  # let the neighbours settle at the buffer their engine keeps
        ready = track(page.snapshot())
        report["beforeSwipe"] = {"next": holder(ready, 1), "players": ready["players"]}
        page.swipe_up(180, 600, 450)
        swiped = track(page.wait_for("item 2 to play after the swipe", lambda s: s["current"] == 1 and "1" in s["firstFrameAt"], 15))
        report["swipe"] = {"how": "touch", "startupMs": round(swiped["firstFrameAt"]["1"] - swiped["becameCurrentAt"]["1"])}
        time.sleep(0.5)
        after = track(page.snapshot())
        report["afterSwipe"] = {"previous": holder(after, 0), "players": after["players"]}

        # Arrow keys down to the page threshold and one past it.
        page_size = arguments.page_size
        report["pageRequestsBeforeThreshold"] = len(after["pageRequests"])
        for target in range(2, page_size - 1):
            page.key("ArrowDown", "ArrowDown", 40)
            snap = track(page.wait_for(f"item {target + 1} to become current", lambda s, t=target: s["current"] == t, 15))
            report.setdefault("steps", []).append({"current": snap["current"], "loaded": snap["loaded"],
                                                    "pageRequests": len(snap["pageRequests"])})
        paged = track(page.wait_for("the second page", lambda s: s["loaded"] > page_size, 15))
        report["pageRequests"] = paged["pageRequests"]
        report["loadedAfterPaging"] = paged["loaded"]

        # And back up: the previous item was kept in the window, so it plays at once.
        back_to = paged["current"] - 1
        page.key("ArrowUp", "ArrowUp", 38)
        back = track(page.wait_for("the previous item to play again", lambda s: s["current"] == back_to and
                                   (holder(s, back_to) or {}).get("state") == "playing", 15))
        report["back"] = {"item": back_to, "player": holder(back, back_to)}

        # The same page opened on a desktop, where the mouse wheel moves between items.
        page.emulate(1280, 800, mobile=False)
        page.send("Page.navigate", {"url": url})
        track(page.wait_for("the first frame on the desktop", lambda s: "0" in s["firstFrameAt"], 20))
        page.wheel(640, 400, 120)
        wheeled = track(page.wait_for("the wheel to move one item down", lambda s: s["current"] == 1 and "1" in s["firstFrameAt"], 15))
        report["wheel"] = {"from": 0, "to": wheeled["current"]}
        # The current item loops at its end (the clips are 8 s long).
        looped = track(page.wait_for("the current item to loop", lambda s: (holder(s, 1) or {}).get("loops", 0) >= 1, 20))
        report["loop"] = holder(looped, 1)
        report["screenshots"]["desktop"] = page.screenshot(os.path.join(arguments.out, "desktop.png"))
        final = track(page.snapshot())
        report["final"] = {key: final[key] for key in ("current", "loaded", "startups", "stalls", "mediaBytes",
                                                       "errors", "engine", "playersCreated", "events",
                                                       "prefetch", "neighbourCaps")}
        report["layout"] = page.evaluate("""(() => {
            const stage = document.querySelector('[aria-current="true"] .stage').getBoundingClientRect();
            return {viewport: [innerWidth, innerHeight], stage: [stage.width, stage.height],
                    feedRole: document.getElementById('feed').getAttribute('role'),
                    labelledItems: document.querySelectorAll('section[aria-label]').length,
                    items: document.querySelectorAll('section.item').length};
        })()""")
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
        report["maxPlaying"] = max_elements.get("playing", 0)
        report["maxVideoElements"] = max_elements["videos"]
        report["playersCreated"] = max_elements["created"]
        report["console"] = console
        report["failedRequests"] = [entry for entry in requests.values() if (entry.get("status") or 0) >= 400
                                    or (entry.get("failed") and not entry.get("canceled"))]
        report["feedRequests"] = [entry["url"] for entry in requests.values() if "/v1/feed" in entry.get("url", "")]


class Link:
    """The viewer's link, shaped by tc tbf on the root namespace's end of its veth (what the server sends it).
    This driver runs inside the viewer's namespace, so tc goes through nsenter into the test's own namespace."""

    def __init__(self, device, namespace):
        self.device, self.namespace = device, namespace
        self.tc = shutil.which("tc") or next((path for path in ("/usr/sbin/tc", "/sbin/tc") if os.path.exists(path)), "tc")
        self.rates = []

    def shape(self, rate):
        command = ["nsenter", f"--net={self.namespace}", self.tc, "qdisc", "replace", "dev", self.device, "root",
                   "tbf", "rate", rate, "burst", "16kb", "latency", "2s"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=20)
        if done.returncode != 0:
            raise BrowserError(f"{' '.join(command)}: exit {done.returncode}: {done.stderr.strip()}")
        self.rates.append({"rate": rate, "at": time.time()})


def run_events(arguments, report):
    """A viewing session under a shaped link, for the viewer-events test: item 1 is watched to its loop, item 2 is
    swiped to while the link is cut to a trickle, so it plays its prefetched seconds and stalls until the link is
    back; item 3 plays; item 4 cannot play (its playlist is missing); item 5 plays, and leaving the page sends
    its view's end by a keepalive fetch. The page's own event counters are reported; the events are the Swift test's to read."""
    link = Link(arguments.shape_device, arguments.shape_netns)
    profile = tempfile.mkdtemp(prefix="reel-browser-")
    browser = Browser(find_chromium(), profile, os.path.join(arguments.out, "chromium-events.log"))
    console = []
    try:
        browser.on("Runtime.exceptionThrown", lambda p: console.append({"level": "exception", "text": str(
            p.get("exceptionDetails", {}).get("exception", {}).get("description", p.get("exceptionDetails")))[:500]}))
        page = Page(browser)
        for domain in ("Runtime", "Page"):
            page.send(domain + ".enable")
        page.emulate(360, 740, mobile=True)
        link.shape(arguments.rate)
        url = f"{arguments.url}/?players=3&pageSize={arguments.page_size}"
        if arguments.engine != "auto":
            url += f"&engine={arguments.engine}"
        page.send("Page.navigate", {"url": url})
        first = page.wait_for("the first video's first frame", lambda s: "0" in s["firstFrameAt"], 90)
        report["engine"] = first["engine"]
        page.wait_for("the next item to buffer", lambda s: (holder(s, 1) or {}).get("bufferedSeconds", 0) >= 1, 60)
        looped = page.wait_for("the first item to loop", lambda s: (holder(s, 0) or {}).get("loops", 0) >= 1, 60)
        report["firstView"] = looped["view"]

        # The trickle, then the swipe: item 2 starts from its prefetched seconds and stalls when they run out.
        link.shape(arguments.slow_rate)
        page.key("ArrowDown", "ArrowDown", 40)
        started = page.wait_for("item 2's first frame", lambda s: s["current"] == 1 and "1" in s["firstFrameAt"], 30)
        report["secondStart"] = {"bufferedSeconds": (holder(started, 1) or {}).get("bufferedSeconds")}
        stalled = page.wait_for("item 2 to stall", lambda s: s["view"] is not None and s["view"]["stalled"], 60)
        stalled_at = time.time()
        report["stalled"] = {"view": stalled["view"], "player": holder(stalled, 1)}
        time.sleep(2)
        link.shape(arguments.rate)
        resumed = page.wait_for("item 2 to play again", lambda s: s["view"] is not None and not s["view"]["stalled"]
                                and (holder(s, 1) or {}).get("state") == "playing", 60)
        report["stallSeconds"] = round(time.time() - stalled_at, 2)
        report["resumed"] = {"view": resumed["view"], "stalls": resumed["stalls"]}
        time.sleep(1)

        page.key("ArrowDown", "ArrowDown", 40)
        page.wait_for("item 3's first frame", lambda s: s["current"] == 2 and "2" in s["firstFrameAt"], 30)
        time.sleep(2)
        page.key("ArrowDown", "ArrowDown", 40)
        failed = page.wait_for("item 4 to fail", lambda s: s["current"] == 3 and len(s["errors"]) >= 1, 30)
        report["errors"] = failed["errors"]
        page.key("ArrowDown", "ArrowDown", 40)
        page.wait_for("item 5's first frame", lambda s: s["current"] == 4 and "4" in s["firstFrameAt"], 30)
        time.sleep(2)
        # The timer sends every 10 s; by now it has sent at least once.
        sent = page.wait_for("a batch sent by the timer", lambda s: s["events"]["batches"] >= 1, 30)
        report["eventsBeforeLeaving"] = sent["events"]
        report["lastView"] = {"id": sent["ids"][4], "view": sent["view"]}
        # Leaving the page: pagehide ends item 5's view, and a keepalive fetch carries what is still queued.
        page.send("Page.navigate", {"url": "about:blank"})
        time.sleep(2)
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
        report["console"] = console
        report["shaping"] = link.rates


def run_viewer(arguments, report):
    """One viewer's session for scripts/bench-replay.sh and bench-prefetch-web.sh: the feed from its first item, each
    item watched for --dwells' time (or one drawn from --seed, 2 to 10 s), then the next, and the page left at the end
    (its last view's end goes by a keepalive fetch). The link is whatever the caller shaped. Reports the page's session id, each
    view, and the session's startups, stalls and media bytes."""
    import random
    dwell = random.Random(arguments.seed)
    profile = tempfile.mkdtemp(prefix="reel-browser-")
    browser = Browser(find_chromium(), profile, os.path.join(arguments.out, f"chromium-viewer-{arguments.seed}.log"))
    try:
        page = Page(browser)
        for domain in ("Runtime", "Page"):
            page.send(domain + ".enable")
        page.emulate(360, 740, mobile=True)
        url = f"{arguments.url}/?players={arguments.players}&pageSize={arguments.page_size}"
        if arguments.engine != "auto":
            url += f"&engine={arguments.engine}"
        if arguments.prefetch:
            url += f"&prefetch={arguments.prefetch}"
        dwells = [float(d) for d in arguments.dwells.split(",")] if arguments.dwells else []
        page.send("Page.navigate", {"url": url})
        views = []
        for item in range(arguments.items):
            shown = page.wait_for(f"item {item + 1}'s first frame",
                                  lambda s, i=item: s["current"] == i and str(i) in s["firstFrameAt"], 90)
            stay = dwells[item] if item < len(dwells) else round(dwell.uniform(2, 10), 2)
            time.sleep(stay)
            snap = page.snapshot()
            views.append({"item": item, "id": snap["ids"][item], "stay_s": stay, "view": snap["view"],
                          "rendition": (holder(snap, item) or {}).get("rendition")})
            if item + 1 == arguments.items or item + 1 >= snap["loaded"]:
                break
            page.key("ArrowDown", "ArrowDown", 40)
        final = page.snapshot()
        report["session"] = final["events"]["session"]
        report["views"] = views
        report["startups"] = final["startups"]
        report["stalls"] = final["stalls"]
        report["mediaBytes"] = final["mediaBytes"]
        report["neighbourCaps"] = final["neighbourCaps"]
        report["throughputBps"] = final["throughputBps"]
        report["errors"] = final["errors"]
        page.send("Page.navigate", {"url": "about:blank"})
        time.sleep(2)
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)


def run_prefetch_cases(arguments, report):
    """Evaluates prefetch.js's pure functions in the page on the cases in --prefetch-cases (a JSON object of
    retention curves, level lists with a throughput, and sample lists) and reports what they returned."""
    with open(arguments.prefetch_cases) as file:
        cases = json.load(file)
    profile = tempfile.mkdtemp(prefix="reel-browser-")
    browser = Browser(find_chromium(), profile, os.path.join(arguments.out, "chromium-prefetch.log"))
    try:
        page = Page(browser)
        page.send("Runtime.enable")
        page.send("Page.enable")
        page.send("Page.navigate", {"url": arguments.url + "/"})
        page.wait_for("prefetch.js", lambda s: True, 30)
        expression = """(() => {
            const P = window.ReelPrefetch, cases = %s;
            return JSON.stringify({
                caps: cases.caps.map((r) => P.neighbourCapSeconds(r)),
                levels: cases.levels.map((c) => P.startLevel(c.levels, c.bps)),
                means: cases.samples.map((c) => P.harmonicMean(
                    c.fetches.reduce((kept, f) => P.addSample(kept, f[0], f[1]), []))),
            });
        })()""" % json.dumps(cases)
        report["results"] = json.loads(page.evaluate(expression))
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)


def run_stats(arguments, report):
    """The viewer stats page (/stats?video=ID) for each of --stats-videos: what it drew, read from its SVG."""
    profile = tempfile.mkdtemp(prefix="reel-browser-")
    browser = Browser(find_chromium(), profile, os.path.join(arguments.out, "chromium-stats.log"))
    console = []
    try:
        browser.on("Runtime.consoleAPICalled", lambda p: console.append({"level": p.get("type"), "text": " ".join(
            str(a.get("value", a.get("description", ""))) for a in p.get("args", []))[:500]})
            if p.get("type") in ("error", "warning", "assert") else None)
        browser.on("Runtime.exceptionThrown", lambda p: console.append({"level": "exception", "text": str(
            p.get("exceptionDetails", {}).get("exception", {}).get("description", p.get("exceptionDetails")))[:500]}))
        browser.on("Log.entryAdded", lambda p: console.append({"level": "log-" + p["entry"]["level"],
            "text": p["entry"].get("text", "")[:500]}) if p.get("entry", {}).get("level") in ("error", "warning") else None)
        page = Page(browser)
        for domain in ("Runtime", "Page", "Log"):
            page.send(domain + ".enable")
        page.emulate(760, 900, mobile=False)
        report["pages"] = {}
        for video in arguments.stats_videos.split(","):
            page.send("Page.navigate", {"url": f"{arguments.url}/stats?video={video}"})
            deadline = time.time() + 30
            while True:
                state = page.evaluate("window.reelStats ? {rendered: window.reelStats.state.rendered, "
                                      "errors: window.reelStats.state.errors, video: window.reelStats.state.video} : null")
                if state and (state["rendered"] >= 1 or state["errors"]) and state["video"] == video:
                    break
                if time.time() > deadline:
                    raise BrowserError(f"the stats page for {video} drew nothing within 30 s: {state}")
                time.sleep(0.1)
            drawn = page.evaluate("""(() => {
                const curve = document.querySelector('#stats-retention polyline');
                const bars = [...document.querySelectorAll('#stats-startup rect.bar')];
                const figures = {};
                for (const box of document.querySelectorAll('#stats-figures div')) {
                    figures[box.querySelector('dt').textContent] = box.querySelector('dd').textContent;
                }
                return {
                    curveSeconds: curve ? Number(curve.dataset.seconds) : 0,
                    curvePoints: curve ? curve.getAttribute('points').trim().split(/\s+/).length : 0,
                    curveLabel: document.querySelector('#stats-retention svg').getAttribute('aria-label'),
                    bars: bars.map((bar) => ({views: Number(bar.dataset.views), height: Number(bar.getAttribute('height'))})),
                    histogramLabel: document.querySelector('#stats-startup svg').getAttribute('aria-label'),
                    figures,
                    status: document.getElementById('stats-status').textContent,
                    options: document.getElementById('stats-video').options.length,
                    selected: document.getElementById('stats-video').value,
                };
            })()""")
            drawn["state"] = state
            drawn["screenshot"] = page.screenshot(os.path.join(arguments.out, f"stats-{video}.png"))
            report["pages"][video] = drawn
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
        report["console"] = console


def run_upload(arguments, report):
    """The upload form: a token and a file, sent over tus by the page itself, followed until the job is published."""
    profile = tempfile.mkdtemp(prefix="reel-browser-")
    browser = Browser(find_chromium(), profile, os.path.join(arguments.out, "chromium-upload.log"))
    console, requests = [], {}
    try:
        browser.on("Runtime.consoleAPICalled", lambda p: console.append({"level": p.get("type"), "text": " ".join(
            str(a.get("value", a.get("description", ""))) for a in p.get("args", []))[:500]}) if p.get("type") in ("error", "warning") else None)
        browser.on("Runtime.exceptionThrown", lambda p: console.append({"level": "exception", "text": str(p.get("exceptionDetails", {}))[:500]}))
        browser.on("Network.requestWillBeSent", lambda p: requests.setdefault(p["requestId"], {"method": p["request"]["method"], "url": p["request"]["url"]}))
        browser.on("Network.responseReceived", lambda p: requests.setdefault(p["requestId"], {}).update(status=p["response"]["status"]))
        page = Page(browser)
        for domain in ("Network", "Runtime", "Page", "DOM"):
            page.send(domain + ".enable")
        page.emulate(360, 740, mobile=True)
        page.send("Page.navigate", {"url": arguments.url + "/"})
        page.wait_for("the page to start", lambda s: s["engine"] != "none" or s["loaded"] >= 0, 20)
        # upload.js is a script of its own: on a loaded machine the feed once started before it ran, and the clicks
        # below then did nothing.
        deadline = time.time() + 30
        while page.evaluate("typeof window.reelUpload") != "object":
            if time.time() > deadline:
                raise RuntimeError("upload.js did not run within 30 s of the page starting")
            time.sleep(0.1)
        page.evaluate("window.reelSameDocument = true")  # gone if anything reloads the page
        page.evaluate("document.getElementById('upload-open').click()")
        page.evaluate(f"document.getElementById('upload-token').value = {json.dumps(arguments.token)}")
        if arguments.caption:
            page.evaluate(f"document.getElementById('upload-caption').value = {json.dumps(arguments.caption)}")
        document = page.send("DOM.getDocument")["root"]["nodeId"]
        node = page.send("DOM.querySelector", {"nodeId": document, "selector": "#upload-file"})["nodeId"]
        page.send("DOM.setFileInputFiles", {"nodeId": node, "files": [os.path.abspath(arguments.upload)]})
        page.evaluate("document.getElementById('upload-send').click()")
        # Issue 64: when the post first plays in the feed (its own player current, time moving), and when it plays
        # on its ladder's master after the job is published, without a reload (performance.now(), as upload.js's
        # uploadedAt, playableAt and publishedAt).
        post_player = """(() => {
            const upload = window.reelUpload.state, s = window.reel.snapshot();
            if (!upload.job) return null;
            const id = upload.job.split("/").pop(), index = s.ids.indexOf(id);
            const player = s.players.find((p) => p.id === id);
            if (index < 0 || !player) return null;
            return {index, current: s.current, state: s.states[index], master: player.master,
                    time: player.currentTime, playerState: player.state, rendition: player.rendition,
                    engine: player.engine, stalls: s.stalls, now: performance.now()};
        })()"""
        deadline = time.time() + 180
        state, timeline, first_time = None, {}, None
        while time.time() < deadline:
            state = page.evaluate("window.reelUpload.state")
            seen = page.evaluate(post_player)
            if seen and ".playable/" in seen["master"]:
                timeline["lastProvisional"] = seen
            if seen and seen["index"] == seen["current"] and seen["time"] > 0 and seen["playerState"] == "playing":
                if "firstPlaying" not in timeline:
                    timeline["firstPlaying"] = seen
                    first_time = seen["time"]
                if arguments.pause_while_playable and "pauseTapped" not in timeline and state["phase"] == "playable" \
                        and seen["time"] > 0.5:
                    # The design's taps: the first turns the sound on, the second pauses.
                    page.tap(180, 370)
                    time.sleep(0.4)
                    page.tap(180, 370)
                    timeline["pauseTapped"] = seen
                if state["phase"] == "published" and "/" in seen["master"] and ".playable/" not in seen["master"] \
                        and seen["time"] != first_time and "ladderPlaying" not in timeline:
                    timeline["ladderPlaying"] = seen
            if arguments.pause_while_playable and seen and "pauseTapped" in timeline and seen["playerState"] == "ready":
                if ".playable/" in seen["master"]:
                    timeline["pausedProvisional"] = seen
                elif state["phase"] == "published" and "/" in seen["master"]:
                    # On its ladder, still paused: looked at again a second later, then done.
                    timeline["pausedLadder"] = seen
                    time.sleep(1)
                    timeline["pausedLadderLater"] = page.evaluate(post_player)
                    break
            if state["phase"] == "failed" or "ladderPlaying" in timeline:
                break
            time.sleep(0.05)
        timeline["sameDocument"] = page.evaluate("window.reelSameDocument === true")
        timeline.update(page.evaluate(
            "(() => { const s = window.reel.snapshot(); return {growingEngine: s.growingEngine, "
            "growingRetries: s.growingRetries, stalls: s.stalls, stallLog: s.stallLog, handovers: s.handovers, "
            "lastHandover: s.lastHandover}; })()"))
        report["upload"] = state
        report["uploadTimeline"] = timeline
        # What the post's caption shows (issue 65), line by line, and whether any of it became markup.
        report["postCaption"] = page.evaluate(
            """(() => { const upload = window.reelUpload.state, s = window.reel.snapshot();
                if (!upload.job) return null;
                const index = s.ids.indexOf(upload.job.split("/").pop());
                const box = document.querySelectorAll(".item")[index]?.querySelector(".caption");
                if (!box) return null;
                return {lines: [...box.children].map((p) => ({kind: p.className, text: p.textContent})),
                        elements: box.querySelectorAll("*").length}; })()""")
        report["uploadStatusText"] = page.evaluate("document.getElementById('upload-status').textContent")
        report["uploadDialogOpen"] = page.evaluate("document.getElementById('upload').open")
        report["screenshots"] = {"upload": page.screenshot(os.path.join(arguments.out, "upload.png"))}
    finally:
        browser.close()
        shutil.rmtree(profile, ignore_errors=True)
        report["console"] = console
        report["uploadRequests"] = [r for r in requests.values() if "/v1/uploads" in r.get("url", "")]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="reel serve's base URL")
    parser.add_argument("--out", required=True, help="folder for the screenshots and Chromium's log")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--page-size", type=int, default=5)
    parser.add_argument("--engine", choices=["auto", "hls.js"], default="auto", help="?engine= for the page")
    parser.add_argument("--upload", help="instead of the feed scenario: upload this file through the page's form")
    parser.add_argument("--token", help="the upload token for --upload")
    parser.add_argument("--caption", help="with --upload: the caption typed into the form")
    parser.add_argument("--pause-while-playable", action="store_true",
                        help="with --upload: tap to pause the post while it plays its provisional rendition")
    parser.add_argument("--viewer", action="store_true",
                        help="instead of the feed scenario: one viewer's session (--seed, --items), for bench-replay")
    parser.add_argument("--seed", type=int, default=1, help="with --viewer: the seed of its watch times")
    parser.add_argument("--items", type=int, default=3, help="with --viewer: how many items it watches")
    parser.add_argument("--dwells", help="with --viewer: seconds on each item, comma-separated (else from --seed)")
    parser.add_argument("--prefetch", choices=["window", "aware"], help="?prefetch= for the page")
    parser.add_argument("--prefetch-cases",
                        help="instead of the feed scenario: evaluate prefetch.js on the cases in this JSON file")
    parser.add_argument("--stats-videos", help="instead of the feed scenario: open /stats for these ids (comma-separated)")
    parser.add_argument("--events", action="store_true",
                        help="instead of the feed scenario: a session under a shaped link, for the viewer events")
    parser.add_argument("--shape-device", help="with --events: the root namespace's end of this namespace's veth")
    parser.add_argument("--shape-netns", help="with --events: that namespace, as a path (/proc/PID/ns/net)")
    parser.add_argument("--rate", default="2mbit", help="with --events: the link's rate (tc's units)")
    parser.add_argument("--slow-rate", default="24kbit", help="with --events: the trickle that makes the stall")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    report = {"url": arguments.url}
    status = 0
    try:
        if arguments.upload:
            run_upload(arguments, report)
        elif arguments.events:
            run_events(arguments, report)
        elif arguments.stats_videos:
            run_stats(arguments, report)
        elif arguments.viewer:
            run_viewer(arguments, report)
        elif arguments.prefetch_cases:
            run_prefetch_cases(arguments, report)
        else:
            run(arguments, report)
    except (BrowserError, OSError, subprocess.TimeoutExpired) as error:
        report["harnessError"] = str(error)
        status = 2
    json.dump(report, sys.stdout, indent=1)
    print()
    return status


if __name__ == "__main__":
    sys.exit(main())
