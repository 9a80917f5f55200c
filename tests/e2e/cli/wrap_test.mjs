// Acceptance 3 (issue 9): `caveman wrap claude -p "…"` completes against the scripted mock
// upstream through a proxy it starts itself, and `caveman stats --json` shows the request.
// Also: the agent shortcut reuses the running proxy, generic wrapping injects only the
// base-URL variables, the agent's exit code comes back, a missing agent exits 127 with an
// install hint, and a foreign process on the port is never trusted.
import fs from 'node:fs';
import net from 'node:net';
import { check, finish } from '../lib/harness.mjs';
import { startMockUpstream, TEXT } from '../lib/mock_upstream.mjs';
import { caveman, makeUser } from './cli_harness.mjs';

const mock = await startMockUpstream();
const user = await makeUser('caveman-cli-wrap-', { mockUrl: mock.url });
try {
  // 1. wrap claude: auto-starts a compress-mode proxy with MCP recovery, claude answers.
  const r = await caveman(user, ['wrap', 'claude', '-p', 'Say hello.', '--output-format', 'json']);
  check(r.code === 0, `wrap claude exits 0 (got ${r.code}): ${r.stderr.slice(0, 600)}`);
  let result = null;
  try {
    result = JSON.parse(r.stdout);
  } catch {
    result = null;
  }
  check(result && result.result === TEXT, `claude printed the mock's answer: ${r.stdout.slice(0, 300)}`);
  check(/started caveman-proxy on 127\.0\.0\.1:\d+ \(compress, recovery via caveman-mcp\)/.test(r.stderr),
    `wrap said it started a proxy: ${r.stderr.slice(0, 400)}`);
  check(/caveman: session claude: [1-9]\d* request\(s\), input tokens \d+ → \d+/.test(r.stderr),
    `one-line session summary: ${r.stderr.slice(-300)}`);
  const turns = mock.modelRequests();
  check(turns.length === 1, `one model request upstream (got ${turns.length})`);
  check(turns[0] && turns[0].url === '/v1/messages?beta=true', `upstream path (${turns[0] && turns[0].url})`);
  // caveman-mcp is connected before the first request (alwaysLoad: a tool list that grew after
  // it would rewrite the cached prefix) and serves only caveman_retrieve.
  const toolNames = turns[0] ? (JSON.parse(turns[0].body.toString('utf8')).tools || []).map((t) => t.name) : [];
  const ours = toolNames.filter((n) => n.startsWith('mcp__caveman__'));
  check(ours.join(',') === 'mcp__caveman__caveman_retrieve', `first request's caveman tools: ${ours.join(',') || 'none'}`);
  const state = user.runState();
  check(state && state.owner === 'wrap' && state.mode === 'compress' && state.recovery_via_mcp === true,
    `run-state of the wrap proxy: ${JSON.stringify(state)}`);

  // 2. stats --json shows the request(s), attributed to claude/anthropic: one row per call
  // that reached the upstream (Claude Code also calls count_tokens before the turn).
  const upstreamCalls = mock.requests.filter((q) => q.method === 'POST').length;
  const s = await caveman(user, ['stats', '--json']);
  check(s.code === 0, `stats exits 0: ${s.stderr}`);
  const stats = JSON.parse(s.stdout || '{}');
  check(stats.requests === upstreamCalls && upstreamCalls >= 1, `stats.requests === ${upstreamCalls} (got ${stats.requests})`);
  check(stats.basis === 'inferred', 'stats basis inferred');
  check(stats.by_agent && stats.by_agent.claude && stats.by_agent.claude.requests === upstreamCalls, `by_agent.claude: ${s.stdout}`);
  check(stats.by_provider && stats.by_provider.anthropic && stats.by_provider.anthropic.requests === upstreamCalls, 'by_provider.anthropic');
  check(typeof stats.by_content_type === 'object', 'by_content_type present');
  // 11 input + 5 cache read + 3 cache write: the mock's usage, as the proxy booked it.
  check(stats.tokens_after === 19, `tokens_after from the provider's usage (got ${stats.tokens_after})`);
  const csv = await caveman(user, ['stats', '--csv', '--since', '1h']);
  check(csv.code === 0 && csv.stdout.includes(`agent,"claude",${upstreamCalls},`), `stats --csv: ${csv.stdout}`);

  // 3. The shortcut reuses the running proxy (no second start) and exits with claude's code.
  const r2 = await caveman(user, ['claude', '-p', 'Again.', '--output-format', 'json']);
  check(r2.code === 0, `caveman claude exits 0 (got ${r2.code}): ${r2.stderr.slice(0, 400)}`);
  check(!r2.stderr.includes('started caveman-proxy'), 'shortcut reused the running proxy');
  check(user.runState() && user.runState().pid === state.pid, 'same proxy pid');
  check(mock.modelRequests().length === 2, 'second request reached the mock');

  // 4. Generic wrap: a warning, only the base-URL variables, the agent's exit code.
  const g = await caveman(user, ['wrap', 'sh', '-c', 'echo "$ANTHROPIC_BASE_URL|$OPENAI_BASE_URL|$ENABLE_TOOL_SEARCH"; exit 7']);
  check(g.code === 7, `generic wrap returns the agent's exit code (got ${g.code})`);
  check(g.stderr.includes('no profile for "sh"'), 'generic wrap warns');
  const gw = `http://127.0.0.1:${user.port}`;
  check(g.stdout.trim() === `${gw}|${gw}/v1|auto`, `generic env: ${g.stdout}`);

  // 5. Missing agent binary: install hint, exit 127.
  const m = await caveman(user, ['wrap', 'claude'], { env: { PATH: '/usr/bin:/bin' } });
  check(m.code === 127 && m.stderr.includes('npm install -g @anthropic-ai/claude-code'), `missing agent: ${m.code} ${m.stderr}`);

  // 6. Record mode wrap on the compress proxy: reported, used as is (never killed).
  const rec = await caveman(user, ['wrap', '--off', 'sh', '-c', 'exit 0']);
  check(rec.code === 0 && rec.stderr.includes('using it as it is'), `mode mismatch note: ${rec.stderr}`);
  check(user.runState() && user.runState().pid === state.pid, 'the running proxy was not replaced');
} finally {
  await user.cleanup();
}

// 7. A foreign process on the port: never trusted; --strict exits 1, otherwise a direct launch.
{
  const foreign = net.createServer((sock) => sock.destroy());
  const other = await makeUser('caveman-cli-wrap-foreign-', { mockUrl: mock.url });
  await new Promise((r) => foreign.listen(other.port, '127.0.0.1', r));
  try {
    const strict = await caveman(other, ['wrap', '--strict', 'sh', '-c', 'exit 0']);
    check(strict.code === 1 && strict.stderr.includes('in use by another process'), `--strict on a foreign port: ${strict.code} ${strict.stderr}`);
    const direct = await caveman(other, ['wrap', 'sh', '-c', 'echo "base=$ANTHROPIC_BASE_URL"'],
      { env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${other.port}/w/sh` } });
    check(direct.code === 0 && direct.stdout.trim() === 'base=', `direct launch drops our base URL: ${direct.stdout} ${direct.stderr}`);
    check(direct.stderr.includes('directly, without Caveman'), 'direct launch is announced');
    check(!fs.existsSync(other.runStatePath), 'no proxy was started on a foreign port');
  } finally {
    await new Promise((r) => foreign.close(r));
    await other.cleanup();
  }
}
await mock.close();
finish('caveman wrap claude through an auto-started proxy; stats; shortcut; generic; bad input');
