#!/usr/bin/env bash
# Cache lifetimes (issue 37): long paused sessions of a scripted SDK agent through caveman-proxy,
# record (5-minute / 1-hour) against compress and active with keepalive, re-compaction and the
# lifetime choice, billed by the stand-in → docs/BENCHMARKS.md section "lifetimes-sdk".
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build/release/bin}" && pwd)
node bench/lifetimes_bench.mjs --bin "$bin" --write
