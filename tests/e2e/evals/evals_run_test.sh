#!/usr/bin/env bash
# `caveman-engine evals run` as users run it: the embedded suite passes (exit 0, report JSON
# with "passed": true and every fixture passed); a fixtures directory with a failing fixture
# exits 1; a fixture path escaping the directory is refused; wrong arguments exit 2.
set -euo pipefail
engine=${CAVEMAN_BIN_DIR:?}/caveman-engine
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The embedded suite.
"$engine" evals run >"$tmp/report.json" || { echo "FAIL: evals run exited $?"; cat "$tmp/report.json"; exit 1; }
python3 - "$tmp/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["passed"] is True, r
assert len(r["fixtures"]) >= 17, len(r["fixtures"])
bad = [f["name"] for f in r["fixtures"] if not f["passed"]]
assert not bad, bad
assert all(f["byte_recoverable"] for f in r["fixtures"])
print(f'ok: embedded suite {len(r["fixtures"])} fixtures passed, token_ratio {r["token_ratio"]:.3f}')
PY

# 2. A directory suite with one failing fixture → exit 1, report still printed.
mkdir -p "$tmp/dir"
printf 'short prose that stays as it is.\n' >"$tmp/dir/a.txt"
cat >"$tmp/dir/manifest.yaml" <<'YAML'
fixtures:
  - name: passes
    file: a.txt
    graders: [{type: byte_identical}]
  - name: fails
    file: a.txt
    graders: [{type: compressed}]
YAML
set +e
"$engine" evals run --fixtures "$tmp/dir" >"$tmp/dir.json"
rc=$?
set -e
[[ $rc == 1 ]] || { echo "FAIL: failing suite exited $rc, want 1"; exit 1; }
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["passed"] is False and [f["passed"] for f in r["fixtures"]]==[True,False], r' "$tmp/dir.json"
echo "ok: failing directory suite exits 1"

# 3. A fixture path that escapes the directory is an error, not a read.
printf 'secret\n' >"$tmp/outside.txt"
ln -s "$tmp/outside.txt" "$tmp/dir/link.txt"
printf 'fixtures:\n  - {name: x, file: link.txt, graders: [{type: byte_identical}]}\n' >"$tmp/dir/manifest.yaml"
set +e
"$engine" evals run --fixtures "$tmp/dir" >"$tmp/out.txt" 2>"$tmp/err.txt"
rc=$?
set -e
[[ $rc == 1 ]] || { echo "FAIL: escaping symlink exited $rc"; exit 1; }
grep -q cave_invalid_fixture_path "$tmp/err.txt" || { echo "FAIL: no cave_invalid_fixture_path"; cat "$tmp/err.txt"; exit 1; }
[[ ! -s $tmp/out.txt ]] || { echo "FAIL: stdout not empty on error"; exit 1; }
echo "ok: escaping fixture path refused"

# 4. Usage errors.
for args in "" "walk" "run --fixtures" "run --bogus"; do
  set +e
  # shellcheck disable=SC2086
  "$engine" evals $args >/dev/null 2>&1
  rc=$?
  set -e
  [[ $rc == 2 ]] || { echo "FAIL: 'evals $args' exited $rc, want 2"; exit 1; }
done
echo "ok: usage errors exit 2"
