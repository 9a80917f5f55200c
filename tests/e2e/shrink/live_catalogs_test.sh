#!/usr/bin/env bash
# The fixtures are what the pinned servers really list: re-capture tools/list from
# @playwright/mcp and chrome-devtools-mcp (tests/e2e/node_modules) and compare byte for byte,
# then shrink the live capture and recover it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${CAVEMAN_BIN_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node "$here/capture_catalogs.mjs" "$tmp"
export CAVEMAN_CCR_DB=$tmp/ccr.db
for f in playwright_mcp_0.0.83.tools.json chrome_devtools_mcp_1.11.0.tools.json; do
  cmp "$tmp/$f" "$here/../../testdata/shrink/$f" || { echo "FAIL: live $f differs from the fixture"; exit 1; }
  report=$("$bin/caveman-shrink" < "$tmp/$f" 2>&1 >/dev/null | tail -1)
  handle=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["recovery_handle"])' "$report")
  "$bin/caveman-shrink" recover "$handle" | cmp - "$tmp/$f" || { echo "FAIL: recover $f"; exit 1; }
done
echo "ok: live tools/list captures equal the fixtures and round-trip through caveman-shrink"
