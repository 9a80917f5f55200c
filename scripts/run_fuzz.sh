#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time with seed corpora from ../shared/corpus,
# FUZZ_JOBS targets at a time (default 2: one per core of the build machine).
#   scripts/run_fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR]        (`make fuzz`; defaults 30, build/fuzz)
#       work files and findings under BUILD_DIR; executions and coverage per target written
#       into docs/RELIABILITY.md (section "fuzz").
#   scripts/run_fuzz.sh --ci [SECONDS_PER_TARGET] [BUILD_DIR]   (`make test`)
#       seeds, generated corpora and findings in a temp dir outside the checkout (kept and named
#       on failure, removed otherwise); the table is printed, no file of the checkout is written.
# Exit 1 when any target found a crash, hang, leak or property violation (the input is kept
# under findings/<target>/, and the target's log tail is printed).
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
ci=0
if [[ ${1:-} == --ci ]]; then
  ci=1
  shift
fi
secs=${1:-30}
dir=${2:-build/fuzz}
jobs=${FUZZ_JOBS:-2}
bin=$dir/bin
corpus=${CAVEMAN_CORPUS_DIR:-../shared/corpus}/public
[[ -d $corpus ]] || echo "fuzz: no seed corpus at $corpus (targets start from empty inputs)" >&2
if [[ $ci == 1 ]]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/caveman-fuzz-XXXXXX")
  findings_root=$work/findings
else
  work=$dir/fuzz-work
  findings_root=$dir/findings
  rm -rf "$work" && mkdir -p "$work"
fi

