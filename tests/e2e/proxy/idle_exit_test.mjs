// A proxy started by `caveman wrap` (CAVEMAN_PROXY_OWNER=wrap) exits by itself once idle for
// CAVEMAN_NATIVE_IDLE_TIMEOUT (docs/spec/proxy.md#idle-exit): exit 0, run-state file removed.
// POST /caveman/keepalive (204) and provider requests hold it up; a `caveman start` proxy
// (owner start) never idle-exits.
import fs from 'node:fs';
import path from 'node:path';
import { check, finish } from '../lib/harness.mjs';
import { startProxy } from './harness.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const runStateFile = (p) => path.join(p.home, 'run', `${p.port}.json`);
const alive = (p) => p.child.exitCode === null && p.child.signalCode === null;

// Idle for 1.5 s with keepalives every 0.5 s for 3 s: still up; then silent: exits 0.
{
  const p = await startProxy({ env: { CAVEMAN_PROXY_OWNER: 'wrap', CAVEMAN_NATIVE_IDLE_TIMEOUT: '1500ms' } });
  check(fs.existsSync(runStateFile(p)), 'wrap-owned proxy wrote its run-state file');
  for (let i = 0; i < 6; ++i) {
    const res = await fetch(`${p.url}/caveman/keepalive`, { method: 'POST' });
    check(res.status === 204, `keepalive ${i} → 204 (got ${res.status})`);
    await sleep(500);
  }
  check(alive(p), 'keepalives held the proxy up past its idle timeout');
  const started = Date.now();
  const { code } = await Promise.race([p.exited, sleep(10000).then(() => ({ code: 'timeout' }))]);
  const waited = Date.now() - started;
  check(code === 0, `idle wrap-owned proxy exited 0 (got ${code})`);
  check(waited >= 900, `it waited for the idle timeout (${waited} ms after the last keepalive)`);
  check(!fs.existsSync(runStateFile(p)), 'run-state file removed on idle exit');
  check(/no activity for/.test(p.stderr()), 'idle exit is logged');
  if (alive(p)) await p.stop('SIGKILL');
}

// Owner start: the same idle timeout does nothing.
{
  const p = await startProxy({ env: { CAVEMAN_PROXY_OWNER: 'start', CAVEMAN_NATIVE_IDLE_TIMEOUT: '500ms' } });
  await sleep(2000);
  check(alive(p), 'a caveman start proxy does not idle-exit');
  const { code } = await p.stop();
  check(code === 0, `SIGTERM → exit 0 (got ${code})`);
}

// An invalid timeout falls back to the default (30 min): the proxy stays up.
{
  const p = await startProxy({ env: { CAVEMAN_PROXY_OWNER: 'wrap', CAVEMAN_NATIVE_IDLE_TIMEOUT: 'soon' } });
  await sleep(1500);
  check(alive(p), 'invalid CAVEMAN_NATIVE_IDLE_TIMEOUT → default, proxy stays up');
  const { code } = await p.stop();
  check(code === 0, `SIGTERM → exit 0 (got ${code})`);
}
finish('caveman-proxy idle exit when started by caveman wrap');
