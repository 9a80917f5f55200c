"""Data dumps (JSON, CSV/TSV, sqlite3 in its output modes) made from the machine's real package
data, and a real local service: an express app (from the e2e npm tree) run on loopback with
seeded traffic and seeded faults, whose access and application logs, `curl -v` transcripts and
`strace` of real commands become payloads."""
from __future__ import annotations

import json
import socket
import subprocess
import time

from .common import Context, Source, pick, read_text


def _packages(ctx: Context) -> list[dict]:
    fmt = "${Package}\t${Version}\t${Architecture}\t${Installed-Size}\t${Section}\t${Priority}\t${Maintainer}\n"
    rows = []
    for line in ctx.run(["dpkg-query", "-W", f"-f={fmt}"], merge=False).splitlines():
        parts = line.split("\t")
        if len(parts) == 7:
            rows.append(dict(zip(["package", "version", "arch", "size_kb", "section", "priority", "maintainer"], parts)))
    return rows


def data_sources(ctx: Context) -> list[Source]:
    rng = ctx.fork("data")
    out = []
    jsons = sorted(p for p in ctx.node_modules.rglob("*.json") if p.is_file() and 2_000 < p.stat().st_size < 400_000)
    for p in pick(rng, jsons, 6):
        text = read_text(p)
        if text:
            out.append(Source("json-file", str(p), text, ("json",), kind="file"))
    rows = _packages(ctx) if ctx.have("dpkg-query") else []
    if rows:
        for i in range(4):
            sample = pick(rng, range(len(rows)), rng.randint(30, 400))
            sep = "," if i % 2 == 0 else "\t"
            fam = "csv" if sep == "," else "tsv"
            lines = [sep.join(rows[0].keys())]
            for j in sorted(sample):
                vals = [v.replace('"', "'") for v in rows[j].values()]
                lines.append(sep.join(f'"{v}"' if sep in v else v for v in vals))
            out.append(Source(fam, f"packages.{fam} ({len(sample)} rows)", "\n".join(lines) + "\n", ("tabular",), kind="file"))
        for i in range(2):
            sample = [rows[j] for j in sorted(pick(rng, range(len(rows)), rng.randint(20, 200)))]
            out.append(Source("json-dump", f"packages.json ({len(sample)} records)", json.dumps(sample, indent=rng.choice([1, 2])) + "\n",
                              ("json",), kind="file"))
        if ctx.have("sqlite3"):
            db = ctx.work / "packages.db"
            if not db.exists():
                ins = "".join("INSERT INTO pkg VALUES(%s);\n" % ",".join("'" + v.replace("'", "''") + "'" for v in r.values())
                              for r in rows)
                ctx.run(["sqlite3", str(db)], stdin=("CREATE TABLE pkg(package, version, arch, size_kb INT, section, priority, maintainer);\n"
                                                     "BEGIN;\n" + ins + "COMMIT;\n").encode())
            queries = ["SELECT * FROM pkg WHERE section = '{s}' ORDER BY package",
                       "SELECT section, COUNT(*), SUM(size_kb) FROM pkg GROUP BY section ORDER BY 2 DESC",
                       "SELECT package, version, size_kb FROM pkg WHERE size_kb > {n} ORDER BY size_kb DESC",
                       "SELECT maintainer, COUNT(*) AS n FROM pkg GROUP BY maintainer ORDER BY n DESC LIMIT {k}"]
            sections = sorted({r["section"] for r in rows})
            for i in range(6):
                q = rng.choice(queries).format(s=rng.choice(sections), n=rng.choice([500, 2000, 10000]), k=rng.randint(10, 60))
                mode = rng.choice(["-column", "-box", "-csv", "-json", "-line", "-markdown"])
                text = ctx.run(["sqlite3", "-header", mode, str(db), q])
                declared = ("json",) if mode == "-json" else ("tabular",) if mode != "-line" else ("records", "tabular", "config")
                out.append(Source("sqlite3", f"sqlite3 {mode} \"{q}\"", text, declared))
    return out