seed_dir() {  # target → directory of seed inputs
  local t=$1 d=$work/seeds-$1
  mkdir -p "$d"
  case $t in
    fuzz_compress)
      local i=0
      for f in "$corpus"/*; do
        i=$((i + 1))
        { printf '\x00'; head -c 32768 "$f"; } > "$d/auto-$i"
        { printf "\\x$(printf %02x $((i % 16)))"; head -c 32768 "$f"; } > "$d/forced-$i"
      done ;;
    fuzz_toon)
      for f in tests/testdata/toon-spec/*/*.json; do head -c 32768 "$f" > "$d/$(basename "$f")"; done
      printf 'users[2]{id,name}:\n  1,ana\n  2,sam' > "$d/tabular.toon" ;;
    fuzz_mcp_framing)
      printf '%s' '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}' > "$d/init"
      printf '%s' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"caveman_compress","arguments":{"input":"a\nb\nc"}}}' > "$d/call"
      printf '%s' '[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]' > "$d/batch" ;;
    fuzz_mcp_modern)  # byte 0: even = a JSON-RPC line, odd = a requestState token
      local m='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}'
      printf '\x00{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{%s}}' "$m" > "$d/discover"
      printf '\x00{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{%s}}' "$m" > "$d/list"
      printf '\x00{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"caveman_retrieve","arguments":{"recovery_handle":"ccr_0","max_bytes":1},"inputResponses":{"confirm_size":{"action":"accept"}},"requestState":"v1.e30.00",%s}}' "$m" > "$d/mrtr"
      printf '\x00{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}' > "$d/version"
      printf '\x01v1.eyJtIjoidG9vbHMvY2FsbCJ9.0000' > "$d/state" ;;
    fuzz_proxy_sse)  # byte 0: provider/stream/encoding, byte 1: chunk size, then a response
      printf '\x04\x10event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":11,"output_tokens":1}}}\n\nevent: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":7}}\n\n' > "$d/anthropic-sse"
      printf '\x05\x07data: {"choices":[],"usage":{"prompt_tokens":13,"completion_tokens":6,"total_tokens":19}}\n\ndata: [DONE]\n\n' > "$d/chat-sse"
      printf '\x02\x40{"candidates":[{"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":21,"candidatesTokenCount":9,"totalTokenCount":30}}' > "$d/gemini-json"
      printf '\x11\x20' > "$d/gzip-empty" ;;
    fuzz_proxy_live_zone)  # byte 0: min_bytes (low 5 bits), then a request body
      printf '\x04{"model":"m","messages":[{"role":"user","content":"why"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"line one\\nline two"}]}]}' > "$d/anthropic"
      printf '\x04{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hello there"}]},{"role":"tool","tool_call_id":"c1","content":"tool output \\u00e9"}]}' > "$d/chat"
      printf '\x04{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"q?"}]},{"type":"function_call_output","call_id":"c","output":"result text"}],"stream":true}' > "$d/responses"
      printf '\x04{"contents":[{"role":"user","parts":[{"text":"hi there"},{"functionResponse":{"name":"f","response":{"output":"abcdefgh"}}}]}]}' > "$d/gemini" ;;
    fuzz_proxy_http)  # byte 0: chunk size, then an upstream's response bytes
      printf '\x03HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n' > "$d/head-chunked"
      printf '\x05HTTP/1.0 200 OK\r\nContent-Length: 12\r\nConnection: keep-alive\r\n\r\n' > "$d/head-length"
      printf '\x024\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nExpires: never\r\n\r\nHTTP/1.1 200 OK\r\n' > "$d/chunks" ;;
    fuzz_shrink)  # byte 0: even = tool catalog, odd = command output (exit code byte/2)
      for f in tests/testdata/shrink/*.json "$corpus"/json-*; do
        { printf '\x00'; head -c 65535 "$f"; } > "$d/catalog-$(basename "$f")"
      done
      for f in "$corpus"/log-* "$corpus"/terminal-* "$corpus"/search-*; do
        { printf '\x03'; head -c 32768 "$f"; } > "$d/output-$(basename "$f")"
      done ;;
    *)
      for f in "$corpus"/*; do head -c 16384 "$f" > "$d/$(basename "$f")"; done ;;
  esac
  # Inputs that once failed a target stay among its seeds, so a regression shows at once.
  [[ -d tests/fuzz/regressions/$t ]] && cp tests/fuzz/regressions/"$t"/* "$d"/
  echo "$d"
}

run_one() {  # target → $work/<target>.row (table row) and exit status
  local t=$1 seeds findings log result execs cov ft rc=0
  seeds=$(seed_dir "$t")
  findings=$findings_root/$t
  log=$work/$t.log
  mkdir -p "$findings" "$work/corpus-$t"
  "$bin/$t" "$work/corpus-$t" "$seeds" -max_total_time="$secs" -max_len=65536 \
      -timeout=20 -rss_limit_mb=3072 -artifact_prefix="$findings/" -print_final_stats=1 \
      > "$log" 2>&1 || rc=$?
  result="no findings"
  if [[ $rc != 0 ]]; then
    result="FINDINGS ($findings)"
    { echo "fuzz: $t FAILED (exit $rc) — log $log, inputs in $findings"; tail -40 "$log"; } >&2
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  echo "| $t | $secs | $execs | $cov | $ft | $result |" > "$work/$t.row"
  return $rc
}

start=$(date +%s)
targets=$(cd "$bin" && ls fuzz_* | sort)  # every built target, so new ones run without edits here
[[ -n $targets ]] || { echo "fuzz: no fuzz_* binaries in $bin" >&2; exit 1; }
status=0
running=0
for t in $targets; do
  if (( running >= jobs )); then
    wait -n || status=1
    running=$((running - 1))
  fi
  echo "fuzz: $t for ${secs}s" >&2
  run_one "$t" &
  running=$((running + 1))
done
while (( running > 0 )); do
  wait -n || status=1
  running=$((running - 1))
done
elapsed=$(( $(date +%s) - start ))

table() {
  echo "libFuzzer (clang 14, ASan + UBSan), seeds from ../shared/corpus; \`scripts/run_fuzz.sh $secs\`,"
  echo "$jobs targets at a time, ${elapsed} s in all; 1-minute load average $(awk '{print $1}' /proc/loadavg)"
  echo "at the end (executions scale with it)."
  echo
  echo "| target | seconds | executions | edge coverage | features | result |"
  echo "|---|---|---|---|---|---|"
  for t in $targets; do cat "$work/$t.row"; done
}
if [[ $ci == 1 ]]; then
  table
  if [[ $status == 0 ]]; then
    rm -rf "$work"
  else
    echo "fuzz: findings kept in $findings_root (logs in $work)" >&2
  fi
else
  table | bench/update_section.py fuzz docs/RELIABILITY.md
  table
fi
exit $status
