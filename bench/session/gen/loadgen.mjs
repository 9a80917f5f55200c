// Replays a request list (JSON on stdin: [{method, path, headers, body}]) against a service
// started here (`node SERVER`, which prints "READY <port>"), one request at a time, on
// loopback, then stops the service with SIGTERM and waits for it to exit.
// usage: node loadgen.mjs SERVER.js < requests.json
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';

const server = process.argv[2];
const requests = JSON.parse(fs.readFileSync(0, 'utf8'));
const child = spawn(process.execPath, [server], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const m = /READY (\d+)/.exec(out);
    if (m) resolve(Number(m[1]));
  });
  child.on('exit', (code) => reject(new Error(`service exited early (${code})`)));
});

function send(r) {
  return new Promise((resolve, reject) => {
    const body = r.body == null ? null : Buffer.from(r.body);
    const headers = { ...r.headers, ...(body ? { 'content-length': body.length } : {}) };
    const q = http.request({ host: '127.0.0.1', port, method: r.method, path: r.path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    q.on('error', reject);
    if (body) q.write(body);
    q.end();
  });
}

for (const r of requests) await send(r);
const exited = new Promise((resolve) => child.on('exit', resolve));
child.kill('SIGTERM');
const code = await exited;
process.exit(code === 0 ? 0 : 1);
