#!/usr/bin/env python3
"""Factored views through caveman-engine as a shell script uses them (issue 21):
- every corpus file whose view is lossless: `expand` gives back the input byte for byte, and
  the report says lossless_to_model; a lossy view's expansion still ends in markers;
- idempotence: compressing a factored view again passes it through unchanged;
- determinism: two processes give identical views;
- bounded memory: a 64 MiB single line finishes under 4x its size in peak RSS; a
  1,000,000-line log under 3.5x (measured 3.0x: the stdin buffer, the store record's copy of the
  original and the line index are each about one input; SQLite writes the original into a
  zeroblob piece by piece instead of building a row that holds it once more).
"""
import json
import os
import subprocess
import sys
import tempfile

BIN = os.path.join(os.environ["CAVEMAN_BIN_DIR"], "caveman-engine")
CORPUS = os.environ["CAVEMAN_CORPUS_DIR"]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, flush=True)


def run(args, data, home):
    env = dict(os.environ, CAVEMAN_HOME=home, HOME=home)
    env.pop("CAVEMAN_CCR_DB", None)
    return subprocess.run([BIN] + args, input=data, capture_output=True, env=env, timeout=600)


def compress(data, home):
    r = run(["compress"], data, home)
    if r.returncode != 0:
        fail("compress exit %d: %r" % (r.returncode, r.stderr[-300:]))
        return r.stdout, {}
    return r.stdout, json.loads(r.stderr.decode().strip().splitlines()[-1])


home = tempfile.mkdtemp(prefix="caveman-factor-")
public = os.path.join(CORPUS, "public")
lossless = 0
for name in sorted(os.listdir(public)):
    data = open(os.path.join(public, name), "rb").read()
    view, report = compress(data, home)
    back = run(["expand"], view, home)
    if back.returncode != 0:
        fail("%s: expand exit %d" % (name, back.returncode))
        continue
    if report.get("lossless_to_model") is True:
        lossless += 1
        if back.stdout != data:
            fail("%s: lossless view does not expand to the input" % name)
    if "factored" not in report.get("method", ""):
        continue
    again, report2 = compress(view, home)
    if again != view or report2.get("method"):
        fail("%s: compressing the view again changed it (%s)" % (name, report2.get("method")))
    if run(["compress"], data, home).stdout != view:
        fail("%s: a second process wrote a different view" % name)
if lossless == 0:
    fail("no corpus file got a lossless view")
print("lossless views that expanded exactly: %d" % lossless)


def peak_rss_of(args, data):
    """The engine's own peak RSS, by GNU time: getrusage(RUSAGE_CHILDREN) would also count
    this Python process's pages, which a forked child holds until it execs."""
    d = tempfile.mkdtemp(prefix="caveman-rss-")
    report = os.path.join(d, "rss")
    with open(os.path.join(d, "in"), "wb") as f:
        f.write(data)
    env = dict(os.environ, CAVEMAN_HOME=d, HOME=d)
    env.pop("CAVEMAN_CCR_DB", None)
    with open(os.path.join(d, "in"), "rb") as stdin:
        r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report, BIN] + args, stdin=stdin,
                           capture_output=True, env=env, timeout=600)
    return r, int(open(report).read().split()[-1]) * 1024


one_line = (b"x" * 1000 + b" ") * (64 * 1024 * 1024 // 1001)
r, rss = peak_rss_of(["compress"], one_line)
if r.returncode != 0:
    fail("64 MiB single line: exit %d %r" % (r.returncode, r.stderr[-200:]))
if rss > 4 * len(one_line):
    fail("64 MiB single line: peak RSS %d MiB > 4x input" % (rss >> 20))
print("64 MiB single line: peak RSS %d MiB" % (rss >> 20))

lines = b"".join(b"2026-01-01 00:%02d:%02d worker=%d job=%d status=ok\n" % (k // 60 % 60, k % 60, k % 7, k)
                 for k in range(1000000))
r, rss = peak_rss_of(["compress"], lines)
if r.returncode != 0:
    fail("1,000,000 lines: exit %d %r" % (r.returncode, r.stderr[-200:]))
if rss > 3.5 * len(lines):
    fail("1,000,000 lines: peak RSS %d MiB > 3.5x input (%d MiB)" % (rss >> 20, len(lines) >> 20))
print("1,000,000 lines (%d MiB): peak RSS %d MiB" % (len(lines) >> 20, rss >> 20))

print("%d passed, %d failed" % (1 if not failures else 0, 1 if failures else 0))
sys.exit(1 if failures else 0)
