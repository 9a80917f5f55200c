// Acceptance 4 (issue 8): a non-loopback listen address is refused (exit 2,
// cave_listen_not_loopback, nothing listens); an unknown route answers 404 with the JSON
// error envelope; an SSRF-blocked upstream answers 502 with a hint naming the allowlist
// entry (metadata addresses: never allowable). Also: a taken port is a clear exit 1 and the
// other process keeps serving; health and metrics endpoints answer.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { bin, check, finish, tempHome } from '../lib/harness.mjs';
import { baseEnv, startProxy } from './harness.mjs';

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
function canConnect(host, port) {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    sock.on('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.on('error', () => resolve(false));
  });
}

// Non-loopback listen addresses: exit 2 before binding anything.
for (const listen of ['0.0.0.0', '[::]', '192.168.7.9', 'example.com']) {
  const port = await freePort();
  const home = tempHome('caveman-proxy-e2e-');
  const r = spawnSync(bin('caveman-proxy'), ['serve'], {
    env: baseEnv(home, { CAVEMAN_LISTEN: `${listen}:${port}` }), encoding: 'utf8', timeout: 10000,
  });
  check(r.status === 2, `listen ${listen}: exit 2 (got ${r.status})`);
  check(r.stderr.includes('cave_listen_not_loopback'), `listen ${listen}: names cave_listen_not_loopback`);
  check(!(await canConnect('127.0.0.1', port)), `listen ${listen}: nothing listens on ${port}`);
  check(!fs.existsSync(path.join(home, 'run', `${port}.json`)), `listen ${listen}: no run-state file`);
  fs.rmSync(home, { recursive: true, force: true });
}
// The same rule from caveman.yaml.
{
  const home = tempHome('caveman-proxy-e2e-');
  fs.writeFileSync(path.join(home, 'caveman.yaml'), 'listen: 10.0.0.5:8787\n');
  const env = baseEnv(home);
  delete env.CAVEMAN_LISTEN;
  const r = spawnSync(bin('caveman-proxy'), ['serve'], { env, encoding: 'utf8', timeout: 10000 });
  check(r.status === 2 && r.stderr.includes('cave_listen_not_loopback'), `yaml listen 10.0.0.5: exit 2 (got ${r.status})`);
  fs.rmSync(home, { recursive: true, force: true });
}

const yaml = 'providers:\n  anthropic:\n    base_url: http://169.254.169.254\n  openai:\n    base_url: http://10.1.2.3:8080\n' +
  '  gemini:\n    base_url: http://127.0.0.1:9\n';
const proxy = await startProxy({ yaml, env: { CAVE_SSRF_ALLOWLIST: '' } });
async function call(pathname, init = {}) {
  const res = await fetch(proxy.url + pathname, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' }, ...init });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { res, text, json };
}

// Unknown routes and wrong methods: 404 with the error envelope.
for (const [p, init] of [['/v1/nope', {}], ['/v2/messages', {}], ['/v1/messages', { method: 'GET', body: undefined }],
  ['/w/UPPER/v1/messages', {}], ['/compat/unknown/v1/chat/completions', {}]]) {
  const r = await call(p, init);
  check(r.res.status === 404, `${init.method || 'POST'} ${p}: 404 (got ${r.res.status})`);
  check(r.res.headers.get('content-type')?.startsWith('application/json'), `${p}: JSON content type`);
  check(r.json?.error?.type === 'cave_gateway_error' && r.json.error.code === 'cave_route_not_found', `${p}: cave_route_not_found: ${r.text}`);
  check(r.json?.error?.request_id === r.res.headers.get('x-cave-request-id'), `${p}: request_id matches the header`);
}

// SSRF: private upstream → 502 with the allowlist hint; metadata → 502, never allowable; loopback likewise.
{
  const r = await call('/v1/chat/completions');
  check(r.res.status === 502 && r.json?.error?.code === 'cave_upstream_blocked', `private upstream: 502 cave_upstream_blocked (${r.res.status} ${r.text})`);
  check(r.json?.error?.message.includes('CAVE_SSRF_ALLOWLIST=10.1.2.3:8080'), `private upstream: hint names the entry: ${r.json?.error?.message}`);
  const m = await call('/v1/messages');
  check(m.res.status === 502 && m.json?.error?.code === 'cave_upstream_blocked', `metadata upstream: 502 (${m.res.status})`);
  check(/metadata/.test(m.json?.error?.message || '') && /cannot/.test(m.json?.error?.message || ''), `metadata upstream: says it cannot be allowed: ${m.json?.error?.message}`);
  const g = await call('/v1beta/models/gemini-mock:generateContent');
  check(g.res.status === 502 && g.json?.error?.message.includes('CAVE_SSRF_ALLOWLIST=127.0.0.1:9'), `loopback upstream: 502 with hint: ${g.text}`);
}

// Health and metrics.
{
  const live = await fetch(`${proxy.url}/health/live`);
  const body = await live.json();
  check(live.status === 200 && body.ok === true && body.service === 'caveman-proxy', `health/live: ${JSON.stringify(body)}`);
  check((await fetch(`${proxy.url}/health/ready`)).status === 200, 'health/ready 200');
  const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
  check(/^cave_proxy_inflight_requests \d+$/m.test(metrics), 'metrics: inflight gauge');
}

// A taken port: exit 1 with a clear error; the process holding it keeps serving.
{
  const home = tempHome('caveman-proxy-e2e-');
  const r = spawnSync(bin('caveman-proxy'), ['serve'], {
    env: baseEnv(home, { CAVEMAN_LISTEN: `127.0.0.1:${proxy.port}` }), encoding: 'utf8', timeout: 10000,
  });
  check(r.status === 1, `port taken: exit 1 (got ${r.status})`);
  check(/cave_listen_failed/.test(r.stderr) && r.stderr.includes(String(proxy.port)), `port taken: clear error: ${r.stderr.trim()}`);
  check((await fetch(`${proxy.url}/health/live`)).status === 200, 'port taken: the first proxy still serves');
  fs.rmSync(home, { recursive: true, force: true });
}

const { code } = await proxy.stop();
check(code === 0, `proxy exits 0 (got ${code})`);
fs.rmSync(proxy.home, { recursive: true, force: true });
finish('caveman-proxy refusals and error answers');
