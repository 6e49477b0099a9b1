"""schemathesis hooks for Reel's contract run (loaded by run_schemathesis.sh through SCHEMATHESIS_HOOKS).

`/media/{path}` takes a path below the library, slashes included (`videos/v000000029/master.m3u8`), but OpenAPI path
parameters are one segment, so schemathesis percent-encodes every `/` and the server (rightly) answers 404 to
`%2F`. Sending the slashes as slashes lets the examples reach real files, so the 200, 206, 304 and 416 answers are
checked too, and fuzzed multi-segment paths exercise the route's traversal defences.
"""

from urllib.parse import quote, unquote

import schemathesis
from schemathesis.core.parameters import EncodedPath


@schemathesis.hook
def before_call(context, case, kwargs):
    if case.operation.path != "/media/{path}" or not case.path_parameters:
        return
    value = case.path_parameters.get("path")
    if not isinstance(value, str) or isinstance(value, EncodedPath):
        return
    # By now the value is percent-encoded as one segment: decode it once, then encode segment by segment.
    decoded = unquote(value)
    if "/" in decoded:
        case.path_parameters["path"] = EncodedPath("/".join(quote(part, safe="") for part in decoded.split("/")))


@schemathesis.serializer("application/offset+octet-stream")
def offset_stream(ctx, value):
    """tus bodies are raw bytes: generated binary strings go as they are, anything else as its UTF-8 text."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return str(value).encode("utf-8")
