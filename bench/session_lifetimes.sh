#!/usr/bin/env bash
# Session benchmark, long and paused (issue 37, acceptance 2): the real Claude Code under
# `caveman wrap claude` over long sessions chained from the generated sessions, with pauses from
# the pause model on the stand-in's virtual clock; record (5-minute / 1-hour) against compress
# and the lifetime levers, every answer checked → docs/BENCHMARKS.md section `session-lifetimes`.
#
# usage: bench/session_lifetimes.sh [bin dir, default build/release/bin] [extra options of
#        bench/session_lifetimes.mjs, e.g. --modes 'record 5m,record 1h,active']
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-build/release/bin}" && pwd)
shift || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node bench/session_lifetimes.mjs --bin "$bin" --markdown "$@" >"$work/section.md"
test -s "$work/section.md"
bench/update_section.py session-lifetimes <"$work/section.md"
