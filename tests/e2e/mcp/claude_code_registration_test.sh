#!/usr/bin/env bash
# `make npm-pack` tarballs installed into a temp npm prefix, registered in the real Claude
# Code (npm @anthropic-ai/claude-code) with a temp HOME, must show "✔ Connected".
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
bin=${CAVEMAN_BIN_DIR:?}
# Pinned in tests/e2e/package.json; `make test-latest` sets CAVEMAN_AGENTS_BIN_DIR to the newest.
claude=${CAVEMAN_AGENTS_BIN_DIR:-$here/node_modules/.bin}/claude
work=$(mktemp -d /tmp/caveman-claude-reg-XXXXXX)
trap 'rm -rf "$work"' EXIT

"$root/scripts/npm_pack.sh" "$bin" >/dev/null
mkdir -p "$work/prefix" "$work/home" "$work/proj"
(cd "$work/prefix" && npm init -y >/dev/null &&
 npm install --offline --no-audit --no-fund --loglevel=error \
   "$root/build/npm/caveman-mcp-linux-x64-"*.tgz "$root/build/npm/caveman-mcp-"[0-9]*.tgz >/dev/null)
launcher=$work/prefix/node_modules/.bin/caveman-mcp
[[ -x $launcher ]] || { echo "FAIL: launcher not installed"; exit 1; }

C=(env -i PATH="/usr/local/bin:/usr/bin:/bin" HOME="$work/home" TERM=dumb CAVEMAN_HOME="$work/home/.caveman")
# The launcher alone: version --json goes through to the platform package's binary.
v=$("${C[@]}" "$launcher" version --json)
[[ $v == *'"schema":"caveman.mcp.version.v1"'* ]] || { echo "FAIL: launcher version: $v"; exit 1; }

cd "$work/proj"
"${C[@]}" "$claude" mcp add --scope user caveman -- "$launcher" >/dev/null
out=$("${C[@]}" "$claude" mcp list 2>&1)
echo "$out"
grep -q "caveman: .* - ✔ Connected" <<<"$out" || { echo "FAIL: claude mcp list did not show ✔ Connected"; exit 1; }
"${C[@]}" "$claude" mcp remove caveman -s user >/dev/null
out=$("${C[@]}" "$claude" mcp list 2>&1 || true)
if grep -q "^caveman:" <<<"$out"; then echo "FAIL: still registered after remove"; exit 1; fi
echo "ok: Claude Code connects to caveman-mcp through the npm launcher"
