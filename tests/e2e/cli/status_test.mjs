// Acceptance 5 (issue 9): `caveman status --json` in three states, asserted:
//  - all fine: every binary answers version --json, the proxy (started by `caveman start`)
//    is listening and healthy → ok true, exit 0;
//  - proxy down: the same, proxy not listening → reported (listening false, a note), still
//    exit 0 because `caveman wrap` starts one on demand;
//  - mcp binary missing (CAVEMAN_MCP_BIN pointing nowhere) → caveman-mcp found:false,
//    ok false, a problem naming it, exit 1.
// Plus: a store readable by others is a problem; a foreign process on the port is a problem.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { bin, check, finish } from '../lib/harness.mjs';
import { caveman, makeUser } from './cli_harness.mjs';

function parse(r) {
  try {
    return JSON.parse(r.stdout);
  } catch {
    return null;
  }
}

async function waitReady(port) {
  for (let i = 0; i < 100; i += 1) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (res.ok) return true;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

const user = await makeUser('caveman-cli-status-');
try {
  // All fine.
  const start = spawn(bin('caveman'), ['start'], { env: user.env, stdio: 'ignore' });
  const exited = new Promise((r) => start.on('exit', (code) => r(code)));
  check(await waitReady(user.port), 'caveman start became ready');
  const fine = await caveman(user, ['status', '--json']);
  const a = parse(fine);
  check(fine.code === 0, `all fine: exit 0 (got ${fine.code}): ${fine.stdout.slice(0, 800)}`);
  check(a && a.ok === true && a.problems.length === 0, `all fine: ok, no problems: ${a && JSON.stringify(a.problems)}`);
  check(a && a.binaries.length === 6 && a.binaries.every((b) => b.ok && b.version), 'all fine: six binaries answer version --json');
  check(a && a.proxy.listening === true && a.proxy.owner === 'caveman' && a.proxy.healthy === true &&
    a.proxy.started_by === 'start', `all fine: proxy ${a && JSON.stringify(a.proxy)}`);
  check(a && a.ccr_db.budget_bytes === 512 * 1024 * 1024, 'all fine: ccr budget reported');
  check(a && a.caveman_db.exists === true && a.caveman_db.mode === '0600', `all fine: caveman.db 0600 (${a && a.caveman_db.mode})`);
  check(a && a.claude_mcp.installed === false, 'all fine: no Claude Code registration yet');
  const table = await caveman(user, ['status']);
  check(table.code === 0 && table.stdout.includes('status: ok'), `plain status: ${table.stdout}`);
  const doctor = await caveman(user, ['doctor', '--json']);
  check(doctor.code === 0 && parse(doctor) && parse(doctor).ok === true, 'doctor is status');

  // Proxy down.
  start.kill('SIGTERM');
  check((await exited) === 0, 'caveman start exited 0 on SIGTERM');
  const down = await caveman(user, ['status', '--json']);
  const b = parse(down);
  check(down.code === 0, `proxy down: exit 0 (got ${down.code})`);
  check(b && b.proxy.listening === false && b.proxy.owner === 'none' && b.proxy.healthy === false,
    `proxy down: ${b && JSON.stringify(b.proxy)}`);
  check(b && b.notes.some((n) => n.includes('proxy not running')), 'proxy down: a note says so');

  // MCP binary missing.
  const missing = await caveman(user, ['status', '--json'], { env: { CAVEMAN_MCP_BIN: '/nonexistent/caveman-mcp' } });
  const c = parse(missing);
  check(missing.code === 1, `mcp missing: exit 1 (got ${missing.code})`);
  const mcp = c && c.binaries.find((x) => x.name === 'caveman-mcp');
  check(mcp && mcp.found === false && mcp.ok === false && mcp.error === 'cave_binary_missing', `mcp missing: ${JSON.stringify(mcp)}`);
  check(c && c.ok === false && c.problems.some((p) => p.startsWith('caveman-mcp')), `mcp missing: problem listed ${c && JSON.stringify(c.problems)}`);

  // A database readable by others.
  fs.chmodSync(path.join(user.cavemanHome, 'caveman.db'), 0o644);
  const loose = await caveman(user, ['status', '--json']);
  check(loose.code === 1 && parse(loose).caveman_db.permissions_ok === false, 'world-readable caveman.db is a problem');
  fs.chmodSync(path.join(user.cavemanHome, 'caveman.db'), 0o600);

  // A foreign process on the port.
  const foreign = net.createServer((sock) => sock.destroy());
  await new Promise((r) => foreign.listen(user.port, '127.0.0.1', r));
  const held = await caveman(user, ['status', '--json']);
  check(held.code === 1 && parse(held).proxy.owner === 'foreign', `foreign listener: ${held.stdout.slice(0, 300)}`);
  await new Promise((r) => foreign.close(r));
} finally {
  await user.cleanup();
}
finish('caveman status --json: all fine, proxy down, mcp binary missing');