SERVICE = r"""
const express = require('express');
const fs = require('fs');
const seed = Number(process.argv[3]);
let state = seed;
const rand = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
const access = fs.createWriteStream(process.argv[4]);
const app = fs.createWriteStream(process.argv[5]);
// The same events as a structured log, one JSON object a line (pino's shape).
const jsonl = fs.createWriteStream(process.argv[6]);
const LEVELS = { INFO: 30, WARN: 40, ERROR: 50 };
const jlog = (o) => jsonl.write(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, hostname: 'orders-1', ...o }) + '\n');
const log = (level, msg) => {
  app.write(`${new Date().toISOString()} ${level.padEnd(5)} [orders] ${msg}\n`);
  jlog({ level: LEVELS[level], msg });
};
const srv = express();
srv.use((req, res, next) => {
  const t0 = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    access.write(`127.0.0.1 - - [${new Date().toUTCString()}] "${req.method} ${req.originalUrl} HTTP/1.1" ${res.statusCode} ${res.getHeader('content-length') || 0} "-" "${req.headers['user-agent']}" ${ms.toFixed(3)}ms\n`);
    jlog({ level: res.statusCode >= 500 ? 50 : res.statusCode >= 400 ? 40 : 30, req: { method: req.method, url: req.originalUrl },
           res: { statusCode: res.statusCode }, responseTime: Math.round(ms * 1000) / 1000, msg: 'request completed' });
  });
  next();
});
srv.use(express.json({ limit: '2kb' }));
srv.get('/health', (req, res) => res.json({ ok: true }));
srv.get('/api/orders/:id', (req, res) => {
  const id = Number(req.params.id);
  if (!Number.isInteger(id)) { log('WARN', `bad order id ${req.params.id}`); return res.status(400).json({ error: 'bad id' }); }
  if (id % 97 === 13) { log('ERROR', `order ${id}: ledger lookup failed: ECONNRESET`); return res.status(502).json({ error: 'upstream' }); }
  if (id > 9000) return res.status(404).json({ error: 'no such order' });
  const slow = rand() < 0.03;
  setTimeout(() => { log('INFO', `order ${id} served${slow ? ' (slow path)' : ''}`); res.json({ id, total: id * 3 }); }, slow ? 250 : 1);
});
srv.post('/api/orders', (req, res) => {
  if (!req.body || !req.body.item) { log('WARN', 'order without item'); return res.status(422).json({ error: 'item required' }); }
  if (req.body.item === 'boom') { try { null.x; } catch (e) { log('ERROR', `create failed: ${e.stack.replace(/\n/g, '\n    ')}`); } return res.status(500).end(); }
  log('INFO', `order created for ${req.body.item}`);
  res.status(201).json({ id: Math.floor(rand() * 9000) });
});
srv.use((err, req, res, next) => { log('ERROR', `${err.type || err.name}: ${err.message}`); res.status(err.status || 500).end(); });
const s = srv.listen(Number(process.argv[2]), '127.0.0.1', () => log('INFO', `listening on ${s.address().port}`));
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def service_sources(ctx: Context) -> list[Source]:
    rng = ctx.fork("service")
    e2e = ctx.root / "tests/e2e"
    if not ctx.have("node") or not (e2e / "node_modules/express").exists():
        return []
    d = ctx.work / "svc"
    d.mkdir(exist_ok=True)
    (d / "server.js").write_text(SERVICE)
    out = []
    import urllib.error
    import urllib.request
    for run in range(4):
        port = _free_port()
        access, applog, jsonlog = d / f"access{run}.log", d / f"app{run}.log", d / f"json{run}.log"
        env = dict(ctx.env, NODE_PATH=str(e2e / "node_modules"))
        proc = subprocess.Popen(["node", str(d / "server.js"), str(port), str(rng.randint(1, 10**6)), str(access), str(applog), str(jsonlog)],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/health", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.05)
            fault_rate = rng.choice([0.01, 0.03, 0.08])
            for i in range(rng.randint(120, 700)):
                r = rng.random()
                if r < fault_rate:
                    req = urllib.request.Request(base + "/api/orders", data=json.dumps({"item": "x" * 4000}).encode(),
                                                 headers={"Content-Type": "application/json"})  # 413
                elif r < 2 * fault_rate:
                    req = urllib.request.Request(base + f"/api/orders/{rng.choice(['abc', '12x', '-'])}")
                elif r < 3 * fault_rate:
                    req = urllib.request.Request(base + "/api/orders", data=json.dumps({"item": rng.choice(["boom", ""])}).encode(),
                                                 headers={"Content-Type": "application/json"})
                elif r < 0.85:
                    req = urllib.request.Request(base + f"/api/orders/{rng.randint(1, 9400)}")
                else:
                    req = urllib.request.Request(base + "/api/orders", data=json.dumps({"item": rng.choice(["tea", "cup", "pot"])}).encode(),
                                                 headers={"Content-Type": "application/json"})
                req.add_header("User-Agent", rng.choice(["curl/7.88.1", "python-urllib/3.11", "orders-cli/2.3"]))
                try:
                    urllib.request.urlopen(req, timeout=5).read()
                except urllib.error.HTTPError as e:
                    e.read()
                except OSError:
                    pass
            if run < 2:
                for _ in range(rng.randint(2, 4)):
                    path = rng.choice(["/api/orders/42", f"/api/orders/{rng.randint(9001, 9999)}", "/api/orders/abc", "/nope"])
                    method = rng.choice(["", "-X POST -H 'Content-Type: application/json' -d '{\"item\":\"tea\"}' "])
                    text = ctx.sh(f"curl -sS -v {method}{base}{path if not method else '/api/orders'}")
                    out.append(Source("curl-v", f"curl -v {path}", text, ("text", "log")))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
        time.sleep(0.1)
        out.append(Source("access-log", f"access log run {run}", access.read_text(), ("log",), kind="file"))
        out.append(Source("app-log", f"app log run {run}", applog.read_text(), ("log",), kind="file"))
        out.append(Source("json-log", f"structured log run {run}", jsonlog.read_text(), ("log", "json"), kind="file"))
    if ctx.have("strace"):
        cmds = ["ls -la /etc/ssl", "python3 -c 'import json, ssl'", "cat /etc/hostname /nonexistent", "git --version",
                "node -e 'require(\"fs\").readFileSync(\"/etc/os-release\")'", "sh -c 'echo hi > /dev/null; exit 3'"]
        for c in pick(rng, cmds, 4):
            trace = rng.choice(["-e trace=file", "-f -e trace=%file,%process", "-e trace=openat,read,close", ""])
            text = ctx.sh(f"strace {trace} {c} 2>&1 | head -n 1500")
            out.append(Source("strace", f"strace {trace} {c}", text, ("log",)))
    return out


def sources(ctx: Context) -> list[Source]:
    return data_sources(ctx) + service_sources(ctx)
