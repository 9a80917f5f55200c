#!/usr/bin/env bash
# caveman-proxy under load (issue 13, acceptance 2), written into the `proxy_load` section of
# docs/RELIABILITY.md (`make soak` runs it through scripts/run_soak.sh):
#  compress mode (CAVEMAN_RECOVERY=mcp) in front of a stand-in Anthropic provider
#  (bench/proxy_load.py upstream); 64 concurrent clients for 60 s of mixed traffic — JSON and
#  SSE, ~3 KB and 100 KB tool results (unique and repeated), 10% record behaviour
#  (x-caveman-bypass), 8% of clients vanishing mid-response and 2% mid-request; a 5 s warm-up
#  first. /proc/<pid>/status (VmRSS, Threads) and /proc/<pid>/fd are read at start, after the
#  warm-up ("before"), every ~5 s during the run and 5 s after it ("after"); then every ccr
#  handle the proxy disclosed is retrieved with `caveman-engine retrieve` (same CAVEMAN_HOME)
#  and compared byte for byte with the original the client sent.
# Exit 1 when the proxy died, answered anything but 200, grew fds or threads after the run, or
# any disclosed handle did not retrieve its exact original.
# usage: bench/proxy_load.sh [BIN_DIR]   (default build/release/bin)
# env: PROXY_LOAD_SECONDS (default 60), PROXY_LOAD_CLIENTS (default 64),
#      PROXY_LOAD_DRY=1 prints the section instead of writing docs/RELIABILITY.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build/release/bin}" && pwd)
secs=${PROXY_LOAD_SECONDS:-60}
clients=${PROXY_LOAD_CLIENTS:-64}
corpus=$(cd "${CAVEMAN_CORPUS_DIR:-../shared/corpus}/public" && pwd)
work=$(mktemp -d /tmp/caveman-proxy-load-XXXXXX)
home=$work/home
mkdir -p "$home"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

python3 bench/proxy_load.py upstream "$work/upstream.port" "$work/handles.tsv" 2>"$work/upstream.err" &
pids+=($!)
for _ in $(seq 100); do [[ -s $work/upstream.port ]] && break; sleep 0.1; done
printf 'providers:\n  anthropic:\n    base_url: http://127.0.0.1:%s\n' "$(cat "$work/upstream.port")" >"$home/caveman.yaml"

env -i PATH="$PATH" HOME="$home" CAVEMAN_HOME="$home" CAVEMAN_LISTEN=127.0.0.1:0 CAVEMAN_MODE=compress \
  CAVEMAN_RECOVERY=mcp CAVE_SSRF_ALLOWLIST=127.0.0.1 "$bin/caveman-proxy" serve 2>"$work/proxy.err" >/dev/null &
proxy=$!
pids+=($proxy)
for _ in $(seq 100); do grep -q 'listening on' "$work/proxy.err" 2>/dev/null && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/proxy.err" | head -1)
[[ -n $url ]] || { echo "proxy_load: caveman-proxy did not start" >&2; cat "$work/proxy.err" >&2; exit 1; }

