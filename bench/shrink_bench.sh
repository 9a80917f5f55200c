#!/usr/bin/env bash
# caveman-shrink ratios (tool catalogs, noisy command output) → docs/BENCHMARKS.md section "shrink".
set -euo pipefail
cd "$(dirname "$0")/.."
python3 bench/shrink_bench.py "${1:-build/release/bin}" | bench/update_section.py shrink
