#!/usr/bin/env python3
"""Malformed HTTP/1.1 over plain sockets against a live `reel serve` (issue 32: the server cannot be crashed).

schemathesis only sends what an HTTP client library can express; this sends what one cannot: broken chunking,
huge or many headers, bodies dribbled out slowly, pipelined mixes of good and bad requests, connections cut
mid-request, bad methods and versions, conflicting framing, and hostile values in the headers Reel parses itself
(tus, Range, If-None-Match, Accept-Encoding, cursors, bearer tokens).

    raw_http_fuzz.py --url http://127.0.0.1:PORT --token T --seconds 1800 --out summary.json [--seed 1] [--threads 4]
    raw_http_fuzz.py --url ... --token T --replay N [--seed 1]     # resend case N verbosely (a reproducer)

Case N is built from random.Random(f"{seed}:{N}") alone, so a seed and an index name the same bytes on every run,
whatever the threads did. Each case opens its own connection, sends its pieces (with pauses for slow ones), reads
until it has every answer it expects, the server closes, or a timeout, and is classified by the statuses it got
(or "closed"/"timeout"/"reset"). The property is the issue's: no 5xx but 503. A malformed request answered 2xx is
noted too (lenient, not a failure). Stdlib only.
"""

import argparse
import base64
import json
import random
import re
import socket
import sys
import threading
import time
from collections import Counter
from urllib.parse import urlparse

READ_TIMEOUT = 4.0  # a quiet gap this long ends the read: the server is waiting for bytes we will not send
CASE_DEADLINE = 20.0  # no case reads longer than this, so a stuck connection cannot stall a thread
FAILURE_BYTES = 4096  # how much of a failing case's request the summary keeps (its length is always kept)

VIDEO = "v000000029"  # `reel db seed --count 30` names it, and fuzz-serve.sh gives it files
PATHS = [
    "/v1/feed", "/v1/feed?limit=3", "/healthz", "/metrics", "/openapi.yaml", "/", "/web/app.js",
    f"/v1/videos/{VIDEO}", f"/v1/videos/{VIDEO}/stats", "/v1/jobs/45e721da56e24bb8ac2c",
    f"/media/videos/{VIDEO}/master.m3u8", f"/media/videos/{VIDEO}/poster.jpg",
    f"/media/videos/{VIDEO}/360p/seg_000.m4s",
]
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PROPFIND", "MKCOL"]


def junk(rng, n, alphabet=None):
    """n bytes: random, or drawn from an alphabet of troublesome ones."""
    if alphabet is None:
        alphabet = rng.choice([None, b"\r\n\t :;,=\"\\/%\x00\x7f\xff", b"0123456789abcdefABCDEF-+ ", "é\u0301\u05c7\u0602".encode()])
    if alphabet is None:
        return bytes(rng.getrandbits(8) for _ in range(n))
    return bytes(rng.choice(alphabet) for _ in range(n))


def big_number(rng):
    return rng.choice(["-1", "0", "1", "18446744073709551616", "9223372036854775807", "9223372036854775808",
                       "-9223372036854775808", "99999999999999999999999999", "0x10", "1e9", " 7", "7 ", "+7", "07",
                       "", "NaN", "1.5", "٣", "4294967296", str(rng.randrange(1 << 64))])


def hostile_value(rng):
    """A header value for a parser Reel wrote itself."""
    pick = rng.randrange(6)
    if pick == 0:
        return junk(rng, rng.choice([1, 16, 200, 5000]))
    if pick == 1:
        return b",".join(junk(rng, rng.randrange(0, 8), b"aAzZ09=-_/+*\"W ") for _ in range(rng.choice([2, 50, 2000])))
    if pick == 2:
        return big_number(rng).encode()
    if pick == 3:
        return ("é\u0301" * rng.choice([1, 100, 3000])).encode()
    if pick == 4:
        return b"\"" * rng.choice([1, 2, 1000])
    return junk(rng, rng.randrange(1, 64), b"=;,q0.1 gzip*identity\"W/bytes-")


def request(method, path, headers=(), body=b"", version=b"HTTP/1.1", host=True):
    head = method.encode() + b" " + path.encode() + b" " + version + b"\r\n"
    if host:
        head += b"Host: fuzz\r\n"
    for name, value in headers:
        head += (name.encode() if isinstance(name, str) else name) + b": " + (
            value.encode() if isinstance(value, str) else value) + b"\r\n"
    return head + b"\r\n" + body


