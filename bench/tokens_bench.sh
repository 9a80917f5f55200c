#!/usr/bin/env bash
# Token-counter benchmark → docs/BENCHMARKS.md section `tokens`.
#
# usage: bench/tokens_bench.sh [bin dir, default build/release/bin]
# Input: the public corpus (JSON, logs, code, diffs, HTML, tables, config, prose) concatenated
# in name order until it reaches 10 MB. Measured side by side in this one run, single thread,
# best of several runs each: Caveman's O200kCounter (bench program tokens_bench), gpt-tokenizer
# and js-tiktoken in node (bench/tokens_bench.mjs); all three must report the same token count.
# Start-up: hyperfine on `caveman-engine count` of a one-line input (whole process: exec,
# dynamic linking, count, exit). RSS: /usr/bin/time's maximum resident set size.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
corpus=${CAVEMAN_CORPUS_DIR:-../shared/corpus}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

input=$work/mixed.txt
: >"$input"
while (($(stat -c %s "$input") < 10000000)); do
  cat "$corpus"/public/* >>"$input"
done
small=$work/small.txt
printf 'Hello, world! How many tokens does this line have?\n' >"$small"

ours=$("$bin/tokens_bench" "$input" 5)
peers=$(node bench/tokens_bench.mjs "$input" 3)
hyperfine --style none --warmup 10 --runs 100 --export-json "$work/startup.json" \
  "$bin/caveman-engine count < $small" >/dev/null 2>&1
rss_small=$( { /usr/bin/time -f '%M' "$bin/caveman-engine" count <"$small" >/dev/null; } 2>&1 | tail -1)
rss_big=$( { /usr/bin/time -f '%M' "$bin/caveman-engine" count <"$input" >/dev/null; } 2>&1 | tail -1)
cli_tokens=$("$bin/caveman-engine" count <"$input")
load=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$ours" "$peers" "$work/startup.json" "$rss_small" "$rss_big" "$cli_tokens" "$load" \
  >"$work/section.md" <<'PY'
import json, sys
ours, peers = json.loads(sys.argv[1]), json.loads(sys.argv[2])
startup = json.load(open(sys.argv[3]))["results"][0]
rss_small, rss_big, cli_tokens = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
load = sys.argv[7]
counts = {ours["tokens"], cli_tokens, peers["gpt_tokenizer_count"]["tokens"],
          peers["gpt_tokenizer_encode"]["tokens"], peers["js_tiktoken_encode"]["tokens"]}
if len(counts) != 1:
    sys.exit(f"tokens_bench: token counts differ: {counts}")
wall = {k: peers[k]["mb_s"] for k in ("gpt_tokenizer_count", "gpt_tokenizer_encode", "js_tiktoken_encode")}
cpu = {k: peers[k]["cpu_mb_s"] for k in wall}
wall["count"], wall["encode"] = ours["count_mb_s"], ours["encode_mb_s"]
cpu["count"], cpu["encode"] = ours["count_cpu_mb_s"], ours["encode_cpu_mb_s"]
def row(name, key):
    if key in ("count", "encode"):
        return f"| {name} | {wall[key]:.2f} | {cpu[key]:.2f} | — | — |"
    return (f"| {name} | {wall[key]:.2f} | {cpu[key]:.2f} | {wall['count'] / wall[key]:.1f}× |"
            f" {cpu['count'] / cpu[key]:.1f}× |")
gpt_wall = wall["count"] / max(wall["gpt_tokenizer_count"], wall["gpt_tokenizer_encode"])
gpt_cpu = cpu["count"] / max(cpu["gpt_tokenizer_count"], cpu["gpt_tokenizer_encode"])
jt_wall = wall["count"] / wall["js_tiktoken_encode"]
jt_cpu = cpu["count"] / cpu["js_tiktoken_encode"]
verdict = lambda ok: "met" if ok else "NOT met"
print(f"""### Token counting (o200k_base)

Input: the public corpus concatenated to {ours['bytes'] / 1e6:.2f} MB ({ours['bytes']} bytes, mixed
JSON/logs/code/diffs/HTML/tables/config/prose), {ours['tokens']} tokens — the same count from all
three tokenizers. Single thread, best of several runs each, all measured in one run of
`bench/tokens_bench.sh`. The machine is shared (load average {load} when the run ended), so
wall-clock MB/s move from run to run; MB/s per CPU second (process CPU time; for node all of its
threads, GC and JIT included) is the load-independent view.

| tokenizer | MB/s (wall) | MB/s (CPU) | Caveman count is, wall | … CPU |
| --- | ---: | ---: | ---: | ---: |
{row("Caveman `O200kCounter::count`", "count")}
{row("Caveman `O200kCounter::encode` (ids)", "encode")}
{row("gpt-tokenizer 4.0.0 `countTokens`", "gpt_tokenizer_count")}
{row("gpt-tokenizer 4.0.0 `encode`", "gpt_tokenizer_encode")}
{row("js-tiktoken 1.0.21 `encode`", "js_tiktoken_encode")}

Targets: ≥ 5× gpt-tokenizer, its faster mode — {verdict(min(gpt_wall, gpt_cpu) >= 5)} ({gpt_wall:.1f}× wall,
{gpt_cpu:.1f}× CPU); ≥ 20× js-tiktoken — {verdict(min(jt_wall, jt_cpu) >= 20)} ({jt_wall:.1f}× wall, {jt_cpu:.1f}× CPU).

Start-up (`caveman-engine count` of a one-line input, whole process: exec, dynamic linking,
count, exit; hyperfine, {len(startup['times'])} runs): median {startup['median'] * 1e3:.2f} ms, mean
{startup['mean'] * 1e3:.2f} ms ± {startup['stddev'] * 1e3:.2f} ms, min {startup['min'] * 1e3:.2f} ms; CPU per run {(startup['user'] + startup['system']) * 1e3:.2f} ms
(target ≤ 20 ms). Maximum RSS: {rss_small / 1024:.1f} MiB for the one-line input, {rss_big / 1024:.1f} MiB for
the 10 MB input read from stdin (target < 64 MiB). The vocabulary is a 6.4 MB table linked
into the binary and paged in on demand; nothing is parsed at start-up.""")
PY
bench/update_section.py tokens <"$work/section.md"
echo "bench: tokens section written" >&2
