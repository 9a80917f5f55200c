#!/usr/bin/env bash
# Ceilings on the diff ratio for any compressor that keeps every changed line, on the
# corpus diffs (bench/diff_bounds.py). Writes the `diffbounds` section of docs/BENCHMARKS.md.
# usage: bench/diff_bounds.sh [BIN_DIR]   (default build/release/bin)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
corpus=${CAVEMAN_CORPUS_DIR:-../shared/corpus}
python3 bench/diff_bounds.py "$bin/caveman-engine" "$corpus" | bench/update_section.py diffbounds
