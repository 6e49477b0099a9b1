#!/usr/bin/env python3
"""Serves one folder on 127.0.0.1 (or ADDRESS) with `Access-Control-Allow-Origin: *`, as a CDN serves hls.js to
other origins.

    python3 Tests/Browser/cors_file_server.py FOLDER [ADDRESS]     # prints "listening on http://ADDRESS:PORT"
"""
import functools, sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer


class Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript", ".js": "text/javascript"}

    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def log_message(self, *arguments):
        pass


address = sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
server = ThreadingHTTPServer((address, 0), functools.partial(Handler, directory=sys.argv[1]))
print(f"listening on http://{address}:{server.server_address[1]}", flush=True)
server.serve_forever()
