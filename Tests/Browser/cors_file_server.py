#!/usr/bin/env python3
"""Serves one folder on 127.0.0.1 with `Access-Control-Allow-Origin: *`, as a CDN serves hls.js to other origins.

    python3 Tests/Browser/cors_file_server.py FOLDER     # prints "listening on http://127.0.0.1:PORT"
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


server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=sys.argv[1]))
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
