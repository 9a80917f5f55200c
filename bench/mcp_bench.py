#!/usr/bin/env python3
"""caveman-mcp latency over stdio: p50/p99 wall time of one caveman_compress tools/call on a
1 MB JSON payload (request written → response read, JSON-RPC framing and the SQLite store
write included), plus the o200k token cost of the tools/list result.

usage: bench/mcp_bench.py BIN_DIR   (prints the docs/BENCHMARKS.md section on stdout)
"""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

bin_dir = sys.argv[1]
home = tempfile.mkdtemp(prefix="caveman-mcp-bench-")
proc = subprocess.Popen([os.path.join(bin_dir, "caveman-mcp")], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, env=dict(os.environ, CAVEMAN_HOME=home))


def rpc(msg):
    proc.stdin.write((json.dumps(msg) + "\n").encode())
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def payload(seed):
    rng = random.Random(seed)
    items = []
    while True:
        i = len(items)
        items.append({"id": i, "sku": "SKU-%05d" % rng.randrange(100000),
                      "status": rng.choice(["shipped", "pending", "delivered"]),
                      "amount": round(rng.uniform(1, 500), 2), "region": rng.choice(["emea", "apac", "amer"]),
                      "note": "order %d for customer %d" % (i, rng.randrange(5000))})
        if i % 200 == 0 and len(json.dumps(items)) > 1_000_000:
            break
    return json.dumps({"page": seed, "results": items}, indent=1)


rpc({"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
tools = rpc({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})["result"]
tools_json = json.dumps(tools, separators=(",", ":"), ensure_ascii=False)
tools_tokens = int(subprocess.run([os.path.join(bin_dir, "caveman-engine"), "count"], input=tools_json.encode(),
                                  capture_output=True, check=True).stdout)

def cpu_seconds(pid):
    """user + system CPU time of the server so far (all its threads), from /proc."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


inputs = [payload(seed) for seed in range(60)]
times, ratios = [], []
cpu_start = None
for i, text in enumerate(inputs):
    if i == 5:
        cpu_start = cpu_seconds(proc.pid)
    start = time.perf_counter()
    r = rpc({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
             "params": {"name": "caveman_compress", "arguments": {"input": text}}})
    elapsed = time.perf_counter() - start
    p = r["result"]["structuredContent"]
    if i >= 5:  # warm-up calls excluded
        times.append(elapsed * 1000)
        ratios.append(p["ratio"])
cpu_per_call = (cpu_seconds(proc.pid) - cpu_start) / len(times) * 1000
load = os.getloadavg()[0]
proc.stdin.close()
proc.wait()

times.sort()
p50 = statistics.median(times)
p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
size = sum(len(t) for t in inputs) / len(inputs) / 1e6
print("caveman_compress over stdio on a %.2f MB JSON payload (distinct payloads, %d timed calls after 5"
      " warm-up; each call includes JSON-RPC framing, detection, compression, two o200k counts and the"
      " SQLite CCR write; 1-minute load average %.2f when the calls ended):\n" % (size, len(times), load))
print("| metric | value |\n|---|---|")
print("| p50 latency | %.1f ms |" % p50)
print("| p99 latency | %.1f ms |" % p99)
print("| server CPU per call (all threads) | %.1f ms |" % cpu_per_call)
print("| median ratio | %.3f |" % statistics.median(ratios))
print("| tools/list result (compact JSON) | %d bytes, %d o200k tokens |" % (len(tools_json.encode()), tools_tokens))
