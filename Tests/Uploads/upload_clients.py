#!/usr/bin/env python3
"""Clients that Reel did not write, for UploadServerTests: tuspy (PyPI's tus client) and raw HTTP.

    upload_clients.py tuspy --url URL --token T --file F --storage S [--chunk N] [--stop-after K]
    upload_clients.py refusals --url URL --token T --small F --huge F
    upload_clients.py slowloris --url URL --token T --file F --idle-seconds S
    upload_clients.py concurrent --url URL --token T FILE...

Each prints one JSON object; the Swift test decides what is right.
"""
import argparse, base64, http.client, json, os, socket, sys, threading, time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit


def tuspy_upload(args):
    from tusclient import client as tus_client
    from tusclient.storage import filestorage
    from tusclient.exceptions import TusCommunicationError

    client = tus_client.TusClient(args.url + "/v1/uploads", headers={"Authorization": "Bearer " + args.token})
    storage = filestorage.FileStorage(args.storage)
    uploader = client.uploader(args.file, chunk_size=args.chunk, store_url=True, url_storage=storage,
                               upload_checksum=True, metadata={"filename": os.path.basename(args.file),
                                                               "filetype": "video/mp4"})
    report = {"url": uploader.url, "startOffset": uploader.offset, "size": uploader.get_file_size()}
    try:
        if args.stop_after:
            for _ in range(args.stop_after):
                uploader.upload_chunk()
        else:
            uploader.upload()
    except TusCommunicationError as error:
        report["error"] = {"status": error.status_code, "message": str(error)}
    report["offset"] = uploader.offset
    report["url"] = uploader.url
    storage.close()
    return report


def request(url, method, token=None, headers=None, body=None):
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    fields = {"Tus-Resumable": "1.0.0"}
    if token:
        fields["Authorization"] = "Bearer " + token
    fields.update(headers or {})
    connection.request(method, parts.path, body=body, headers=fields)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def refusals(args):
    """tuspy against the gateway's refusals: no token, a wrong token, a declared length over the limit."""
    from tusclient import client as tus_client
    from tusclient.exceptions import TusCommunicationError

    report = {}
    for name, token, path in (("noToken", None, args.small), ("wrongToken", "reel_wrong", args.small),
                              ("oversized", args.token, args.huge)):
        headers = {"Authorization": "Bearer " + token} if token else {}
        uploader = tus_client.TusClient(args.url + "/v1/uploads", headers=headers).uploader(path, chunk_size=1 << 20)
        try:
            uploader.upload()
            report[name] = {"status": None}
        except TusCommunicationError as error:
            report[name] = {"status": error.status_code, "message": str(error)}
    status, headers, body = request(args.url + "/v1/uploads", "POST", headers={"Upload-Length": "10"})
    report["rawNoToken"] = {"status": status, "wwwAuthenticate": headers.get("www-authenticate"),
                            "body": json.loads(body or b"{}")}
    return report


def slowloris(args):
    """Opens a PATCH, sends a few bytes and stalls; meanwhile uploads the whole file on another connection."""
    with open(args.file, "rb") as handle:
        data = handle.read()
    metadata = "filename " + base64.b64encode(b"slow.mp4").decode()
    status, headers, _ = request(args.url + "/v1/uploads", "POST", args.token,
                                 {"Upload-Length": str(len(data)), "Upload-Metadata": metadata})
    slow_location = headers["location"]
    parts = urlsplit(args.url)
    slow = socket.create_connection((parts.hostname, parts.port))
    head = (f"PATCH {slow_location} HTTP/1.1\r\nHost: {parts.netloc}\r\nTus-Resumable: 1.0.0\r\n"
            f"Authorization: Bearer {args.token}\r\nUpload-Offset: 0\r\n"
            f"Content-Type: application/offset+octet-stream\r\nContent-Length: {len(data)}\r\n\r\n")
    slow.sendall(head.encode() + data[:1000])
    opened = time.time()

    # The other upload goes through while the slow one holds its PATCH open.
    status, headers, _ = request(args.url + "/v1/uploads", "POST", args.token,
                                 {"Upload-Length": str(len(data)), "Content-Type": "application/offset+octet-stream",
                                  "Upload-Metadata": "filename " + base64.b64encode(b"fast.mp4").decode()}, data)
    fast = {"status": status, "job": headers.get("reel-job"), "seconds": round(time.time() - opened, 2)}

    # The server closes the stalled connection once it has been idle too long.
    slow.settimeout(args.idle_seconds * 10 + 30)
    closed_after = None
    try:
        while True:
            chunk = slow.recv(65536)
            if not chunk:
                closed_after = round(time.time() - opened, 2)
                break
    except (socket.timeout, ConnectionResetError):
        closed_after = round(time.time() - opened, 2)
    slow.close()
    # The server finishes the cut-off PATCH (fsync, catalog) after closing the socket: ask until it has, or 30 s.
    deadline = time.time() + 30
    while True:
        status, headers, _ = request(args.url + slow_location, "HEAD", args.token)
        if headers.get("upload-offset") != "0" or time.time() > deadline:
            break
        time.sleep(0.1)
    return {"fast": fast, "slowClosedAfterSeconds": closed_after, "slowHead": {"status": status, "offset": headers.get("upload-offset")}}


def concurrent(args):
    def one(path):
        with open(path, "rb") as handle:
            data = handle.read()
        try:
            status, headers, body = request(args.url + "/v1/uploads", "POST", args.token,
                                            {"Upload-Length": str(len(data)), "Content-Type": "application/offset+octet-stream",
                                             "Upload-Metadata": "filename " + base64.b64encode(os.path.basename(path).encode()).decode()},
                                            data)
            return {"file": path, "status": status, "job": headers.get("reel-job"), "offset": headers.get("upload-offset"),
                    "body": body.decode(errors="replace")[:300]}
        except OSError as error:
            return {"file": path, "error": str(error)}
    with ThreadPoolExecutor(max_workers=len(args.files)) as pool:
        results = list(pool.map(one, args.files))
    return {"results": results}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    tus = commands.add_parser("tuspy")
    for p in [tus]:
        p.add_argument("--url", required=True)
        p.add_argument("--token", required=True)
        p.add_argument("--file", required=True)
    tus.add_argument("--storage", required=True)
    tus.add_argument("--chunk", type=int, default=64 * 1024)
    tus.add_argument("--stop-after", type=int, default=0)
    refuse = commands.add_parser("refusals")
    refuse.add_argument("--url", required=True)
    refuse.add_argument("--token", required=True)
    refuse.add_argument("--small", required=True)
    refuse.add_argument("--huge", required=True)
    slow = commands.add_parser("slowloris")
    slow.add_argument("--url", required=True)
    slow.add_argument("--token", required=True)
    slow.add_argument("--file", required=True)
    slow.add_argument("--idle-seconds", type=float, required=True)
    many = commands.add_parser("concurrent")
    many.add_argument("--url", required=True)
    many.add_argument("--token", required=True)
    many.add_argument("files", nargs="+")
    args = parser.parse_args()
    handler = {"tuspy": tuspy_upload, "refusals": refusals, "slowloris": slowloris, "concurrent": concurrent}[args.command]
    print(json.dumps(handler(args)))


if __name__ == "__main__":
    sys.exit(main())
