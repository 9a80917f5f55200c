#!/usr/bin/env python3
"""An independent, tiktoken-style o200k_base reference for the e2e exactness test.

Used where the JS peers (gpt-tokenizer, js-tiktoken) are known to deviate from tiktoken, and to
check the documented invalid-UTF-8 rule. It shares nothing with the C++ code:

* Pre-tokenizer: a generic backtracking matcher that *interprets* the o200k split pattern,
  written below as an AST (leftmost-first alternation, greedy quantifiers that give back one
  character at a time, negative lookahead) — Perl/fancy-regex semantics, not a hand-derived
  scanner. Character classes come straight from the Unicode data files Debian ships
  (/usr/share/unicode: UnicodeData.txt for general categories, PropList.txt for White_Space,
  CaseFolding.txt for (?i:...) simple case folding), i.e. Rust regex's definitions of \\s,
  \\p{..} and case-insensitivity rather than JavaScript's.
* BPE: tiktoken's merge loop (whole piece first; else merge the leftmost lowest-ranked adjacent
  pair until none is a token) over the vendored o200k_base.tiktoken.
* Invalid UTF-8 (Caveman's documented rule, which tiktoken cannot express because its
  encode_ordinary takes str): each byte that is not part of a well-formed sequence is one
  character classified like U+FFFD (a symbol); the BPE sees the raw bytes. Python's strict
  UTF-8 decoder with errors="surrogateescape" maps exactly those bytes, one each, to
  U+DC80..U+DCFF, which this module classifies as So and encodes back to the raw byte.

Protocol: stdin has one JSON object per line, {"b64": <base64 of the input bytes>}; stdout gets
one JSON object per line, {"ids": [token ids], "pieces": [base64 of each piece's bytes]}.
usage: tiktoken_ref.py <o200k_base.tiktoken> [unicode data dir, default /usr/share/unicode]
"""
import base64
import json
import sys

sys.setrecursionlimit(100000)


