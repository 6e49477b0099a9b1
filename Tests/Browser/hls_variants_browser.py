#!/usr/bin/env python3
"""Plays every variant of an HLS ladder that hls.js keeps, in headless Chromium, and prints one JSON report.

    python3 Tests/Browser/hls_variants_browser.py --ladder DIR --hls-js .build/vendor/hls.mjs --out DIR [--rate 2]

It serves DIR (master.m3u8 and the renditions' folders), hls.js and the page's own module (hls_variants.mjs) from
one server on 127.0.0.1 at an ephemeral port, then drives Debian's Chromium over the DevTools pipe with
feed_browser.py's Browser. The report has MediaSource.isTypeSupported for each variant's CODECS, the levels hls.js
kept, and for each kept level, pinned in a fresh player and played to its end: the sizes shown, the frames
decoded, the fragments loaded, and the player's errors; then the requests that failed and the console's errors.
It measures and reports; the Swift test (MultiCodecPlaybackTests) decides. Exit 0 = report written, 2 = the harness
itself failed.
"""
import argparse, functools, json, os, shutil, sys, tempfile, threading, time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

sys.dont_write_bytecode = True  # importing feed_browser must not leave a __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from feed_browser import Browser, BrowserError, Page, find_chromium  # noqa: E402

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hls_variants.mjs")
PREFIX = "/__reel__/"


class Handler(SimpleHTTPRequestHandler):
    """The ladder's files, plus a blank page, hls.js and the page's module under /__reel__/."""
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".m3u8": "application/vnd.apple.mpegurl", ".m4s": "video/iso.segment", ".mp4": "video/mp4"}

    def __init__(self, *arguments, hls_js, **options):
        self.hls_js = hls_js
        super().__init__(*arguments, **options)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == PREFIX:
            page = b"<!doctype html><meta charset=utf-8><title>variants</title><link rel=icon href='data:,'>"
            return self.send_bytes(page, "text/html")
        files = {PREFIX + "hls.mjs": self.hls_js, PREFIX + "hls_variants.mjs": PAGE}
        if path in files:
            with open(files[path], "rb") as file:
                return self.send_bytes(file.read(), "text/javascript")
        return super().do_GET()

    def send_bytes(self, body, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def log_message(self, *arguments):
        pass


def run(arguments, report):
    handler = functools.partial(Handler, hls_js=os.path.abspath(arguments.hls_js), directory=arguments.ladder)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    master = f"{origin}/master.m3u8"
    report["master"] = master
    profile = tempfile.mkdtemp(prefix="reel-variants-")
    browser = Browser(find_chromium(), profile, os.path.join(arguments.out, "chromium.log"))
    requests, console = {}, []
    try:
        report["browser"] = browser.send("Browser.getVersion")["product"]

        def on_request(params):
            requests.setdefault(params["requestId"], {})["url"] = params["request"]["url"]

        def on_response(params):
            entry = requests.setdefault(params["requestId"], {"url": params["response"]["url"]})
            entry["status"] = params["response"]["status"]

        def on_failure(params):
            entry = requests.setdefault(params["requestId"], {})
            entry.update(failed=params.get("errorText"), canceled=params.get("canceled", False))

        def on_console(params):
            if params.get("type") in ("error", "assert"):
                text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", []))
                console.append({"level": params["type"], "text": text[:500]})

        def on_exception(params):
            details = params.get("exceptionDetails", {})
            console.append({"level": "exception",
                            "text": (details.get("exception", {}).get("description") or details.get("text", ""))[:500]})

        for method, listener in (("Network.requestWillBeSent", on_request), ("Network.responseReceived", on_response),
                                 ("Network.loadingFailed", on_failure), ("Runtime.consoleAPICalled", on_console),
                                 ("Runtime.exceptionThrown", on_exception)):
            browser.on(method, listener)

        page = Page(browser)
        for domain in ("Network", "Runtime", "Page"):
            page.send(domain + ".enable")
        page.send("Network.setCacheDisabled", {"cacheDisabled": True})
        page.send("Page.navigate", {"url": origin + PREFIX})
        module = json.dumps(PREFIX + "hls_variants.mjs")
        survey = wait_for_page(page, f"import({module}).then((page) => page.survey({json.dumps(master)}))")
        report.update(survey)
        report["played"] = []
        for level in survey["levels"]:
            timeout_ms = int(arguments.level_timeout * 1000)
            report["played"].append(page.evaluate(
                f"import({module}).then((page) => page.play({json.dumps(master)}, {level['index']}, "
                f"{arguments.rate}, {timeout_ms}))", timeout=arguments.level_timeout + 30))
    finally:
        browser.close()
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
        report["console"] = console
        report["failedRequests"] = [entry for entry in requests.values() if (entry.get("status") or 0) >= 400
                                    or (entry.get("failed") and not entry.get("canceled"))]
        report["requests"] = len(requests)


def wait_for_page(page, expression, attempts=100):
    """The first evaluation, once the navigation to the blank page has committed (before that, about:blank answers)."""
    for _ in range(attempts):
        if page.evaluate("location.pathname") == PREFIX and page.evaluate("document.readyState") == "complete":
            return page.evaluate(expression, timeout=60)
        time.sleep(0.1)
    raise BrowserError("the blank page never loaded")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ladder", required=True, help="the folder with master.m3u8")
    parser.add_argument("--hls-js", required=True, help="hls.js as an ES module (.build/vendor/hls.mjs)")
    parser.add_argument("--out", required=True, help="folder for Chromium's log")
    parser.add_argument("--rate", type=float, default=2, help="playbackRate while a level plays to its end")
    parser.add_argument("--level-timeout", type=float, default=60, help="seconds a pinned level may take to end")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    report = {"ladder": arguments.ladder}
    status = 0
    try:
        run(arguments, report)
    except (BrowserError, OSError) as error:
        report["harnessError"] = str(error)
        status = 2
    json.dump(report, sys.stdout, indent=1)
    print()
    return status


if __name__ == "__main__":
    sys.exit(main())
