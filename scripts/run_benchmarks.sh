#!/usr/bin/env bash
# Runs every benchmark in bench/ against the binaries in $1 and rewrites the matching
# sections of docs/BENCHMARKS.md. Each bench script owns one section.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
"$bin/corpus_bench" | bench/update_section.py corpus
for script in bench/*.sh; do
  [[ -e $script ]] || continue
  echo "bench: $script" >&2
  "$script" "$bin"
done
