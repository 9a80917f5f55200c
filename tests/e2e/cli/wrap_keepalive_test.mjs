// Issue 37, acceptance 3: cache keepalive never sends after the agent exits — with a real
// agent process under `caveman wrap`. The agent (a script standing in for Claude Code,
// CAVEMAN_AGENT_BIN) makes two turns through the proxy wrap started, then moves the proxy's
// test clock 10 minutes (CAVEMAN_TEST_CLOCK=manual): pings go while it is alive. It exits;
// wrap exits with it; 2 more hours on the proxy's clock send nothing.
import fs from 'node:fs';
import path from 'node:path';
import { check, finish } from '../lib/harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { createBiller, createVirtualClock } from '../lib/billing.mjs';
import { caveman, makeUser } from './cli_harness.mjs';

const AGENT = `#!/usr/bin/env node
const fs = require('node:fs');
const base = process.env.ANTHROPIC_BASE_URL;
const system = [{ type: 'text', text: 'You are terse. ' + 'Follow the house rules. '.repeat(300), cache_control: { type: 'ephemeral' } }];
const messages = [{ role: 'user', content: [{ type: 'text', text: 'Build it.', cache_control: { type: 'ephemeral' } }] }];
(async () => {
  for (let i = 0; i < 2; i++) {
    const res = await fetch(base + '/v1/messages', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': process.env.ANTHROPIC_API_KEY },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, system, messages }),
    });
    if (res.status !== 200) process.exit(3);
    await res.json();
  }
  const origin = new URL(base).origin;
  const moved = await (await fetch(origin + '/caveman/test/clock', { method: 'POST', body: JSON.stringify({ advance_ms: 600000 }) })).json();
  fs.writeFileSync(process.env.AGENT_REPORT, JSON.stringify({ base, pings: moved.pings }));
})();
`;

const mock = await startMockUpstream({ billing: createBiller({ clock: createVirtualClock(0) }), eventDelayMs: 0 });
const user = await makeUser('caveman-wrap-keepalive-', { mockUrl: mock.url });
try {
  const agent = path.join(user.work, 'fake-claude');
  fs.writeFileSync(agent, AGENT, { mode: 0o755 });
  const report = path.join(user.work, 'report.json');
  const r = await caveman(user, ['wrap', 'claude', '-p', 'hi'], {
    env: { CAVEMAN_AGENT_BIN: agent, CAVEMAN_TEST_CLOCK: 'manual', AGENT_REPORT: report },
  });
  check(r.code === 0, `wrap exits 0 with the agent (got ${r.code}): ${r.stderr.slice(0, 600)}`);
  const seen = JSON.parse(fs.readFileSync(report, 'utf8'));
  check(/\/w\/claude\/@\d+$/.test(seen.base), `the agent's base URL carries wrap's lease: ${seen.base}`);
  check(seen.pings === 2, `pings while the agent lived: 10 minutes → 2 (got ${seen.pings})`);
  const pings = () => mock.modelRequests().filter((q) => q.json?.max_tokens === 1).length;
  const before = pings();
  check(before === 2, `the stand-in got 2 pings (${before})`);
  const state = user.runState();
  check(state && state.owner === 'wrap', 'the wrap proxy is still up');
  const moved = await (await fetch(`http://127.0.0.1:${state.port}/caveman/test/clock`, {
    method: 'POST', body: JSON.stringify({ advance_ms: 2 * 3600 * 1000 }),
  })).json();
  check(moved.pings === 0 && pings() === before, `no ping after the agent exited (${moved.pings}, ${pings() - before})`);
} finally {
  await user.cleanup();
  await mock.close();
}
finish('caveman wrap: keepalive stops when the agent exits');
