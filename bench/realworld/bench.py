#!/usr/bin/env python3
"""The realworld evaluation: generate payloads from real programs (generate.py), compress each
with caveman-engine, grade every view for honesty (rw/grade.py), report per family.

usage: bench/realworld/bench.py [--seed N ...] [--bin DIR] [--sample K] [--markdown]
                                [--json FILE] [--max-corruptions N] [--keep DIR]
  --seed        one or more seeds (default 1 2), or `random`; each generates its own payloads
  --sample K    K payloads per seed, chosen by the seed (CI runs 60 with a random seed)
  --markdown    the section `realworld` of docs/BENCHMARKS.md on stdout
  --keep DIR    keep the generated payloads in DIR/seed<N> (and reuse them when present)
  --max-corruptions N   exit 1 when more than N payloads carry a silent corruption
                        (default: report only)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # noqa: E402
from rw.grade import grade  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


class Engine:
    def __init__(self, bin_dir: Path, home: Path):
        self.exe = str(bin_dir / "caveman-engine")
        self.env = dict(os.environ, CAVEMAN_HOME=str(home), HOME=str(home))

    def compress(self, data: bytes, path: str = "") -> dict:
        # The proxy passes the file a tool result shows (Read's file_path, `cat PATH`) the same way.
        hint = ["--path", path] if path else []
        p = subprocess.run([self.exe, "compress", "--json", *hint], input=data, capture_output=True, env=self.env, timeout=300)
        if p.returncode != 0:
            return {"output": data.decode("utf-8", "replace"), "error": p.stderr.decode(errors="replace")[:200]}
        return json.loads(p.stdout)

    def expand(self, text: str) -> str | None:
        p = subprocess.run([self.exe, "expand"], input=text.encode(), capture_output=True, env=self.env, timeout=300)
        return p.stdout.decode("utf-8", "replace") if p.returncode == 0 else None


def evaluate(seed: int, engine: Engine, sample: int, keep: Path | None) -> list[dict]:
    out = keep / f"seed{seed}" if keep else Path(tempfile.mkdtemp(prefix=f"caveman-rw{seed}-"))
    if not (keep and (out / "manifest.jsonl").exists()):  # --keep reuses what an earlier run generated
        generate.generate(seed, out, sample)
    rows = []
    for line in open(out / "manifest.jsonl", encoding="utf-8"):
        m = json.loads(line)
        text = (out / "payloads" / f"{m['id']}.txt").read_bytes().decode("utf-8")
        source = (out / "payloads" / f"{m['id']}.source").read_bytes().decode("utf-8")
        r = engine.compress(text.encode(), m.get("path", ""))
        view = r["output"]
        lossless = bool(r.get("lossless_to_model"))
        expanded = engine.expand(view) if view != text else text
        listing = m["variant"].startswith("read") and m["variant"] != "bash"
        v = grade(source, view, lossless, m["needles"], expanded, listing=listing,
                  file_read=m["variant"].startswith("read"), first_line=m["first_line"], original=text)
        before = r.get("tokens_before") or 0
        after = r.get("tokens_after") or before
        rows.append({"seed": seed, "id": m["id"], "family": m["family"], "variant": m["variant"], "name": m["name"],
                     "declared": m["declared"], "type": r.get("content_type", "?"), "method": r.get("method", ""),
                     "before": before, "after": after, "changed": view != text, "lossless": lossless and view != text,
                     "needles": v.needles, "kept": v.kept, "literal": v.literal, "corruptions": v.corruptions})
    if not keep:
        subprocess.run(["rm", "-rf", str(out)])
    return rows


def _saving(rows) -> float:
    b = sum(r["before"] for r in rows)
    return (b - sum(r["after"] for r in rows)) / b if b else 0.0


def _pct(x: float) -> str:
    return f"{x:.2f}"


def markdown(rows: list[dict], seeds: list[int], secs: float) -> str:
    fams = defaultdict(list)
    for r in rows:
        fams[r["family"]].append(r)
    bad = [r for r in rows if r["corruptions"]]
    ok_type = sum(1 for r in rows if r["type"] in r["declared"])
    html_wrong = [r for r in rows if r["type"] == "html" and "html" not in r["declared"]]
    needles = sum(r["needles"] for r in rows)
    lines = [
        "## realworld: generated payloads from real programs",
        "",
        f"`bench/realworld/bench.py --seed {' '.join(map(str, seeds))}` (`make bench`): {len(rows)} payloads in {len(fams)} "
        f"families, made on this machine by running real programs (compilers, interpreters, sanitizers, git, binutils, "
        f"package tools, a loopback service with seeded traffic, strace, curl) and reading real files (configs, markup, "
        f"code, data) as an agent's Bash, Read (whole and offset/limit) and `cat -n` results; the seed picks sources, sizes "
        f"and faults; nothing generated is committed. Needles are derived mechanically (rare lines, failure signals, "
        f"generic identifiers, every line of a file read) and every view is graded for honesty "
        f"(bench/realworld/rw/grade.py; docs/formats.md#markers). Run time {secs:.0f} s.",
        "",
        f"- token-weighted saving **{_pct(_saving(rows))}**, median {_pct(statistics.median([1 - r['after'] / r['before'] if r['before'] else 0 for r in rows]))}",
        f"- payloads with a silent corruption: **{len(bad)}** of {len(rows)}",
        f"- declared type detected: {ok_type} of {len(rows)} ({100 * ok_type / max(1, len(rows)):.1f}%); "
        f"non-HTML payloads sent to the html compressor: {len(html_wrong)}",
        f"- needles kept: {sum(r['kept'] for r in rows)} of {needles}; literally visible: {sum(r['literal'] for r in rows)}",
    ]
    for seed in seeds:
        rs = [r for r in rows if r["seed"] == seed]
        lines.append(f"- seed {seed}: {len(rs)} payloads in {len({r['family'] for r in rs})} families; saving {_pct(_saving(rs))}; "
                     f"{sum(1 for r in rs if r['corruptions'])} with a silent corruption; declared type "
                     f"{sum(1 for r in rs if r['type'] in r['declared'])}; html path for non-HTML "
                     f"{sum(1 for r in rs if r['type'] == 'html' and 'html' not in r['declared'])}")
    lines += [
        "",
        "| family | payloads | detected types | saving (token-weighted) | median | changed | lossless of changed | needles kept | corrupted payloads |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for fam in sorted(fams):
        rs = fams[fam]
        types = Counter(r["type"] for r in rs).most_common(3)
        changed = [r for r in rs if r["changed"]]
        med = statistics.median([1 - r["after"] / r["before"] if r["before"] else 0 for r in rs])
        lines.append(f"| {fam} | {len(rs)} | {', '.join(f'{t} {n}' for t, n in types)} | {_pct(_saving(rs))} | {_pct(med)} | "
                     f"{len(changed)} | {sum(1 for r in changed if r['lossless'])} | {sum(r['kept'] for r in rs)}/{sum(r['needles'] for r in rs)} | "
                     f"{sum(1 for r in rs if r['corruptions'])} |")
    if bad:
        lines += ["", "Silent corruptions (payload, seed, type: the first fact lost and why; how many facts):", ""]
        for r in bad:
            c = r["corruptions"][0]
            fact = c["fact"].replace("|", "\\|").replace("`", "'")[:90]
            lines.append(f"- `{r['id']}` seed {r['seed']} ({r['type']}): `{fact}` — {c['why']}; {len(r['corruptions'])} in all")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", nargs="+", default=["1", "2"], help="seeds; 'random' draws one and prints it")
    ap.add_argument("--bin", type=Path, default=Path(os.environ.get("CAVEMAN_BIN_DIR", ROOT / "build/release/bin")))
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--keep", type=Path)
    ap.add_argument("--max-corruptions", type=int, default=-1)
    a = ap.parse_args()
    a.seed = [int.from_bytes(os.urandom(3), "big") if s == "random" else int(s) for s in a.seed]
    print(f"realworld: seeds {' '.join(map(str, a.seed))} (repeat with --seed {' '.join(map(str, a.seed))})", file=sys.stderr)
    t0 = time.time()
    rows = []
    with tempfile.TemporaryDirectory(prefix="caveman-rw-home-") as home:
        engine = Engine(a.bin.resolve(), Path(home))
        for seed in a.seed:
            print(f"realworld: seed {seed}", file=sys.stderr)
            rows += evaluate(seed, engine, a.sample, a.keep)
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    report = markdown(rows, a.seed, time.time() - t0)
    print(report if a.markdown else report.split("\n| family")[0])
    bad = sum(1 for r in rows if r["corruptions"])
    print(f"realworld: seeds {a.seed}: {len(rows)} payloads, {bad} with a silent corruption", file=sys.stderr)
    return 1 if 0 <= a.max_corruptions < bad else 0


if __name__ == "__main__":
    sys.exit(main())
