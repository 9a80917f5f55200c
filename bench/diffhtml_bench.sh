#!/usr/bin/env bash
# Diff and HTML compression on real inputs outside the corpus (the corpus has three of
# each): diffs of this repository's own history at fixed commits, CPython patches shipped
# with pyenv, a diff of two licence texts; HTML manuals from /usr/share/doc and Node.js API
# pages other than the corpus one. Inputs missing on this machine are skipped (and listed).
# Writes the `diffhtml` section of docs/BENCHMARKS.md.
# usage: bench/diffhtml_bench.sh [BIN_DIR]   (default build/release/bin)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/release/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/diff" "$work/html" "$work/home"

git show 39f94c2 > "$work/diff/main-show-39f94c2-base64-dedupe.diff"
git show 6b24d33 > "$work/diff/main-show-6b24d33-gutter-fix.diff"
git show 788f518 > "$work/diff/main-show-788f518-file-moved.diff"
git show 041699e -- tests/e2e/package-lock.json tests/e2e/package.json > "$work/diff/main-show-041699e-lockfile.diff"
git log -p -n 10 d4ec4ea -- engine/src/cli > "$work/diff/main-log-p-10-cli.diff"
git log -p 227fc5e..0a4b177 -- engine/src/text engine/src/json engine/src/ccr > "$work/diff/main-log-p-text-json-ccr.diff"
diff -u /usr/share/common-licenses/LGPL-2 /usr/share/common-licenses/LGPL-2.1 > "$work/diff/lgpl-2-vs-2.1.diff" || true
patches=/root/.pyenv/plugins/python-build/share/python-build/patches
for p in 2.5.6/Python-2.5.6/004_osx_libffi.patch 2.5.6/Python-2.5.6/003_osx_lp64.patch \
         3.10.0/Python-3.10.0/0001-bpo-45350-Rerun-autoreconf-with-the-pkg-config-macro.patch \
         3.6.15/Python-3.6.15/0004-Port-ctypes-and-system-libffi-patches-for-arm64-macO.patch \
         3.6.15/Python-3.6.15/0003-Fix-macOS-_tkinter-use-of-Tck-Tk-in-Library-Framewor.patch; do
  [[ -f $patches/$p ]] && cp "$patches/$p" "$work/diff/cpython-$(basename "$p")"
done
for page in bc/bc.html ccache/manual.html fontconfig/fontconfig-user.html fp-compiler/3.2.2/faq.html \
            gcc-12-base/NEWS.html libexpat1-dev/expat.html/reference.html libjs-underscore/index.html \
            ninja-build/manual.html python3/python-policy.html time/time.html \
            valgrind/html/cg-manual.html zlib1g-dev/examples/zlib_how.html \
            nodejs/api/fs.html nodejs/api/http.html nodejs/api/url.html; do
  [[ -f /usr/share/doc/$page ]] && cp "/usr/share/doc/$page" "$work/html/$(echo "$page" | tr / _)"
done

CAVEMAN_HOME="$work/home" python3 bench/diffhtml_bench.py "$bin/caveman-engine" "$work" |
  bench/update_section.py diffhtml
