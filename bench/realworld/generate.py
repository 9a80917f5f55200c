#!/usr/bin/env python3
"""Generates the realworld evaluation's payloads by running real programs on this machine.

usage: bench/realworld/generate.py --seed N --out DIR [--sample K] [--families a,b]

Writes DIR/manifest.jsonl (one payload per line: id, family, variant, name, declared types,
needles) and DIR/payloads/<id>.txt (the exact bytes of the tool result). The seed picks the
sources, sizes and seeded faults; the programs make the bytes. --sample K keeps K payloads
chosen by the seed across all families (CI's sample). Nothing generated is ever committed.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rw import fam_build, fam_files, fam_runtime, fam_services, fam_system  # noqa: E402
from rw.common import Context, Payload, Source, cat_n_listing, claude_listing, window  # noqa: E402
from rw.needles import derive  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAX_BYTES = 400_000  # a tool result an agent would plausibly get back whole


def variants(src: Source, rng: random.Random) -> list[Payload]:
    """The tool results an agent gets for one source: a command's Bash result; a file's Bash
    `cat`, its Claude Code Read (whole, or a window with offset/limit) and `cat -n`."""
    path = src.name if src.kind == "file" and src.name.startswith("/") else ""
    base = dict(family=src.family, name=src.name, declared=src.declared, path=path)
    out = [Payload(id="", variant="bash", text=src.text, source=src.text, **base)]
    if src.kind == "file":
        out.append(Payload(id="", variant="read", text=claude_listing(src.text), source=src.text, **base))
        n = src.text.count("\n")
        if n > 60:
            offset = rng.randint(1, n - 40)
            limit = rng.randint(20, min(200, n - offset + 1))
            out.append(Payload(id="", variant="read-window", text=claude_listing(src.text, offset, limit),
                               source=window(src.text, offset, limit), first_line=offset, **base))
        if rng.random() < 0.4:
            out.append(Payload(id="", variant="read-catn", text=cat_n_listing(src.text), source=src.text, **base))
    return out


def generate(seed: int, out: Path, sample: int = 0, families: set[str] | None = None) -> list[Payload]:
    with tempfile.TemporaryDirectory(prefix="caveman-rw-") as work:
        ctx = Context(seed, Path(work), ROOT)
        sources: list[Source] = []
        for mod in (fam_build, fam_runtime, fam_system, fam_files, fam_services):
            sources += mod.sources(ctx)
    rng = random.Random(f"{seed}:variants")
    payloads: list[Payload] = []
    for src in sources:
        if families and src.family not in families:
            continue
        if not src.text.strip() or len(src.text.encode()) > MAX_BYTES:
            continue
        for p in variants(src, rng):
            p.id = f"{p.family}-{sum(1 for q in payloads if q.family == p.family):03d}-{p.variant}"
            p.needles = derive(p.source, file_read=p.variant.startswith("read"))
            payloads.append(p)
    if sample:
        payloads = random.Random(f"{seed}:sample").sample(payloads, min(sample, len(payloads)))
    (out / "payloads").mkdir(parents=True, exist_ok=True)
    with open(out / "manifest.jsonl", "w", encoding="utf-8") as m:
        for p in payloads:
            (out / "payloads" / f"{p.id}.txt").write_bytes(p.text.encode("utf-8"))
            (out / "payloads" / f"{p.id}.source").write_bytes(p.source.encode("utf-8"))
            m.write(json.dumps({"id": p.id, "family": p.family, "variant": p.variant, "name": p.name,
                                "declared": list(p.declared), "path": p.path, "first_line": p.first_line,
                                "needles": p.needles}, ensure_ascii=False) + "\n")
    return payloads


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--families", default="")
    a = ap.parse_args()
    fams = set(a.families.split(",")) if a.families else None
    payloads = generate(a.seed, a.out, a.sample, fams)
    print(f"realworld: seed {a.seed}: {len(payloads)} payloads in {len({p.family for p in payloads})} families -> {a.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
