#!/usr/bin/env python3
"""Lists the explicit trap sites in Swift sources, one `file:line: construct: code` per line, for docs/traps.md.

Issue 32: "Where a trap is a choice, as with `!`, `try!`, `fatalError` and `precondition` on input-derived values
in Sources, replace it with a typed error. List the ones that remain, and why each cannot fire." This script finds
the choices; whether a site can fire is a judgement docs/traps.md records per site.

It reads the files lexically, without a compiler: string literals (with their interpolations kept as code, raw
and multi-line strings) and comments are blanked first, so a `!` or `fatalError(` inside text is not counted.
Then it reports:

- `try!`, `as!`, `fatalError(`, `precondition(`, `preconditionFailure(`, `assert(`, `assertionFailure(`,
  `unsafelyUnwrapped` and `unowned(unsafe)`;
- a postfix `!`: one that follows an identifier, `)`, `]`, `}`, `?`, `>` or another `!` with no space between,
  and is not the start of `!=` or `!==`. Prefix negation (`!flag`, `a && !b`) has a space or an opening bracket
  before it and is not counted. A postfix `!` after a type annotation (`: Int!`, `-> T!`, `[T]!`) is reported as
  `Type!` (an implicitly unwrapped optional), the others as `x!`.

It does not find arithmetic overflow, out-of-range subscripts or `Int(_:)` of a Double out of range: those need
reading, and docs/traps.md lists what was read. Deterministic (files and lines in sorted order), no dependencies.
Usage: scripts/list-traps.py [--summary] [--self-test] [PATH ...]   (default PATH: Sources; only *.swift files)
"""
import argparse
import os
import re
import sys
from collections import Counter

IDENT = re.compile(r"[A-Za-z0-9_]")


def mask(source):
    """The source with comments and string-literal text replaced by spaces (newlines kept), interpolations kept."""
    out = list(source)
    n = len(source)
    i = 0
    # A stack of string contexts: (hashes, multiline, paren depth inside the current interpolation or None).
    stack = []

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def open_string(at):
        """If a string literal opens at `at`, returns (hashes, multiline, index after the opening delimiter)."""
        j = at
        while j < n and source[j] == "#":
            j += 1
        hashes = j - at
        if j < n and source[j] == '"':
            if source.startswith('"""', j):
                return hashes, True, j + 3
            return hashes, False, j + 1
        return None

    def code_until_string_end(i):
        """Scans code from i; returns where the code ends (end of file, or a `)` closing an interpolation)."""
        depth = 0
        while i < n:
            c = source[i]
            if source.startswith("//", i):
                j = source.find("\n", i)
                j = n if j < 0 else j
                blank(i, j)
                i = j
                continue
            if source.startswith("/*", i):
                level, j = 1, i + 2
                while j < n and level:
                    if source.startswith("/*", j):
                        level, j = level + 1, j + 2
                    elif source.startswith("*/", j):
                        level, j = level - 1, j + 2
                    else:
                        j += 1
                blank(i, j)
                i = j
                continue
            if c == "#" or c == '"':
                opened = open_string(i)
                if opened and not (c == "#" and i > 0 and IDENT.match(source[i - 1])):
                    hashes, multiline, j = opened
                    i = string_body(j, hashes, multiline, i)
                    continue
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0 and stack:
                    return i
                depth -= 1
            i += 1
        return i

    def string_body(j, hashes, multiline, start):
        """Blanks a string literal's text from start; returns the index after its closing delimiter."""
        close = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        text_from = j
        blank(start, j)
        while j < n:
            if source.startswith(close, j):
                blank(text_from, j)
                end = j + len(close)
                blank(j, end)
                return end
            if source.startswith(escape, j):
                k = j + len(escape)
                if k < n and source[k] == "(":
                    blank(text_from, k + 1)
                    stack.append(True)
                    k = code_until_string_end(k + 1)
                    stack.pop()
                    # k is at the `)` closing the interpolation
                    j = k + 1
                    text_from = j
                    continue
                j = k + 1
                continue
            if not multiline and source[j] == "\n":
                break
            j += 1
        blank(text_from, j)
        return j

    code_until_string_end(0)
    return "".join(out)


