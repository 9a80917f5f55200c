#!/usr/bin/env node
// Long, paused sessions of a scripted SDK agent through caveman-proxy against the billing
// stand-in (issue 37): what the cache-lifetime levers do to the bill. Not Claude Code, and no
// answers are checked (the stand-in's replies are scripted): a lever-by-lever price check, not
// the session benchmark's suite.
//
// Each session (seeded) has a fixed prefix of ~12k tokens (system prompt and tools, as an agent
// sends), user turns of 1–4 tool rounds 5 s apart, tool results of 1–3k tokens (logs, JSON,
// source), Claude Code's breakpoints on an API key (5-minute, on the system prompt and the last
// message), and before every user turn after the first a pause from the pause model
// (tests/e2e/lib/pauses.mjs). The proxy runs on its test clock (CAVEMAN_TEST_CLOCK=manual), the
// stand-in's clock follows it, and a live process holds the agent's lease until the session ends.
// Configurations: record (the agent as shipped, 5 minutes), record with the agent's own 1-hour
// setting (its breakpoints ttl "1h"), compress without the lifetime levers, + keepalive,
// + re-compaction, active without the lifetime choice (adds the frontier planner's
// breakpoints), and active (every lever, the 5-minute / 1-hour choice too).
//
// usage: node bench/lifetimes_bench.mjs [--sessions N] [--turns N] [--write] [--check] [--bin DIR]
//   --write   replace section `lifetimes-sdk` of docs/BENCHMARKS.md (bench/update_section.py)
//   --check   exit 1 when a session costs more under active than under either record baseline
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
process.env.CAVEMAN_BIN_DIR = path.resolve(arg('--bin', process.env.CAVEMAN_BIN_DIR || path.join(root, 'build/release/bin')));
const SESSIONS = Number(arg('--sessions', 6));
const TURNS = Number(arg('--turns', 16));
const WRITE = process.argv.includes('--write');
const CHECK = process.argv.includes('--check');

const { startMockUpstream } = await import('../tests/e2e/lib/mock_upstream.mjs');
const { createBiller, createVirtualClock, price } = await import('../tests/e2e/lib/billing.mjs');
const { createRng, pauseSchedule, MINUTE_MS } = await import('../tests/e2e/lib/pauses.mjs');
const { providersYaml, startProxy } = await import('../tests/e2e/proxy/harness.mjs');

const MODEL = 'claude-sonnet-4-6';
const TOOL_GAP_MS = 5000;
const SYSTEM = 'You are a coding agent. Follow the house rules exactly and keep answers short. '.repeat(700);
const TOOLS = ['Bash', 'Read', 'Grep', 'Edit'].map((name) => ({
  name, description: `The ${name} tool. ` + 'Use it carefully. '.repeat(60),
  input_schema: { type: 'object', properties: { arg: { type: 'string' } } },
}));

const CONFIGS = [
  { id: 'record 5m', mode: 'record', yaml: '' },
  { id: 'record 1h', mode: 'record', yaml: '', ttl: '1h' },
  { id: 'compress', mode: 'compress', yaml: 'keepalive:\n  enabled: false\nrecompact:\n  enabled: false\n' },
  { id: '+ keepalive', mode: 'compress', yaml: 'recompact:\n  enabled: false\n' },
  { id: '+ re-compaction', mode: 'compress', yaml: '' },
  { id: 'active 5m', mode: 'active', yaml: 'optimizers:\n  anthropic-cache-ttl: false\n' },
  { id: 'active', mode: 'active', yaml: '' },
];

// A tool result of about `lines` lines: a build log, a JSON listing or a source file.
function toolResult(rng, turn, round) {
  const kind = Math.floor(rng() * 3);
  const lines = 40 + Math.floor(rng() * 80);
  const tag = `${turn}.${round}`;
  if (kind === 0) {
    return Array.from({ length: lines }, (_, k) => (k % 17 === 5
      ? `2026-12-07 10:${String(k % 60).padStart(2, '0')}:00 ERROR test_${tag}_${k} failed: expected ${k} got ${k + 1}`
      : `2026-12-07 10:${String(k % 60).padStart(2, '0')}:00 INFO worker-${k % 5} compiled unit_${k}.o in ${k % 13} ms`)).join('\n');
  }
  if (kind === 1) {
    return JSON.stringify(Array.from({ length: lines }, (_, k) => ({ id: k, name: `pkg-${tag}-${k}`, version: `1.${k % 9}.${k % 4}`, ok: k % 7 !== 0 })), null, 2);
  }
  return Array.from({ length: lines }, (_, k) => (k % 8 === 0
    ? `def handler_${tag.replace('.', '_')}_${k}(request, retries=${k % 4}):`
    : `    value_${k} = compute(request.field_${k % 11}, retries) + ${k}`)).join('\n');
}

function withTtl(block, ttl) {
  return { ...block, cache_control: ttl ? { type: 'ephemeral', ttl } : { type: 'ephemeral' } };
}

