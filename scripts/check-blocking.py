#!/usr/bin/env python3
"""Fails when a known blocking call appears in async code, so the house rule is checked and not only remembered.

House style: "Never block a thread of the cooperative pool: no synchronous SQLite, no subprocess wait, no semaphore
and no sleep in async code." The pool has one thread per core (two on CI); one blocked thread halves the server,
two deadlock it, and the symptom is a test that hangs far from the cause. This scanner reads Sources/ and Tests/
(*.swift) lexically, without a compiler:

- it masks string literals (with interpolations, raw and multi-line strings) and comments, then matches braces;
- a `{` opens an async region when it is the body of a function, initialiser or accessor whose effects (after the
  parameter list, before `->`) say `async`; a closure passed to Task { }, Task.detached, addTask, withTaskGroup,
  withThrowingTaskGroup, .task and the like; a closure whose own header (`{ () async in`) or declared type
  (`let f: @Sendable () async -> Void = {`) says async; or a closure that itself uses `await`;
- so is a Hummingbird route handler (`router.get("/x") { request, context in }`);
- other closures and control-flow blocks inherit their enclosing region, except closures handed to something that
  runs them off the pool (runIfActive, onOwnThread, NIOThreadPool, DispatchQueue….async, Thread { }, threadPool.run), which are
  exempt; a nested `func`, type or computed property starts over from its own signature;
- each call in the RULES table below that falls inside an async region is reported, unless the line, or the block
  opened on the line, is marked `// blocking-ok: <reason>` (the reason must not be empty).

It is a heuristic: it sees neither types nor call graphs (a sync helper called from async code is not followed).
A synchronous @Test function is not async by its signature, but Swift Testing calls it on the cooperative pool all
the same (four sync tests that each sleep 2 s take 4 s on two cores); --sync-tests checks those too.
Usage: scripts/check-blocking.py [--list-async] [--sync-tests] [--self-test] [--root DIR] [PATH ...]
       (default PATHs: Sources Tests Fuzz; exit status 1 when there are findings)
"""
import argparse
import bisect
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Callable, Optional


# MARK: - The rules

@dataclass(frozen=True)
class Rule:
    call: str                       # shown in the report; {0} is the pattern's first group, {receiver} what precedes
    pattern: str                    # matched against the code with strings and comments blanked out
    reason: str
    unless_awaited: bool = False    # `await x.wait()` is somebody's async wait, not this blocking one
    verify: Optional[Callable] = None   # (code, match) -> bool, a further look at the call
    on_source: bool = False         # match the original text (the rule needs a string literal's content)


def arguments_of(code, match):
    """The text between the parentheses that follow the match (balanced), or "" when there are none."""
    start = code.find("(", match.start(), match.end() + 1)
    if start < 0:
        return ""
    end = skip_balanced(code, start)
    return code[start + 1:end - 1]


def not_wnohang(code, match):
    return "WNOHANG" not in arguments_of(code, match)


def unlabelled_argument(code, match):
    """C's sleep(3) takes a bare number; `sleep(for:)`, `sleep(seconds:)` are somebody's async helpers."""
    return not re.match(r"\s*\w+\s*:", arguments_of(code, match))


# A C function called bare or through its module (`Glibc.sleep(1)`), not a method (`Task.sleep`, `clock.sleep`).
C_CALL = r"(?:(?<![\w.])|(?<=\bGlibc\.)|(?<=\bDarwin\.)|(?<=\bMusl\.)|(?<=\bFoundation\.))"

