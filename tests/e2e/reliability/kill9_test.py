#!/usr/bin/env python3
"""Crash safety of the CCR store (issue 13): SIGKILL `caveman-engine compress` at random
points while several of them write one ccr.db, then check that the database passes
`PRAGMA integrity_check` and that every handle any process ever printed retrieves its exact
bytes. Then the disk-full path: a page/byte budget the writes run into must give a clean
pass-through, never a handle without stored bytes.

usage: kill9_test.py [ITERATIONS]   (default $CAVEMAN_KILL9_ITERATIONS, else 200)
Prints one JSON summary line last (bench/soak.sh puts it into docs/RELIABILITY.md).
"""
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

BIN = os.path.join(os.environ["CAVEMAN_BIN_DIR"], "caveman-engine")
CORPUS = os.environ["CAVEMAN_CORPUS_DIR"]
ITERATIONS = int(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CAVEMAN_KILL9_ITERATIONS", "200"))
PARALLEL = 3  # concurrent writers, so kills land while other processes hold the write lock
HANDLE = re.compile(rb"ccr_[0-9a-f]{16,64}")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, flush=True)


def env_for(home, extra=None):
    env = dict(os.environ, CAVEMAN_HOME=home, HOME=home)
    env.pop("CAVEMAN_CCR_DB", None)
    env.update(extra or {})
    return env


def corpus_inputs():
    rows = [l.split("\t") for l in open(os.path.join(CORPUS, "MANIFEST.tsv"), encoding="utf-8").read().splitlines()[1:]]
    out = []
    for row in rows:
        data = open(os.path.join(CORPUS, row[0]), "rb").read()
        if 2000 < len(data) < 400_000:
            out.append((row[0], data))
    return out


def unique(data, i):
    # A distinct original per iteration, so every run really writes a new row.
    if data.lstrip()[:1] in (b"{", b"["):  # stays valid JSON: i in trailing white space
        return data + b"\n" + bin(i)[2:].replace("0", " ").replace("1", "\t").encode() + b"\n"
    return data + ("\nkill9 iteration %d\n" % i).encode()


rng = random.Random(int(os.environ.get("CAVEMAN_KILL9_SEED", "9")))
inputs = corpus_inputs()
home = tempfile.mkdtemp(prefix="caveman-kill9-")
db_path = os.path.join(home, "ccr.db")

# Calibrate: how long does one compress take here? Kills land uniformly in [0, 1.5 × that]
# (three writers at once run slower than one), so some runs finish and many are cut short.
t0 = time.monotonic()
for name, data in inputs[:5]:
    subprocess.run([BIN, "compress"], input=data, capture_output=True, env=env_for(home), timeout=120)
typical = max(0.01, (time.monotonic() - t0) / 5)

expected = {}  # handle → exact original bytes
killed = completed = 0
running = []  # (proc, input, deadline)
i = 0
while i < ITERATIONS or running:
    while i < ITERATIONS and len(running) < PARALLEL:
        name, data = inputs[rng.randrange(len(inputs))]
        data = unique(data, i)
        p = subprocess.Popen([BIN, "compress"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env_for(home))
        try:  # the engine reads all of stdin before it writes anything: no pipe deadlock
            p.stdin.write(data)
            p.stdin.close()
        except BrokenPipeError:
            pass
        p.stdin = None  # communicate() must not touch the closed pipe
        running.append((p, data, time.monotonic() + rng.uniform(0, 1.5 * typical)))
        i += 1
    time.sleep(0.001)
    still = []
    for p, data, deadline in running:
        if p.poll() is None and time.monotonic() < deadline:
            still.append((p, data, deadline))
            continue
        if p.poll() is None:
            p.kill()
        out, err = p.communicate(timeout=120)
        if p.returncode == -signal.SIGKILL:
            killed += 1
        elif p.returncode != 0:
            fail("compress exited %d without being killed: %r" % (p.returncode, err[-300:]))
            continue
        else:
            completed += 1
        # Every handle a process printed (also a killed one that got as far as printing).
        for h in set(HANDLE.findall(out + err)):
            expected[h.decode()] = data
    running = still

# The store survived: integrity, and every printed handle retrieves its exact bytes.
if os.path.exists(db_path):
    with sqlite3.connect("file:%s?mode=ro" % db_path, uri=True) as db:
        check = db.execute("PRAGMA integrity_check").fetchone()[0]
    if check != "ok":
        fail("integrity_check after kills: %s" % check)
bad = 0
for h, data in sorted(expected.items()):
    r = subprocess.run([BIN, "retrieve", h], capture_output=True, env=env_for(home), timeout=120)
    if r.returncode != 0 or r.stdout != data:
        bad += 1
        fail("handle %s printed before a kill does not retrieve its bytes (exit %d)" % (h, r.returncode))
# Still writable after all the kills.
fresh = unique(inputs[0][1], 10**6)
r = subprocess.run([BIN, "compress"], input=fresh, capture_output=True, env=env_for(home), timeout=120)
if r.returncode != 0:
    fail("compress after the kills failed: %r" % r.stderr[-300:])

# Disk full: a budget that the writes run into. Each call either passes through (no handle)
# or its handle retrieves exactly; none crashes.
full_home = tempfile.mkdtemp(prefix="caveman-full-")
full_env = {"CAVEMAN_CCR_MAX_BYTES": "262144"}
full_ok = full_passthrough = 0
for k in range(24):
    name, data = inputs[k % len(inputs)]
    data = unique(data, 2 * 10**6 + k)
    r = subprocess.run([BIN, "compress"], input=data, capture_output=True, env=env_for(full_home, full_env), timeout=120)
    if r.returncode < 0 or r.returncode >= 128:
        fail("disk full: compress crashed (%d)" % r.returncode)
        continue
    handles = set(HANDLE.findall(r.stdout + r.stderr))
    if not handles:
        full_passthrough += 1
        if r.stdout != data:
            fail("disk full: no handle, yet the output is not the input (%s)" % name)
        continue
    for h in handles:
        got = subprocess.run([BIN, "retrieve", h.decode()], capture_output=True,
                             env=env_for(full_home, full_env), timeout=120)
        if got.stdout != data:
            fail("disk full: handle %s without its bytes" % h.decode())
    full_ok += 1
if killed == 0 or completed == 0:
    fail("kills did not mix: %d killed, %d completed (the timing calibration is off)" % (killed, completed))
if full_passthrough == 0:
    fail("disk full: the budget was never reached (test did not exercise the full path)")

summary = {"iterations": ITERATIONS, "killed": killed, "completed": completed,
           "handles_checked": len(expected), "handles_bad": bad,
           "integrity": "ok" if not any("integrity" in f for f in failures) else "FAILED",
           "disk_full_stored": full_ok, "disk_full_passthrough": full_passthrough,
           "typical_compress_ms": round(typical * 1000, 1)}
print(json.dumps(summary), flush=True)
sys.exit(1 if failures else 0)