class Case:
    """Bytes to send as pieces (bytes, pause after), the methods of the requests in them, and whether the whole is
    malformed (a 2xx for it is noted)."""

    def __init__(self, family, pieces, methods=("GET",), malformed=True, half_close=False, needs_upload=False):
        self.family, self.pieces, self.methods = family, pieces, list(methods)
        self.malformed, self.half_close, self.needs_upload = malformed, half_close, needs_upload

    @property
    def data(self):
        return b"".join(p for p, _ in self.pieces)


# Each family builds one Case from rng and ctx (the token, a viewer session's token, and an upload's Location when
# needs_upload).

def session_header(ctx):
    """The viewer-session token for /v1/events, as a header (none when the server gave none)."""
    return [("Reel-Session", ctx["session"])] if ctx.get("session") else []


def fam_headers(rng, ctx):
    """A valid request whose Reel-parsed headers are hostile."""
    name = rng.choice(["Range", "If-None-Match", "Accept-Encoding", "Authorization", "If-Range", "If-Modified-Since",
                       "Origin", "Access-Control-Request-Method", "Content-Type", "Cookie", "X-Forwarded-For"])
    value = hostile_value(rng)
    if name == "Authorization":
        value = rng.choice([b"Bearer ", b"bearer ", b"Basic ", b"", b"Bearer  "]) + value
    if name == "Range" and rng.random() < 0.6:
        value = b"bytes=" + b",".join(
            f"{big_number(rng)}-{big_number(rng) if rng.random() < .7 else ''}".encode() for _ in range(rng.choice([1, 2, 300])))
    path = rng.choice(PATHS)
    if rng.random() < 0.4:
        path = "/v1/feed?limit=" + big_number(rng).strip() + "&cursor=" + junk(rng, rng.choice([1, 12, 300]), b"aZ09-_=%+/.~").decode()
    method = rng.choice(["GET", "GET", "HEAD"])
    return Case("headers", [(request(method, path, [(name, value), ("Connection", "close")]), 0)], [method], False)


def fam_chunked(rng, ctx):
    """Broken chunked bodies: bad sizes, missing CRLFs, huge sizes, extensions, no terminator, trailers."""
    pick = rng.randrange(9)
    chunk = junk(rng, rng.randrange(1, 40))
    body = {
        0: junk(rng, 4, b"xyzG-+ ") + b"\r\n" + chunk + b"\r\n0\r\n\r\n",
        1: b"%x\r\n" % len(chunk) + chunk + b"0\r\n\r\n",  # no CRLF after the data
        2: rng.choice([b"FFFFFFFFFFFFFFFFFFFF", b"7fffffffffffffff", b"ffffffff", b"100000000"]) + b"\r\n" + chunk,
        3: b"%x;" % len(chunk) + junk(rng, rng.choice([5, 500, 20000]), b"a=b;\" \t") + b"\r\n" + chunk + b"\r\n0\r\n\r\n",
        4: b"%x\r\n" % len(chunk) + chunk + b"\r\n",  # no last chunk
        5: b"%x\n" % len(chunk) + chunk + b"\n0\n\n",  # bare LFs
        6: b"0\r\n" + b"".join(b"X-T%d: %s\r\n" % (i, junk(rng, 8, b"ab")) for i in range(rng.choice([1, 500]))) + b"\r\n",
        7: b"-1\r\n" + chunk + b"\r\n0\r\n\r\n",
        8: b"".join(b"1\r\n" + bytes([b]) + b"\r\n" for b in chunk) + b"0\r\n\r\n",  # valid, many tiny chunks
    }[pick]
    method, path, headers = rng.choice([
        ("POST", "/v1/events", [("Content-Type", "application/json")] + session_header(ctx)),
        ("PATCH", "/v1/uploads/" + junk(rng, 20, b"0123456789abcdef").decode(),
         [("Authorization", "Bearer " + ctx["token"]), ("Tus-Resumable", "1.0.0"), ("Upload-Offset", "0"),
          ("Content-Type", "application/offset+octet-stream")]),
        ("POST", "/v1/uploads", [("Authorization", "Bearer " + ctx["token"]), ("Tus-Resumable", "1.0.0"),
                                 ("Upload-Length", "64"), ("Content-Type", "application/offset+octet-stream")]),
        ("GET", "/v1/feed", []),
    ])
    te = rng.choice(["chunked", "chunked", "Chunked", "gzip, chunked", "chunked, chunked", "chunked;x=1"])
    return Case("chunked", [(request(method, path, headers + [("Transfer-Encoding", te)], body), 0)], [method],
                pick not in (6, 8), half_close=rng.random() < 0.5)  # 6 (trailers) and 8 are valid chunking


