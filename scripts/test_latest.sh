#!/usr/bin/env bash
# `make test-latest`: the agent e2e tests (ctest label "agents": wrap, enable/disable, hooks, MCP
# registration, the wrap and session benchmarks) against the newest Claude Code, Codex CLI,
# Gemini CLI, opencode and Qwen Code on npm instead of the pinned ones (tests/e2e/package.json,
# tests/e2e/agents/package.json).
#   scripts/test_latest.sh [BUILD_DIR]      default build/release (its seven binaries must be built)
# The agents go into a temp prefix (npm install --prefix, never the repo's node_modules, never
# global), installed with a temp HOME; every test runs with its own temp HOME too. The tests see
# the prefix through CAVEMAN_AGENTS_BIN_DIR (tests/e2e/cli/cli_harness.mjs). Prints the versions
# tested and writes them to BUILD_DIR/test-latest.json; exits with ctest's status.
#   LATEST_SPECS="@anthropic-ai/claude-code@2.1.332 …"  other versions than the registry's newest
#   LATEST_KEEP=1                                        keep the prefix (its path is printed)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
[[ -f $build/CTestTestfile.cmake ]] || { echo "test-latest: $build is not a configured build tree" >&2; exit 2; }
specs=${LATEST_SPECS:-"@anthropic-ai/claude-code@latest @openai/codex@latest @google/gemini-cli@latest opencode-ai@latest @qwen-code/qwen-code@latest"}

work=$(mktemp -d "${TMPDIR:-/tmp}/caveman-latest-XXXXXX")
if [[ ${LATEST_KEEP:-0} == 1 ]]; then
  echo "test-latest: keeping $work" >&2
else
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/prefix" "$work/home"
# A temp HOME for npm and the agents' install scripts; the download cache stays the user's own.
cache=$(npm config get cache)
echo "test-latest: npm install $specs" >&2
# shellcheck disable=SC2086  # one word per package spec
(cd "$work/prefix" && echo '{"name":"caveman-latest-agents","private":true}' >package.json &&
 HOME="$work/home" npm_config_cache="$cache" npm install --no-audit --no-fund --loglevel=error $specs)
agents=$work/prefix/node_modules/.bin

# The versions installed: the packages' own, then what each binary says it is.
versions=$(cd "$work/prefix" && node -e '
  const fs = require("fs");
  const pkgs = ["@anthropic-ai/claude-code", "@openai/codex", "@google/gemini-cli", "opencode-ai", "@qwen-code/qwen-code"];
  const out = {};
  for (const p of pkgs) {
    try { out[p] = JSON.parse(fs.readFileSync(`node_modules/${p}/package.json`, "utf8")).version; } catch { out[p] = null; }
  }
  console.log(JSON.stringify(out));')
echo "test-latest: installed $versions" >&2
C=(env -i PATH="$agents:/usr/local/bin:/usr/bin:/bin" HOME="$work/home" TERM=dumb)
for a in claude codex gemini opencode qwen; do
  v=$("${C[@]}" timeout 60 "$agents/$a" --version 2>/dev/null | head -n 1 || true)
  echo "test-latest: $a --version: ${v:-?}" >&2
done
printf '{"date": "%s", "packages": %s}\n' "$(date -u +%F)" "$versions" >"$build/test-latest.json"

rc=0
CAVEMAN_AGENTS_BIN_DIR=$agents ctest --test-dir "$build" -L agents --output-on-failure -j 2 || rc=$?
echo "test-latest: $versions: $([[ $rc == 0 ]] && echo passed || echo "FAILED (ctest $rc)")" >&2
exit $rc
