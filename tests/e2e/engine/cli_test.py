#!/usr/bin/env python3
"""caveman-engine as a shell script uses it (issue 2 acceptance):
- every corpus file: compress, then `retrieve <handle>` returns the input byte for byte;
  `detect` returns the MANIFEST kind for ≥ 95% of the files (misses are listed);
- determinism: two processes compress the same input to identical bytes and handle;
- 4 processes × 200 compress calls on one ccr.db: every handle retrievable afterwards;
- bad input: empty stdin, binary garbage, invalid UTF-8, 64 MiB + 1 byte, a corrupt,
  read-only, symlinked or world-writable-directory ccr.db — a clean error or pass-through,
  never a crash, never a handle without stored bytes.
"""
import concurrent.futures
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile

BIN = os.path.join(os.environ["CAVEMAN_BIN_DIR"], "caveman-engine")
CORPUS = os.environ["CAVEMAN_CORPUS_DIR"]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, flush=True)


def run(args, data=b"", env_extra=None, home=None):
    env = dict(os.environ)
    env.pop("CAVEMAN_CCR_DB", None)
    if home:
        env["CAVEMAN_HOME"] = home
        env["HOME"] = home
    env.update(env_extra or {})
    return subprocess.run([BIN] + args, input=data, capture_output=True, env=env, timeout=300)


def compress(data, home, extra=None):
    r = run(["compress"] + (extra or []), data, home=home)
    if r.returncode != 0:
        return r, None
    report = json.loads(r.stderr.decode().strip().splitlines()[-1])
    return r, report


def check_crash(r, what):
    if r.returncode < 0 or r.returncode >= 128:
        fail("%s crashed (signal/code %d): %s" % (what, r.returncode, r.stderr[-300:]))


home = tempfile.mkdtemp(prefix="caveman-engine-e2e-")
manifest = [l.split("\t") for l in open(os.path.join(CORPUS, "MANIFEST.tsv"), encoding="utf-8").read().splitlines()[1:]]

# --- corpus round trip + detect
misses, handles = [], 0
for row in manifest:
    path = os.path.join(CORPUS, row[0])
    data = open(path, "rb").read()
    kind = row[1]
    detected = run(["detect"], data).stdout.decode().strip()
    if detected != kind:
        misses.append("%s: %s (manifest %s)" % (os.path.basename(path), detected, kind))
    r, report = compress(data, home)
    if report is None:
        fail("%s: compress exit %d %s" % (row[0], r.returncode, r.stderr[-200:]))
        continue
    handle = report.get("recovery_handle")
    if not handle:
        if r.stdout != data:
            fail("%s: pass-through output differs from the input" % row[0])
        continue
    handles += 1
    back = run(["retrieve", handle], home=home)
    if back.returncode != 0 or back.stdout != data:
        fail("%s: retrieve %s is not byte-exact" % (row[0], handle))
accuracy = 1 - len(misses) / len(manifest)
print("detect: %d/%d match the MANIFEST (%.1f%%); misses: %s" % (len(manifest) - len(misses), len(manifest), 100 * accuracy, misses or "none"))
print("corpus: %d handles issued, all retrieved byte-exactly" % handles if not failures else "")
if accuracy < 0.95:
    fail("detect accuracy %.3f < 0.95" % accuracy)
if handles < 20:
    fail("only %d corpus files were compressed" % handles)

# --- --json mode carries the output inside the report
data = open(os.path.join(CORPUS, "public/log-dpkg.log"), "rb").read()
j = run(["compress", "--json"], data, home=home)
rep = json.loads(j.stdout)
if rep.get("output") is None or rep["recovery_handle"] is None or rep["basis"] != "inferred":
    fail("compress --json report: %r" % {k: rep.get(k) for k in ("recovery_handle", "basis")})

# --- determinism across processes and stores
a_home, b_home = tempfile.mkdtemp(), tempfile.mkdtemp()
for row in manifest[::3]:
    data = open(os.path.join(CORPUS, row[0]), "rb").read()
    ra, pa = compress(data, a_home)
    rb, pb = compress(data, b_home)
    if ra.stdout != rb.stdout or pa != pb:
        fail("%s: two processes produced different output or reports" % row[0])