RULES = [
    Rule("DispatchSemaphore", r"\bDispatchSemaphore\b",
         "a semaphore parks the pool thread until another thread signals; use a continuation or an actor"),
    Rule("semaphore.wait(", r"\b\w*[sS]emaphore\w*\s*\.\s*wait\s*\(",
         "blocks the pool thread until a signal (deadlocks when the signaller needs the pool)", unless_awaited=True),
    Rule("group.wait(", r"\b\w*[gG]roup\w*\s*\.\s*wait\s*\(",
         "DispatchGroup.wait blocks the pool thread; use notify(queue:) with a continuation", unless_awaited=True),
    Rule(".waitUntilExit(", r"\.\s*waitUntilExit\s*\(",
         "Process.waitUntilExit blocks the pool thread until the child exits; await its termination instead"),
    Rule("ChildProcess.waitUntil(", r"\bChildProcess\s*\.\s*waitUntil\s*\(",
         "polls with usleep on the pool thread; use ChildProcess.suspendUntil", unless_awaited=True),
    Rule("ChildProcess.run(", r"\bChildProcess\s*\.\s*run\s*\(",
         "runs the command to its end with a blocking waitpid on the pool thread", unless_awaited=True),
    Rule("ReelProcess.run(", r"\bReelProcess\s*\.\s*run\s*\(",
         "runs reel to its end (ChildProcess.run underneath): a blocking waitpid on the pool thread",
         unless_awaited=True),
    Rule("{receiver}.wait()", r"\.\s*wait\s*\(\s*\)",
         "a synchronous wait (ChildProcess/Subprocess: a blocking waitpid; DispatchSemaphore/Group: a parked "
         "thread); await a continuation, or poll hasExited with Task.sleep", unless_awaited=True),
    Rule("waitpid(", C_CALL + r"waitpid\s*\(",
         "waitpid without WNOHANG blocks the pool thread until the child exits", verify=not_wnohang),
    Rule("usleep(", C_CALL + r"usleep\s*\(", "sleeps on the pool thread; use Task.sleep"),
    Rule("nanosleep(", C_CALL + r"nanosleep\s*\(", "sleeps on the pool thread; use Task.sleep"),
    Rule("sleep(", C_CALL + r"sleep\s*\(", "C sleep() holds the pool thread; use Task.sleep",
         unless_awaited=True, verify=unlabelled_argument),
    Rule("Thread.sleep", r"\bThread\s*\.\s*sleep\b", "sleeps on the pool thread; use Task.sleep"),
    Rule("NSCondition", r"\bNSCondition(?:Lock)?\b", "a condition wait parks the pool thread"),
    Rule("pthread_cond_wait", C_CALL + r"pthread_cond_(?:timed)?wait\s*\(", "parks the pool thread"),
    Rule("pthread_join(", C_CALL + r"pthread_join\s*\(", "blocks the pool thread until the thread ends"),
    Rule("readLine(", C_CALL + r"readLine\s*\(", "a blocking read of standard input on the pool thread"),
    Rule("FileHandle.readDataToEndOfFile", r"\.\s*readDataToEndOfFile\s*\(",
         "a blocking read until EOF on the pool thread; use FileHandle.bytes or a thread pool"),
    Rule("FileHandle.readToEnd", r"\.\s*readToEnd\s*\(\s*\)",
         "a blocking read until EOF on the pool thread; use FileHandle.bytes or a thread pool", unless_awaited=True),
    Rule("FileHandle.availableData", r"\.\s*availableData\b",
         "a blocking read on the pool thread when the pipe is empty"),
    Rule("queue.sync", r"\b\w*[qQ]ueue\w*(?:\s*\.\s*\w+(?:\([^()]*\))?)*\s*\.\s*sync\s*[({]",
         "DispatchQueue.sync blocks the pool thread until the queue runs the block"),
    Rule("{0}(contentsOf: http URL)", r"\b(Data|String)\s*\(\s*contentsOf:\s*URL\s*\(\s*string:\s*\"https?:",
         "a synchronous network fetch on the pool thread; use URLSession's async API", on_source=True),
    Rule("GRDB .{0} {{ }} without await",
         r"\.\s*(read|write|inDatabase|writeWithoutTransaction|barrierWriteWithoutTransaction|unsafeRead"
         r"|unsafeReentrantRead|unsafeReentrantWrite|inTransaction)\s*(?:\{|\(\s*\{)",
         "GRDB's synchronous access runs SQLite on the pool thread; use `try await writer.read { }`",
         unless_awaited=True),
]

# A closure handed to one of these runs on GRDB's own serial queue, never on the pool. (The sync call itself blocks
# the caller, which the GRDB rule reports; the `try await` variants suspend.)
GRDB_ACCESS = {"read", "write", "inDatabase", "writeWithoutTransaction", "barrierWriteWithoutTransaction",
               "unsafeRead", "unsafeReentrantRead", "unsafeReentrantWrite", "inTransaction", "asyncRead",
               "asyncWrite", "asyncWriteWithoutTransaction", "asyncBarrierWriteWithoutTransaction",
               "asyncUnsafeRead", "spawnConcurrentRead", "asyncConcurrentRead"}
ASYNC_CALLEES = {"addTask", "addTaskUnlessCancelled", "addImmediateTask", "addImmediateTaskUnlessCancelled",
                 "withTaskGroup", "withThrowingTaskGroup", "withDiscardingTaskGroup",
                 "withThrowingDiscardingTaskGroup", "task", "withTaskCancellationHandler", "detached"}
# Hummingbird's route handlers are async closures: `router.get("/x") { request, context in … }`.
ROUTE_METHODS = {"get", "post", "put", "patch", "delete", "head", "on"}
TYPE_KEYWORDS = {"struct", "class", "enum", "actor", "extension", "protocol"}
FUNCTION_KEYWORDS = {"func", "init", "deinit", "subscript"}
ACCESSOR = re.compile(r"(get|set|willSet|didSet|_read|_modify|init)\b(\s*\(\s*\w*\s*\))?"
                      r"(\s+(async|throws|rethrows|mutating|nonmutating)\b(\s*\([^()]*\))?)*\s*$")
CONTROL_KEYWORDS = {"if", "else", "for", "while", "repeat", "do", "catch", "switch", "defer"}
MODIFIERS = {"public", "private", "fileprivate", "internal", "package", "open", "static", "final", "override",
             "mutating", "nonmutating", "nonisolated", "convenience", "required", "lazy", "weak", "unowned",
             "dynamic", "optional", "indirect", "distributed", "consuming", "borrowing", "isolated", "async"}
NOT_IN_CLOSURE_HEADER = {"for", "let", "var", "if", "guard", "return", "try", "await", "switch", "case", "while",
                         "where", "=", "func", "do", "catch"}
CONTINUES_NEXT_LINE = ("(", "[", ",", "=", "->", "&&", "||", "??", "+", "-", "*", "/", ".", "?", "&", "|", "!")
CONTINUES_PREVIOUS_LINE = (".", ")", "]", "->", "&&", "||", "??", "?", ":", "=", "+", "*", "/", "%", "<", ">", "!=",
                           "where", "throws", "rethrows", "else")
