#!/usr/bin/env bash
# cavemem at scale and ranking quality → docs/BENCHMARKS.md section `mem` (issue 12, acceptance
# 1 and 2).
#
# usage: bench/mem_bench.sh [bin dir, default build/release/bin]
# Environment: MEM_BENCH_MEMORIES (100000), MEM_BENCH_QUERIES (1000), MEM_BENCH_SCAN (30),
# MEM_BENCH_SINGLE (2000: memories written one fsynced `remember` each; the rest go through the
# bulk import path).
# One run of bench program mem_bench measures, side by side: FTS5 recall (cavemem) and the
# original's full scan (load every current row, tokenize, BM25 in process) on the same store and
# the same queries; and both rankers on the hand-made test set in tests/testdata/mem.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
memories=${MEM_BENCH_MEMORIES:-100000}
queries=${MEM_BENCH_QUERIES:-1000}
scan=${MEM_BENCH_SCAN:-30}
single=${MEM_BENCH_SINGLE:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -m 700 "$work/mem"
"$bin/mem_bench" "$work/mem" tests/testdata/mem "$memories" "$queries" "$scan" "$single" >"$work/out.json"
load=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$work/out.json" "$load" "$bin" >"$work/section.md" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
load, bindir = sys.argv[2], sys.argv[3]
rk, ins, rec, so, ex, sc, db = (r["ranking"], r["insert"], r["recall"], r["search_only"],
                                r["search_exhaustive"], r["scan"], r["db"])
one, bulk, plans, rc = ins["single"], ins["bulk"], so["plans"], r["recall_cpu"]
if "error" in rk:
    sys.exit(f"mem_bench: ranking failed: {rk['error']}")
n = rk["queries"]
pct = lambda k: 100.0 * k / n
verdict = lambda ok: "met" if ok else "NOT met"
mib = lambda b: b / (1 << 20)
print(f"""## cavemem

### Ranking quality

Hand-made test set `tests/testdata/mem`: {rk['memories']} coding-agent memories (project
conventions, commands, paths, decisions) and {n} natural queries, each with the one memory it
should find. Both rankers see the same rows; cavemem also applies a query's project filter where
the query names one (the original had none).

| ranker | top-1 | top-3 | MRR@10 |
| --- | ---: | ---: | ---: |
| cavemem (FTS5, `cavemem_bm25`, porter + unicode61) | {rk['top1']}/{n} ({pct(rk['top1']):.1f}%) | {rk['top3']}/{n} ({pct(rk['top3']):.1f}%) | {rk['mrr10']:.3f} |
| original full scan (BM25 in process, [recall](mem.md#recall)) | {rk['scan_top1']}/{n} ({pct(rk['scan_top1']):.1f}%) | {rk['scan_top3']}/{n} ({pct(rk['scan_top3']):.1f}%) | {rk['scan_mrr10']:.3f} |

Target: expected memory in the top 3 for ≥ 90% of queries — {verdict(pct(rk['top3']) >= 90)}
({pct(rk['top3']):.1f}%).

### Scale

{ins['memories']:,} synthetic memories ({mib(ins['text_bytes']):.1f} MiB of text; 8–48 words from a
20,000-word Zipf vocabulary, project prefixes, commands, paths; fixed seed). The first
{one['memories']:,} are written one by one through `MemStore::remember`, as the CLI and the MCP
tool do ({one['transaction']}); the other {bulk['memories']:,} through the bulk path,
`MemStore::import` as `cavemem import` runs it ({bulk['transaction']}, {bulk['batch']:,} rows each).
Queries: 2–4 words taken from a random memory plus one random vocabulary word. Binaries:
`{bindir}`, one thread; the machine is shared (load average {load} when the run ended), so absolute times
move between runs.

| measure | value |
| --- | ---: |
| single `remember` (fsynced transaction each) | {one['per_second']:,.0f} memories/s ({one['memories']:,} in {one['seconds']:.1f} s) |
| bulk import (`cavemem import`) | {bulk['per_second']:,.0f} memories/s ({bulk['memories']:,} in {bulk['seconds']:.1f} s) |
| recall p50 / p95 / p99 ({rec['n']} queries, `MemService::recall`: parse, FTS5, rows, engine compression, packing) | {rec['p50_ms']:.2f} / {rec['p95_ms']:.2f} / {rec['p99_ms']:.2f} ms |
| recall CPU time p50 / p95 / p99 (this thread; does not grow with the machine's load) | {rc['p50_ms']:.2f} / {rc['p95_ms']:.2f} / {rc['p99_ms']:.2f} ms |
| … of which ranking (`MemStore::search`) p50 / p95 | {so['p50_ms']:.2f} / {so['p95_ms']:.2f} ms |
| ranking plans (whole / rarest prefix / covering sets); ranked FTS5 queries per search | {plans.get('whole', 0)} / {plans.get('rare_prefix', 0)} / {plans.get('covering_sets', 0)}; {so['mean_fts_queries']:.2f} |
| ranking without pruning (every row holding a query word), p50 / p95 | {ex['p50_ms']:.2f} / {ex['p95_ms']:.2f} ms |
| original full scan p50 / p95 ({sc['n']} of the same queries) | {sc['p50_ms']:.1f} / {sc['p95_ms']:.1f} ms |
| speed-up over the full scan (p50 / p95; median per-query ratio) | {r['speedup_p50']:.0f}× / {r['speedup_p95']:.0f}×; {r['speedup_same_queries_median']:.0f}× |
| queries with hits; mean hits | {rec['queries_with_hits']}/{rec['n']}; {rec['mean_hits']:.2f} |
| `mem.db` size (+ WAL) | {mib(db['mem_db_bytes']):.1f} MiB (+ {mib(db['wal_bytes']):.1f} MiB) |

Target: recall p95 ≤ 20 ms — {verdict(rec['p95_ms'] <= 20)} ({rec['p95_ms']:.2f} ms wall; {rc['p95_ms']:.2f} ms CPU).
The full scan's top hit equals cavemem's for {sc['same_top1_as_fts']} of {sc['n']} queries
(cavemem stems words and drops more stopwords, so rankings differ slightly).""")
PY
bench/update_section.py mem <"$work/section.md"
echo "bench: mem section written" >&2
