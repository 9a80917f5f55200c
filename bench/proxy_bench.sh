#!/usr/bin/env bash
# caveman-proxy latency and throughput (issue 8 acceptance 5), written into the `proxy` section
# of docs/BENCHMARKS.md:
#  1. record mode, 10 KB Anthropic Messages requests, wrk concurrency 8: the stand-in provider
#     (bench/proxy_bench_upstream.cpp) called directly vs through caveman-proxy, alternating
#     rounds in one run; added p50/p99 = proxy − direct (medians over the rounds);
#  2. compress mode (CAVEMAN_RECOVERY=mcp), one request at a time whose tool_result is 100 KB of
#     corpus terminal output (colored `git log --graph --stat`): cold (unique content each
#     request: engine compress + CCR write + prefix-cache row) and warm (the same body again:
#     prefix-cache substitution), beside the same body sent directly.
# usage: bench/proxy_bench.sh [BIN_DIR]   (default build/release/bin; needs wrk, python3)
# env: PROXY_BENCH_SECONDS (per round, default 5), PROXY_BENCH_ROUNDS (default 3),
#      PROXY_BENCH_DRY=1 prints the section instead of writing docs/BENCHMARKS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build/release/bin}" && pwd)
secs=${PROXY_BENCH_SECONDS:-5}
rounds=${PROXY_BENCH_ROUNDS:-3}
corpus=${CAVEMAN_CORPUS_DIR:-../shared/corpus}/public
command -v wrk >/dev/null || { echo "proxy_bench: wrk not found (apt-get install wrk)" >&2; exit 1; }
work=$(mktemp -d /tmp/caveman-proxy-bench-XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$bin/proxy_bench_upstream" >"$work/upstream.port" &
pids+=($!)
for _ in $(seq 50); do [[ -s $work/upstream.port ]] && break; sleep 0.1; done
up_port=$(cat "$work/upstream.port")
upstream=http://127.0.0.1:$up_port

start_proxy() {  # name, extra env... → prints the proxy URL
  local name=$1 home=$work/$1
  shift
  mkdir -p "$home"
  printf 'providers:\n  anthropic:\n    base_url: %s\n' "$upstream" >"$home/caveman.yaml"
  env -i PATH="$PATH" HOME="$home" CAVEMAN_HOME="$home" CAVEMAN_LISTEN=127.0.0.1:0 \
    CAVE_SSRF_ALLOWLIST=127.0.0.1 "$@" "$bin/caveman-proxy" serve 2>"$home/stderr" >/dev/null &
  pids+=($!)
  echo $! >"$home/pid"
  for _ in $(seq 100); do
    grep -q 'listening on' "$home/stderr" 2>/dev/null && break
    sleep 0.1
  done
  grep -o 'http://127.0.0.1:[0-9]*' "$home/stderr" | head -1
}
record_url=$(start_proxy record CAVEMAN_MODE=record)
compress_url=$(start_proxy compress CAVEMAN_MODE=compress CAVEMAN_RECOVERY=mcp)

# Request bodies: 10 KB of user text; a 100 KB log tool_result (split around a marker so the
# cold run can make every request's content unique).
python3 - "$work" "$corpus/terminal-git-log-graph-stat.ansi" <<'PY'
import json, sys
work, log = sys.argv[1], sys.argv[2]
words = ("the proxy forwards every byte of this request unchanged to the provider " * 200)
head = '{"model":"claude-bench","max_tokens":16,"messages":[{"role":"user","content":'
text = words[: 10240 - len(head) - 4]
open(f"{work}/body10k.json", "w").write(head + json.dumps(text) + "}]}")
raw = open(log, encoding="utf-8").read()
cut = raw[:102400]
cut = cut[: cut.rfind("\n") + 1]
msgs = [{"role": "user", "content": "Which commits touched the table cache?"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "git log --graph --stat --color"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "@@RUN@@\n" + cut}]}]
body = json.dumps({"model": "claude-bench", "max_tokens": 16, "messages": msgs})
pre, post = body.split("@@RUN@@")
open(f"{work}/body100k.json", "w").write(pre + "warm" + post)
open(f"{work}/body100k.pre", "w").write(pre)
open(f"{work}/body100k.post", "w").write(post)
print(f"bodies: 10k={len(head + json.dumps(text) + '}]}')} 100k={len(body)}", file=sys.stderr)
PY

