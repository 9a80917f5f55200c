#!/usr/bin/env python3
"""caveman-proxy load test pieces, driven by bench/proxy_load.sh (issue 13, acceptance 2).

  proxy_load.py upstream PORT_FILE HANDLES_FILE
      A stand-in Anthropic provider (asyncio, HTTP/1.1 keep-alive, loopback). Answers a JSON
      Messages reply, or an SSE stream (message_start, 6 text deltas 15 ms apart, message_delta,
      message_stop) when the body says "stream":true. Every <<ccr:HANDLE>> marker in a forwarded
      body is appended to HANDLES_FILE as "<request id>\\t<handle>" (the id is the model name).

  proxy_load.py client URL SECONDS CONCURRENCY CORPUS_DIR OUT_JSON [SEED]
      CONCURRENCY workers, each on its own keep-alive connection, send a deterministic mix for
      SECONDS: JSON or SSE; small (~3 KB) or 100 KB tool results, unique or repeated; some with
      x-caveman-bypass (record behaviour); some clients vanish mid-response (SSE: after the
      first bytes; JSON: right after sending, while the proxy compresses) or mid-request (half
      a body). Writes counts and latency percentiles per class to OUT_JSON and the expected
      original of every request id to OUT_JSON.originals (only what verify needs).

  proxy_load.py snap PID PROXY_PORT UPSTREAM_PORT LABEL
      One row of /proc figures for the proxy: VmRSS, threads, fds, and the fds split into client
      connections it still holds, upstream connections (its keep-alive pool) and everything else.

  proxy_load.py verify ENGINE_BIN HOME HANDLES_FILE CLIENT_JSON CORPUS_DIR
      Retrieves every handle the proxy disclosed (to the provider as a marker, to the client in
      x-caveman-recovery-handle) with `caveman-engine retrieve` under HOME and compares it with
      the exact original of the request that carried it. Prints a JSON summary; exit 1 on any
      mismatch.
"""
import asyncio
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import time

MARKER = re.compile(rb"<<ccr:(ccr_[A-Za-z0-9_-]+)>>")
MODEL = re.compile(rb'"model":"(load-[0-9]+)"')

# ---------------------------------------------------------------- HTTP/1.1 helpers


async def read_head(reader):
    """Returns (start line, {lower name: value}) or None at a clean EOF."""
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as e:
        if not e.partial:
            return None
        raise
    lines = raw[:-4].split(b"\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        headers[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
    return lines[0].decode("latin-1"), headers


async def read_body(reader, headers, on_chunk=None):
    if headers.get("transfer-encoding", "").lower() == "chunked":
        parts = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                await reader.readuntil(b"\r\n")  # no trailers are sent by either side here
                return b"".join(parts)
            data = await reader.readexactly(size + 2)
            parts.append(data[:-2])
            if on_chunk and on_chunk(data[:-2]):
                return None
    n = int(headers.get("content-length", "0"))
    return await reader.readexactly(n) if n else b""


# ---------------------------------------------------------------- stand-in provider

JSON_REPLY = (
    b'{"id":"msg_load","type":"message","role":"assistant","model":"claude-load",'
    b'"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,'
    b'"usage":{"input_tokens":2500,"output_tokens":1,"cache_creation_input_tokens":0,'
    b'"cache_read_input_tokens":0}}'
)


def sse_events():
    ev = [("message_start", {"type": "message_start", "message": {"id": "msg_load", "type": "message",
           "role": "assistant", "model": "claude-load", "content": [], "stop_reason": None,
           "usage": {"input_tokens": 2500, "output_tokens": 1}}}),
          ("content_block_start", {"type": "content_block_start", "index": 0,
           "content_block": {"type": "text", "text": ""}})]
    for i in range(6):
        ev.append(("content_block_delta", {"type": "content_block_delta", "index": 0,
                   "delta": {"type": "text_delta", "text": f"word{i} "}}))
    ev += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
           ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 7}}),
           ("message_stop", {"type": "message_stop"})]
    return [f"event: {n}\ndata: {json.dumps(d, separators=(',', ':'))}\n\n".encode() for n, d in ev]


SSE = sse_events()


def chunk(b):
    return b"%x\r\n%s\r\n" % (len(b), b)


async def upstream_conn(reader, writer, log):
    try:
        while True:
            head = await read_head(reader)
            if head is None:
                break
            _, headers = head
            body = await read_body(reader, headers)
            m = MODEL.search(body)
            rid = m.group(1).decode() if m else "?"
            for h in MARKER.findall(body):
                log.write(f"{rid}\t{h.decode()}\n")
            if b'"stream":true' in body:
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                             b"cache-control: no-cache\r\nrequest-id: req_load\r\n"
                             b"transfer-encoding: chunked\r\n\r\n")
                for i, e in enumerate(SSE):
                    writer.write(chunk(e))
                    await writer.drain()
                    if 2 <= i < 8:
                        await asyncio.sleep(0.015)
                writer.write(b"0\r\n\r\n")
            else:
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                             b"request-id: req_load\r\ncontent-length: %d\r\n\r\n%s" % (len(JSON_REPLY), JSON_REPLY))
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass  # the proxy dropped the exchange (its client went away)
    finally:
        writer.close()


