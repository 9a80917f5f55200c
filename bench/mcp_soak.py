#!/usr/bin/env python3
"""MCP soak (issue 13): N mixed requests through ONE caveman-mcp process — compress,
retrieve (by handle and by query), toon, stats, tools/list, ping and the bad-input list
(garbage, truncated JSON, wrong params, unknown tools/methods, notifications, batches) —
pipelined from one writer thread. Checks: every request with an id is answered exactly once
and in order, every frame is valid JSON-RPC, the process survives until EOF and exits 0, and
RSS stays bounded (sampled from /proc every 5,000 requests).

usage: mcp_soak.py CAVEMAN_BIN_DIR [REQUESTS]   (default 100000)
Prints one JSON summary line last; exit 1 on any violation.
"""
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time

bin_dir = sys.argv[1]
total = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
home = tempfile.mkdtemp(prefix="caveman-mcp-soak-")
env = dict(os.environ, CAVEMAN_HOME=home, HOME=home)
env.pop("CAVEMAN_CCR_DB", None)
proc = subprocess.Popen([os.path.join(bin_dir, "caveman-mcp")], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
rng = random.Random(13)


def frame(id_, method, params=None):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        m["params"] = params
    return (json.dumps(m) + "\n").encode()


def call(id_, name, args):
    return frame(id_, "tools/call", {"name": name, "arguments": args})


LOG = "\n".join("2026-11-30T00:00:%02d INFO worker=%d step=%d ok" % (i % 60, i % 4, i) for i in range(400))
ROWS = json.dumps([{"id": i, "name": "user%d" % i, "active": i % 3 == 0} for i in range(200)])
BAD = [b"this is not json\n", b'{"jsonrpc":"2.0","id":\n', b"\xff\xfe{}\n", b"[]\n", b"42\n",
       b'{"jsonrpc":"2.0","method":"notifications/whatever"}\n']

expected_ids = []
sent_lock = threading.Lock()


def writer():
    proc.stdin.write(frame(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                             "clientInfo": {"name": "soak", "version": "1"}}))
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    expected_ids.append(0)
    handle_hint = None
    for i in range(1, total + 1):
        k = i % 20
        if k == 0:
            line = rng.choice(BAD)  # no id: no answer expected (or a parse error with id null)
            proc.stdin.write(line)
            continue
        if k in (1, 2, 3):
            # Distinct inputs every time, so the store keeps growing as in real use.
            data = LOG + "\n2026-11-30T01:00:00 ERROR request %d failed" % i
            msg = call(i, "caveman_compress", {"input": data})
            handle_hint = "ccr_" + hashlib.sha256(data.encode()).hexdigest()[:32]
        elif k in (4, 5):
            msg = call(i, "caveman_compress", {"input": ROWS, "query": "user%d" % (i % 200)})
        elif k == 6:
            msg = call(i, "caveman_retrieve", {"handle": handle_hint or "ccr_0000000000000000"})
        elif k == 7:
            msg = call(i, "caveman_retrieve", {"handle": "not a handle"})
        elif k == 8:
            msg = call(i, "caveman_toon", {"input": ROWS} if i % 2 else {"input": "{bad json"})
        elif k == 9:
            msg = call(i, "caveman_stats", {})
        elif k == 10:
            msg = frame(i, "tools/list")
        elif k == 11:
            msg = frame(i, "ping")
        elif k == 12:
            msg = frame(i, "no/such/method")
        elif k == 13:
            msg = call(i, "no_such_tool", {})
        elif k == 14:
            msg = frame(i, "tools/call", "not-an-object")
        elif k == 15:
            msg = call(i, "caveman_compress", {"input": 42})
        else:
            msg = call(i, "caveman_compress", {"input": "short %d" % i})
        expected_ids.append(i)
        proc.stdin.write(msg)
        if i % 256 == 0:
            proc.stdin.flush()
    proc.stdin.close()


def rss_kib(pid):
    try:
        for line in open("/proc/%d/status" % pid):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


violations = []
answered = []
rss = []
t0 = time.monotonic()
w = threading.Thread(target=writer, daemon=True)
w.start()
for raw in proc.stdout:
    try:
        msg = json.loads(raw)
    except ValueError:
        violations.append("invalid frame: %r" % raw[:200])
        continue
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
        violations.append("not a JSON-RPC frame: %r" % raw[:200])
        continue
    if msg.get("id") is None:
        continue  # parse errors answer with id null; they belong to the no-id lines
    answered.append(msg["id"])
    if len(answered) % 5000 == 0:
        rss.append(rss_kib(proc.pid))
w.join()
code = proc.wait(timeout=60)
elapsed = time.monotonic() - t0

if code != 0:
    violations.append("exit code %d" % code)
if answered != expected_ids:
    missing = len(set(expected_ids) - set(answered))
    violations.append("answers out of order or missing: %d expected, %d answered, %d missing"
                      % (len(expected_ids), len(answered), missing))
samples = [r for r in rss if r]
# Bounded: the second half of the run must not keep growing past the first half's peak by
# more than 50% (caches fill early; a leak grows linearly).
if len(samples) >= 4:
    first, second = samples[: len(samples) // 2], samples[len(samples) // 2:]
    if max(second) > 1.5 * max(first):
        violations.append("RSS grows: first half max %d KiB, second half max %d KiB" % (max(first), max(second)))
for v in violations[:20]:
    print("FAIL:", v, flush=True)
print(json.dumps({"requests": total, "answered": len(answered), "seconds": round(elapsed, 1),
                  "req_per_s": round(total / elapsed), "rss_kib_samples": samples,
                  "violations": len(violations)}), flush=True)
sys.exit(1 if violations else 0)
