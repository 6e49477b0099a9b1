#!/usr/bin/env python3
"""Puts hls.js in .build/vendor/hls.mjs for the web client's hls.js browser test; it is never committed.

Debian has no hls.js package and npm is out of reach, but PyPI's gradio wheel carries hls.js as one self-contained
ES-module chunk (templates/frontend/assets/hls-*.js). That chunk does not export the Hls class under a fixed name,
so this finds the class (the one with `static get version()`) and adds a default export for it.
Usage: scripts/fetch-hlsjs.py [--gradio 6.31.0] [--out .build/vendor/hls.mjs]
"""
import argparse, glob, os, re, subprocess, sys, tempfile, zipfile


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gradio", default="6.31.0", help="the gradio wheel's version")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", ".build", "vendor", "hls.mjs"))
    arguments = parser.parse_args()
    out = os.path.abspath(arguments.out)
    if os.path.isfile(out):
        return 0
    with tempfile.TemporaryDirectory() as folder:
        download = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", folder,
                                   f"gradio=={arguments.gradio}"], capture_output=True, text=True)
        if download.returncode != 0:
            sys.exit(f"fetch-hlsjs: pip download gradio=={arguments.gradio} failed: {download.stderr[-600:]}")
        wheel = zipfile.ZipFile(glob.glob(os.path.join(folder, "gradio-*.whl"))[0])
        for name in wheel.namelist():
            if not re.search(r"templates/frontend/assets/hls-[^/]*\.js$", name):
                continue
            source = wheel.read(name).decode("utf-8")
            found = re.search(r"([A-Za-z_$][\w$]*)=class [\w$]*\{static get version\(\)", source)
            if not found or "MANIFEST_PARSED" not in source or re.search(r"^\s*import[\s{*]", source, re.M):
                continue
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out + ".partial", "w") as file:
                file.write(source.rstrip() + f"\nexport {{ {found.group(1)} as default }};\n")
            os.replace(out + ".partial", out)
            print(f"fetch-hlsjs: {out} from {name} in gradio {arguments.gradio}")
            return 0
    sys.exit(f"fetch-hlsjs: no self-contained hls.js chunk in gradio {arguments.gradio}")


if __name__ == "__main__":
    sys.exit(main())
