#!/usr/bin/env python3
"""A webhook receiver that checks Reel's signatures with Python's own hmac module, as an app would.

Each delivery's Reel-Signature header is `t=<unix seconds>,v1=<hex HMAC-SHA256>`, keyed with the endpoint's secret
(its UTF-8 bytes, `whsec_` included) over `<t>.<raw body>`. A receiver recomputes it, compares in constant time,
refuses a timestamp more than five minutes from its clock, and de-duplicates by the event's id: delivery is at least
once. This one appends every event it sees for the first time to --events (one JSON object per line; the ids seen
survive a restart of the receiver) and every attempt to --attempts.

    scripts/webhook-receiver.py --port 8099 --secret-file secret --events events.jsonl
"""
import argparse
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_SECONDS = 300


def verify(header, secret, body, now):
    """True when `header` signs `body` (bytes) with `secret` within the tolerance."""
    timestamp, candidates = None, []
    for part in header.split(","):
        key, _, value = part.partition("=")
        if key == "t":
            timestamp = value
        elif key == "v1":
            candidates.append(value)
    if timestamp is None or not timestamp.isdigit() or abs(now - int(timestamp)) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, candidate) for candidate in candidates)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port; the first line printed names it")
    parser.add_argument("--secret-file", required=True, help="the file holding the endpoint's secret")
    parser.add_argument("--events", required=True, help="first-seen events, one JSON object per line")
    parser.add_argument("--attempts", help="every delivery attempt, one JSON object per line")
    parser.add_argument("--hang", type=int, default=0, help="never answer the first N deliveries (tests)")
    parser.add_argument("--status", type=int, default=200, help="the status a verified delivery gets (tests)")
    args = parser.parse_args()
    with open(args.secret_file) as handle:
        secret = handle.read().strip()
    lock = threading.Lock()
    seen = set()
    if os.path.exists(args.events):
        with open(args.events) as handle:
            seen = {json.loads(line)["id"] for line in handle if line.strip()}
    state = {"hang": args.hang}

    def append(path, record):
        with open(path, "a") as handle:
            handle.write(json.dumps(record, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            verified = verify(self.headers.get("Reel-Signature", ""), secret, body, int(time.time()))
            event = json.loads(body) if verified else {}
            with lock:
                if args.attempts:
                    append(args.attempts, {
                        "event": event.get("id"), "type": event.get("type"), "verified": verified,
                        "attempt": self.headers.get("Reel-Delivery-Attempt"), "at": time.time()})
                hang = state["hang"] > 0
                if hang:
                    state["hang"] -= 1
                elif verified and args.status < 300 and event["id"] not in seen:
                    seen.add(event["id"])
                    append(args.events, event)
            if hang:
                time.sleep(3600)
                return
            self.send_response(args.status if verified else 400)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    print(f"listening on http://{args.host}:{server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
