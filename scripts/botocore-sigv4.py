#!/usr/bin/env python3
"""Signs requests with botocore's own SigV4 signer, for SigV4Tests' cross-check of Reel's signer.

Usage: botocore-sigv4.py CASES.json  -> one JSON object per case on stdout.
Each case: id, method, scheme, host, path (decoded, '/'-separated), query [[name, value]], headers [[name, value]],
payload_size and payload_seed (the payload: a 256-byte run from the seed, repeated), region, access, secret, token (or null), unix (seconds), presign_expires (or null).
The path is percent-encoded the way botocore's serializer encodes S3 keys (utils.percent_encode, safe '/~').
"""
import datetime
import json
import sys

import botocore
import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.utils import percent_encode

assert botocore.__version__ == "1.43.11", f"botocore {botocore.__version__}, the test pins 1.43.11"


def payload(size, seed):
    run = bytes((j + seed) & 0xFF for j in range(256))
    return (run * (size // 256 + 1))[:size]


def sign(case):
    when = datetime.datetime.fromtimestamp(case["unix"], tz=datetime.timezone.utc).replace(tzinfo=None)
    botocore.auth.get_current_datetime = lambda: when
    credentials = Credentials(case["access"], case["secret"], case.get("token"))
    url = f'{case["scheme"]}://{case["host"]}{percent_encode(case["path"], safe="/~")}'
    params = {name: value for name, value in case["query"]}
    if case.get("presign_expires") is not None:
        request = AWSRequest(method=case["method"], url=url, params=params, headers={})
        signer = botocore.auth.S3SigV4QueryAuth(credentials, "s3", case["region"], expires=case.get("presign_expires"))
        signer.add_auth(request)
        query = request.url.split("?", 1)[1]
        pairs = sorted(query.split("&"))
        return {"id": case["id"], "query": pairs}
    headers = {name: value for name, value in case["headers"]}
    request = AWSRequest(
        method=case["method"], url=url, params=params, headers=headers, data=payload(case["payload_size"], case["payload_seed"]))
    botocore.auth.S3SigV4Auth(credentials, "s3", case["region"]).add_auth(request)
    return {
        "id": case["id"],
        "authorization": request.headers["Authorization"],
        "content_sha256": request.headers["X-Amz-Content-SHA256"],
        "token": request.headers.get("X-Amz-Security-Token"),
    }


with open(sys.argv[1]) as f:
    cases = json.load(f)
for case in cases:
    print(json.dumps(sign(case)))
