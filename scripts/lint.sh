#!/usr/bin/env bash
# `make lint`: the formatting and static checks that gate a change (docs/RELIABILITY.md, "Lint").
# - clang-format (.clang-format) over the C++ lines changed since LINT_BASE (LINT_ALL=1: all
#   lines): a line that would change fails the run (`git clang-format LINT_BASE` fixes them);
# - clang-tidy (.clang-tidy) over the C++ sources changed since LINT_BASE (default HEAD~1:
#   the commit being landed) — the whole tree takes longer than CI has;
# - the lint ctests (error-code registry, doc citations) when a configured build exists.
# usage: scripts/lint.sh [BUILD_DIR]   (default build/release; needs compile_commands.json)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
base=${LINT_BASE:-HEAD~1}
status=0

sources() { git ls-files '*.cpp' '*.h' ':!:third_party/**'; }

# Formatting is checked on the lines changed since LINT_BASE (git clang-format), like clang-tidy
# on files: the tree predates the check, and reformatting all of it at once would rewrite every
# line under review elsewhere. LINT_ALL=1 checks every line of every file.
if [[ ${LINT_ALL:-0} == 1 ]] || ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  unformatted=$(sources | xargs -r clang-format --dry-run 2>&1 | grep -o '^[^:]*:[0-9]*:[0-9]*: warning' | cut -d: -f1 | sort -u || true)
else
  unformatted=$(git clang-format --diff "$base" -- '*.cpp' '*.h' ':!:third_party/**' 2>/dev/null | sed -n 's|^+++ b/||p' || true)
fi
if [[ -n $unformatted ]]; then
  echo "lint: clang-format would change lines of these files (git clang-format $base, or make format):" >&2
  echo "$unformatted" | sed 's/^/  /' >&2
  status=1
fi

if git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  changed=$(git diff --name-only --diff-filter=AM "$base" -- '*.cpp' ':!:third_party/**' ':!:tests/fuzz/**' || true)
  if [[ -n $changed ]]; then
    [[ -f $build/compile_commands.json ]] || { echo "lint: no $build/compile_commands.json" >&2; exit 1; }
    max=${LINT_TIDY_MAX:-30}  # ~5 s a file on CI's 2 cores; a wide merge is tidied in part
    if (($(echo "$changed" | wc -l) > max)); then
      echo "lint: clang-tidy on the first $max of $(echo "$changed" | wc -l) changed files" >&2
      changed=$(echo "$changed" | head -n "$max")
    fi
    echo "lint: clang-tidy on $(echo "$changed" | wc -l) file(s) changed since $base" >&2
    # The unity build's database lists batches; clang-tidy needs one entry per file.
    compdb=$(mktemp -d)
    python3 scripts/per_file_compdb.py "$build" "$compdb"
    # shellcheck disable=SC2086
    findings=$(clang-tidy -p "$compdb" --quiet $changed 2>&1 | grep -E 'warning:|error:' || true)
    rm -rf "$compdb"
    if [[ -n $findings ]]; then echo "$findings" >&2; status=1; fi
  fi
fi

if [[ -f $build/CTestTestfile.cmake ]]; then
  ctest --test-dir "$build" -L lint --output-on-failure -Q || status=1
fi
exit $status
