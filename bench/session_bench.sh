#!/usr/bin/env bash
# Session benchmark: whole scripted agent sessions (Claude Code under `caveman wrap claude`, one
# Anthropic-SDK agent), record vs compress, billed with prompt caching modelled, the hand-written
# suite beside the generated sessions of seeds $SESSION_SEEDS (default 1,2;
# bench/session/generate.mjs, both readings) → docs/BENCHMARKS.md section "session".
# SESSION_SEEDS=none runs the hand-written suite only.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build/release/bin}" && pwd)
seeds=${SESSION_SEEDS:-1,2}
if [ "$seeds" = none ]; then
  node bench/session_bench.mjs --bin "$bin" --markdown | bench/update_section.py session
else
  node bench/session_bench.mjs --bin "$bin" --markdown --generated "$seeds" --with-suite --reading both | bench/update_section.py session
fi
