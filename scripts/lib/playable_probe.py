#!/usr/bin/env python3
"""One upload's time to playable and to the complete ladder, for scripts/bench-playable.sh (issue 64).

Hands CLIP to a running `reel serve` (with `--inbox`) as an upload, then polls the server every INTERVAL seconds on one
keep-alive connection until both:
- **playable**: `GET /v1/feed` lists a post it did not list before, and its master playlist, the first variant playlist
  the master names, that variant's init segment (`#EXT-X-MAP`) and its first two media segments all answer 200
  through `/media/`;
- **published**: `GET /v1/jobs/{job}` says `published` (the complete ladder).
Both are timed from the moment the upload is complete:
- `--inbox DIR`: the clip is written beside the scanner (a dotfile in the inbox, which the worker leaves alone) and
  fsynced, then renamed to its name; the clock starts when `rename` returns. The job's id is read from the catalog
  (`--database`, SQLite, read-only) by the file's name, as the inbox gives no other handle.
- `--token-file PATH`: a tus 1.0.0 upload in 5 MiB PATCHes; the clock starts when the last PATCH is answered, whose
  `Reel-Job` header names the job.
Every upload gets distinct bytes (a `free` box naming TAG after the clip's own boxes), since the worker records a
byte-identical upload as a duplicate and publishes nothing new.

After both, it waits PAUSE seconds (the worker finishes moving the original) and takes the CPU seconds the server's
process tree (`--server-pid` and every live descendant, with what they reaped) spent since the upload was complete:
the worker and its job processes, and also the server answering this probe's polls. Then, off the clock, ffprobe (the
reference tool) must decode init + segment 1 + segment 2, as fetched, as video with frames, or the run fails.

Prints one JSON line: the --label pairs, mode, playable_s, published_s, cpu_s, job, media_id, variant, frames.
"""
import argparse
import base64
import http.client
import json
import os
import sqlite3
import subprocess
import sys
import time
import urllib.parse

CHUNK = 5 * 1024 * 1024  # reel upload's PATCH size: S3's part size, so an s3:// library takes each as one part


class Server:
    """One keep-alive HTTP/1.1 connection to `reel serve`, opened again if the server closes it."""

    def __init__(self, base):
        url = urllib.parse.urlsplit(base)
        self.host, self.port = url.hostname, url.port
        self.connection = None

    def request(self, method, path, body=None, headers=None):
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.connection.request(method, path, body=body, headers=headers or {})
                response = self.connection.getresponse()
                return response.status, response.headers, response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise

    def get(self, path):
        return self.request("GET", path)


def upload_bytes(clip, tag):
    """The clip with a top-level `free` box after its own: still the same MP4 to every reader, different bytes."""
    with open(clip, "rb") as f:
        data = f.read()
    payload = tag.encode()
    return data + (8 + len(payload)).to_bytes(4, "big") + b"free" + payload


def feed_items(server):
    status, _, body = server.get("/v1/feed?limit=50")
    if status != 200:
        raise SystemExit(f"GET /v1/feed answered {status}: {body[:200]!r}")
    return json.loads(body)["items"]


def put_in_inbox(inbox, name, data):
    """Writes the upload beside the scanner and renames it into the inbox; returns the moment it is there."""
    hidden = os.path.join(inbox, "." + name)
    with open(hidden, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.rename(hidden, os.path.join(inbox, name))
    return time.monotonic()


def tus_upload(server, token, name, data):
    """A tus upload in 5 MiB PATCHes; returns (the moment the last PATCH was answered, its job id)."""
    auth = {"Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0"}
    metadata = f"filename {base64.b64encode(name.encode()).decode()},filetype {base64.b64encode(b'video/mp4').decode()}"
    status, headers, body = server.request(
        "POST", "/v1/uploads", headers=dict(auth, **{"Upload-Length": str(len(data)), "Upload-Metadata": metadata}))
    if status != 201:
        raise SystemExit(f"tus POST answered {status}: {body[:200]!r}")
    location = headers["Location"]
    offset, job = 0, None
    while offset < len(data):
        chunk = data[offset:offset + CHUNK]
        status, headers, body = server.request("PATCH", location, body=chunk, headers=dict(auth, **{
            "Upload-Offset": str(offset), "Content-Type": "application/offset+octet-stream"}))
        if status != 204:
            raise SystemExit(f"tus PATCH at {offset} answered {status}: {body[:200]!r}")
        offset = int(headers["Upload-Offset"])
        job = headers.get("Reel-Job")
    complete = time.monotonic()
    if not job:
        raise SystemExit("the last tus PATCH named no job (Reel-Job)")
    return complete, job.rsplit("/", 1)[-1]


def job_from_catalog(database, name):
    """The inbox job's id, by its file's name, once the worker has made its row (None before)."""
    try:
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=1) as db:
            row = db.execute("SELECT id FROM jobs WHERE source_name = ? OR source_name = ?",
                             (name.encode(), name)).fetchone()
    except sqlite3.OperationalError:
        return None  # busy, or not yet made
    return row[0] if row else None


def uris(playlist):
    return [line.strip() for line in playlist.decode().splitlines() if line.strip() and not line.startswith("#")]


