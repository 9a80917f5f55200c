"""Needles: the facts of a payload an answer may depend on, derived mechanically.

- a file read: every non-blank line (an Edit must be able to quote any of them);
- rare lines: lines whose template (digits and long hex masked) occurs once in the payload;
- failure signals: problem words, HTTP statuses >= 400, non-zero exits, sanitizer and valgrind
  headers, and the first frames under a traceback or stack header;
- identifiers with generic arguments (`std::map<std::string, std::vector<P>>`), as substrings.

A needle is {"text", "line" (0-based line of the source), "why", "sub" (true: a substring of
that line, not the whole line)}. Nothing here looks at the engine's output.
"""
from __future__ import annotations

import re
from collections import Counter

_DIGITS = re.compile(r"\d+")
_HEX = re.compile(r"\b(?:0x)?[0-9a-fA-F]{8,}\b")
PROBLEM = re.compile(r"\b(error|errors|warning|fail|failed|failure|FAIL|FAILED|Traceback|panic|fatal|FATAL|exception|"
                     r"Exception|abort|Aborted|segfault|Segmentation fault|denied|not ok|ERROR|WARN|undefined reference|"
                     r"E[A-Z]{3,})\b")
STATUS_IN_LOG = re.compile(r'" ([45]\d\d) |^< HTTP/[\d.]+ ([45]\d\d)')
EXIT = re.compile(r"\b(exit(?:ed)?(?: with)?(?: code| status)? [1-9]\d*|= -1 E[A-Z]+|returned [1-9]\d* exit status|\+\+\+ exited with [1-9])")
SANITIZER = re.compile(r"(==\d+==\s*(ERROR|WARNING|Invalid|Conditional|Mismatched|HEAP SUMMARY|LEAK SUMMARY|definitely lost|"
                       r"indirectly lost|ERROR SUMMARY)|runtime error:|SUMMARY: \w+Sanitizer)")
STACK_HEAD = re.compile(r"(Traceback \(most recent call last\)|^\w*(Error|Exception)\b.*:|==\d+==ERROR|^\s+at .+\(.+:\d+:\d+\)|"
                        r"^\s*#0 0x|==\d+== (Invalid|Conditional))")
FRAME = re.compile(r'^\s*(File ".*", line \d+|at .+|#\d+ 0x[0-9a-f]+|==\d+==\s+(at|by) 0x)')
GENERIC = re.compile(r"[A-Za-z_][\w:]*<(?:[^<>\n]|<(?:[^<>\n]|<[^<>\n]*>)*>){1,200}>")


def template(line: str) -> str:
    return _DIGITS.sub("#", _HEX.sub("H", line.strip()))


def _signal(line: str) -> str | None:
    if SANITIZER.search(line):
        return "sanitizer"
    if STATUS_IN_LOG.search(line):
        return "http status >= 400"
    if EXIT.search(line):
        return "non-zero exit"
    if PROBLEM.search(line):
        return "problem word"
    return None


def derive(source: str, file_read: bool) -> list[dict]:
    lines = source.split("\n")
    needles: list[dict] = []
    seen: set[tuple[int, bool]] = set()

    def add(i: int, why: str, text: str | None = None):
        sub = text is not None
        if (i, sub) in seen and not sub:
            return
        seen.add((i, sub))
        needles.append({"text": text if sub else lines[i], "line": i, "why": why, "sub": sub})

    if file_read:
        for i, line in enumerate(lines):
            if line.strip():
                add(i, "file line")
        return needles
    counts = Counter(template(l) for l in lines if l.strip())
    frames_left = 0
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        sig = _signal(line)
        if sig:
            add(i, sig)
        if STACK_HEAD.search(line):
            frames_left = 3
        elif frames_left and FRAME.match(line):
            add(i, "first frames")
            frames_left -= 1
        if counts[template(line)] == 1 and len(lines) > 1:
            add(i, "rare line")
        for m in GENERIC.finditer(line):
            if "<" in m.group(0) and not m.group(0).startswith(("http", "mailto")):
                add(i, "generic identifier", m.group(0))
    return needles
