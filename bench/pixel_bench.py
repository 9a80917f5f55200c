#!/usr/bin/env python3
"""Pixel mode estimates on the benchmark corpus (issue 14, acceptance 4).

For every corpus file of kind text, code or log: its o200k_base tokens (`caveman-engine
count`), the pixel text-token estimate (⌈UTF-16 length / 4⌉, what the gate compares), and
the image-token estimate of `caveman-engine pixel render --density D` for each density on the
standard 1568×728 canvas (the gpt-5.6 reader), plus what `pixel simulate --model
claude-fable-5` (hi-res 2576×1456 tier) estimates for the same text as one user message.
All numbers are estimates by the documented formulas, not provider-billed tokens; no model
was asked to read the pages here.

usage: bench/pixel_bench.py BIN_DIR   (prints the docs/BENCHMARKS.md section on stdout)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

bin_dir = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.environ.get("CAVEMAN_CORPUS_DIR", os.path.join(root, "..", "shared", "corpus"))
ENGINE = os.path.join(bin_dir, "caveman-engine")
DENSITIES = ("conservative", "balanced", "max")
work = tempfile.mkdtemp(prefix="caveman-pixel-bench-")
env = {"PATH": os.environ.get("PATH", ""), "HOME": work, "CAVEMAN_HOME": work, "LC_ALL": "C.UTF-8"}


def run(args, data=None):
    r = subprocess.run([ENGINE] + args, input=data, capture_output=True, env=env, check=True)
    return r.stdout


def utf16_len(text):
    return len(text.encode("utf-16-le")) // 2


def render(path, density):
    lines = [json.loads(l) for l in run(["pixel", "render", "--density", density, path]).decode().splitlines()]
    summary = lines[-1]
    for k in range(summary["pages"]):
        os.remove(f"{path}.px{k + 1}.png")
    return summary


def simulate_hires(text, density):
    req = os.path.join(work, "request.json")
    with open(req, "w", encoding="utf-8") as f:
        json.dump({"model": "claude-fable-5", "messages": [{"role": "user", "content": text}]}, f)
    info = json.loads(run(["pixel", "simulate", "--density", density, req]))
    return info


rows = []
with open(os.path.join(corpus, "MANIFEST.tsv"), encoding="utf-8") as f:
    entries = [line.rstrip("\n").split("\t") for line in f][1:]
for entry in entries:
    file, kind = entry[0], entry[1]
    if kind not in ("text", "code", "log"):
        continue
    data = open(os.path.join(corpus, file), "rb").read()
    text = data.decode("utf-8", errors="replace")
    path = os.path.join(work, os.path.basename(file))
    with open(path, "wb") as f:
        f.write(data)
    row = {"file": os.path.basename(file), "kind": kind, "o200k": int(run(["count"], data)),
           "est": -(-utf16_len(text) // 4)}
    for d in DENSITIES:
        s = render(path, d)
        row[d] = (s["imageEstTokens"], s["pages"])
        h = simulate_hires(text, d)
        row["hires_" + d] = h["ImageTokensEstimate"] if h["Reason"] == "applied" else None
    rows.append(row)
shutil.rmtree(work, ignore_errors=True)


def pct(img, base):
    return f"{100.0 * (img - base) / base:+.0f}%"


out = []
out.append("## Pixel mode: text-token vs image-token estimates (corpus text/code/log files)\n")
out.append("`bench/pixel_bench.sh` — every corpus file of kind text, code or log rendered by "
           "`caveman-engine pixel render --density D` (reflow on). **o200k** = exact tokens of the text; "
           "**text est.** = ⌈UTF-16 length / 4⌉, the estimate the profitability gate uses; the density "
           "columns are image-token estimates on the standard 1568×728 canvas (⌈w/28⌉·⌈h/28⌉ × 1.10 per "
           "page, pages in brackets; the gpt-5.6 reader) and, after the slash, for the same text as one "
           "user message read by claude-fable-5 on the hi-res 2576×1456 tier (`pixel simulate`; — = "
           "below the 2 000-character minimum). Change = standard-tier image estimate vs text est. "
           "These are estimates from the documented formulas: no provider billed these images and no "
           "model was asked to read them here, so legibility (especially of the two-layer `max` pages) "
           "is not measured.\n")
out.append("| file | kind | o200k | text est. | conservative | balanced | max | change (balanced) |")
out.append("|---|---|---:|---:|---:|---:|---:|---:|")
tot = {"o200k": 0, "est": 0, **{d: 0 for d in DENSITIES}}
for r in rows:
    cells = []
    for d in DENSITIES:
        img, pages = r[d]
        h = r["hires_" + d]
        cells.append(f"{img} ({pages}) / {h if h is not None else '—'}")
        tot[d] += img
    tot["o200k"] += r["o200k"]
    tot["est"] += r["est"]
    out.append(f"| {r['file']} | {r['kind']} | {r['o200k']} | {r['est']} | {' | '.join(cells)} | "
               f"{pct(r['balanced'][0], r['est'])} |")
out.append(f"| **total** ({len(rows)} files) | | {tot['o200k']} | {tot['est']} | {tot['conservative']} | "
           f"{tot['balanced']} | {tot['max']} | {pct(tot['balanced'], tot['est'])} |")
out.append("")
out.append(f"Standard-tier totals vs the text estimate: conservative {pct(tot['conservative'], tot['est'])}, "
           f"balanced {pct(tot['balanced'], tot['est'])}, max {pct(tot['max'], tot['est'])}; vs exact o200k: "
           f"conservative {pct(tot['conservative'], tot['o200k'])}, balanced {pct(tot['balanced'], tot['o200k'])}, "
           f"max {pct(tot['max'], tot['o200k'])}.")
print("\n".join(out))
