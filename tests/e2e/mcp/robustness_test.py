#!/usr/bin/env python3
"""caveman-mcp transport robustness: the whole bad-input list in ONE session, then a valid
request that must be answered correctly. stdout must carry only valid JSON-RPC frames, the
server must survive everything but EOF, and EOF must end it promptly with exit 0. stderr is
a pipe that is never read (a chatty server would deadlock here)."""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

BIN = os.path.join(os.environ["CAVEMAN_BIN_DIR"], "caveman-mcp")
home = tempfile.mkdtemp(prefix="caveman-mcp-robust-")
env = dict(os.environ, CAVEMAN_HOME=home, HOME=home)
proc = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE, env=env)

frames = []
def reader():
    for raw in proc.stdout:
        frames.append(raw)
t = threading.Thread(target=reader, daemon=True)
t.start()

def send(data: bytes):
    proc.stdin.write(data)
    proc.stdin.flush()

def req(id_, method, params=None):
    m = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        m["params"] = params
    return (json.dumps(m) + "\n").encode()

bad = [
    req(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "r", "version": "1"}}),
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    b"this is not json\n",
    b'{"jsonrpc":"2.0","id":1,\n',                       # truncated object
    bytes(range(256)) * 40 + b"\n",                      # binary garbage incl. invalid UTF-8
    b"\xff\xfe\xfd{}\n",
    b"[]\n", b"42\n", b'"str"\n', b"null\n",
    req(2, "tools/call", "not-an-object"),              # non-object params
    req(3, "tools/call", [1, 2]),
    req(4, "tools/call", {"name": "caveman_compress"}),  # missing arguments
    req(5, "tools/call", {"name": "caveman_compress", "arguments": "x"}),
    req(6, "tools/call", {"name": "no_such_tool", "arguments": {}}),
    req(7, "no/such/method"),
    b'{"jsonrpc":"2.0","method":"no/such/notification"}\n',
    b'{"jsonrpc":"2.0","id":{"obj":1},"method":"ping"}\n',
    b'{"jsonrpc":"1.0","id":8,"method":"ping"}\n',
    b'[{"jsonrpc":"2.0","id":9,"method":"ping"},{"jsonrpc":"2.0","method":"x"},5]\n',
    b'[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]\n',
    req(10, "tools/call", {"name": "caveman_retrieve", "arguments": {"recovery_handle": 123}}),
    b"\n\n   \n",
    b"[" * 100000 + b"\n",                               # deep nesting
]
for b in bad:
    send(b)
# A 20 MiB line (over the 16 MiB cap), in pieces, then a valid request right behind it.
chunk = b"x" * (1 << 20)
for _ in range(20):
    send(chunk)
send(b"\n")
for _ in range(2000):  # many small bad lines: no per-line stderr chatter allowed
    send(b"{bad\n")
send(req(99, "tools/call", {"name": "caveman_compress", "arguments": {"input": "hello after the storm"}}))

deadline = time.time() + 60
def find(id_):
    for f in frames:
        try:
            m = json.loads(f)
        except Exception:
            continue
        if isinstance(m, dict) and m.get("id") == id_:
            return m
    return None
while time.time() < deadline and find(99) is None:
    time.sleep(0.05)

failures = []
final = find(99)
if final is None:
    failures.append("the valid request after the bad inputs was not answered")
else:
    payload = json.loads(final["result"]["content"][0]["text"])
    if payload["compressed"] != "hello after the storm" or payload["recovery_handle"] is not None:
        failures.append("wrong answer to the final request: %r" % payload)

# Every stdout frame is one valid JSON-RPC 2.0 message (or batch of them).
for f in frames:
    try:
        m = json.loads(f)
    except Exception:
        failures.append("stdout carried a non-JSON line: %r" % f[:80])
        continue
    for item in (m if isinstance(m, list) else [m]):
        if not isinstance(item, dict) or item.get("jsonrpc") != "2.0" or ("result" in item) == ("error" in item):
            failures.append("not a JSON-RPC response: %r" % f[:120])

def code_of(id_):
    m = find(id_)
    return m and m.get("error", {}).get("code")
expect = {2: -32602, 3: -32602, 4: -32602, 5: -32602, 7: -32601, 8: -32600}
for id_, code in expect.items():
    if code_of(id_) != code:
        failures.append("id %d: expected error %d, got %r" % (id_, code, find(id_)))
unknown_tool = find(6)
if not unknown_tool or not unknown_tool["result"]["isError"] or "cave_unknown_tool" not in unknown_tool["result"]["content"][0]["text"]:
    failures.append("unknown tool must be an isError tool result: %r" % unknown_tool)
too_large = [f for f in frames if b"cave_payload_too_large" in f]
if not too_large:
    failures.append("the 20 MiB line was not answered with cave_payload_too_large")
parse_errors = sum(1 for f in frames if b"-32700" in f)
if parse_errors < 2000:
    failures.append("expected ≥ 2000 parse errors, got %d" % parse_errors)

# EOF ends the server promptly with exit 0.
start = time.time()
proc.stdin.close()
try:
    rc = proc.wait(timeout=10)
except subprocess.TimeoutExpired:
    proc.kill()
    rc = None
if rc != 0:
    failures.append("exit code after EOF: %r" % rc)
elif time.time() - start > 5:
    failures.append("EOF took too long to end the server")

if failures:
    for f in failures:
        print("FAIL:", f)
    sys.exit(1)
print("ok: caveman-mcp survived %d bad inputs + a 20 MiB line; %d frames, all valid JSON-RPC" % (len(bad) + 2001, len(frames)))