def fam_huge_head(rng, ctx):
    """A huge request line, one huge header, or very many headers."""
    pick = rng.randrange(4)
    size = rng.choice([8 * 1024, 64 * 1024, 300 * 1024, 2 * 1024 * 1024])
    if pick == 0:
        data = request("GET", "/v1/feed?cursor=" + "A" * size, [("Connection", "close")])
    elif pick == 1:
        data = request("GET", "/" + "a/" * (size // 2), [("Connection", "close")])
    elif pick == 2:
        data = request("GET", "/healthz", [(rng.choice(["X-Big", "Range", "Authorization", "If-None-Match"]), b"x" * size)])
    else:
        count = rng.choice([100, 1000, 20000])
        data = request("GET", "/healthz", [(f"X-H{i}", "v") for i in range(count)] + [("Connection", "close")])
    # Many small headers are not malformed, only many: the server may take them or refuse them.
    return Case("huge-head", [(data, 0)], ["GET"], pick != 3 and size > 64 * 1024)


def fam_slow(rng, ctx):
    """Slowloris: the head or the body dribbled out a few bytes at a time."""
    if rng.random() < 0.5:
        body = json.dumps([{"type": "view_start", "video": VIDEO, "rendition": "360p", "startup_ms": 0}]).encode()
        data = request("POST", "/v1/events", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
                       + session_header(ctx), body)
        methods = ["POST"]
    else:
        data = request("GET", rng.choice(PATHS), [("Accept-Encoding", "gzip")])
        methods = ["GET"]
    if rng.random() < 0.3:
        data = data[: rng.randrange(1, len(data))]  # and then never finishes
    pieces, step = [], rng.choice([1, 3, 17])
    for i in range(0, len(data), step):
        pieces.append((data[i:i + step], rng.choice([0.05, 0.2, 0.5, 1.0])))
    # At most ~12 s of dribbling: long enough to hold a connection, short of the server's 30 s idle timeout.
    while sum(p for _, p in pieces) > 12:
        pieces = [(b, p / 2) for b, p in pieces]
    return Case("slow", pieces, methods, False)


def fam_pipeline(rng, ctx):
    """Many requests in one write, valid and invalid mixed: answers must stay in order and none may be a 5xx."""
    parts, methods = [], []
    for _ in range(rng.choice([2, 5, 20, 100])):
        if rng.random() < 0.75:
            m = rng.choice(["GET", "GET", "HEAD", "OPTIONS"])
            parts.append(request(m, rng.choice(PATHS), [("If-None-Match", hostile_value(rng))] if rng.random() < .2 else []))
            methods.append(m)
        else:
            parts.append(rng.choice([fam_garbage, fam_framing, fam_version])(rng, ctx).data)
            methods.append("?")
            break  # after a bad request the server may close; what follows would be noise
    return Case("pipeline", [(b"".join(parts), 0)], methods, "?" in methods, half_close=rng.random() < 0.3)


def fam_truncated(rng, ctx):
    """A request cut off mid-head or mid-body, then the connection half-closed or closed."""
    full = rng.choice([
        request("GET", "/v1/feed?limit=2", [("Accept-Encoding", "gzip")]),
        request("POST", "/v1/events", [("Content-Type", "application/json"), ("Content-Length", "400")]
                + session_header(ctx), b"[{\"type\":"),
        request("PATCH", "/v1/uploads/" + ctx.get("upload", "x"), [("Authorization", "Bearer " + ctx["token"]),
                ("Tus-Resumable", "1.0.0"), ("Upload-Offset", "0"), ("Content-Type", "application/offset+octet-stream"),
                ("Content-Length", "100000")], junk(rng, 700)),
    ])
    cut = full[: rng.randrange(1, len(full))]
    return Case("truncated", [(cut, 0)], ["GET"], True, half_close=rng.random() < 0.7)


def fam_version(rng, ctx):
    """Invalid methods, versions and request-line shapes."""
    line = rng.choice([
        b"GETT /v1/feed HTTP/1.1", b"get /v1/feed HTTP/1.1", b"GET /v1/feed HTTP/2.0", b"GET /v1/feed HTTP/1.2",
        b"GET /v1/feed HTTP/0.9", b"GET /v1/feed HTTP/1.1x", b"GET /v1/feed", b"GET  /v1/feed  HTTP/1.1",
        b"GET\t/v1/feed\tHTTP/1.1", b"GET /v1/f\x00eed HTTP/1.1", b"GET /v1/feed HTTP/1.1\r", b" GET /v1/feed HTTP/1.1",
        b"GET http://fuzz/v1/feed HTTP/1.1", b"OPTIONS * HTTP/1.1", b"CONNECT fuzz:443 HTTP/1.1", b"GET * HTTP/1.1",
        b"GET /v1/feed?\xff\xfe HTTP/1.1", b"GET /media/%2e%2e/%2e%2e/etc/passwd HTTP/1.1", b"GET //v1//feed HTTP/1.1",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS ClientHello's start on the plain port
        b"PRI * HTTP/2.0\r\n\r\nSM",  # the HTTP/2 preface
        rng.choice(METHODS).encode() + b" /" + junk(rng, 20) + b" HTTP/1.1",
        junk(rng, 8, b"ABCDEFGHIJKLMNOPQRSTUVWXYZ-!#$%&'*+.^_`|~") + b" /v1/feed HTTP/1.1",
    ])
    extra = rng.choice([b"Host: fuzz\r\n", b"", b"Host: a\r\nHost: b\r\n", b"Host: fuzz\r\n folded\r\n",
                        b"Bad Header: x\r\n", b": empty-name\r\n", b"Host:fuzz\r\nX\x00Y: z\r\n", b"Host fuzz\r\n"])
    return Case("version", [(line + b"\r\n" + extra + b"\r\n", 0)], ["GET"], True, half_close=rng.random() < 0.3)


def fam_framing(rng, ctx):
    """Conflicting or nonsensical Content-Length and Transfer-Encoding (request smuggling shapes)."""
    body = b"[]" + junk(rng, rng.randrange(0, 30))
    headers = rng.choice([
        [("Content-Length", "2"), ("Content-Length", "7")],
        [("Content-Length", "2, 2")],
        [("Content-Length", "2"), ("Transfer-Encoding", "chunked")],
        [("Transfer-Encoding", "chunked"), ("Content-Length", "2")],
        [("Transfer-Encoding", "xchunked")],
        [("Transfer-Encoding", "identity")],
        [("Transfer-Encoding", " chunked")],
        [("Transfer-Encoding", "chunked\x0b")],
        [("Content-Length", big_number(rng))],
        [("Content-Length", "-2")],
        [("Content-Length", str(len(body) + 50))],
        [("Content-Length", "0"), ("Expect", "100-continue")],
        [("Content-Length", str(len(body))), ("Expect", rng.choice(["100-continue", "200-ok", "100-Continue, x"]))],
    ])
    method = rng.choice(["POST", "PATCH", "GET", "DELETE"])
    path = rng.choice(["/v1/events", "/v1/uploads", "/v1/uploads/" + ctx.get("upload", "0" * 20), "/v1/feed"])
    auth = [("Authorization", "Bearer " + ctx["token"]), ("Tus-Resumable", "1.0.0")] if "uploads" in path else []
    if path == "/v1/events":
        auth = session_header(ctx)
    data = request(method, path, [("Content-Type", "application/json")] + auth + headers, body)
    return Case("framing", [(data, 0)], [method], True, half_close=rng.random() < 0.5)


def fam_tus(rng, ctx):
    """The upload routes with bad tus headers, on a real upload (its Location) or a made-up one."""
    method = rng.choice(["POST", "PATCH", "PATCH", "HEAD", "DELETE", "OPTIONS"])
    token = ctx["token"] if rng.random() < 0.85 else rng.choice(["", "reel_" + "A" * 43, junk(rng, 30).hex()])
    headers = [("Authorization", "Bearer " + token)]
    if rng.random() < 0.9:
        headers.append(("Tus-Resumable", rng.choice(["1.0.0", "1.0.0", "0.2.2", "", "1.0.0, 1.0.0", "1.0.0 "])))
    body = b""
    bad = rng.choice(["Upload-Length", "Upload-Offset", "Upload-Metadata", "Upload-Checksum", "Content-Type",
                      "Upload-Defer-Length", "Upload-Concat", "none"])

    def value(name, good):
        return hostile_value(rng) if name == bad else good

    if method == "POST":
        path = "/v1/uploads"
        headers.append(("Upload-Length", value("Upload-Length", str(rng.choice([0, 1, 100, 600, 50_000_001])))))
        meta = [(b"filename", rng.choice([b"clip.mp4", b"../../etc/passwd", b"a/b", b"", b"\x00", b"x" * 5000])),
                (b"filetype", rng.choice([b"video/mp4", b"image/png", b"application/x-mpegurl", b""]))]
        encoded = b",".join(k + b" " + base64.b64encode(v) for k, v in meta)
        headers.append(("Upload-Metadata", value("Upload-Metadata", encoded)))
        if bad in ("Upload-Defer-Length", "Upload-Concat"):
            headers.append((bad, hostile_value(rng)))
        if rng.random() < 0.3:
            body = junk(rng, rng.choice([1, 100, 600]))
            headers += [("Content-Type", value("Content-Type", "application/offset+octet-stream")),
                        ("Content-Length", str(len(body)))]
    else:
        upload = ctx.get("upload") if rng.random() < 0.8 else None
        path = (upload or "/v1/uploads/" + rng.choice(["0" * 20, junk(rng, 20, b"0123456789abcdef").decode(),
                                                        "..%2f..%2fetc", "%00", "A" * 300, ""]))
        if method == "PATCH":
            body = junk(rng, rng.choice([0, 1, 512, 4000]))
            headers += [("Upload-Offset", value("Upload-Offset", rng.choice(["0", "0", "1", "600"]))),
                        ("Content-Type", value("Content-Type", "application/offset+octet-stream")),
                        ("Content-Length", str(len(body)))]
            if bad == "Upload-Checksum" or rng.random() < 0.2:
                headers.append(("Upload-Checksum", rng.choice([b"sha1 ", b"sha256 ", b"md5 ", b"", b"sha1"]) + hostile_value(rng)))
    headers.append(("Connection", "close"))
    return Case("tus", [(request(method, path, headers, body), 0)], [method], False, needs_upload=True)


def fam_events(rng, ctx):
    """POST /v1/events with bodies a JSON parser must survive: deep nesting, huge numbers, bad UTF-8, escapes."""
    pick = rng.randrange(7)
    depth = rng.choice([100, 1000, 20000, 60000])
    body = {
        0: b"[" * depth + b"]" * depth,
        1: b"[" + b"{\"a\":" * (depth // 5) + b"1" + b"}" * (depth // 5) + b"]",
        2: b"[{\"type\":\"view_start\",\"t\":" + b"9" * rng.choice([20, 400, 5000]) + b"e99999}]",
        3: b"[\"" + junk(rng, rng.choice([10, 1000])) + b"\"]",
        4: b"[\"" + b"\\ud800" * rng.choice([1, 1000]) + b"\\u00\"]",
        5: junk(rng, rng.choice([1, 100, 5000])),
        6: b"[" + b",".join([json.dumps({"type": "progress", "video": VIDEO, "position_s": 1e308,
                                         "watched_s": -1}).encode()] * rng.choice([1, 100, 101, 500])) + b"]",
    }[pick]
    # Mostly with the session, so the bodies reach the parser; sometimes without it, or with a forged one.
    session = session_header(ctx) if rng.random() < 0.8 else rng.choice(
        [[], [("Reel-Session", junk(rng, 76, b"AZaz09-_").decode())], [("Reel-Session", "x" * rng.choice([1, 5000]))]])
    data = request("POST", "/v1/events", [("Content-Type", rng.choice(["application/json", "text/plain", ""])),
                                          ("Content-Length", str(len(body))), ("Connection", "close")] + session, body)
    return Case("events", [(data, 0)], ["POST"], False)


def fam_garbage(rng, ctx):
    """Random bytes, alone or after a valid start."""
    prefix = rng.choice([b"", b"GET /", b"GET /v1/feed HTTP/1.1\r\n", b"POST /v1/events HTTP/1.1\r\nContent-Length: 10\r\n\r\n"])
    return Case("garbage", [(prefix + junk(rng, rng.choice([1, 64, 4096, 65536])), 0)], ["GET"], True,
                half_close=rng.random() < 0.5)


FAMILIES = [(fam_headers, 3), (fam_chunked, 3), (fam_huge_head, 1), (fam_slow, 1), (fam_pipeline, 2),
            (fam_truncated, 2), (fam_version, 2), (fam_framing, 2), (fam_tus, 4), (fam_events, 2), (fam_garbage, 2)]


def make_case(seed, index, ctx):
    rng = random.Random(f"{seed}:{index}")
    family = rng.choices([f for f, _ in FAMILIES], [w for _, w in FAMILIES])[0]
    return family(rng, ctx)


STATUS_LINE = re.compile(rb"HTTP/1\.[01] (\d{3})[^\r\n]*\r\n")


def parse_responses(buffer, methods):
    """The final statuses in buffer, and whether the last expected answer is complete. Minimal: enough for
    Content-Length, chunked and bodiless answers, which is all Reel sends."""
    statuses, pos, complete = [], 0, False
    while True:
        match = STATUS_LINE.match(buffer, pos)
        if not match:
            return statuses, complete
        end = buffer.find(b"\r\n\r\n", pos)
        if end < 0:
            return statuses, False
        head, status = buffer[pos:end].lower(), int(match.group(1))
        pos = end + 4
        if 100 <= status < 200:
            continue  # 100 Continue: an interim answer, not one of the requests'
        method = methods[len(statuses)] if len(statuses) < len(methods) else "GET"
        length = re.search(rb"\r\ncontent-length: *(\d+)", head)
        if method == "HEAD" or status in (204, 304):
            body_end = pos
        elif length:
            body_end = pos + int(length.group(1))
        elif b"\r\ntransfer-encoding: chunked" in head:
            body_end = chunked_end(buffer, pos)
        else:
            body_end = None  # until the server closes
        statuses.append(status)
        if body_end is None or body_end > len(buffer):
            return statuses, False
        pos, complete = body_end, True


def chunked_end(buffer, pos):
    while True:
        line_end = buffer.find(b"\r\n", pos)
        if line_end < 0:
            return None
        try:
            size = int(buffer[pos:line_end].split(b";")[0], 16)
        except ValueError:
            return None
        pos = line_end + 2 + size + 2
        if size == 0:
            return pos
        if pos > len(buffer):
            return None


def exchange(host, port, pieces, methods, half_close, verbose=False):
    """Sends the pieces on a fresh connection and returns (final statuses, outcome, raw answer)."""
    sock = socket.create_connection((host, port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    received, outcome = b"", None
    try:
        try:
            for data, pause in pieces:
                sock.sendall(data)
                if pause:
                    time.sleep(pause)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            outcome = "closed-while-sending"  # the server refused the rest, as it may
        except socket.timeout:
            outcome = "send-timeout"
        deadline = time.monotonic() + CASE_DEADLINE
        sock.settimeout(READ_TIMEOUT)
        while time.monotonic() < deadline:
            try:
                data = sock.recv(65536)
            except socket.timeout:
                outcome = outcome or "timeout"
                break
            except ConnectionResetError:
                outcome = outcome or "reset"
                break
            if not data:
                outcome = outcome or "closed"
                break
            received += data
            statuses, complete = parse_responses(received, methods)
            if complete and len(statuses) >= len(methods):
                break
    finally:
        sock.close()
    statuses, _ = parse_responses(received, methods)
    if verbose:
        print(received[:4000].decode("latin-1"))
    return statuses, outcome, received


def create_session(host, port):
    """A viewer-session token (POST /v1/sessions), so the events cases reach the batch parser."""
    data = request("POST", "/v1/sessions", [("Content-Length", "0"), ("Connection", "close")])
    _, _, answer = exchange(host, port, [(data, 0)], ["POST"], False)
    match = re.search(rb"\"token\":\"([A-Za-z0-9_-]+)\"", answer)
    return match.group(1).decode() if match else ""


def create_upload(host, port, token):
    """A fresh upload's Location, so tus cases hit a real one (and its handler's state machine)."""
    meta = "filename Y2xpcC5tcDQ=,filetype dmlkZW8vbXA0"
    data = request("POST", "/v1/uploads", [("Authorization", "Bearer " + token), ("Tus-Resumable", "1.0.0"),
                                           ("Upload-Length", "600"), ("Upload-Metadata", meta), ("Connection", "close")])
    _, _, answer = exchange(host, port, [(data, 0)], ["POST"], False)
    match = re.search(rb"\r\n[Ll]ocation: *(\S+)", answer)
    return match.group(1).decode() if match else None


def shown(data):
    """A case's bytes as printable text, cut to FAILURE_BYTES."""
    return data[:FAILURE_BYTES].decode("latin-1").encode("unicode_escape").decode("ascii")


class Campaign:
    def __init__(self, args, host, port):
        self.args, self.host, self.port = args, host, port
        self.lock, self.next_index = threading.Lock(), 0
        self.statuses, self.outcomes, self.families = Counter(), Counter(), Counter()
        self.requests = self.cases = self.uploads = 0
        self.failures, self.lenient, self.errors = [], [], []
        self.server_down = None
        self.session = create_session(host, port)

    def run_case(self, index):
        ctx = {"token": self.args.token, "session": self.session}
        case = make_case(self.args.seed, index, ctx)
        if case.needs_upload or random.Random(f"{self.args.seed}:{index}:u").random() < 0.1:
            ctx["upload"] = create_upload(self.host, self.port, self.args.token) or "/v1/uploads/none"
            case = make_case(self.args.seed, index, ctx)  # the same draws, now with the upload's Location
            with self.lock:
                self.uploads += 1
        statuses, outcome, _ = exchange(self.host, self.port, case.pieces, case.methods, case.half_close)
        with self.lock:
            self.cases += 1
            self.requests += len(case.methods)
            self.families[case.family] += 1
            self.statuses.update(str(s) for s in statuses)
            if not statuses:
                self.outcomes[outcome or "closed"] += 1
            bad = [s for s in statuses if s >= 500 and s != 503]
            if bad:
                self.failures.append({"index": index, "family": case.family, "statuses": statuses,
                                      "request_length": len(case.data), "request": shown(case.data)})
            elif case.malformed and statuses and all(200 <= s < 300 for s in statuses) and len(self.lenient) < 20:
                self.lenient.append({"index": index, "family": case.family, "statuses": statuses,
                                     "request": shown(case.data)[:600]})

    def worker(self, deadline):
        while time.monotonic() < deadline and self.server_down is None:
            with self.lock:
                index, self.next_index = self.next_index, self.next_index + 1
            try:
                self.run_case(index)
            except ConnectionRefusedError:
                with self.lock:
                    self.server_down = self.server_down or f"connection refused at case {index}"
            except Exception as error:  # a fuzzer bug must not end the campaign; it is reported
                with self.lock:
                    if len(self.errors) < 50:
                        self.errors.append(f"case {index}: {type(error).__name__}: {error}")

    def summary(self, seconds):
        return {"tool": "raw_http_fuzz", "seed": self.args.seed, "seconds": round(seconds, 1), "cases": self.cases,
                "requests": self.requests, "uploads_created": self.uploads, "families": dict(self.families),
                "statuses": dict(self.statuses), "no_answer": dict(self.outcomes),
                "server_errors": self.failures, "malformed_answered_2xx": self.lenient,
                "fuzzer_errors": self.errors, "server_down": self.server_down}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--out")
    parser.add_argument("--replay", type=int, help="send case N once, printing its bytes and the answer")
    args = parser.parse_args()
    url = urlparse(args.url)
    host, port = url.hostname, url.port or 80

    if args.replay is not None:
        ctx = {"token": args.token, "session": create_session(host, port)}
        case = make_case(args.seed, args.replay, ctx)
        if case.needs_upload:
            ctx["upload"] = create_upload(host, port, args.token)
            case = make_case(args.seed, args.replay, ctx)
        print(f"case {args.replay} ({case.family}), {len(case.data)} bytes:\n{shown(case.data)}\n--- answer:")
        statuses, outcome, _ = exchange(host, port, case.pieces, case.methods, case.half_close, verbose=True)
        print(f"--- statuses {statuses}, outcome {outcome}")
        return 0

    campaign = Campaign(args, host, port)
    started = time.monotonic()
    threads = [threading.Thread(target=campaign.worker, args=(started + args.seconds,)) for _ in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    summary = campaign.summary(time.monotonic() - started)
    text = json.dumps(summary, indent=1)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text)
    return 1 if summary["server_errors"] or summary["server_down"] else 0


if __name__ == "__main__":
    sys.exit(main())