# --- 4 processes x 200 compress calls on one ccr.db
shared = tempfile.mkdtemp(prefix="caveman-conc-")
def worker(wid):
    out = []
    rng = random.Random(wid)
    for i in range(200):
        lines = ["2026-01-01T00:%02d:%02dZ INFO worker=w%d job=%d step=%d status=ok" % (k // 60, k % 60, wid, i, k) for k in range(300)]
        lines.insert(rng.randrange(300), "2026-01-01T00:09:00Z ERROR worker=w%d job=%d disk full" % (wid, i))
        data = ("\n".join(lines) + "\n").encode()
        r, report = compress(data, shared)
        if report is None:
            out.append((None, data, r.stderr))
        else:
            out.append((report.get("recovery_handle"), data, report.get("error")))
    return out
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
    results = [x for chunk in pool.map(worker, range(4)) for x in chunk]
issued = [(h, d) for h, d, _ in results if h]
errors = [e for h, _, e in results if not h]
if len(issued) != 800:
    fail("concurrency: %d of 800 calls issued a handle; errors: %r" % (len(issued), errors[:3]))
bad = 0
for h, d in issued:
    back = run(["retrieve", h], home=shared)
    if back.stdout != d:
        bad += 1
if bad:
    fail("concurrency: %d handles did not retrieve their exact bytes" % bad)
print("concurrency: 4 processes x 200 compress calls, %d handles, %d mismatches" % (len(issued), bad))

# --- bad input
r = run(["compress"], b"", home=home)
check_crash(r, "empty stdin")
if r.returncode != 0 or r.stdout != b"":
    fail("empty stdin: exit %d, %d bytes out" % (r.returncode, len(r.stdout)))
for name, data in [("binary garbage", bytes(random.Random(1).randrange(256) for _ in range(200000))),
                   ("invalid UTF-8", b"\xff\xfe" + b"caf\xc3 \x80 log line ERROR\n" * 5000)]:
    r, report = compress(data, home)
    check_crash(r, name)
    if report is None:
        fail("%s: exit %d" % (name, r.returncode))
    elif report.get("recovery_handle"):
        if run(["retrieve", report["recovery_handle"]], home=home).stdout != data:
            fail("%s: handle without the exact bytes" % name)
    elif r.stdout != data:
        fail("%s: pass-through changed the bytes" % name)
big = b"a" * (64 * 1024 * 1024 + 1)
r = run(["compress"], big, home=home)
if r.returncode != 1 or b"cave_input_too_large" not in r.stderr or r.stdout:
    fail("64 MiB + 1: exit %d, stderr %r" % (r.returncode, r.stderr[-200:]))
exact = (b"caveman counts words " * (64 * 1024 * 1024 // 21 + 1))[: 64 * 1024 * 1024]
r = run(["count"], exact, home=home)
if r.returncode != 0:
    fail("exactly 64 MiB must be accepted by count")
r = run(["retrieve", "ccr_00000000000000000000000000000000"], home=home)
if r.returncode != 1 or b"cave_unknown_handle" not in r.stderr:
    fail("unknown handle: exit %d %r" % (r.returncode, r.stderr))
r = run(["frobnicate"])
if r.returncode != 2:
    fail("unknown subcommand must exit 2, got %d" % r.returncode)

log = ("\n".join("2026-01-01T00:00:%02dZ INFO step=%d status=ok" % (k % 60, k) for k in range(3000)) + "\nERROR boom\n").encode()
def store_case(label, prepare):
    d = tempfile.mkdtemp(prefix="caveman-badstore-")
    try:
        store_case_in(label, prepare, d)
    finally:  # a 0500 directory inside must be writable again before it can go
        for root, dirs, _ in os.walk(d):
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o700)
        shutil.rmtree(d, ignore_errors=True)

def store_case_in(label, prepare, d):
    env = prepare(d)
    r = run(["compress"], log, env_extra=env, home=os.path.join(d, "home"))
    check_crash(r, label)
    out = r.stderr.decode()
    if r.returncode == 0:
        report = json.loads(out.strip().splitlines()[-1])
        if report.get("recovery_handle"):
            fail("%s: a handle was issued: %s" % (label, out))
        if r.stdout != log:
            fail("%s: output is not the original" % label)
        if label == "tiny budget" and report.get("error") != "cave_ccr_budget_exceeded":
            fail("tiny budget: expected cave_ccr_budget_exceeded, got %r" % report)
    elif "cave_" not in out:
        fail("%s: error without a cave_ code: %r" % (label, out))
    print("%s: exit %d — %s" % (label, r.returncode, out.strip().splitlines()[-1][:160]))

def corrupt(d):
    p = os.path.join(d, "ccr.db")
    open(p, "wb").write(b"this is not a sqlite database" * 100)
    return {"CAVEMAN_CCR_DB": p}
def read_only(d):
    sub = os.path.join(d, "ro")
    os.mkdir(sub)
    os.chmod(sub, 0o500)
    return {"CAVEMAN_CCR_DB": os.path.join(sub, "ccr.db")}
def symlinked(d):
    target = os.path.join(d, "real.db")
    open(target, "wb").close()
    os.symlink(target, os.path.join(d, "ccr.db"))
    return {"CAVEMAN_CCR_DB": os.path.join(d, "ccr.db")}
def world_writable(d):
    sub = os.path.join(d, "open")
    os.mkdir(sub)
    os.chmod(sub, 0o777)
    return {"CAVEMAN_CCR_DB": os.path.join(sub, "ccr.db")}
def budget(d):  # 64 KiB: the store opens, the 300-line log's original does not fit
    return {"CAVEMAN_CCR_DB": os.path.join(d, "ccr.db"), "CAVEMAN_CCR_MAX_BYTES": "65536"}
for label, prep in [("corrupt ccr.db", corrupt), ("symlinked ccr.db", symlinked),
                    ("world-writable directory", world_writable), ("tiny budget", budget)]:
    store_case(label, prep)
if os.geteuid() != 0:  # root ignores directory permissions
    store_case("read-only directory", read_only)

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("ok: caveman-engine CLI")