// One session under one configuration; returns its bill on the stand-in.
async function runSession(index, config) {
  const mock = await startMockUpstream({ billing: createBiller({ clock: createVirtualClock(0) }), eventDelayMs: 0, uniqueIds: true });
  const proxy = await startProxy({ yaml: `mode: ${config.mode}\n` + providersYaml(mock.url, config.yaml), env: { CAVEMAN_TEST_CLOCK: 'manual' } });
  const agent = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const advance = (ms) => fetch(`${proxy.url}/caveman/test/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: ms }) }).then((r) => r.json());
  const rng = createRng(`lifetimes-${index}`);
  const gaps = [0, ...pauseSchedule(`lifetimes-${index}`, TURNS - 1)];
  const messages = [];
  let requests = 0;
  let lastPrompt = 0;
  try {
    for (let turn = 0; turn < TURNS; turn++) {
      if (gaps[turn]) await advance(gaps[turn]);
      messages.push({ role: 'user', content: [{ type: 'text', text: `Task ${turn}: fix the next failing test and report.` }] });
      const rounds = 1 + Math.floor(rng() * 4);
      for (let round = 0; round <= rounds; round++) {
        if (round > 0) await advance(TOOL_GAP_MS);
        mock.enqueue(round < rounds ? { tool_use: { name: 'Bash', input: { arg: `step ${turn}.${round}` } } } : { text: `Done with task ${turn}.` });
        const sent = structuredClone(messages);
        const last = sent.at(-1).content;
        last[last.length - 1] = withTtl(last.at(-1), config.ttl);
        const res = await fetch(`${proxy.url}/w/sdkagent/@${agent.pid}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-bench' },
          body: JSON.stringify({ model: MODEL, max_tokens: 1024, tools: TOOLS, system: [withTtl({ type: 'text', text: SYSTEM }, config.ttl)], messages: sent }),
        });
        const body = await res.json();
        if (res.status !== 200) throw new Error(`${config.id} session ${index} turn ${turn}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        requests++;
        const u = body.usage;
        lastPrompt = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
        messages.push({ role: 'assistant', content: body.content });
        if (round < rounds) {
          const use = body.content.find((b) => b.type === 'tool_use');
          messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: toolResult(rng, turn, round) }] });
        }
      }
    }
    agent.kill('SIGTERM');
    await new Promise((r) => agent.once('exit', r));
    await advance(3 * 60 * MINUTE_MS);  // nothing may follow the agent's exit
    let usd = 0;
    let pingUsd = 0;
    let pings = 0;
    for (const r of mock.modelRequests()) {
      const u = JSON.parse(Buffer.concat(r.response).toString()).usage;
      const d = price(u, MODEL).usd.total;
      usd += d;
      if (r.json?.max_tokens === 1) {
        pings++;
        pingUsd += d;
      }
    }
    return { usd, pingUsd, pings, requests, lastPrompt, gaps };
  } finally {
    if (agent.exitCode === null) agent.kill('SIGKILL');
    await proxy.stop();
    await mock.close();
  }
}

const results = [];
for (let s = 0; s < SESSIONS; s++) {
  const row = { session: s, byConfig: {} };
  for (const config of CONFIGS) row.byConfig[config.id] = await runSession(s, config);
  results.push(row);
  const base = row.byConfig['record 5m'];
  console.error(`session ${s}: ${base.requests} requests, final prompt ${base.lastPrompt} tokens, ` +
    CONFIGS.map((c) => `${c.id} $${row.byConfig[c.id].usd.toFixed(4)}`).join(', '));
}

const fmt = (x) => x.toFixed(4);
const long = (gaps) => gaps.filter((g) => g > 5 * MINUTE_MS).length;
let md = '## lifetimes-sdk: long, paused sessions of a scripted SDK agent (issue 37)\n\n';
md += `\`node bench/lifetimes_bench.mjs --sessions ${SESSIONS} --turns ${TURNS}\`: ${SESSIONS} seeded sessions of ${TURNS} user turns ` +
  '(1–4 tool rounds each, 5 s apart; tool results 1–3k tokens), pauses between user turns from the pause model, ' +
  'claude-sonnet-4-6 on the billing stand-in, the proxy on its test clock. A scripted agent, not Claude Code: ' +
  'no answers are checked. Dollars include the keepalive pings (their count in brackets). Columns: the agent as shipped ' +
  '(5-minute breakpoints), the agent with its own 1-hour setting, compress mode without the lifetime levers, + keepalive, ' +
  '+ re-compaction, active mode without the lifetime choice (+ the frontier planner\'s breakpoints), active (+ the ' +
  '5-minute / 1-hour choice).\n\n';
md += `| session | requests | final prompt | pauses > 5 min | ${CONFIGS.map((c) => c.id).join(' | ')} | active / record 5m | active / record 1h |\n`;
md += `|---|---:|---:|---:|${CONFIGS.map(() => '---:').join('|')}|---:|---:|\n`;
const totals = Object.fromEntries(CONFIGS.map((c) => [c.id, 0]));
for (const r of results) {
  const b = r.byConfig['record 5m'];
  const cells = CONFIGS.map((c) => {
    const x = r.byConfig[c.id];
    totals[c.id] += x.usd;
    return `$${fmt(x.usd)}${x.pings ? ` (${x.pings})` : ''}`;
  });
  const a = r.byConfig.active.usd;
  md += `| ${r.session} | ${b.requests} | ${b.lastPrompt} | ${long(b.gaps)} | ${cells.join(' | ')} | ${(a / b.usd).toFixed(2)}× | ${(a / r.byConfig['record 1h'].usd).toFixed(2)}× |\n`;
}
md += `| **total** | | | | ${CONFIGS.map((c) => `**$${fmt(totals[c.id])}**`).join(' | ')} | **${(totals.active / totals['record 5m']).toFixed(2)}×** | **${(totals.active / totals['record 1h']).toFixed(2)}×** |\n`;
console.log(md);
if (WRITE) execFileSync('python3', [path.join(here, 'update_section.py'), 'lifetimes-sdk'], { input: md });
const dearer = results.filter((r) => r.byConfig.active.usd > Math.min(r.byConfig['record 5m'].usd, r.byConfig['record 1h'].usd));
if (CHECK && dearer.length > 0) {
  console.error(`FAIL: active costs more than a record baseline in session(s) ${dearer.map((r) => r.session).join(', ')}`);
  process.exit(1);
}
