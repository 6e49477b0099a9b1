#!/usr/bin/env bash
# Checks a running `reel serve` against the OpenAPI description it serves at /openapi.yaml, with schemathesis
# (installed by `scripts/install-deps.sh test`). Exits with schemathesis's status: 0 when every check passed.
#
# Usage: Tests/Contract/run_schemathesis.sh BASE_URL [--token TOKEN] [--exclude-path-regex REGEX]...
#                                           [--max-examples N] [--seed N] [-- SCHEMATHESIS_ARGS...]
#   BASE_URL              where the server listens, e.g. http://127.0.0.1:8080 (what `reel serve` prints)
#   --token TOKEN         a bearer token (`reel token create`), sent on every request: the upload operations need
#                         it, and the rest ignore it (a viewer-session token is asked of the server and sent too)
#   --exclude-path-regex  skip the operations whose path matches (repeatable), e.g. '^/v1/uploads' while the server
#                         has no upload routes
#   --max-examples N      test cases per operation and phase (default 25)
#   --seed N              hypothesis's seed (default 1, so a run is repeatable)
#
# The checks: no 5xx (not_a_server_error), every status, content type, header and body the description names
# (status_code_conformance, content_type_conformance, response_headers_conformance, response_schema_conformance).
# The description's examples name real ids: the jobs 45e721da56e24bb8ac2c (queued) and 8d1f0a6b2c9e4f7a5b3c
# (rejected), the video v000000029 (`reel db seed --count 30`), and its files master.m3u8, poster.jpg and
# 360p/seg_000.m4s under the library's videos/v000000029/, and the post 0c0ffee0c0ffee0c0ffe uploaded with the
# token, which DELETE removes (OpenAPIContractTests makes them all).
set -euo pipefail

usage() { sed -n '5,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }

[ $# -ge 1 ] || usage
base=${1%/}
shift
token=""
max_examples=25
seed=1
excludes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --token) [ $# -ge 2 ] || usage; token=$2; shift 2 ;;
    --exclude-path-regex) [ $# -ge 2 ] || usage; excludes+=(--exclude-path-regex "$2"); shift 2 ;;
    --max-examples) [ $# -ge 2 ] || usage; max_examples=$2; shift 2 ;;
    --seed) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
    --) shift; break ;;
    *) usage ;;
  esac
done

python=${PYTHON:-python3}
if ! "$python" -c 'import schemathesis' 2>/dev/null; then
  echo "schemathesis is not installed for $python: run scripts/install-deps.sh test" >&2
  exit 69
fi

auth=()
[ -z "$token" ] || auth=(-H "Authorization: Bearer $token")
# Viewer events need a session token from the server itself (POST /v1/sessions), sent on every request as the bearer
# token is: the events operation needs it, and the rest ignore it. A server without the events routes has none.
session=$(curl -s -X POST "$base/v1/sessions" \
  | "$python" -c 'import json, sys; print(json.load(sys.stdin).get("token", ""))' 2>/dev/null || true)
[ -z "$session" ] || auth+=(-H "Reel-Session: $session")

# Lets /media/{path} examples name files below the library's folders (see the file).
export SCHEMATHESIS_HOOKS
SCHEMATHESIS_HOOKS="$(cd "$(dirname "$0")" && pwd)/schemathesis_hooks.py"

# schemathesis keeps hypothesis's example database and its reports in the working directory: use a scratch one.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"

set -x
"$python" -m schemathesis.cli run "$base/openapi.yaml" \
  --url "$base" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --max-examples "$max_examples" \
  --seed "$seed" \
  --workers 1 \
  --request-timeout 10 \
  --no-color \
  ${excludes[@]+"${excludes[@]}"} \
  ${auth[@]+"${auth[@]}"} \
  "$@"
