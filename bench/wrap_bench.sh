#!/usr/bin/env bash
# Wrap benchmark: Claude Code wrapped by `caveman wrap claude`, record vs compress, against a
# scripted mock Anthropic upstream → docs/BENCHMARKS.md section "wrap".
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build/release/bin}" && pwd)
node bench/wrap_bench.mjs --bin "$bin" --markdown | bench/update_section.py wrap