def load_unicode(root):
    cat = {}
    first = None
    with open(f"{root}/UnicodeData.txt", encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            cp, name, gc = int(fields[0], 16), fields[1], fields[2]
            if name.endswith(", First>"):
                first = cp
                continue
            if name.endswith(", Last>"):
                for c in range(first, cp + 1):
                    cat[c] = gc
                continue
            cat[cp] = gc
    white = set()
    with open(f"{root}/PropList.txt", encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            rng, prop = [x.strip() for x in line.split(";")]
            if prop != "White_Space":
                continue
            a, _, b = rng.partition("..")
            for c in range(int(a, 16), int(b or a, 16) + 1):
                white.add(c)
    fold = {}
    with open(f"{root}/CaseFolding.txt", encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if not line:
                continue
            code, status, mapping = [x.strip() for x in line.split(";")[:3]]
            if status in ("C", "S"):
                fold[int(code, 16)] = int(mapping, 16)
    return cat, white, fold


class Pattern:
    """The o200k split pattern as an AST, matched by backtracking generators."""

    def __init__(self, cat, white, fold):
        self.cat, self.white, self.fold = cat, white, fold

    def gc(self, ch):
        cp = ord(ch)
        if 0xDC80 <= cp <= 0xDCFF:  # an invalid byte (surrogateescape): like U+FFFD
            return "So"
        return self.cat.get(cp, "Cn")

    # Character predicates.
    def is_space(self, ch):  # \s = White_Space
        return ord(ch) in self.white

    def in_cats(self, ch, cats):
        g = self.gc(ch)
        return any(g == c or (len(c) == 1 and g[0] == c) for c in cats)

    def folds_to(self, ch, lit):
        a, b = ord(ch), ord(lit)
        return self.fold.get(a, a) == self.fold.get(b, b)


def cls(pred):
    return ("cls", pred)


def seq(*items):
    return ("seq", items)


def alt(*items):
    return ("alt", items)


def rep(node, lo, hi):  # greedy
    return ("rep", node, lo, hi)


def neg_lookahead(node):
    return ("neg", node)


def build(p):
    upper = cls(lambda c: p.in_cats(c, ("Lu", "Lt", "Lm", "Lo", "M")))
    lower = cls(lambda c: p.in_cats(c, ("Ll", "Lm", "Lo", "M")))
    prefix = cls(lambda c: c not in "\r\n" and not p.in_cats(c, ("L", "N")))
    number = cls(lambda c: p.in_cats(c, ("N",)))
    punct = cls(lambda c: not p.is_space(c) and not p.in_cats(c, ("L", "N")))
    space = cls(p.is_space)
    nonspace = cls(lambda c: not p.is_space(c))
    crlf = cls(lambda c: c in "\r\n")
    tail = cls(lambda c: c in "\r\n/")
    literal_space = cls(lambda c: c == " ")

    def ci(word):  # (?i:word) with simple case folding
        return seq(*[cls(lambda c, w=w: p.folds_to(c, w)) for w in word])

    contraction = rep(alt(*[ci(w) for w in ("'s", "'t", "'re", "'ve", "'m", "'ll", "'d")]), 0, 1)
    inf = float("inf")
    return alt(
        seq(rep(prefix, 0, 1), rep(upper, 0, inf), rep(lower, 1, inf), contraction),
        seq(rep(prefix, 0, 1), rep(upper, 1, inf), rep(lower, 0, inf), contraction),
        rep(number, 1, 3),
        seq(rep(literal_space, 0, 1), rep(punct, 1, inf), rep(tail, 0, inf)),
        seq(rep(space, 0, inf), rep(crlf, 1, inf)),
        seq(rep(space, 1, inf), neg_lookahead(nonspace)),
        rep(space, 1, inf),
    )


def match(node, s, i):
    """Yields every end position of `node` matched at s[i:], in backtracking priority order."""
    kind = node[0]
    if kind == "cls":
        if i < len(s) and node[1](s[i]):
            yield i + 1
    elif kind == "seq":
        yield from match_seq(node[1], 0, s, i)
    elif kind == "alt":
        for item in node[1]:
            yield from match(item, s, i)
    elif kind == "rep":
        yield from match_rep(node[1], node[2], node[3], s, i, 0)
    elif kind == "neg":
        if next(match(node[1], s, i), None) is None:
            yield i


def match_seq(items, k, s, i):
    if k == len(items):
        yield i
        return
    for j in match(items[k], s, i):
        yield from match_seq(items, k + 1, s, j)


def match_rep(node, lo, hi, s, i, count):
    # Greedy: try one more repetition first (never an empty one), then stop here.
    if count < hi:
        for j in match(node, s, i):
            if j > i:
                yield from match_rep(node, lo, hi, s, j, count + 1)
    if count >= lo:
        yield i


def split(pattern_ast, s):
    pieces = []
    i = 0
    while i < len(s):
        end = next(match(pattern_ast, s, i), None)
        if end is None:  # never happens for this pattern: every character starts a match
            raise RuntimeError(f"no match at {i}")
        pieces.append(s[i:end])
        i = end
    return pieces


def load_ranks(path):
    ranks = {}
    with open(path, "rb") as f:
        for line in f:
            if line.strip():
                tok, rank = line.split()
                ranks[base64.b64decode(tok)] = int(rank)
    return ranks


def bpe(ranks, piece):
    if piece in ranks:
        return [ranks[piece]]
    parts = [piece[i:i + 1] for i in range(len(piece))]
    while len(parts) > 1:
        best, best_i = None, -1
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and (best is None or r < best):
                best, best_i = r, i
        if best is None:
            break
        parts[best_i:best_i + 2] = [parts[best_i] + parts[best_i + 1]]
    return [ranks[p] for p in parts]


def main():
    vocab = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else "/usr/share/unicode"
    ranks = load_ranks(vocab)
    ast = build(Pattern(*load_unicode(root)))
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        data = base64.b64decode(json.loads(line)["b64"])
        text = data.decode("utf-8", errors="surrogateescape")
        ids = []
        pieces = []
        for piece in split(ast, text):
            raw = piece.encode("utf-8", errors="surrogateescape")
            pieces.append(base64.b64encode(raw).decode("ascii"))
            ids.extend(bpe(ranks, raw))
        out.write(json.dumps({"ids": ids, "pieces": pieces}) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
