#!/usr/bin/env python3
"""Compressed output bytes on the corpus are pinned (issue 23, acceptance 7).

Every file of the public corpus goes through `caveman-engine compress` (auto-detected type,
default options); the SHA-256 of what it prints must equal the digest stored in
tests/testdata/corpus_digests.txt. A refactoring that changes one output byte fails here; a
change meant to alter output rewrites the file with `--update` and says so in its commit.

Without the corpus the test is skipped (exit 77), except under CI=true, where a missing corpus
is a failure: a green CI must not hide that the check did not run.
"""
import hashlib
import os
import subprocess
import sys
import tempfile

BIN = os.path.join(os.environ["CAVEMAN_BIN_DIR"], "caveman-engine")
CORPUS = os.path.join(os.environ.get("CAVEMAN_CORPUS_DIR", ""), "public")
SOURCE = os.environ.get("CAVEMAN_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "../../.."))
DIGESTS = os.path.join(SOURCE, "tests/testdata/corpus_digests.txt")


def digests(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAVEMAN_")}
    env.update(HOME=home, CAVEMAN_HOME=home)
    out = {}
    for name in sorted(os.listdir(CORPUS)):
        if name == "MANIFEST" or name.startswith("."):
            continue
        with open(os.path.join(CORPUS, name), "rb") as f:
            data = f.read()
        r = subprocess.run([BIN, "compress"], input=data, capture_output=True, env=env, timeout=300)
        if r.returncode != 0:
            sys.exit(f"FAIL: {name}: exit {r.returncode}: {r.stderr.decode(errors='replace')}")
        out[name] = hashlib.sha256(r.stdout).hexdigest()
    return out


def main():
    if not os.path.isdir(CORPUS):
        print(f"corpus not found at {CORPUS}")
        sys.exit(1 if os.environ.get("CI") == "true" else 77)
    with tempfile.TemporaryDirectory() as home:
        got = digests(home)
    if "--update" in sys.argv:
        with open(DIGESTS, "w") as f:
            f.writelines(f"{d}  {n}\n" for n, d in got.items())
        print(f"wrote {len(got)} digests to {DIGESTS}")
        return
    want = {}
    with open(DIGESTS) as f:
        for line in f:
            d, n = line.rstrip("\n").split("  ", 1)
            want[n] = d
    bad = [n for n in sorted(set(got) | set(want)) if got.get(n) != want.get(n)]
    for n in bad:
        print(f"FAIL: {n}: output digest {got.get(n, 'missing')} != stored {want.get(n, 'missing')}")
    if bad:
        sys.exit(f"{len(bad)} of {len(want)} corpus outputs changed (intended? rerun with --update)")
    print(f"ok: {len(got)} corpus outputs byte-identical to the stored digests")


main()
