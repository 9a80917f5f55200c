#!/usr/bin/env bash
# Acceptance 2 (issue 9): with the real Claude Code from npm and a temp HOME,
# `caveman tools mcp install claude --scope user` makes `claude mcp list` show
# `caveman: … - ✔ Connected`; uninstall removes it; a registration caveman did not make is
# never removed.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${CAVEMAN_BIN_DIR:?}
work=$(mktemp -d /tmp/caveman-cli-mcp-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$work/home" "$work/proj"
cd "$work/proj"
# Only the built binaries and Claude Code on PATH; nothing from the real HOME.
# Claude Code pinned in tests/e2e/package.json, or the newest (`make test-latest`).
C=(env -i PATH="$bin:${CAVEMAN_AGENTS_BIN_DIR:-$here/node_modules/.bin}:/usr/local/bin:/usr/bin:/bin" HOME="$work/home" TERM=dumb
   CAVEMAN_HOME="$work/home/.caveman")
marker=$work/home/.caveman/mcp/claude.json

"${C[@]}" "$bin/caveman" tools mcp install claude --scope user >"$work/install.out" 2>&1 ||
  fail "install: $(cat "$work/install.out")"
[[ -f $marker ]] || fail "no marker at $marker"
grep -q '"scope": "user"' "$marker" || fail "marker scope: $(cat "$marker")"
out=$("${C[@]}" claude mcp list 2>&1)
echo "$out"
grep -q "^caveman: $bin/caveman-mcp .*- ✔ Connected" <<<"$out" || fail "claude mcp list did not show caveman ✔ Connected"

# Installing again is idempotent (replaces our own registration).
"${C[@]}" "$bin/caveman" tools mcp install claude --scope user >/dev/null 2>&1 || fail "re-install failed"

# status sees the registration.
"${C[@]}" "$bin/caveman" status --json >"$work/status.json" || true
grep -q '"installed": true' "$work/status.json" || fail "status does not show the registration"

# Uninstall with the wrong scope refuses; without --scope removes the user registration.
if "${C[@]}" "$bin/caveman" tools mcp uninstall claude --scope project >/dev/null 2>&1; then
  fail "uninstall --scope project removed a user-scope registration"
fi
"${C[@]}" "$bin/caveman" tools mcp uninstall claude >"$work/uninstall.out" 2>&1 ||
  fail "uninstall: $(cat "$work/uninstall.out")"
[[ ! -f $marker ]] || fail "marker left behind"
out=$("${C[@]}" claude mcp list 2>&1 || true)
if grep -q "^caveman:" <<<"$out"; then fail "still registered after uninstall: $out"; fi

# A registration the user made themselves is never removed (no marker → nothing to undo),
# and install refuses to overwrite it.
"${C[@]}" claude mcp add --scope user caveman -- /bin/cat >/dev/null
"${C[@]}" "$bin/caveman" tools mcp uninstall claude >/dev/null 2>&1 || fail "uninstall without marker failed"
"${C[@]}" claude mcp get caveman 2>&1 | grep -q "Command: /bin/cat" || fail "user's own registration was removed"
if "${C[@]}" "$bin/caveman" tools mcp install claude --scope user >"$work/refuse.out" 2>&1; then
  fail "install overwrote the user's own registration"
fi
grep -q "did not register" "$work/refuse.out" || fail "refusal unclear: $(cat "$work/refuse.out")"
echo "ok: caveman tools mcp install/uninstall with Claude Code (✔ Connected, removal, foreign registration kept)"
