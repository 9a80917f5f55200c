#!/usr/bin/env bash
# Pixel mode: text-token vs image-token estimates for the corpus's text/code/log files per
# density → docs/BENCHMARKS.md section "pixel".
set -euo pipefail
cd "$(dirname "$0")/.."
python3 bench/pixel_bench.py "${1:-build/release/bin}" | bench/update_section.py pixel
