#!/usr/bin/env bash
# Long reliability runs (`make soak`): the kill-9 crash-safety test at full size, the MCP soak
# (100,000 mixed requests through one caveman-mcp) and, when present, the proxy load test.
# Each writes its own section of docs/RELIABILITY.md; exit 1 when any of them failed.
# usage: scripts/run_soak.sh [BIN_DIR]   (default build/release/bin)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
export CAVEMAN_BIN_DIR=$bin
export CAVEMAN_CORPUS_DIR=${CAVEMAN_CORPUS_DIR:-$(cd .. && pwd)/shared/corpus}
status=0
load() { awk '{print $1}' /proc/loadavg; }

echo "soak: kill-9 (300 iterations)" >&2
out=$(python3 tests/e2e/reliability/kill9_test.py 300) || status=1
summary=$(tail -n1 <<<"$out")
{
  echo "\`tests/e2e/reliability/kill9_test.py 300\` (3 concurrent \`caveman-engine compress\`"
  echo "writers on one ccr.db, each SIGKILLed at a random point; 1-minute load $(load) at the end):"
  echo
  echo '```json'
  echo "$summary"
  echo '```'
  echo
  echo "Every handle any process printed was retrieved byte-exactly (\`handles_bad\` 0 means none"
  echo "lost), \`PRAGMA integrity_check\` said \`$([[ $summary == *'"integrity": "ok"'* ]] && echo ok || echo FAILED)\`, and a byte budget the writes ran into"
  echo "gave clean pass-through (\`disk_full_passthrough\`) instead of handles without bytes."
} | bench/update_section.py kill9 docs/RELIABILITY.md

echo "soak: caveman-mcp, 100000 requests" >&2
out=$(python3 bench/mcp_soak.py "$bin" 100000) || status=1
summary=$(tail -n1 <<<"$out")
{
  echo "\`bench/mcp_soak.py\`: 100,000 mixed requests (compress, query compress, retrieve, toon,"
  echo "stats, tools/list, ping, and the bad-input list) pipelined into one \`caveman-mcp\`;"
  echo "every id answered once and in order, RSS sampled every 5,000 answers (KiB); 1-minute"
  echo "load $(load) at the end:"
  echo
  echo '```json'
  echo "$summary"
  echo '```'
} | bench/update_section.py mcp_soak docs/RELIABILITY.md

if [[ -x bench/proxy_load.sh ]]; then
  echo "soak: caveman-proxy load" >&2
  bench/proxy_load.sh "$bin" || status=1
fi
exit $status