def map_uri(playlist):
    for line in playlist.decode().splitlines():
        if line.startswith("#EXT-X-MAP:"):
            for attribute in line[len("#EXT-X-MAP:"):].split(","):
                key, _, value = attribute.partition("=")
                if key == "URI":
                    return value.strip('"')
    return None


def playable(server, item):
    """The variant's path and [init, segment 1, segment 2] bytes when all of the post's first media answer 200."""
    master = item["master_url"]
    status, _, body = server.get(master)
    if status != 200 or not uris(body):
        return None
    variant = urllib.parse.urljoin(master, uris(body)[0])
    status, _, body = server.get(variant)
    if status != 200:
        return None
    init, segments = map_uri(body), uris(body)[:2]
    if init is None or len(segments) < 2:
        return None
    parts = []
    for uri in [init] + segments:
        status, _, part = server.get(urllib.parse.urljoin(variant, uri))
        if status != 200:
            return None
        parts.append(part)
    return variant, parts


def tree_cpu(root):
    """CPU seconds of `root` and its live descendants, each with the children it reaped (/proc/PID/stat)."""
    tick = os.sysconf("SC_CLK_TCK")
    parent, spent = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile: its time is in its parent's reaped children
        parent[int(entry)] = int(fields[1])
        spent[int(entry)] = sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime

    def descends(pid):
        while pid > 1:
            if pid == root:
                return True
            pid = parent.get(pid, 0)
        return False

    return sum(seconds for pid, seconds in spent.items() if descends(pid))


def decodes(parts, keep):
    """Frames ffprobe decodes from init + segment 1 + segment 2 (raises when it cannot, or reports errors)."""
    path = os.path.join(keep, "first-segments.mp4")
    with open(path, "wb") as f:
        for part in parts:
            f.write(part)
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=codec_type,nb_read_frames", "-of", "json", path], capture_output=True, text=True)
    streams = json.loads(probe.stdout or "{}").get("streams", [])
    if probe.returncode != 0 or probe.stderr.strip() or not streams or streams[0].get("codec_type") != "video":
        raise SystemExit(f"ffprobe does not decode {path} as video: {probe.stderr.strip()[:300]}")
    frames = int(streams[0].get("nb_read_frames") or 0)
    if frames < 1:
        raise SystemExit(f"ffprobe decodes no frame from {path}")
    return frames


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--server", required=True, help="the server's base URL")
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--clip", required=True)
    parser.add_argument("--tag", required=True, help="makes this upload's bytes distinct")
    parser.add_argument("--inbox")
    parser.add_argument("--database", help="with --inbox: the SQLite catalog, to find the job by the file's name")
    parser.add_argument("--token-file", help="upload over tus with this bearer token")
    parser.add_argument("--keep", required=True, help="a directory for the fetched segments")
    parser.add_argument("--interval", type=float, default=0.05)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--pause", type=float, default=1.0)
    parser.add_argument("--label", action="append", default=[], metavar="KEY=VALUE", help="copied into the JSON line")
    args = parser.parse_args()
    if bool(args.inbox) == bool(args.token_file) or (args.inbox and not args.database):
        parser.error("give --inbox DIR --database PATH, or --token-file PATH")

    server = Server(args.server)
    data = upload_bytes(args.clip, args.tag)
    name = f"{args.tag}.mp4"
    known = {item["id"] for item in feed_items(server)}
    if args.inbox:
        complete, job = put_in_inbox(args.inbox, name, data), None
    else:
        with open(args.token_file) as f:
            token = f.readline().strip()
        complete, job = tus_upload(server, token, name, data)
    cpu_before = tree_cpu(args.server_pid)  # after the tus PATCHes: the upload is not the job's

    playable_at = published_at = None
    found = None
    tick = complete
    while playable_at is None or published_at is None:
        if playable_at is None:
            if found is None:
                found = next((item for item in feed_items(server) if item["id"] not in known), None)
            got = playable(server, found) if found else None
            if got:
                playable_at, (variant, parts) = time.monotonic(), got
        if published_at is None:
            job = job or job_from_catalog(args.database, name)
            if job:
                status, _, body = server.get(f"/v1/jobs/{job}")
                state = json.loads(body).get("state") if status == 200 else None
                if state == "published":
                    published_at = time.monotonic()
                elif state in ("rejected", "failed"):
                    raise SystemExit(f"job {job} ended {state}: {body[:300]!r}")
        if published_at is not None and playable_at is None and time.monotonic() - published_at > 10:
            raise SystemExit(f"job {job} is published, but 10 s later the post is not playable (a duplicate?)")
        if time.monotonic() - complete > args.timeout:
            raise SystemExit(f"{args.clip}: not playable and published within {args.timeout:.0f} s (job {job})")
        tick += args.interval
        time.sleep(max(0.0, tick - time.monotonic()))

    time.sleep(args.pause)
    cpu = tree_cpu(args.server_pid) - cpu_before
    frames = decodes(parts, args.keep)
    record = dict(label.split("=", 1) for label in args.label)
    record.update({"mode": "inbox" if args.inbox else "tus", "playable_s": round(playable_at - complete, 3),
                   "published_s": round(published_at - complete, 3), "cpu_s": round(cpu, 2), "job": job,
                   "media_id": found["id"], "variant": variant, "frames": frames})
    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    sys.exit(main())