async def upstream_main(port_file, handles_file):
    log = open(handles_file, "w", buffering=1)
    server = await asyncio.start_server(lambda r, w: upstream_conn(r, w, log), "127.0.0.1", 0,
                                        limit=1 << 20, backlog=512)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.sockets[0].getsockname()[1]))
    os.replace(port_file + ".tmp", port_file)
    async with server:
        await server.serve_forever()


# ---------------------------------------------------------------- load client


class Mix:
    """Deterministic request mix; original(rid) rebuilds the exact tool_result of any id."""

    LARGE = ["log-dpkg.log", "terminal-git-log-graph-stat.ansi", "search-grep-C2-eslint-rules.txt",
             "listing-python-subprocess.txt"]
    SMALL = ["log-leveldb-build-error.log", "log-gtest-ninja-test.log", "search-git-grep-leveldb-status.txt",
             "diff-ninja-show.diff"]

    def __init__(self, corpus):
        def cut(name, n):
            text = open(os.path.join(corpus, name), encoding="utf-8", errors="replace").read()
            # Whole lines, at most n UTF-8 bytes.
            raw = text.encode()[:n].decode("utf-8", "ignore")
            return raw[: raw.rfind("\n") + 1]
        self.large = [cut(n, 100 * 1024) for n in self.LARGE]
        self.small = [cut(n, 3 * 1024) for n in self.SMALL]

    def plan(self, rid):
        r = random.Random(rid)
        p = {"stream": r.random() < 0.5, "large": r.random() < 0.2, "bypass": r.random() < 0.1}
        p["unique"] = (not p["large"]) or r.random() < 0.4
        p["file"] = r.randrange(4)
        x = r.random()
        p["drop"] = "response" if x < 0.08 else "request" if x < 0.10 else None
        return p

    def original(self, rid, p):
        text = (self.large if p["large"] else self.small)[p["file"]]
        return f"load run {rid}\n{text}" if p["unique"] else text

    def body(self, rid, p):
        msgs = [{"role": "user", "content": "Which line reports the failure?"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                                   "input": {"command": "cat out.log"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                              "content": self.original(rid, p)}]}]
        b = {"model": f"load-{rid}", "max_tokens": 16, "messages": msgs}
        if p["stream"]:
            b["stream"] = True
        return json.dumps(b, separators=(",", ":")).encode()


def percentile(xs, q):
    if not xs:
        return None
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


async def client_main(url, seconds, conc, corpus, out, seed):
    host, port = re.match(r"http://([^:/]+):(\d+)", url).groups()
    mix = Mix(corpus)
    counter = iter(range(seed * 10_000_000, 2**62))
    deadline = time.monotonic() + seconds
    stats = {"sent": 0, "ok": 0, "bad_status": 0, "bad_body": 0, "conn_errors": 0,
             "dropped_response": 0, "dropped_request": 0}
    lat = {}  # class → [seconds]
    client_handles = {}  # rid → handle from x-caveman-recovery-handle
    done_ids = []

    async def worker():
        reader = writer = None
        while time.monotonic() < deadline:
            rid = next(counter)
            p = mix.plan(rid)
            body = mix.body(rid, p)
            head = (f"POST /v1/messages HTTP/1.1\r\nhost: {host}:{port}\r\ncontent-type: application/json\r\n"
                    f"x-api-key: sk-ant-api03-load\r\nanthropic-version: 2023-06-01\r\n"
                    f"{'x-caveman-bypass: 1' + chr(13) + chr(10) if p['bypass'] else ''}"
                    f"content-length: {len(body)}\r\n\r\n").encode()
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection(host, int(port), limit=1 << 22)
                stats["sent"] += 1
                done_ids.append(rid)
                t0 = time.monotonic()
                if p["drop"] == "request":
                    writer.write(head + body[: len(body) // 2])
                    await writer.drain()
                    await asyncio.sleep(0.005)
                    writer.transport.abort()
                    writer = None
                    stats["dropped_request"] += 1
                    continue
                writer.write(head + body)
                await writer.drain()
                if p["drop"] == "response" and not p["stream"]:
                    writer.transport.abort()  # gone while the proxy compresses and forwards
                    writer = None
                    stats["dropped_response"] += 1
                    continue
                status, headers = await read_head(reader)
                if "x-caveman-recovery-handle" in headers:
                    client_handles[rid] = headers["x-caveman-recovery-handle"]
                if p["drop"] == "response":
                    got = await read_body(reader, headers, on_chunk=lambda c: True)
                    writer.transport.abort()  # after the first SSE bytes
                    writer = None
                    stats["dropped_response"] += 1
                    continue
                data = await read_body(reader, headers)
                dt = time.monotonic() - t0
                if " 200 " not in status + " ":
                    stats["bad_status"] += 1
                elif (b"message_stop" if p["stream"] else b'"msg_load"') not in data:
                    stats["bad_body"] += 1
                else:
                    stats["ok"] += 1
                    key = f"{'sse' if p['stream'] else 'json'}-{'100k' if p['large'] else '3k'}" + \
                          ("-bypass" if p["bypass"] else "")
                    lat.setdefault(key, []).append(dt)
                if headers.get("connection", "").lower() == "close":
                    writer.close()
                    writer = None
            except (ConnectionError, asyncio.IncompleteReadError, OSError, TypeError):
                stats["conn_errors"] += 1
                if writer is not None:
                    writer.transport.abort()
                writer = None
        if writer is not None:
            writer.close()

    t_start = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(conc)))
    elapsed = time.monotonic() - t_start
    all_lat = [x for v in lat.values() for x in v]
    result = {
        "seconds": round(elapsed, 1), "concurrency": conc, **stats,
        "completed_per_s": round(stats["ok"] / elapsed, 1),
        "p50_ms": round(1000 * percentile(all_lat, 0.5), 1) if all_lat else None,
        "p99_ms": round(1000 * percentile(all_lat, 0.99), 1) if all_lat else None,
        "classes": {k: {"n": len(v), "p50_ms": round(1000 * percentile(v, 0.5), 1),
                        "p99_ms": round(1000 * percentile(v, 0.99), 1)} for k, v in sorted(lat.items())},
        "client_handles": len(client_handles),
    }
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    with open(out + ".ids", "w") as f:
        for rid in done_ids:
            f.write(f"{rid}\t{client_handles.get(rid, '')}\n")
    print(json.dumps(result))


