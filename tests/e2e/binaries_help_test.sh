#!/usr/bin/env bash
# Every executable answers --help and --version with exit 0, and `version --json` with JSON.
set -euo pipefail
bin=${CAVEMAN_BIN_DIR:?}
for b in caveman-engine caveman-proxy caveman-mcp caveman-shrink caveman-browse cavemem caveman; do
  "$bin/$b" --help >/dev/null || { echo "FAIL: $b --help"; exit 1; }
  v=$("$bin/$b" --version) || { echo "FAIL: $b --version"; exit 1; }
  [[ $v == "$b "* ]] || { echo "FAIL: $b --version printed '$v'"; exit 1; }
  "$bin/$b" version --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["name"]==sys.argv[1], d' "$b" \
    || { echo "FAIL: $b version --json"; exit 1; }
done
echo "ok: 7 binaries answer --help, --version and version --json"
