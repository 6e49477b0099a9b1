#!/usr/bin/env python3
"""The viewer-event batches the event benchmarks post (bench-events.sh, compare-durability.sh), made one way.

  event_batches.py batches OUT [--with-session]   2,000 distinct batches of 50 events, one JSON array per line, each
                                                  one viewer's: a view start, progress, segments, a stall, a view end,
                                                  over 1,000 seeded videos. --with-session adds the `session` field
                                                  that servers from before session tokens read.
  event_batches.py tokens BASE IN OUT             asks BASE (`POST /v1/sessions`) for a token per batch of IN and writes
                                                  "token<TAB>batch" lines, as a page sends its events.
"""
import http.client
import json
import sys
from urllib.parse import urlparse

KINDS = ["view_start", "progress", "segment", "progress", "stall", "segment", "progress", "segment", "view_end",
         "segment"]


def batches(path, with_session):
    with open(path, "w") as out:
        for batch in range(2000):
            events = []
            for n in range(50):
                kind = KINDS[n % len(KINDS)]
                event = {"type": kind}
                if with_session:
                    event["session"] = f"s{batch}x{n // 5}"
                event["video"] = f"v{(batch * 7 + n) % 1000:09d}"
                if kind == "view_start":
                    event.update(rendition="720p", startup_ms=200 + n)
                elif kind == "progress":
                    event.update(position_s=n / 4, watched_s=n / 4)
                elif kind == "segment":
                    event.update(bytes=250000 + n, ms=80 + n)
                elif kind == "stall":
                    event.update(duration_ms=300 + n)
                else:
                    event.update(watched_s=12.5, completed=False, bytes=1000000)
                events.append(event)
            out.write(json.dumps(events, separators=(",", ":")) + "\n")


def tokens(base, source, target):
    url = urlparse(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    with open(source) as lines, open(target, "w") as out:
        for batch in lines:
            connection.request("POST", "/v1/sessions", body=b"")
            answer = connection.getresponse()
            body = answer.read()
            if answer.status != 200:
                sys.exit(f"event_batches: POST /v1/sessions answered {answer.status}: {body[:200]!r}")
            out.write(json.loads(body)["token"] + "\t" + batch)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "batches":
        batches(sys.argv[2], "--with-session" in sys.argv[3:])
    elif len(sys.argv) == 5 and sys.argv[1] == "tokens":
        tokens(*sys.argv[2:])
    else:
        sys.exit(__doc__)
