#!/usr/bin/env bash
# caveman-mcp latency benchmark → docs/BENCHMARKS.md section "mcp".
set -euo pipefail
cd "$(dirname "$0")/.."
python3 bench/mcp_bench.py "${1:-build/release/bin}" | bench/update_section.py mcp
