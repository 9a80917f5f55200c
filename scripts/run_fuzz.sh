#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time with seed corpora from ../shared/corpus and
# writes executions and coverage per target into docs/RELIABILITY.md (section "fuzz").
# usage: scripts/run_fuzz.sh [SECONDS_PER_TARGET] [BUILD_DIR]     (defaults: 30, build/fuzz)
# Exit 1 when any target found a crash, leak or property violation (the input is kept in
# build/fuzz/findings/<target>/).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
dir=${2:-build/fuzz}
bin=$dir/bin
corpus=${CAVEMAN_CORPUS_DIR:-../shared/corpus}/public
work=$dir/fuzz-work
rm -rf "$work" && mkdir -p "$work"

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
  echo "$d"
}

rows=()
status=0
targets=$(cd "$bin" && ls fuzz_* | sort)  # every built target, so new ones run without edits here
for t in $targets; do
  seeds=$(seed_dir "$t")
  findings=$dir/findings/$t
  mkdir -p "$findings" "$work/corpus-$t"
  log=$work/$t.log
  echo "fuzz: $t for ${secs}s" >&2
  result="no findings"
  if ! "$bin/$t" "$work/corpus-$t" "$seeds" -max_total_time="$secs" -max_len=65536 \
        -timeout=20 -rss_limit_mb=3072 -artifact_prefix="$findings/" -print_final_stats=1 \
        > "$log" 2>&1; then
    status=1
    result="FINDINGS ($findings)"
    echo "fuzz: $t FAILED — see $log and $findings" >&2
    tail -30 "$log" >&2
  fi
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  rows+=("| $t | $secs | $execs | $cov | $ft | $result |")
done

{
  echo "libFuzzer (clang 14, ASan + UBSan), seeds from ../shared/corpus; \`scripts/run_fuzz.sh $secs\`;"
  echo "1-minute load average $(awk '{print $1}' /proc/loadavg) at the end (executions scale with it)."
  echo
  echo "| target | seconds | executions | edge coverage | features | result |"
  echo "|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
} | bench/update_section.py fuzz docs/RELIABILITY.md
exit $status