WORD_RULES = [
    ("try!", re.compile(r"\btry!")),
    ("as!", re.compile(r"\bas!")),
    ("fatalError", re.compile(r"\bfatalError\s*\(")),
    ("precondition", re.compile(r"\bprecondition\s*\(")),
    ("preconditionFailure", re.compile(r"\bpreconditionFailure\s*\(")),
    ("assert", re.compile(r"\bassert\s*\(")),
    ("assertionFailure", re.compile(r"\bassertionFailure\s*\(")),
    ("unsafelyUnwrapped", re.compile(r"\.unsafelyUnwrapped\b")),
    ("unowned(unsafe)", re.compile(r"\bunowned\s*\(\s*unsafe\s*\)")),
]
# A type in a declaration just before the `!`: `var x: Int!`, `-> Foo.Bar!`, `let y: [Int]!`, `func f(a: T!`.
# A call's argument label (`from: pointer!`) is not a declaration: its `!` is a force unwrap.
IUO_BEFORE = re.compile(
    r"(?:\b(?:var|let)\s+\w+\s*:\s*|->\s*|\b(?:func|init|subscript)\b[^{=]*\w\s*:\s*)[A-Z\[][\w.\[\]<>, ?]*$")


def scan(code):
    """(offset, construct) for each trap site in masked code."""
    found = []
    for name, pattern in WORD_RULES:
        for match in pattern.finditer(code):
            found.append((match.start(), name))
    for index, char in enumerate(code):
        if char != "!" or index == 0:
            continue
        before = code[index - 1]
        if not (IDENT.match(before) or before in ")]}?>!"):
            continue
        after = code[index + 1] if index + 1 < len(code) else ""
        if after == "=":
            continue  # `!=`, `!==`: Swift lexes `a!=b` as `a != b`
        word_start = index - 1
        while word_start >= 0 and IDENT.match(code[word_start]):
            word_start -= 1
        word = code[word_start + 1 : index]
        if word in ("try", "as"):
            continue  # counted above
        if before == "!" and index >= 2 and code[index - 2] != "!" and not IDENT.match(code[index - 2]) \
                and code[index - 2] not in ")]}?>":
            continue  # `!!x` is two prefix negations
        line_start = code.rfind("\n", 0, index) + 1
        if IUO_BEFORE.search(code[line_start:index]) and (IDENT.match(before) or before in "]>"):
            found.append((index, "Type!"))
        else:
            found.append((index, "x!"))
    return sorted(found)


def sites(path):
    with open(path, encoding="utf-8") as handle:
        source = handle.read()
    code = mask(source)
    lines = source.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    import bisect

    for offset, construct in scan(code):
        line = bisect.bisect_right(starts, offset)
        yield line, construct, lines[line - 1].strip()


def swift_files(paths):
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        for directory, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(directory, name)


SELF_TEST = r'''
let a = b!.c          // 1 x!
let d = e != f        // none
let g = !h            // none
if !i && !j {}        // none
let k = try! l()      // 1 try!
let m = n as! O       // 1 as!
var p: Int!           // 1 Type!
f(from: q!)           // 1 x!
let q = "r! \(s!) t"  // 1 x! (interpolation)
let u = #"v!"#        // none
/* w! */ x = y[z]!    // 1 x!
fatalError("no")      // 1 fatalError
let aa = bb!==cc      // none
let dd = (ee)!        // 1 x!
let ff = """
  gg! \(hh!)
  """                 // 1 x!
let ii = !!jj         // none
'''


def self_test():
    got = Counter(construct for _, construct in scan(mask(SELF_TEST)))
    want = Counter({"x!": 6, "try!": 1, "as!": 1, "Type!": 1, "fatalError": 1})
    if got != want:
        print(f"self-test failed: got {dict(got)}, want {dict(want)}", file=sys.stderr)
        return 1
    print("self-test passed")
    return 0


def main():
    parser = argparse.ArgumentParser(description="List explicit trap sites in Swift sources.")
    parser.add_argument("paths", nargs="*", default=["Sources"])
    parser.add_argument("--summary", action="store_true", help="print counts per construct after the list")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    counts = Counter()
    for path in swift_files(args.paths):
        for line, construct, text in sites(path):
            counts[construct] += 1
            print(f"{path}:{line}: {construct}: {text}")
    if args.summary:
        total = sum(counts.values())
        print(f"# {total} sites: " + ", ".join(f"{name} {count}" for name, count in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
