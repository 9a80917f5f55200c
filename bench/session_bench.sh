#!/usr/bin/env bash
# Session benchmark: whole scripted agent sessions (Claude Code under `caveman wrap claude`, one
# Anthropic-SDK agent), record vs compress, billed with prompt caching modelled
# → docs/BENCHMARKS.md section "session".
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build/release/bin}" && pwd)
node bench/session_bench.mjs --bin "$bin" --markdown | bench/update_section.py session