# ---------------------------------------------------------------- /proc snapshot


def tcp_sockets():
    """inode → (local port, remote port, state hex) for every IPv4/IPv6 TCP socket."""
    out = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            out[f[9]] = (int(f[1].rsplit(":", 1)[1], 16), int(f[2].rsplit(":", 1)[1], 16), f[3])
    return out


def snap(pid, proxy_port, upstream_port, label):
    """One TSV row: label, VmRSS KiB, threads, fds, client connections the proxy still holds,
    upstream connections, other fds (files, pipes, eventfds, listeners)."""
    status = dict(l.split(":", 1) for l in open(f"/proc/{pid}/status").read().splitlines() if ":" in l)
    rss = int(status["VmRSS"].split()[0])
    threads = int(status["Threads"])
    socks = tcp_sockets()
    fds = clients = upstream = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue  # closed while listing
        fds += 1
        m = re.fullmatch(r"socket:\[(\d+)\]", target)
        s = socks.get(m.group(1)) if m else None
        if s and s[2] != "0A":  # not the listener
            if s[0] == int(proxy_port):
                clients += 1
            elif s[1] == int(upstream_port):
                upstream += 1
    print(f"{label}\t{rss}\t{threads}\t{fds}\t{clients}\t{upstream}\t{fds - clients - upstream}")


# ---------------------------------------------------------------- verification


def verify(engine, home, handles_file, client_json, corpus):
    mix = Mix(corpus)
    expect = {}  # handle → set of request ids
    for line in open(handles_file):
        rid, h = line.rstrip("\n").split("\t")
        expect.setdefault(h, set()).add(rid)
    for line in open(client_json + ".ids"):
        rid, h = line.rstrip("\n").split("\t")
        if h:
            expect.setdefault(h, set()).add(f"load-{rid}")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": home, "CAVEMAN_HOME": home}
    bad, missing = [], []

    def check(h):
        r = subprocess.run([engine, "retrieve", h], env=env, capture_output=True)
        if r.returncode != 0:
            return h, None
        return h, [rid for rid in sorted(expect[h])
                   if r.stdout != mix.original(int(rid.split("-")[1]), mix.plan(int(rid.split("-")[1]))).encode()]

    with concurrent.futures.ThreadPoolExecutor(4) as pool:  # one process per handle, 4 at a time
        for h, wrong in pool.map(check, sorted(expect)):
            if wrong is None:
                missing.append(h)
            else:
                bad.extend((h, rid) for rid in wrong)
    summary = {"handles": len(expect), "retrieved_exact": len(expect) - len(missing) - len({h for h, _ in bad}),
               "missing": len(missing), "mismatched": len(bad),
               "examples": [*missing[:3], *[f"{h} ({rid})" for h, rid in bad[:3]]]}
    print(json.dumps(summary))
    return 0 if not bad and not missing else 1


def main():
    mode = sys.argv[1]
    if mode == "upstream":
        asyncio.run(upstream_main(sys.argv[2], sys.argv[3]))
    elif mode == "client":
        seed = int(sys.argv[7]) if len(sys.argv) > 7 else 1
        asyncio.run(client_main(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6], seed))
    elif mode == "snap":
        snap(*sys.argv[2:6])
    elif mode == "verify":
        sys.exit(verify(*sys.argv[2:7]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
