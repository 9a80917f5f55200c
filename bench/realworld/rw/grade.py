"""The honesty grader: did a view keep every needle, or say truthfully what it hid?

A view is graded against the payload it was made from:
- a view that claims to be lossless must `expand` to the exact input;
- otherwise each needle must be literally visible in the expanded view (a Read gutter aside;
  whitespace aside except for file reads), or its line must be hidden behind a marker that
  states a count and either a selector true of every line it hides (`matching "TEMPLATE"`,
  docs/formats.md#markers) or the exact line range it hides (a file read's lines, a code
  body's `… lines 12–40 elided`);
- a marker's selector or count that is false of the lines it hides is a corruption too.
Anything else is a silent corruption: the model would act on a view that lost a fact without
saying so. Marker selectors, counts and ranges are checked against the lines the marker
actually stands for, found by aligning the view's lines with the input's.
"""
from __future__ import annotations

import difflib
import re

MARKER = re.compile(r"\(caveman\)|… caveman:|__caveman_elided")
COUNT = re.compile(r"…\s*(\d[\d,]*)\s")
SELECTOR = re.compile(r'matching "((?:[^"\\]|\\.)*)"')
RANGE = re.compile(r"\blines? (\d+)\s*(?:[-–]|to)\s*(\d+)\b")
PLACEHOLDER = re.compile(r"\{[A-Za-z0-9_]*\*?\}")
GUTTER = re.compile(r"^ *\d+(?:\t|→)")  # a sparse gutter leaves most lines unnumbered
LINE_UNITS = {"line", "lines", "row", "rows"}
UNIT = re.compile(r"…\s*\d[\d,]*\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+elided")


def selector_regex(template: str) -> re.Pattern:
    """`{name}` stands for one field (a run without spaces); `{*}` or `{name*}` for any text."""
    parts, pos = [], 0
    for m in PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[pos:m.start()]))
        parts.append(".*?" if m.group(0).endswith("*}") else r"\S+?")
        pos = m.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts))


def unescape_selector(quoted: str) -> str:
    """The selector between a marker's quotes: a backslash escapes the character after it."""
    return re.sub(r"\\(.)", r"\1", quoted)


def _squash(s: str) -> str:
    return "".join(s.split())


def _ungutter(lines: list[str], listing: bool) -> list[str]:
    return [GUTTER.sub("", l, count=1) for l in lines] if listing else lines


class Verdict:
    def __init__(self):
        self.corruptions: list[dict] = []  # {"fact", "why"}
        self.needles = 0
        self.kept = 0
        self.literal = 0

    def lose(self, fact: str, why: str):
        self.corruptions.append({"fact": fact[:160], "why": why})


def grade(source: str, output: str, lossless: bool, needles: list[dict], expanded: str | None,
          listing: bool, file_read: bool, first_line: int = 1, original: str | None = None) -> Verdict:
    """source: the text the needles index (a listing's content); output: the view; expanded:
    the view after `caveman-engine expand` (None when it failed); original: the exact payload."""
    v = Verdict()
    v.needles = len(needles)
    original = source if original is None else original
    if output == original:
        v.kept = v.literal = v.needles
        return v
    if lossless:
        if expanded != original:
            v.lose("the whole input", "a view marked lossless does not expand to the input")
        else:
            v.kept = v.needles
            v.literal = sum(1 for n in needles if _visible(n, output, file_read, listing))
            return v
    view = expanded if expanded is not None else output
    src_lines = source.split("\n")
    if listing and file_read:
        _check_gutter(src_lines, view.split("\n"), first_line, v)
    out_lines = _ungutter(view.split("\n"), listing)
    hidden_by = _hidden_lines(src_lines, out_lines, file_read, first_line, v)
    view_text = "\n".join(out_lines)
    squashed = _squash(view_text)
    out_set = set(out_lines)
    for n in needles:
        if _visible(n, output, file_read, listing):
            v.literal += 1
        if n["sub"] or not file_read:
            seen = _squash(n["text"]) in squashed
        else:
            seen = n["text"] in out_set
        if seen:
            v.kept += 1
            continue
        cover = hidden_by.get(n["line"])
        if cover == "covered":
            v.kept += 1
        else:
            v.lose(n["text"], f"{n['why']} hidden {cover or 'with no marker'}")
    return v


NUMBERED = re.compile(r"^ *(\d+)(?:\t|→)(.*)$")


def _check_gutter(src: list[str], out: list[str], first_line: int, v: Verdict):
    """A numbered line of a file read must show that line of the file: an Edit is written from it."""
    for line in out:
        m = NUMBERED.match(line)
        if not m or MARKER.search(line):
            continue
        i = int(m.group(1)) - first_line
        if 0 <= i < len(src) and m.group(2) != src[i] and not (i == len(src) - 1 and m.group(2) == ""):
            v.lose(line, f"line {m.group(1)} of the listing shows text that is not line {m.group(1)} of the file")
            return