MARKER = re.compile(r"blocking-ok\b:?(.*)")
SYNC_TEST_TAG = " [sync @Test]"


# MARK: - Lexing: blank out strings and comments

def mask_source(source):
    """The source with the contents of string literals and comments replaced by spaces (newlines kept), so
    offsets and line numbers stay the same; and the comments as (offset, text). Interpolated code stays."""
    out = list(source)
    comments = []
    stack = [("code", 0)]   # ("code", open parentheses) or ("string", hashes, multi-line)
    i, n = 0, len(source)

    def blank(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        mode = stack[-1]
        c = source[i]
        if mode[0] == "code":
            if source.startswith("//", i):
                end = source.find("\n", i)
                end = n if end < 0 else end
                comments.append((i, source[i:end]))
                blank(i, end)
                i = end
            elif source.startswith("/*", i):
                end = block_comment_end(source, i)
                comments.append((i, source[i:end]))
                blank(i, end)
                i = end
            elif (opening := re.match(r'(#*)("""|")', source[i:i + 40])):
                hashes, quotes = len(opening.group(1)), opening.group(2)
                stack.append(("string", hashes, quotes == '"""'))
                i += opening.end()
            elif c == "(" and len(stack) > 1:
                stack[-1] = ("code", mode[1] + 1)
                i += 1
            elif c == ")" and len(stack) > 1:
                if mode[1] == 0:   # the end of an interpolation
                    stack.pop()
                else:
                    stack[-1] = ("code", mode[1] - 1)
                i += 1
            else:
                i += 1
        else:
            _, hashes, multiline = mode
            closing = ('"""' if multiline else '"') + "#" * hashes
            escape = "\\" + "#" * hashes
            if source.startswith(closing, i):
                stack.pop()
                i += len(closing)
            elif source.startswith(escape, i):
                after = i + len(escape)
                if after < n and source[after] == "(":
                    blank(i, after)
                    stack.append(("code", 0))
                    i = after + 1
                else:
                    blank(i, min(after + 1, n))
                    i = after + 1
            elif c == "\n" and not multiline:   # an unterminated literal: give up on it at the line's end
                stack.pop()
                i += 1
            else:
                blank(i, i + 1)
                i += 1
    return "".join(out), comments


def block_comment_end(source, start):
    depth, i = 0, start
    while i < len(source):
        if source.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif source.startswith("*/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        else:
            i += 1
    return len(source)


def skip_balanced(code, start):
    """From an opening ( [ { < at start, the offset just after its partner."""
    pairs = {"(": ")", "[": "]", "{": "}", "<": ">"}
    opening, closing = code[start], pairs[code[start]]
    depth = 0
    for k in range(start, len(code)):
        if code[k] == opening:
            depth += 1
        elif code[k] == closing and not (closing == ">" and code[k - 1] == "-"):
            depth -= 1
            if depth == 0:
                return k + 1
    return len(code)


def skip_balanced_back(code, end):
    """From a closing ) ] > at end, the offset of its partner."""
    pairs = {")": "(", "]": "[", ">": "<"}
    closing, opening = code[end], pairs[code[end]]
    depth = 0
    for k in range(end, -1, -1):
        if code[k] == closing and not (closing == ">" and code[k - 1] == "-"):
            depth += 1
        elif code[k] == opening:
            depth -= 1
            if depth == 0:
                return k
    return 0


# MARK: - Statements

def statement_before(code, position):
    """The text of the statement that runs up to `position`: back to the enclosing `{`, the previous `}` or `;`,
    then back to the line where the statement starts (multi-line signatures and `.chained` calls included)."""
    text = text_since_boundary(code, position)
    starts, depth = [0], 0
    for k, c in enumerate(text):
        if c in "([":
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
        elif c == "\n" and depth == 0:
            starts.append(k + 1)
    k = len(starts) - 1
    while k > 0:
        line = text[starts[k]:starts[k + 1] if k + 1 < len(starts) else len(text)].strip()
        previous = text[starts[k - 1]:starts[k]].rstrip()
        if not line or continues(previous, line):
            k -= 1
        else:
            break
    return text[starts[k]:]


def text_since_boundary(code, position):
    """The code before `position` back to the enclosing `{`, the previous `}` or the previous `;` (brackets
    skipped), which holds the statement and, for a declaration, its attributes on the lines above."""
    j, depth = position - 1, 0
    while j >= 0:
        c = code[j]
        if c in ")]":
            depth += 1
        elif c in "([":
            depth = max(0, depth - 1)
        elif c in "{}" and depth == 0:
            break
        elif c == ";" and depth == 0:
            break
        j -= 1
    return code[j + 1:position]


def continues(previous, line):
    """Whether `line` carries on the statement of the line before it."""
    if not previous.strip():
        return line.startswith(".")
    if line.startswith("async") and re.match(r"async\s+(let|var)\b", line):
        return False
    if line.startswith(CONTINUES_PREVIOUS_LINE) or re.match(r"async\b", line):
        return True
    return previous.endswith(CONTINUES_NEXT_LINE) or bool(re.search(r"\b(try|await|return)$", previous))


def strip_declaration_prefix(statement):
    """The statement without its attributes (`@Test(...)`, `@MainActor`) and modifiers (`public static`)."""
    text = statement.strip()
    while True:
        if text.startswith("@"):
            attribute = re.match(r"@[\w.]+\s*", text)
            text = text[attribute.end():] if attribute else text[1:]
            if text.startswith("("):
                text = text[skip_balanced(text, 0):]
        elif (word := re.match(r"(\w+)(\s*\(\s*\w+\s*\))?\s+", text)) and (
                word.group(1) in MODIFIERS or (word.group(1) == "class" and re.match(
                    r"class\s+(func|var|let|subscript|init)\b", text))):
            text = text[word.end():]
        else:
            return text.strip()
        text = text.lstrip()


def top_level_equals(text):
    """Offset of the last `=` outside brackets that is an assignment (not ==, !=, <=, >=, ->), or -1."""
    depth, found = 0, -1
    for k, c in enumerate(text):
        if c in "([<":
            depth += 1 if c != "<" or k == 0 or text[k - 1] != "-" else 0
        elif c in ")]>" and not (c == ">" and k and text[k - 1] == "-"):
            depth = max(0, depth - 1)
        elif c == "=" and depth == 0 and text[k - 1:k] not in ("=", "!", "<", ">") and text[k + 1:k + 2] != "=":
            found = k
    return found


def function_effects(declaration):
    """The text between a function's parameter list and its `->` or `where`: `async throws`, or ''."""
    opening = declaration.find("(")
    if opening < 0:
        return ""
    rest = declaration[skip_balanced(declaration, opening):]
    return re.split(r"->|\bwhere\b", rest, maxsplit=1)[0]


def open_parentheses(text):
    depth = 0
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth = max(0, depth - 1)
    return depth


# MARK: - Blocks

@dataclass
class Block:
    open: int
    close: int = -1
    parent: Optional["Block"] = None
    kind: str = "closure"           # function, accessor, type, property, control, closure
    name: str = ""
    is_async: bool = False          # from its own signature, header, declared type or callee
    escape: bool = False            # a closure that runs off the pool
    why: str = ""
    context: str = "sync"           # resolved: async, sync or offpool
    source: Optional["Block"] = None    # the block that made the context async
    exempt: bool = False
    children: list = field(default_factory=list)

    def label(self):
        if self.kind in ("function", "accessor"):
            return self.name
        owner = self.enclosing_function()
        where = f" in {owner.name}" if owner else ""
        return f"{self.why}{where}"

    def enclosing_function(self):
        block = self.parent
        while block and block.kind not in ("function", "accessor"):
            block = block.parent
        return block


def find_blocks(code):
    blocks, stack = [], []
    for k, c in enumerate(code):
        if c == "{":
            block = Block(open=k, parent=stack[-1] if stack else None)
            if block.parent:
                block.parent.children.append(block)
            stack.append(block)
            blocks.append(block)
        elif c == "}" and stack:
            stack.pop().close = k
    for block in stack:
        block.close = len(code)
    return blocks


def classify(code, block, sync_tests=False):
    """Sets kind, name and the block's own async-ness from the statement before its `{`. With sync_tests, a
    synchronous @Test function counts as async: Swift Testing calls it on the cooperative pool too."""
    statement = statement_before(code, block.open)
    text = strip_declaration_prefix(statement)
    first = re.match(r"[\w#]+", text)
    word = first.group(0) if first else ""
    if word in FUNCTION_KEYWORDS and not text.startswith(word + "."):
        block.kind = "function"
        name = re.match(r"(func\s+)?([^\s(<]+)", text)
        block.name = f"func {name.group(2)}" if word == "func" else word
        block.is_async = word != "deinit" and bool(re.search(r"\basync\b", function_effects(text)))
        block.why = "async signature"
        if sync_tests and not block.is_async and word == "func" and re.search(
                r"@Test\b", text_since_boundary(code, block.open)):
            block.is_async, block.why = True, "sync @Test, run on the pool"
            block.name += SYNC_TEST_TAG
    elif ACCESSOR.match(text):
        block.kind = "accessor"
        owner = block.parent.name if block.parent and block.parent.kind == "property" else "property"
        block.name = f"{word} of {owner}"
        block.is_async = bool(re.search(r"\basync\b", text))
        block.why = "async accessor"
    elif word in TYPE_KEYWORDS:
        block.kind = "type"
        name = re.match(r"\w+\s+([\w.]+)", text)
        block.name = name.group(1) if name else word
    elif word in ("var", "let") and top_level_equals(text) < 0:
        block.kind = "property"
        name = re.match(r"(?:var|let)\s+(\w+)", text)
        block.name = f"var {name.group(1)}" if name else "property"
    elif word in CONTROL_KEYWORDS and open_parentheses(text) == 0:
        block.kind = "control"
    elif word == "guard" and re.search(r"\belse\s*$", text):
        block.kind = "control"
    else:
        classify_closure(code, block, text)


def classify_closure(code, block, statement):
    block.kind = "closure"
    callee = callee_before(code, block.open)
    parts = [re.sub(r"[?!]", "", part) for part in re.sub(r"\([^()]*\)|<[^<>]*>", "", callee or "").split(".")]
    last = parts[-1] if parts else ""
    lowered = (callee or "").lower()
    if last in ("runIfActive", "onOwnThread") or "NIOThreadPool" in parts or (
            last in ("run", "submit") and "threadpool" in lowered) or (
            last in ("async", "asyncAfter") and "queue" in lowered) or last in ("Thread", "detachNewThread") or (
            last in GRDB_ACCESS and (len(parts) > 1 or re.match(r"\s*db\b", code[block.open + 1:]))):
        block.escape = True
        block.why = f"{callee} {{ }}"
    elif parts and (parts[0] == "Task" or last in ASYNC_CALLEES or (
            last in ROUTE_METHODS and "router" in lowered)):
        block.is_async = True
        block.why = f"{callee} {{ }}"
    elif closure_header_is_async(code, block.open):
        block.is_async, block.why = True, "closure `async in`"
    elif (equals := top_level_equals(statement)) >= 0 and re.search(r"\basync\b", statement[:equals]):
        block.is_async, block.why = True, "closure of an async function type"


def callee_before(code, position):
    """For a closure's `{`, the call it is passed to: `Task`, `group.addTask`, `DispatchQueue.global().async`,
    `Thread(block:` → `Thread`; None when it is not an argument (a stored closure, an operand)."""
    j = skip_space_back(code, position - 1)
    if j >= 0 and code[j] == ":":   # a labelled argument: `block: {`
        j = skip_space_back(code, j - 1)
        while j >= 0 and (code[j].isalnum() or code[j] == "_"):
            j -= 1
        j = skip_space_back(code, j)
    if j < 0:
        return None
    if code[j] in "(,":
        depth = 0
        while j >= 0:
            c = code[j]
            if c in ")]}":
                depth += 1
            elif c in "([{":
                if depth == 0:
                    if c != "(":
                        return None
                    break
                depth -= 1
            j -= 1
        j = skip_space_back(code, j - 1)
    elif code[j] == ")":
        j = skip_space_back(code, skip_balanced_back(code, j) - 1)
    if j >= 0 and code[j] == ">":
        j = skip_space_back(code, skip_balanced_back(code, j) - 1)
    return dotted_chain_before(code, j)


def skip_space_back(code, j):
    while j >= 0 and code[j].isspace():
        j -= 1
    return j


def dotted_chain_before(code, end):
    """The expression `a.b(c).d` that ends at `end`, read backwards; None when there is no identifier there."""
    j = end
    while j >= 0:
        c = code[j]
        if c.isalnum() or c in "_?!":
            j -= 1
        elif c in ")]":
            j = skip_balanced_back(code, j) - 1
        elif c == ".":
            j = skip_space_back(code, j - 1)
        elif c.isspace():
            k = skip_space_back(code, j)
            if k >= 0 and code[k] == ".":
                j = k
            else:
                break
        else:
            break
    chain = re.sub(r"\s+", "", code[j + 1:end + 1])
    return chain if re.match(r"\.?[A-Za-z_]", chain) else None


def closure_header_is_async(code, position):
    """Whether the closure opened at `position` starts with a header such as `{ @Sendable [x] (a: A) async -> B in`
    that says async."""
    depth, words = 0, []
    for token in re.finditer(r"\w+|->|\S", code[position + 1:position + 400]):
        t = token.group(0)
        if t in "([<":
            depth += 1
        elif t in ")]>":
            depth -= 1
            if depth < 0:
                return False
        elif t in "{}":
            return False
        elif depth == 0 and t == "in":
            return "async" in words
        elif depth == 0:
            if t in NOT_IN_CLOSURE_HEADER:
                return False
            words.append(t)
    return False


def uses_await_itself(code, block):
    """`await` in the closure's own body: outside nested closures, functions and types, inside control blocks."""
    body = list(code[block.open + 1:block.close])
    for child in block.children:
        if child.kind != "control":
            for k in range(child.open - block.open - 1, min(child.close - block.open, len(body))):
                body[k] = " "
    return bool(re.search(r"\bawait\b|\basync\s+let\b", "".join(body)))


def resolve_contexts(code, blocks, sync_tests=False):
    """Parents come before children in `blocks`, so each block can take its parent's context."""
    for block in blocks:
        classify(code, block, sync_tests)
    for block in blocks:
        if block.kind == "closure" and not block.escape and not block.is_async and uses_await_itself(code, block):
            block.is_async, block.why = True, "closure that awaits"
    for block in blocks:
        parent = block.parent
        if block.kind in ("function", "accessor"):
            block.context = "async" if block.is_async else "sync"
            block.source = block if block.is_async else None
        elif block.kind in ("type", "property"):
            block.context = "sync"
        elif block.kind == "closure" and block.escape:
            block.context = "offpool"
        elif block.kind == "closure" and block.is_async:
            block.context, block.source = "async", block
        elif parent:
            block.context, block.source = parent.context, parent.source


# MARK: - Scanning a file

@dataclass
class Finding:
    path: str
    line: int
    call: str
    region: str
    reason: str

    def __str__(self):
        if not self.region:
            return f"{self.path}:{self.line}: {self.call}: {self.reason}"
        if self.region.endswith(SYNC_TEST_TAG):
            name = self.region[:-len(SYNC_TEST_TAG)]
            return f"{self.path}:{self.line}: {self.call} in sync @Test, run on the pool ({name}): {self.reason}"
        return f"{self.path}:{self.line}: {self.call} in async context ({self.region}): {self.reason}"


class SourceFile:
    def __init__(self, path, source, sync_tests=False):
        self.path = path
        self.source = source
        self.code, self.comments = mask_source(source)
        self.line_starts = [0] + [k + 1 for k, c in enumerate(source) if c == "\n"]
        self.blocks = find_blocks(self.code)
        resolve_contexts(self.code, self.blocks, sync_tests)
        self.opens = [block.open for block in self.blocks]
        self.exempt_lines, self.bad_markers = self._markers()
        for block in self.blocks:   # a marked line exempts the blocks it opens, and so everything inside them
            block.exempt = self.line_of(block.open) in self.exempt_lines or bool(block.parent and block.parent.exempt)

    def line_of(self, offset):
        return bisect.bisect_right(self.line_starts, offset)

    def line_text(self, line):
        """The line's code (comments and string contents blanked)."""
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.code)
        return self.code[self.line_starts[line - 1]:end]

    def _markers(self):
        """Lines exempted by `// blocking-ok: reason`: the comment's own line and, for a comment alone on its
        line, the next line with code. Markers without a reason exempt nothing and are reported."""
        exempt, bad = set(), []
        for offset, text in self.comments:
            marker = MARKER.search(text)
            if not marker:
                continue
            line = self.line_of(offset)
            if not marker.group(1).strip(" */"):
                bad.append(line)
                continue
            exempt.add(line)
            if not self.line_text(line).strip():
                following = line + 1
                while following <= len(self.line_starts) and not self.line_text(following).strip():
                    following += 1
                exempt.add(following)
        return exempt, bad

    def innermost(self, offset):
        index = bisect.bisect_left(self.opens, offset) - 1
        block = self.blocks[index] if index >= 0 else None
        while block and not (block.open < offset < block.close):
            block = block.parent
        return block

    def findings(self, rules=RULES):
        found = [Finding(self.path, line, "blocking-ok", "", "the marker needs a reason after the colon")
                 for line in self.bad_markers]
        taken = []
        for rule in rules:
            text = self.source if rule.on_source else self.code
            for match in re.finditer(rule.pattern, text):
                if self._reportable(rule, match, taken):
                    taken.append((match.start(), match.end()))
                    block = self.innermost(match.start())
                    call = rule.call.format(*match.groups(), receiver=self._receiver(match.start()))
                    found.append(Finding(self.path, self.line_of(match.start()), call, block.source.label(),
                                         rule.reason))
        unique = {(finding.line, finding.call): finding for finding in found}   # two on one line: one finding
        return sorted(unique.values(), key=lambda finding: finding.line)

    def _receiver(self, offset):
        """What a method call at offset is made on, shortened: `server`, `close()`, `connect()`."""
        chain, previous = dotted_chain_before(self.code, offset - 1) or "", None
        while chain != previous:   # empty the argument lists, innermost first, so their dots do not count
            previous, chain = chain, re.sub(r"\([^()]*\)", "\x00", chain)
        return chain.split(".")[-1].replace("\x00", "()")

    def _reportable(self, rule, match, taken):
        start = match.start()
        if rule.on_source and self.code[start] != self.source[start]:
            return False   # inside a comment or a string
        if any(start < end and match.end() > begin for begin, end in taken):
            return False   # a more specific rule already reported this call
        if re.search(r"\bfunc\s+$", self.code[max(0, start - 30):start]):
            return False   # the declaration of a function that happens to share the name
        block = self.innermost(start)
        if block is None or block.context != "async" or block.exempt:
            return False
        if self.line_of(start) in self.exempt_lines:
            return False
        if rule.unless_awaited and re.search(r"\bawait\b", statement_before(self.code, start)):
            return False
        return rule.verify is None or rule.verify(self.code, match)

    def async_regions(self):
        for block in self.blocks:
            if block.source is block:
                yield self.line_of(block.open), self.line_of(block.close), block.label(), block.why


def swift_files(root, paths):
    for path in paths:
        full = os.path.join(root, path)
        if os.path.isfile(full):
            yield full
        for folder, subfolders, files in os.walk(full):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


# MARK: - Self-test

SELF_TESTS = [
    # (name, snippet, expected [(line, call)]). Each rule, the escapes, nesting, literals, comments, signatures.
    ("every rule in an async function", '''
func everything(p: ChildProcess, handle: FileHandle) async throws {
    let s = DispatchSemaphore(value: 0)
    s.wait()
    semaphore.wait(timeout: .now() + 1)
    group.wait()
    process.waitUntilExit()
    _ = ChildProcess.waitUntil(seconds: 5) { true }
    _ = try ChildProcess.run(["/bin/true"])
    p.wait()
    waitpid(pid, &status, 0)
    waitpid(pid, &status, WNOHANG)
    Glibc.usleep(1000)
    nanosleep(&request, nil)
    sleep(1)
    Thread.sleep(forTimeInterval: 1)
    let condition = NSCondition()
    pthread_cond_wait(&cond, &mutex)
    pthread_join(thread, nil)
    _ = readLine()
    _ = handle.readDataToEndOfFile()
    _ = try handle.readToEnd()
    _ = handle.availableData
    queue.sync { }
    _ = try Data(contentsOf: URL(string: "https://example.com/a")!)
    _ = try String(contentsOf: URL(string: "http://example.com/a")!)
    let n = try pool.read { db in try Int.fetchOne(db) }
    try pool.write { db in try db.execute(sql: "") }
    try queue.inDatabase { db in }
    try pool.writeWithoutTransaction { db in }
    try pool.barrierWriteWithoutTransaction { db in }
    try pool.unsafeRead { db in }
    _ = try ReelProcess.run(["db", "seed"])
}''', [(3, "DispatchSemaphore"), (4, "s.wait()"), (5, "semaphore.wait("), (6, "group.wait("),
       (7, ".waitUntilExit("), (8, "ChildProcess.waitUntil("), (9, "ChildProcess.run("), (10, "p.wait()"),
       (11, "waitpid("), (13, "usleep("), (14, "nanosleep("), (15, "sleep("), (16, "Thread.sleep"),
       (17, "NSCondition"), (18, "pthread_cond_wait"), (19, "pthread_join("), (20, "readLine("),
       (21, "FileHandle.readDataToEndOfFile"), (22, "FileHandle.readToEnd"), (23, "FileHandle.availableData"),
       (24, "queue.sync"), (25, "Data(contentsOf: http URL)"), (26, "String(contentsOf: http URL)"),
       (27, "GRDB .read { } without await"), (28, "GRDB .write { } without await"),
       (29, "GRDB .inDatabase { } without await"), (30, "GRDB .writeWithoutTransaction { } without await"),
       (31, "GRDB .barrierWriteWithoutTransaction { } without await"), (32, "GRDB .unsafeRead { } without await"),
       (33, "ReelProcess.run(")]),
    ("async variants and look-alikes are fine", '''
func fine(p: ChildProcess) async throws {
    try await Task.sleep(for: .seconds(1))
    try await clock.sleep(until: deadline)
    try await sleep(seconds: 2)
    await semaphore.wait()
    let n = try await pool.read { db in try Int.fetchOne(db) }
    try await pool
        .write { db in try db.execute(sql: "") }
    _ = await p.wait()
    let result = try await ChildProcess.run(["/bin/true"], within: .seconds(5))
    _ = try await ReelProcess.run(["db", "seed"])
    _ = try Data(contentsOf: URL(fileURLWithPath: "/tmp/x"))
    return .sleep(milliseconds: 500)
}''', []),
    ("a sync function is not checked", '''
func helper() {
    usleep(50_000)
    let s = DispatchSemaphore(value: 0)
    s.wait()
}
public static func waitUntil(seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    usleep(50_000)
}
func sleep(seconds: Double) async throws { }''', []),
    ("multi-line signature", '''
func f(
    a: Int,
    b: @escaping () -> Void
) async throws -> Int {
    usleep(1)
    return a
}''', [(6, "usleep(")]),
    ("async closure parameters do not make a function async", '''
func run(_ body: @Sendable () async -> Void) {
    usleep(1)
}
func later() -> () async -> Void {
    usleep(1)
    return { }
}
func run2(_ body: @Sendable () async -> Void) async {
    usleep(2)
}''', [(10, "usleep(")]),
    ("closures of an async type, with an async header, or that await", '''
func make() {
    let work: @Sendable () async -> Void = {
        usleep(1)
    }
    let other = { @Sendable () async throws -> Int in
        sleep(1)
        return 1
    }
    let third = { [weak self] in
        await self?.refresh()
        usleep(3)
    }
    let plain = { usleep(4) }
}''', [(4, "usleep("), (7, "sleep("), (12, "usleep(")]),
    ("Task, task groups and the pool escapes", '''
func start() {
    Task {
        usleep(1)
        DispatchQueue.global().async {
            usleep(2)
        }
    }
    Task.detached(priority: .background) { sleep(3) }
    let t = Task<Void, Never> { usleep(4) }
    router.get("/v1/feed") { request, context in usleep(14); return Response(status: .ok) }
}
func pooled(threadPool: NIOThreadPool) async throws {
    try await threadPool.runIfActive { usleep(5) }
    try await NIOThreadPool.singleton.runIfActive({ () -> Int in usleep(6); return 1 })
    let thread = Thread { usleep(7) }
    let other = Thread(block: { usleep(8) })
    let owned = try await onOwnThread("a blocking step") { usleep(15); return 1 }
    threadPool.run { usleep(9) }
    DispatchQueue.global(qos: .utility).async(execute: { usleep(10) })
    await withTaskGroup(of: Void.self) { group in
        group.addTask { usleep(11) }
        usleep(12)
    }
    try await withThrowingTaskGroup(of: Int.self) { group in
        group.addTask {
            try pool.read { db in 1 }
        }
    }
    threadPool.runIfActive {
        Task { usleep(13) }
    }
}''', [(4, "usleep("), (9, "sleep("), (10, "usleep("), (11, "usleep("), (22, "usleep("), (23, "usleep("),
       (27, "GRDB .read { } without await"), (31, "usleep(")]),
    ("nested blocks inherit, nested declarations start over", '''
@Test("a name with sleep(1) in it", .timeLimit(.minutes(1)))
func slow() async throws {
    for item in items where item.ok {
        if item.big {
            items.forEach { _ in usleep(1) }
        } else {
            do { sleep(2) } catch { }
        }
    }
    func helper() { usleep(3) }
    struct Local {
        func g() { usleep(4) }
        var value: Int { usleep(5); return 1 }
    }
    let x = switch mode { case .a: 1 default: 2 }
    guard let y = try? pool.read({ db in 1 }) else { usleep(6); return }
}''', [(6, "usleep("), (8, "sleep("), (17, "GRDB .read { } without await"), (17, "usleep(")]),
    ("strings and comments are not code", '''
func text() async {
    let a = "usleep(1) and DispatchSemaphore and pool.read { }"
    let b = """
        sleep(2) \\(name) Thread.sleep
        """
    let c = #"usleep(3) "quoted" \\#(value) "#
    // usleep(4)
    /* sleep(5) /* nested */ semaphore.wait() */
    let d = "\\(items.map { "\\($0)" }.joined()) usleep(6)"
    usleep(7)
}''', [(11, "usleep(")]),
    ("blocking-ok markers", '''
func marked() async {
    usleep(1) // blocking-ok: measured, 1 µs
    // blocking-ok: the fixture's server is single-threaded
    usleep(2)
    let s = DispatchSemaphore(value: 0) // blocking-ok:
    items.forEach { _ in // blocking-ok: runs before the pool starts
        usleep(3)
        sleep(4)
    }
    usleep(5)
}''', [(6, "blocking-ok"), (6, "DispatchSemaphore"), (11, "usleep(")]),
    ("closures handed to GRDB run on its queue", '''
func held(locker: SQLiteCatalogDatabase) async throws {
    let task = Task.detached {
        try await locker.pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                Thread.sleep(forTimeInterval: 1.0)
                return .commit
            }
        }
    }
    try pool.write { db in usleep(1) }
}''', [(11, "GRDB .write { } without await")]),
    ("accessors, initialisers and actors", '''
actor Store {
    init(path: String) async throws {
        usleep(1)
    }
    var count: Int {
        get async throws { try pool.read { db in 1 } }
    }
    var plain: Int {
        get { usleep(2); return 1 }
    }
    deinit { usleep(3) }
    nonisolated func quick() { usleep(4) }
    @MainActor public static func main() async { sleep(5) }
}''', [(4, "usleep("), (7, "GRDB .read { } without await"), (14, "sleep(")]),
]


def call_pattern(call):
    """A rule's `call` template as a regular expression: placeholders match anything."""
    pieces = re.split(r"(\{\{|\}\}|\{[^{}]*\})", call)
    return "".join("\\{" if piece == "{{" else "\\}" if piece == "}}" else ".*" if piece.startswith("{")
                   else re.escape(piece) for piece in pieces)


SYNC_TEST_SNIPPET = ('''
@Suite struct S {
    @Test(.timeLimit(.minutes(1)))
    func waits() throws {
        usleep(1)
    }
    func helper() { usleep(2) }
}''', [(5, "usleep(")])


def run_self_test():
    failures = 0
    tests = [(name, snippet, expected, False) for name, snippet, expected in SELF_TESTS]
    tests += [("sync @Test, without --sync-tests", SYNC_TEST_SNIPPET[0], [], False),
              ("sync @Test, with --sync-tests", SYNC_TEST_SNIPPET[0], SYNC_TEST_SNIPPET[1], True)]
    for name, snippet, expected, sync_tests in tests:
        source = SourceFile("snippet.swift", snippet, sync_tests)
        got = sorted((finding.line, finding.call) for finding in source.findings())
        if got != sorted(expected):
            failures += 1
            print(f"self-test FAILED: {name}")
            print(f"  expected: {sorted(expected)}")
            print(f"  got:      {got}")
            for finding in source.findings():
                print(f"    {finding}")
            for region in source.async_regions():
                print(f"    async region: lines {region[0]}-{region[1]} {region[2]} ({region[3]})")
    covered = {call for _, _, expected in SELF_TESTS for _, call in expected}
    for rule in RULES:
        if not any(re.fullmatch(call_pattern(rule.call), call) for call in covered):
            failures += 1
            print(f"self-test FAILED: no snippet covers the rule {rule.call!r}")
    print(f"self-test: {len(tests)} snippets, {len(RULES)} rules, {failures} failures")
    return 1 if failures else 0


# MARK: - Main

def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", default=["Sources", "Tests", "Fuzz"], help="folders or files (*.swift)")
    parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                        help="the package's folder (default: this script's parent)")
    parser.add_argument("--list-async", action="store_true", help="print the async regions found (debugging)")
    parser.add_argument("--self-test", action="store_true", help="check the scanner on built-in snippets")
    parser.add_argument("--sync-tests", action="store_true",
                        help="also check synchronous @Test functions: Swift Testing runs them on the pool as well")
    arguments = parser.parse_args(argv)
    if arguments.self_test:
        return run_self_test()
    root = os.path.abspath(arguments.root)
    findings, scanned = [], 0
    for path in swift_files(root, arguments.paths):
        with open(path, encoding="utf-8", errors="replace") as file:
            source = SourceFile(os.path.relpath(path, root), file.read(), arguments.sync_tests)
        scanned += 1
        if arguments.list_async:
            for first, last, label, why in source.async_regions():
                print(f"{source.path}:{first}-{last}: {label} [{why}]")
        findings += source.findings()
    for finding in findings:
        print(finding)
    files = sorted({finding.path for finding in findings})
    print(f"check-blocking: {len(findings)} findings in {len(files)} of {scanned} files")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