proxy_port=${url##*:}
upstream_port=$(cat "$work/upstream.port")
snap() {  # label → "label rss_kib threads fds clients upstream other" appended to proc.tsv
  python3 bench/proxy_load.py snap "$proxy" "$proxy_port" "$upstream_port" "$1" >>"$work/proc.tsv"
}
: >"$work/proc.tsv"
cut -d' ' -f1 /proc/loadavg >"$work/load-start"
snap start
echo "proxy_load: warm-up 5 s" >&2
python3 bench/proxy_load.py client "$url" 5 "$clients" "$corpus" "$work/warmup.json" 2 >/dev/null
sleep 2
snap before
t0=$(date +%s)
( while sleep 5; do snap "t+$(( $(date +%s) - t0 ))s" 2>/dev/null || break; done ) &
sampler=$!
pids+=($sampler)
echo "proxy_load: ${secs} s, ${clients} clients" >&2
python3 bench/proxy_load.py client "$url" "$secs" "$clients" "$corpus" "$work/client.json" 1 >/dev/null
kill "$sampler" 2>/dev/null || true
sleep 5
alive=1
kill -0 "$proxy" 2>/dev/null || alive=0
[[ $alive == 1 ]] && snap after
cut -d' ' -f1 /proc/loadavg >"$work/load-end"

# Graceful stop: the usage writer drains; exit status 0 is a clean shutdown.
exit_code=dead
if [[ $alive == 1 ]]; then
  kill -TERM "$proxy"
  exit_code=0
  wait "$proxy" || exit_code=$?
fi
env -i PATH="$PATH" HOME="$home" CAVEMAN_HOME="$home" "$bin/caveman-proxy" stats >"$work/stats.json" 2>/dev/null || echo '{}' >"$work/stats.json"
echo "proxy_load: retrieving every disclosed handle" >&2
verify_rc=0
python3 bench/proxy_load.py verify "$bin/caveman-engine" "$home" "$work/handles.tsv" "$work/client.json" "$corpus" \
  >"$work/verify.json" || verify_rc=$?

set +e
python3 - "$work" "$exit_code" "$secs" "$clients" >"$work/section.md" <<'PY'
import json, sys
work, exit_code, secs, clients = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
c = json.load(open(f"{work}/client.json"))
v = json.load(open(f"{work}/verify.json"))
st = json.load(open(f"{work}/stats.json"))
proc = [l.rstrip("\n").split("\t") for l in open(f"{work}/proc.tsv")]
row = {p[0]: p[1:] for p in proc}
load = (open(f"{work}/load-start").read().strip(), open(f"{work}/load-end").read().strip())
ok = []
fail = []
(ok if exit_code == "0" else fail).append(f"proxy alive for the whole run and exited {exit_code} on SIGTERM")
(ok if c["bad_status"] == 0 and c["bad_body"] == 0 else fail).append(
    f"{c['bad_status']} non-200 answers, {c['bad_body']} incomplete bodies")
if "after" in row:
    # Relay threads (one per request in flight) end after 2 s idle, so 5 s after the run the
    # thread count is back to the start's. The upstream keep-alive pool is bounded by design
    # (at most 64 idle connections per origin), so it is not compared with "before". A leak is
    # a thread more than at start, a client connection still held after every client is gone,
    # a pool beyond its cap, or any other fd more.
    s, b, a = (list(map(int, row[k])) for k in ("start", "before", "after"))
    (ok if a[3] == 0 else fail).append(f"client connections still held after the run: {a[3]}")
    (ok if a[4] <= 64 else fail).append(f"upstream keep-alive connections after the run: {a[4]} (pool cap 64)")
    (ok if a[5] <= b[5] else fail).append(f"other fds (files, pipes, listeners) {b[5]} before → {a[5]} after")
    (ok if a[1] <= s[1] else fail).append(f"threads {s[1]} at start → {a[1]} after (idle relay threads ended)")
(ok if v["missing"] == 0 and v["mismatched"] == 0 else fail).append(
    f"{v['retrieved_exact']:,} of {v['handles']:,} disclosed handles retrieved byte-exactly "
    f"({v['missing']} missing, {v['mismatched']} mismatched)")
out = [f"`bench/proxy_load.sh` (release build; caveman-proxy in compress mode, `CAVEMAN_RECOVERY=mcp`, "
       f"before the Python stand-in provider `bench/proxy_load.py upstream`); {clients} concurrent "
       f"keep-alive clients (one asyncio process) for {c['seconds']} s after a 5 s warm-up. Mix: JSON or SSE (½ each; "
       "the stand-in streams 6 deltas 15 ms apart), tool results of ~3 KB (80%) or 100 KB (20%, 40% of them "
       "unique, the rest repeated: prefix-cache hits), 10% with `x-caveman-bypass` (record behaviour), 8% of "
       "clients vanishing mid-response (SSE after the first bytes, JSON right after sending) and 2% mid-request. "
       f"2 cores shared by the clients, the proxy and the stand-in; 1-minute load average {load[0]} at the start, "
       f"{load[1]} at the end.", ""]
out.append(f"Requests sent {c['sent']:,}; completed with 200 {c['ok']:,} (**{c['completed_per_s']:,} req/s**); "
           f"dropped by the client mid-response {c['dropped_response']:,}, mid-request {c['dropped_request']:,}; "
           f"connection errors {c['conn_errors']}. Latency of completed requests (send → last byte): "
           f"**p50 {c['p50_ms']} ms, p99 {c['p99_ms']} ms**.")
out.append("")
out.append("| class | completed | p50 | p99 |")
out.append("|---|---|---|---|")
for k, x in c["classes"].items():
    out.append(f"| {k} | {x['n']:,} | {x['p50_ms']} ms | {x['p99_ms']} ms |")
out.append("")
out.append("caveman-proxy process (`/proc/<pid>/status`, `/proc/<pid>/fd`):")
out.append("")
out.append("| when | VmRSS | threads | fds | client conns | upstream conns | other fds |")
out.append("|---|---|---|---|---|---|---|")
for p in proc:
    out.append(f"| {p[0]} | {int(p[1]) / 1024:.1f} MiB | " + " | ".join(p[2:]) + " |")
out.append("")
if st.get("compression_tokens_before"):
    b, a = st["compression_tokens_before"], st["compression_tokens_after"]
    out.append(f"Usage rows {st.get('requests', 0):,}; tokens of the compressed blocks {b:,} → {a:,}.")
    out.append("")
out.append("Checks: " + "; ".join(f"{m} — ok" for m in ok) + ("; " if ok and fail else "") +
           "; ".join(f"**{m} — FAILED**" for m in fail) + ".")
print("\n".join(out))
sys.exit(1 if fail else 0)
PY
section_rc=$?
set -e
if [[ ${PROXY_LOAD_DRY:-0} == 1 ]]; then
  cat "$work/section.md"
  cat "$work/proxy.err" | tail -20 >&2
else
  bench/update_section.py proxy_load docs/RELIABILITY.md <"$work/section.md"
  cat "$work/section.md"
fi
[[ $section_rc == 0 && $verify_rc == 0 ]]