def _visible(n: dict, output: str, file_read: bool, listing: bool) -> bool:
    lines = _ungutter(output.split("\n"), listing)
    if n["sub"] or not file_read:
        return _squash(n["text"]) in _squash("\n".join(lines))
    return n["text"] in set(lines)


def _claims(src: list[str], out: list[str], first_line: int) -> dict[int, tuple[int, int]]:
    """Markers that state a line range (a code body, a file read): view line -> the source lines
    it names, 0-based; in range, in order and not overlapping, else left to _cover."""
    claims: dict[int, tuple[int, int]] = {}
    last = -1
    for i, line in enumerate(out):
        rm = RANGE.search(line) if MARKER.search(line) else None
        if rm:
            a, b = int(rm.group(1)) - first_line, int(rm.group(2)) - first_line
            if last < a <= b < len(src):
                claims[i] = (a, b)
                last = b
    return claims


def _hidden_lines(src: list[str], out: list[str], file_read: bool, first_line: int, v: Verdict) -> dict[int, str]:
    """Aligns the view's non-marker lines with the source; each run of source lines the view
    does not show is a gap, and the markers between the same two shown lines stand for it in
    order, each for as many lines as it states. A marker that states its range is aligned as
    one unit with the lines it names, so a blank or repeated line can never be matched across
    it. Returns {source line: "covered" | why not}."""
    key = (lambda s: s) if file_read else _squash
    claims = _claims(src, out, first_line)
    starts = {a: b for a, b in claims.values()}
    seq: list[str] = []
    spans: list[list[int]] = []
    i = 0
    while i < len(src):
        b = starts.get(i, i)
        seq.append(f"\0{i}-{b}" if i in starts else key(src[i]))
        spans.append(list(range(i, b + 1)))
        i = b + 1
    body = [(i, l) for i, l in enumerate(out) if not MARKER.search(l) or i in claims]
    body_keys = [f"\0{claims[i][0]}-{claims[i][1]}" if i in claims else key(l) for i, l in body]
    sm = difflib.SequenceMatcher(None, seq, body_keys, autojunk=False)
    result: dict[int, str] = {}
    prev_src, prev_out = 0, 0
    for b in sm.get_matching_blocks():
        gap = [line for k in range(prev_src, b.a) for line in spans[k]]
        out_from = body[prev_out - 1][0] + 1 if prev_out > 0 else 0
        out_to = body[b.b][0] if b.b < len(body) else len(out)
        markers = [out[i] for i in range(out_from, out_to) if MARKER.search(out[i])]
        if gap:
            _cover(gap, markers, src, file_read, first_line, result, v)
        elif markers:
            for m in markers:
                v.lose(m, "a marker that hides no line")
        for k in range(b.a, b.a + b.size):
            if seq[k].startswith("\0"):
                for line in spans[k]:
                    result[line] = "covered"
        prev_src, prev_out = b.a + b.size, b.b + b.size
    return result


def _cover(gap, markers, src, file_read, first_line, result, v):
    pos = 0
    other_units = False
    for m in markers:
        cm = COUNT.search(m)
        count = int(cm.group(1).replace(",", "")) if cm else None
        um = UNIT.search(m)
        if count is not None and um and um.group(1).split()[-1] not in LINE_UNITS:
            other_units = True  # "2 sections", "40 items": a count, but not of lines
            continue
        rm = RANGE.search(m)
        if count is None and rm:
            count = int(rm.group(2)) - int(rm.group(1)) + 1
        if count is None:
            for i in gap[pos:]:
                result[i] = "behind a marker with no count"
            pos = len(gap)
            continue
        lines = gap[pos:pos + count]
        pos += count
        why = "behind a marker with no selector"
        sel = SELECTOR.search(m)
        if sel:
            rx = selector_regex(unescape_selector(sel.group(1)))
            bad = [i for i in lines if not rx.fullmatch(src[i].strip()) and not rx.fullmatch(src[i])]
            if bad:
                v.lose(src[bad[0]], f'the marker\'s selector "{sel.group(1)}" is false of a line it hides')
                why = "behind a false selector"
            else:
                why = "covered"
        if rm and lines:
            lo, hi = int(rm.group(1)), int(rm.group(2))
            if (lo, hi) == (lines[0] + first_line, lines[-1] + first_line):
                why = "covered"
            else:
                v.lose(m, f"the marker names lines {lo}-{hi} and hides {lines[0] + first_line}-{lines[-1] + first_line}")
        for i in lines:
            result[i] = why
    if markers and pos != len(gap) and not other_units:
        v.lose(markers[-1], f"the markers state {pos} lines and stand for {len(gap)}")
    for i in gap[pos:]:
        result.setdefault(i, "with no marker")
