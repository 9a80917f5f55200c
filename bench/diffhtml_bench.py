#!/usr/bin/env python3
"""Compresses every file under WORK/diff and WORK/html with caveman-engine (type forced)
and prints the markdown section: per file tokens before → after and ratio, median per type.
usage: diffhtml_bench.py CAVEMAN_ENGINE WORK"""
import json
import os
import statistics
import subprocess
import sys

engine, work = sys.argv[1], sys.argv[2]
FLOORS = {"diff": 0.60, "html": 0.50}
out = ["### Diff and HTML beyond the corpus", "",
       "`bench/diffhtml_bench.sh` — real inputs that are not in the corpus, compressed by "
       "`caveman-engine compress --type T` (o200k_base tokens, ratio = saved / before). Diffs: "
       "this repository's own history at fixed commits, CPython patches shipped with pyenv, "
       "`diff -u` of two licence texts. HTML: manuals from /usr/share/doc and three Node.js API "
       "pages (not the corpus one).", ""]
for kind in ("diff", "html"):
    d = os.path.join(work, kind)
    rows, ratios = [], []
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            data = f.read()
        p = subprocess.run([engine, "compress", "--type", kind], input=data, capture_output=True)
        rep = json.loads(p.stderr.decode().strip().splitlines()[-1])
        ratio = rep["ratio"]
        ratios.append(ratio)
        rows.append(f"| {name} | {len(data)} | {rep['tokens_before']} → {rep['tokens_after']} | "
                    f"{ratio:.3f} | {rep.get('method', '—')} |")
    med = statistics.median(ratios) if ratios else 0.0
    verdict = "met" if med >= FLOORS[kind] else "**not met**"
    out += [f"**{kind}**: {len(ratios)} files, median ratio **{med:.3f}** "
            f"(floor {FLOORS[kind]:.2f} {verdict}).", "",
            "| file | bytes | tokens before → after | ratio | method |", "|---|---|---|---|---|"]
    out += rows + [""]
print("\n".join(out))
