// Start/stop caveman-proxy for the e2e tests: temp CAVEMAN_HOME, loopback port 0, the mock
// upstream allow-listed, and a clean environment (no real provider keys leak in).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bin, tempHome } from '../lib/harness.mjs';

export function baseEnv(home, extra = {}) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    CAVEMAN_HOME: home,
    CAVEMAN_LISTEN: '127.0.0.1:0',
    CAVE_SSRF_ALLOWLIST: '127.0.0.1',
    ...extra,
  };
}

export function providersYaml(mockUrl, extra = '') {
  return `providers:\n  anthropic:\n    base_url: ${mockUrl}\n  openai:\n    base_url: ${mockUrl}\n` +
    `  gemini:\n    base_url: ${mockUrl}\n${extra}`;
}

// Resolves when the proxy logs its listening line; rejects if it exits first.
export async function startProxy({ yaml = '', env = {}, home = tempHome('caveman-proxy-e2e-') } = {}) {
  fs.writeFileSync(path.join(home, 'caveman.yaml'), yaml);
  const child = spawn(bin('caveman-proxy'), ['serve'], {
    env: baseEnv(home, env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`proxy did not start:\n${stderr}`)), 20000);
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`proxy exited (${code}) before listening:\n${stderr}`));
    });
  });
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    home,
    child,
    exited,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

// Rows of caveman.db through the proxy's own CLI (newest first).
export function recentRows(home, n = 100) {
  const r = spawnSync(bin('caveman-proxy'), ['stats', '--recent', String(n)], {
    env: baseEnv(home), encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`stats --recent failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

// A fetch wrapper for the SDKs: records the body the SDK sent and the exact response bytes
// it received (the stream is teed, so the SDK still streams).
export function recordingFetch(log) {
  return async (url, init = {}) => {
    const entry = { url: String(url), method: init.method };
    const body = init.body;
    if (body == null) entry.requestBody = Buffer.alloc(0);
    else if (typeof body === 'string') entry.requestBody = Buffer.from(body);
    else entry.requestBody = Buffer.from(await new Response(body).arrayBuffer());
    const res = await fetch(url, { ...init, body: body == null ? body : entry.requestBody });
    let forSdk = res.body;
    if (res.body) {
      const [a, b] = res.body.tee();
      forSdk = a;
      entry.responseBytes = new Response(b).arrayBuffer().then((x) => Buffer.from(x));
    } else {
      entry.responseBytes = Promise.resolve(Buffer.alloc(0));
    }
    entry.status = res.status;
    entry.headers = res.headers;
    log.push(entry);
    return new Response(forSdk, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
