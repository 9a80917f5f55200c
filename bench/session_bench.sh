#!/usr/bin/env bash
# Session benchmark: whole scripted agent sessions (Claude Code under `caveman wrap claude`, one
# Anthropic-SDK agent), record vs compress, billed with prompt caching modelled
# → docs/BENCHMARKS.md section "session"; then the generated sessions of seeds $SESSION_SEEDS
# (default 1,2; bench/session/generate.mjs, both readings) → section "session-generated", which
# follows it. SESSION_SEEDS=none skips the generated sessions.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build/release/bin}" && pwd)
node bench/session_bench.mjs --bin "$bin" --markdown | bench/update_section.py session
seeds=${SESSION_SEEDS:-1,2}
if [ "$seeds" != none ]; then
  node bench/session_bench.mjs --bin "$bin" --markdown --generated "$seeds" --reading both | bench/update_section.py session-generated
fi
