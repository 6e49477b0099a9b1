#!/usr/bin/env python3
"""Turns `public` into `package` across the package's own Swift code: run ONCE, after the pending refactors merge.

Issue 63: Reel ships executables (`reel`, `reel-bench`, `reel-fuzz`), so nothing but the package itself links its
modules, and `package` says so (swift-crypto's CryptoBoringWrapper, house style "Keep the C imports out of the
API"). The change touches nearly every file, so it is a script to run once on a quiet tree, not a commit that every
open branch would conflict with.

What it does, token by token in code (string literals and comments are masked, so "public, max-age=..." stays):
- `public` as a declaration modifier becomes `package` (`public(set)` becomes `package(set)`);
- `public import X` becomes `package import X` (a `package` declaration may show X's types; with
  InternalImportsByDefault a plain `import` would hide them);
- it leaves alone `@_cdecl` functions (libFuzzer finds `LLVMFuzzerTestOneInput` by its exported C symbol) and,
  unless --all, the targets of the `PrefetchSim` library product and what its API shows (MediaModel), because
  docs/simulator.md and docs/cli.md offer that product to other packages (`.product(name: "PrefetchSim", ...)`).
  With --all it converts those too and removes the product from Package.swift; update those two docs by hand.
There is no `open`, `@inlinable`, `@usableFromInline` or `@frozen` in the tree (2026-12-05); the script stops if it
finds one, since those need a decision per declaration.

Usage: scripts/dev/package-access.py [--all] [--check] [--root DIR]
  --check   change nothing; exit 1 if a file would change (to keep `public` from coming back).
Then: make format (`package` is one letter longer than `public`: a few signatures pass 120 columns and are
rewrapped), swift build --build-tests, make test.
"""
import argparse
import os
import re
import sys

KEEP_PUBLIC_TARGETS = ["Sources/PrefetchSim", "Sources/MediaModel"]
FOLDERS = ["Sources", "Fuzz", "Tests"]
FOLLOWERS = (
    r"import|func|var|let|init|deinit|static|class|struct|enum|protocol|typealias|extension|actor|final|subscript|"
    r"private|fileprivate|internal|nonisolated|override|mutating|nonmutating|convenience|required|indirect|lazy|"
    r"unowned|weak|dynamic|consuming|borrowing|associatedtype|macro|operator|precedencegroup|@\w+"
)
MODIFIER = re.compile(r"\bpublic(?=\s*\(set\)|\s+(?:" + FOLLOWERS + r")\b)")
REFUSED = re.compile(r"\bopen\s+(?:class|func|var|let|subscript)\b|@inlinable\b|@usableFromInline\b|@frozen\b")


def mask(source):
    """The source with every string literal and comment replaced by spaces (newlines kept), so offsets match."""
    out = list(source)
    i, n = 0, len(source)
    stack = []  # open interpolations: the string kind to return to after the `)` that closes each one

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def string_end(start, quotes, hashes):
        """Masks a string from `start` (after its opening delimiter); returns where code resumes."""
        j = start
        closer = quotes + "#" * hashes
        escape = "\\" + "#" * hashes
        while j < n:
            if source.startswith(escape + "(", j):
                blank(start, j)
                depth, k = 1, j + len(escape) + 1
                # Interpolated code: mask nested strings recursively, count parentheses.
                while k < n and depth:
                    c = source[k]
                    if c == '"':
                        k = skip_string(k)
                        continue
                    if c == "(":
                        depth += 1
                    elif c == ")":
                        depth -= 1
                    k += 1
                start = j = k
                continue
            if source.startswith(escape, j):
                j += len(escape) + 1
                continue
            if source.startswith(closer, j):
                blank(start, j)
                return j + len(closer)
            j += 1
        blank(start, n)
        return n

    def skip_string(j):
        hashes = 0
        while j < n and source[j] == "#":
            hashes += 1
            j += 1
        quotes = '"""' if source.startswith('"""', j) else '"'
        return string_end(j + len(quotes), quotes, hashes)

    while i < n:
        if source.startswith("//", i):
            j = source.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif source.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if source.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif source.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif source[i] == '"' or (source[i] == "#" and re.match(r'#+"', source[i:i + 8])):
            i = skip_string(i)
        else:
            i += 1
    return "".join(out)


def convert(source, path):
    code = mask(source)
    refused = REFUSED.search(code)
    if refused:
        line = code.count("\n", 0, refused.start()) + 1
        sys.exit(f"{path}:{line}: `{refused.group(0)}` needs a decision of its own; convert this file by hand")
    edits = []
    for match in MODIFIER.finditer(code):
        # `@_cdecl` functions keep their exported symbol: the attribute is on this line or the one above.
        line_start = code.rfind("\n", 0, match.start()) + 1
        previous_start = code.rfind("\n", 0, max(0, line_start - 1)) + 1
        if "@_cdecl" in code[previous_start:match.start()]:
            continue
        edits.append(match.start())
    if not edits:
        return source, 0
    pieces, last = [], 0
    for start in edits:
        pieces.append(source[last:start])
        pieces.append("package")
        last = start + len("public")
    pieces.append(source[last:])
    return "".join(pieces), len(edits)


def swift_files(root, folders):
    for folder in folders:
        for directory, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


def drop_product(root, check):
    path = os.path.join(root, "Package.swift")
    text = open(path, encoding="utf-8").read()
    line = '        .library(name: "PrefetchSim", targets: ["PrefetchSim"]),\n'
    if line not in text:
        return 0
    if not check:
        open(path, "w", encoding="utf-8").write(text.replace(line, ""))
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="also PrefetchSim and MediaModel; drop the product")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if something would change")
    parser.add_argument("--root", default=".", help="the package root (default: .)")
    arguments = parser.parse_args()
    keep = [] if arguments.all else [os.path.join(arguments.root, k) + os.sep for k in KEEP_PUBLIC_TARGETS]
    changed_files = changed_tokens = 0
    for path in swift_files(arguments.root, FOLDERS):
        if any(path.startswith(k) for k in keep) or "/.build/" in path:
            continue
        source = open(path, encoding="utf-8").read()
        result, count = convert(source, path)
        if count:
            changed_files += 1
            changed_tokens += count
            if arguments.check:
                print(f"{path}: {count} `public`")
            else:
                open(path, "w", encoding="utf-8").write(result)
    product = drop_product(arguments.root, arguments.check) if arguments.all else 0
    verb = "would change" if arguments.check else "changed"
    print(f"package-access: {verb} {changed_tokens} `public` in {changed_files} files"
          + ("; the PrefetchSim product" if product else ""))
    if arguments.check and (changed_files or product):
        sys.exit(1)


if __name__ == "__main__":
    main()