cat >"$work/fixed.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["content-type"] = "application/json"
wrk.headers["x-api-key"] = "sk-ant-api03-bench"
wrk.headers["anthropic-version"] = "2023-06-01"
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.body = f:read("*a")
f:close()
LUA
cat >"$work/unique.lua" <<'LUA'
-- Every request carries unique tool_result content (a counter line before the log).
local function slurp(p) local f = assert(io.open(p, "rb")); local s = f:read("*a"); f:close(); return s end
local pre = slurp(os.getenv("BODY_PRE"))
local post = slurp(os.getenv("BODY_POST"))
local n = 0
request = function()
  n = n + 1
  return wrk.format("POST", nil, {["content-type"] = "application/json",
    ["x-api-key"] = "sk-ant-api03-bench", ["anthropic-version"] = "2023-06-01"},
    pre .. "run " .. os.time() .. "-" .. n .. post)
end
LUA

run_wrk() {  # label url threads conns lua [env...] → appends to results
  local label=$1 url=$2 t=$3 c=$4 lua=$5
  shift 5
  env "$@" wrk -t"$t" -c"$c" -d"${secs}s" --latency -s "$work/$lua" "$url/v1/messages" >"$work/wrk-$label.txt" 2>&1
  python3 - "$work/wrk-$label.txt" "$label" >>"$work/results.tsv" <<'PY'
import re, sys
text, label = open(sys.argv[1]).read(), sys.argv[2]
def us(v, unit):
    return float(v) * {"us": 1, "ms": 1e3, "s": 1e6, "m": 6e7}[unit]
lat = dict((p, us(v, u)) for p, v, u in re.findall(r"^\s+(50|75|90|99)%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M))
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
reqs = int(re.search(r"(\d+) requests in", text).group(1))
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
errs = re.search(r"Socket errors: .*", text)
print(f"{label}\t{lat['50']:.0f}\t{lat['99']:.0f}\t{rps:.0f}\t{reqs}\t{bad.group(1) if bad else 0}\t{errs.group(0) if errs else ''}")
PY
}

: >"$work/results.tsv"
cut -d' ' -f1 /proc/loadavg >"$work/load-start"
echo "proxy_bench: record, 10 KB, c=1" >&2
run_wrk "direct1" "$upstream" 1 1 fixed.lua BODY_FILE="$work/body10k.json"
run_wrk "proxy1" "$record_url" 1 1 fixed.lua BODY_FILE="$work/body10k.json"
for r in $(seq "$rounds"); do
  echo "proxy_bench: round $r/$rounds (record, 10 KB, c=8)" >&2
  run_wrk "direct-$r" "$upstream" 2 8 fixed.lua BODY_FILE="$work/body10k.json"
  run_wrk "proxy-$r" "$record_url" 2 8 fixed.lua BODY_FILE="$work/body10k.json"
done
echo "proxy_bench: compress mode, 100 KB tool_result, c=1" >&2
run_wrk "c-direct" "$upstream" 1 1 fixed.lua BODY_FILE="$work/body100k.json"
run_wrk "c-cold" "$compress_url" 1 1 unique.lua BODY_PRE="$work/body100k.pre" BODY_POST="$work/body100k.post"
run_wrk "c-warm" "$compress_url" 1 1 fixed.lua BODY_FILE="$work/body100k.json"
cut -d' ' -f1 /proc/loadavg >"$work/load-end"

# Stop the proxies (graceful: the usage writer drains), then read their rows.
for name in record compress; do
  kill -TERM "$(cat "$work/$name/pid")"
  for _ in $(seq 100); do kill -0 "$(cat "$work/$name/pid")" 2>/dev/null || break; sleep 0.1; done
done
stats() { env -i PATH="$PATH" HOME="$work/$1" CAVEMAN_HOME="$work/$1" "$bin/caveman-proxy" stats; }
stats record >"$work/record-stats.json"
stats compress >"$work/compress-stats.json"

python3 - "$work" "$rounds" "$secs" >"$work/section.md" <<'PY'
import json, statistics, subprocess, sys
work, rounds, secs = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = {}
for line in open(f"{work}/results.tsv"):
    label, p50, p99, rps, reqs, bad, errs = line.rstrip("\n").split("\t")
    rows[label] = dict(p50=float(p50), p99=float(p99), rps=float(rps), reqs=int(reqs), bad=int(bad), errs=errs)
def med(kind, key):
    return statistics.median(rows[f"{kind}-{r}"][key] for r in range(1, rounds + 1))
rec = json.load(open(f"{work}/record-stats.json"))
comp = json.load(open(f"{work}/compress-stats.json"))
proxied = sum(rows[f"proxy-{r}"]["reqs"] for r in range(1, rounds + 1)) + rows["proxy1"]["reqs"]
load = (open(f"{work}/load-start").read().strip(), open(f"{work}/load-end").read().strip())
bad = sum(v["bad"] for v in rows.values())
cpu = subprocess.run(["nproc"], capture_output=True, text=True).stdout.strip()
out = []
out.append(f"caveman-proxy vs the stand-in provider called directly (`bench/proxy_bench.sh`; wrk, {secs} s per round, "
           f"{rounds} alternating rounds, medians; release build; {cpu} cores shared by wrk, the proxy and the stand-in; "
           f"1-minute load average {load[0]} at the start and {load[1]} at the end; non-2xx responses: {bad}).")
out.append("")
out.append("Record mode, 10 KB Anthropic Messages requests, concurrency 8 (wrk -t2 -c8):")
out.append("")
out.append("| path | p50 | p99 | req/s |")
out.append("|---|---|---|---|")
for r in range(1, rounds + 1):
    for kind in ("direct", "proxy"):
        v = rows[f"{kind}-{r}"]
        out.append(f"| {kind} (round {r}) | {v['p50']/1000:.3f} ms | {v['p99']/1000:.3f} ms | {v['rps']:,.0f} |")
out.append(f"| **added by the proxy (median)** | **{(med('proxy','p50')-med('direct','p50'))/1000:+.3f} ms** | "
           f"**{(med('proxy','p99')-med('direct','p99'))/1000:+.3f} ms** | proxy **{med('proxy','rps'):,.0f}** vs direct {med('direct','rps'):,.0f} |")
added50 = (med('proxy','p50') - med('direct','p50')) / 1000
added99 = (med('proxy','p99') - med('direct','p99')) / 1000
verdict = lambda ok: "met" if ok else "NOT met"
out.append("")
out.append(f"Issue 8 targets on this run: added p50 ≤ 1 ms — {verdict(added50 <= 1)}; added p99 ≤ 5 ms — "
           f"{verdict(added99 <= 5)}; ≥ 2,000 req/s through the proxy — {verdict(med('proxy','rps') >= 2000)}.")
v1, p1 = rows["direct1"], rows["proxy1"]
out.append("")
out.append(f"One connection (wrk -t1 -c1), same body: direct p50 {v1['p50']/1000:.3f} ms / p99 {v1['p99']/1000:.3f} ms, "
           f"through the proxy p50 {p1['p50']/1000:.3f} ms / p99 {p1['p99']/1000:.3f} ms "
           f"(added p50 {(p1['p50']-v1['p50'])/1000:+.3f} ms); {v1['rps']:,.0f} vs {p1['rps']:,.0f} req/s.")
out.append("")
out.append(f"Usage rows written by the background writer: {rec['requests']:,}; proxied requests wrk counted: {proxied:,}. "
           "More rows than counted requests: wrk does not count the requests in flight when a round ends; fewer: "
           "rows dropped because the writer's bounded queue (4,096 rows) was full — forwarding never waits for it.")
out.append("")
out.append("Compress mode (`CAVEMAN_RECOVERY=mcp`), one Messages request whose latest tool_result is the first 100 KB of "
           "`terminal-git-log-graph-stat.ansi` (colored `git log --graph --stat`), concurrency 1:")
out.append("")
out.append("| path | p50 | p99 | req/s |")
out.append("|---|---|---|---|")
names = {"c-direct": "direct (same body, no proxy)",
         "c-cold": "proxy, cold: unique content each request (compress + CCR write)",
         "c-warm": "proxy, warm: same body again (prefix-cache substitution)"}
for k, n in names.items():
    v = rows[k]
    out.append(f"| {n} | {v['p50']/1000:.2f} ms | {v['p99']/1000:.2f} ms | {v['rps']:,.1f} |")
before, after = comp.get("compression_tokens_before", 0), comp.get("compression_tokens_after", 0)
n = rows["c-cold"]["reqs"]
if before:
    out.append("")
    out.append(f"Tokens of the compressed blocks (o200k, engine estimate, summed over the requests that compressed): "
               f"{before:,} → {after:,} ({100*(before-after)/before:.1f}% fewer).")
print("\n".join(out))
PY
if [[ ${PROXY_BENCH_DRY:-0} == 1 ]]; then
  cat "$work/section.md"
  cat "$work"/wrk-*.txt >&2
else
  bench/update_section.py proxy <"$work/section.md"
  cat "$work/section.md"
fi
