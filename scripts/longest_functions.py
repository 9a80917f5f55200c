#!/usr/bin/env python3
"""Lists the longest function bodies in the C++ sources (issue 23: "the ten longest functions
left in the tree"). A heuristic, not a parser: a definition is a line that opens a brace after a
parameter list `)` (optionally `const`, `override`, `noexcept`, `-> T`) outside any other
function; its length runs to the matching brace, strings and comments skipped.

usage: scripts/longest_functions.py [--most N] [DIR ...]   (default: the product sources)
"""
import os
import re
import sys

DEFAULT_DIRS = ["engine", "proxy", "mcp", "mem", "shrink", "browse", "cli"]
HEAD = re.compile(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(final\s*)?(->\s*[\w:<>,\s*&]+)?\s*\{\s*$")
NOT_FUNC = re.compile(r"^\s*(if|for|while|switch|catch|else|do)\b|\[.*\]\s*\(.*\)\s*(mutable\s*)?(->.*)?\{\s*$|=\s*\[")


def strip(line, state):
    """The line without string/char literals and comments; state carries a /* */ comment."""
    out, i, n = [], 0, len(line)
    while i < n:
        if state["block"]:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out)
            state["block"], i = False, j + 2
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"], i = True, i + 2
            continue
        if c in "\"'":
            j = i + 1
            while j < n and line[j] != c:
                j += 2 if line[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def functions(path):
    state = {"block": False}
    depth, start, name, found = 0, None, None, []
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    for no, raw in enumerate(lines, 1):
        code = strip(raw.rstrip("\n"), state)
        if start is None and HEAD.search(code) and not NOT_FUNC.search(code):
            start, name, base = no, code.strip(), depth
            # A signature split over lines: name it by the line holding the '('.
            k = no - 1
            while "(" not in lines[k - 1 if k else 0] and k > 0 and no - k < 6 and "(" not in name:
                k -= 1
                name = lines[k].strip() + " " + name
        depth += code.count("{") - code.count("}")
        if start is not None and depth <= base:
            found.append((no - start + 1, path, start, name[:90]))
            start = None
    return found


def main(argv):
    most = 10
    if "--most" in argv:
        i = argv.index("--most")
        most = int(argv[i + 1])
        del argv[i:i + 2]
    dirs = argv or DEFAULT_DIRS
    rows = []
    for d in dirs:
        for root, _, files in os.walk(d):
            if "/third_party" in root or "/build" in root:
                continue
            rows += [r for f in files if f.endswith(".cpp") for r in functions(os.path.join(root, f))]
    for n, path, line, name in sorted(rows, key=lambda r: (-r[0], r[1], r[2]))[:most]:
        print(f"{n:4d}  {path}:{line}  {name}")


main(sys.argv[1:])
