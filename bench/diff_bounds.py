#!/usr/bin/env python3
"""What a diff compressor can save without hiding a change: the corpus diffs' tokens by
line kind, and two upper bounds on the ratio for any compressor that keeps every changed
line (docs/spec/compressors.md#diff) and every header.

  bound "no context":  keep commit headers and messages, file headers, hunk headers and every
                       +/- line; drop every context line and print no marker at all.
  bound "+ word diff": the same, with each run of k removed lines directly followed by k
                       added lines that are alike (difflib ratio >= 0.5 on word tokens)
                       written once as a word diff, `~a [-old-]{+new+} b` (git's
                       --word-diff=plain notation), which still shows both sides.

Neither output is a usable product (no context, no markers); they are ceilings. Compared
with caveman-engine's own ratio on the same file.

usage: bench/diff_bounds.py ENGINE_BIN CORPUS_DIR   (prints a Markdown section)
"""
import difflib
import json
import os
import re
import subprocess
import sys

engine, corpus = sys.argv[1], sys.argv[2]
env = dict(os.environ, CAVEMAN_CCR_DB=":memory:")

COMMIT = ("commit ", "Author:", "AuthorDate:", "Commit:", "CommitDate:", "Date:", "Merge:")
FILE = ("diff --git", "index ", "--- ", "+++ ", "new file", "deleted file", "old mode", "new mode",
        "similarity", "dissimilarity", "rename ", "copy ", "Binary files")
KINDS = ["commit header", "message", "file header", "hunk header", "changed", "context"]
WORD = re.compile(r"\w+|\s+|[^\w\s]")


def count(text):
    r = subprocess.run([engine, "count"], input=text.encode(), capture_output=True, check=True)
    return int(r.stdout)


def classify(lines):
    kinds, in_commit = [], False
    for line in lines:
        if line.startswith(COMMIT):
            kind, in_commit = "commit header", True
        elif line.startswith(FILE):
            kind, in_commit = "file header", False
        elif line.startswith("@@"):
            kind = "hunk header"
        elif line[:1] in ("+", "-"):
            kind = "changed"
        elif in_commit:
            kind = "message"
        else:
            kind = "context"
        kinds.append(kind)
    return kinds


def word_diff(old, new):
    a, b = WORD.findall(old), WORD.findall(new)
    m = difflib.SequenceMatcher(None, a, b, autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in m.get_opcodes():
        if op == "equal":
            out.append("".join(a[i1:i2]))
            continue
        if i2 > i1:
            out.append("[-" + "".join(a[i1:i2]) + "-]")
        if j2 > j1:
            out.append("{+" + "".join(b[j1:j2]) + "+}")
    return "~" + "".join(out), m.ratio()


def with_word_diffs(lines, kinds):
    out, i = [], 0
    while i < len(lines):
        if kinds[i] == "changed" and lines[i].startswith("-"):
            j = i
            while j < len(lines) and kinds[j] == "changed" and lines[j].startswith("-"):
                j += 1
            k = j
            while k < len(lines) and kinds[k] == "changed" and lines[k].startswith("+"):
                k += 1
            if k - j == j - i:
                pairs = [word_diff(o[1:], n[1:]) for o, n in zip(lines[i:j], lines[j:k])]
                if all(r >= 0.5 for _, r in pairs):
                    out.extend(w for w, _ in pairs)
                    i = k
                    continue
            out.extend(lines[i:k])
            i = k
            continue
        out.append(lines[i])
        i += 1
    return out


def engine_ratio(path):
    with open(path, "rb") as f:
        r = subprocess.run([engine, "compress", "--type", "diff", "--json"], stdin=f,
                           capture_output=True, env=env, check=True)
    return json.loads(r.stdout)["ratio"]


rows = []
with open(os.path.join(corpus, "MANIFEST.tsv"), encoding="utf-8") as f:
    for line in f.read().splitlines()[1:]:
        cols = line.split("\t")
        if len(cols) > 1 and cols[1] == "diff":
            rows.append(cols[0])

print("### What a diff compressor can save without hiding a change\n")
print("`bench/diff_bounds.py` — the corpus diffs' o200k_base tokens by line kind (share of the "
      "file's tokens), and two ceilings for a compressor that keeps every commit header and "
      "message, file header, hunk header and changed line: **no context** (every context line "
      "dropped, no markers) and **+ word diff** (also each alike removed/added line pair written "
      "once as git's `[-old-]{+new+}` word diff). Ratio = saved / before.\n")
print("| file | tokens | " + " | ".join(KINDS) + " | ceiling: no context | ceiling: + word diff | caveman ratio |")
print("|---|---|" + "---|" * len(KINDS) + "---|---|---|")
for rel in rows:
    path = os.path.join(corpus, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    kinds = classify(lines)
    total = count(text)
    shares = []
    for kind in KINDS:
        part = [l for l, k in zip(lines, kinds) if k == kind]
        shares.append(f"{count(chr(10).join(part)) / total:.2f}" if part else "0")
    kept = [(l, k) for l, k in zip(lines, kinds) if k != "context"]
    no_context = [l for l, _ in kept]
    ceiling_a = 1 - count("\n".join(no_context)) / total
    ceiling_b = 1 - count("\n".join(with_word_diffs(no_context, [k for _, k in kept]))) / total
    name = os.path.basename(rel)
    print(f"| {name} | {total} | " + " | ".join(shares) +
          f" | {ceiling_a:.3f} | {ceiling_b:.3f} | {engine_ratio(path):.3f} |")
print("\nNo compressor that keeps every changed line can pass a file's ceiling. Caveman "
      "passes it only where changed lines are still in view or derivable: blocks moved within "
      "the commit, new files' function bodies, lock and generated files (docs/engine.md).")
