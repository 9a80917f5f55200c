#!/usr/bin/env bash
# Every executable answers --help (CLI11's, docs/base.md), --version and `version --json`.
set -euo pipefail
bin=${CAVEMAN_BIN_DIR:?}
for b in caveman-engine caveman-proxy caveman-mcp caveman-shrink caveman-browse cavemem caveman; do
  help=$("$bin/$b" --help) || { echo "FAIL: $b --help"; exit 1; }
  # CLI11's layout (base::make_app): a usage line naming the tool, then the generated -h row.
  grep -q "^Usage: $b \[OPTIONS\]" <<<"$help" || { echo "FAIL: $b --help has no CLI11 usage line"; exit 1; }
  grep -Eq '^  -h,--help +Print this help message and exit$' <<<"$help" \
    || { echo "FAIL: $b --help is not CLI11's"; exit 1; }
  v=$("$bin/$b" --version) || { echo "FAIL: $b --version"; exit 1; }
  [[ $v == "$b "* ]] || { echo "FAIL: $b --version printed '$v'"; exit 1; }
  "$bin/$b" version --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["name"]==sys.argv[1], d' "$b" \
    || { echo "FAIL: $b version --json"; exit 1; }
done
echo "ok: 7 binaries answer CLI11's --help, --version and version --json"
