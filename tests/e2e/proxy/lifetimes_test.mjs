// Issue 37, scope 2, 3 and 4: prompt-cache lifetimes in caveman-proxy against the billing stand-in,
// on one virtual clock. The proxy runs with CAVEMAN_TEST_CLOCK=manual: POST /caveman/test/clock
// moves its lifetime clock and sends the keepalive pings due on the way; every upstream request
// carries x-mock-idle-ms, so the stand-in's clock follows the proxy's exactly.
//  - keepalive: a 20-minute pause is bridged by pings (max_tokens 1, reading the prefix, rows of
//    kind keepalive) and the next turn reads the prefix instead of writing it; cheaper than the
//    same session with keepalive.enabled: false.
//  - never after the agent exits (the lease's process really ends), never on OAuth/subscription
//    traffic unless keepalive.oauth, never in record mode.
//  - lifetime choice: after pauses, the planner marks the breakpoints before the frontier
//    ttl "1h" (the stand-in refuses a 1h after a 5m with a 400: none happen), billed at 2×,
//    and a 30-minute pause without pings still reads the head.
//  - re-compaction: only the request after a lapse compacts older tool results; every warm
//    request reads all the previous one cached (a warm prefix never changes: churn 0); an
//    earlier task's large result becomes a stub whose handle returns it exactly.
//  - OpenAI: prompt_cache_retention "24h" where bench/prices.json lists it, never elsewhere.
import { execFileSync, spawn } from 'node:child_process';
import { bin, check, finish } from '../lib/harness.mjs';
import { providersYaml, recentRows, startProxy } from './harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { createBiller, createVirtualClock, price, MINUTE_MS } from '../lib/billing.mjs';

// The newest `n` usage rows once `pred` holds of them (rows are written after each response,
// by the proxy's usage writer), or as they are after 10 s.
async function rowsWhen(home, n, pred) {
  for (let i = 0; i < 100; i++) {
    const rows = recentRows(home, n);
    if (pred(rows)) return rows;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return recentRows(home, n);
}

const MODEL = 'claude-sonnet-4-6';
const SYSTEM = 'You are a careful build engineer. ' + 'Follow the house rules exactly. '.repeat(400);
const output = (i) => Array.from({ length: 60 }, (_, k) => `step ${i}.${k}: compiled unit_${k}.o in ${k % 9} ms`).join('\n');

// A process standing in for the agent (caveman wrap's pid in the real flow).
function startAgent() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { pid: child.pid, async exit() { child.kill('SIGTERM'); await exited; } };
}

async function withStack(yaml, fn, { mode = 'active' } = {}) {
  const mock = await startMockUpstream({ billing: createBiller({ clock: createVirtualClock(0) }), eventDelayMs: 0, uniqueIds: true });
  const proxy = await startProxy({ yaml: `mode: ${mode}\n` + providersYaml(mock.url, yaml), env: { CAVEMAN_TEST_CLOCK: 'manual' } });
  try {
    return await fn(proxy, mock);
  } finally {
    await proxy.stop();
    await mock.close();
  }
}

// Claude Code's breakpoints on an API key: 5-minute ones on the system prompt and the last message.
const CC = { type: 'ephemeral' };
function withBreakpoints(messages) {
  const out = structuredClone(messages);
  const last = out.at(-1);
  if (typeof last.content === 'string') last.content = [{ type: 'text', text: last.content }];
  last.content.at(-1).cache_control = CC;
  return out;
}

// One agent session talking to the proxy: turn() sends the history plus a new user turn.
function session(proxy, mock, { pid, auth = { 'x-api-key': 'sk-ant-test' } } = {}) {
  const prefix = pid ? `/w/sdkagent/@${pid}` : '/w/sdkagent';
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'Build the project and report failures.' }] }];
  const usages = [];
  return {
    usages,
    async turn(i) {
      mock.enqueue({ text: `done ${i}` });
      const res = await fetch(`${proxy.url}${prefix}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...auth },
        body: JSON.stringify({ model: MODEL, max_tokens: 256, system: [{ type: 'text', text: SYSTEM, cache_control: CC }],
          messages: withBreakpoints(messages) }),
      });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`turn ${i}: ${res.status} ${JSON.stringify(body)}`);
      usages.push(body.usage);
      messages.push({ role: 'assistant', content: body.content });
      messages.push({ role: 'user', content: [{ type: 'text', text: `next ${i}\n${output(i)}` }] });
      return { res, body };
    },
  };
}

async function advance(proxy, ms) {
  const res = await fetch(`${proxy.url}/caveman/test/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: ms }) });
  return res.json();
}

const pings = (mock) => mock.modelRequests().filter((r) => r.json?.max_tokens === 1);
const dollars = (usages) => usages.reduce((sum, u) => sum + price(u, MODEL).usd.total, 0);

// Keepalive bridges a 20-minute pause; the same session without keepalive writes the prefix again
// (5-minute breakpoints in both: the lifetime choice is switched off).
const FIVE = 'optimizers:\n  anthropic-cache-ttl: false\n';
let withoutUsd = 0;
await withStack(FIVE + 'keepalive:\n  enabled: false\n', async (proxy, mock) => {
  const agent = startAgent();
  const s = session(proxy, mock, { pid: agent.pid });
  for (let i = 0; i < 3; i++) await s.turn(i);
  const moved = await advance(proxy, 20 * MINUTE_MS);
  check(moved.pings === 0 && pings(mock).length === 0, `keepalive.enabled: false sends nothing (${moved.pings})`);
  await s.turn(3);
  const last = s.usages[3];
  check(last.cache_read_input_tokens === 0 && last.cache_creation_input_tokens > 2000, `without pings the prefix is written again ${JSON.stringify(last)}`);
  withoutUsd = dollars(s.usages);
  await agent.exit();
});

await withStack(FIVE, async (proxy, mock) => {
  const agent = startAgent();
  const s = session(proxy, mock, { pid: agent.pid });
  for (let i = 0; i < 3; i++) await s.turn(i);
  const moved = await advance(proxy, 20 * MINUTE_MS);
  const sent = pings(mock);
  check(moved.pings === 4 && sent.length === 4, `4 pings in 20 minutes (4.5, 9, 13.5, 18 min): ${moved.pings}, ${sent.length}`);
  const pingUsd = sent.reduce((sum, r) => sum + price(r.reply?.usage ?? JSON.parse(Buffer.concat(r.response).toString()).usage, MODEL).usd.total, 0);
  for (const r of sent) {
    const u = JSON.parse(Buffer.concat(r.response).toString()).usage;
    check(r.json.stream !== true && u.cache_read_input_tokens > 2000 && u.output_tokens === 1, `a ping reads the prefix, 1 output token ${JSON.stringify(u)}`);
  }
  await s.turn(3);
  const last = s.usages[3];
  check(last.cache_read_input_tokens > 2000, `after the bridged pause turn 4 reads the prefix ${JSON.stringify(last)}`);
  const withUsd = dollars(s.usages) + pingUsd;
  console.log(`20-minute pause: without keepalive $${withoutUsd.toFixed(6)}, with $${withUsd.toFixed(6)} (pings $${pingUsd.toFixed(6)})`);
  check(withUsd < withoutUsd, `keepalive is cheaper (${withUsd} < ${withoutUsd})`);
  // The usage writer stores a request's row after its response: wait for the bridged turn's.
  const rows = await rowsWhen(proxy.home, 50, (rs) => rs.some((r) => r.keepalive_avoided_tokens > 2000));
  const kinds = rows.filter((r) => r.kind === 'keepalive');
  check(kinds.length === 4 && kinds.every((r) => r.optimization_ids === 'caveman-keepalive' && r.status_code === 200),
    `4 usage rows of kind keepalive (${kinds.length})`);
  check(rows.some((r) => r.keepalive_avoided_tokens > 2000), 'the bridged request records the write it avoided');

  // The agent exits: not one ping after, however long the clock runs.
  await advance(proxy, 2 * MINUTE_MS);
  await agent.exit();
  const before = pings(mock).length;
  const after = await advance(proxy, 3 * 60 * MINUTE_MS);
  check(after.pings === 0 && pings(mock).length === before, `no ping after the agent exited (${after.pings})`);
});

// No lease (no wrap pid, no native session): the proxy cannot know the agent lives — no pings.
await withStack('', async (proxy, mock) => {
  const s = session(proxy, mock);
  for (let i = 0; i < 2; i++) await s.turn(i);
  check((await advance(proxy, 30 * MINUTE_MS)).pings === 0, 'no lease, no pings');
});

// OAuth / subscription traffic: never, unless keepalive.oauth: true.
for (const [yaml, auth, expect] of [
  ['', { 'x-api-key': 'sk-ant-test' }, true],
  ['', { authorization: 'Bearer sk-ant-oat01-test' }, false],
  ['', { authorization: 'Bearer eyJ.a.b' }, false],
  // Claude Code's user agent: the row says subscription, its API key makes it pay-as-you-go.
  ['', { 'x-api-key': 'sk-ant-api03-test', 'user-agent': 'claude-cli/2.1.332 (external, cli)' }, true],
  ['', { authorization: 'Bearer sk-ant-oat01-test', 'user-agent': 'claude-cli/2.1.332 (external, cli)' }, false],
  ['keepalive:\n  oauth: true\n', { authorization: 'Bearer sk-ant-oat01-test' }, true],
]) {
  await withStack(yaml, async (proxy, mock) => {
    const agent = startAgent();
    const s = session(proxy, mock, { pid: agent.pid, auth });
    for (let i = 0; i < 2; i++) await s.turn(i);
    const moved = await advance(proxy, 10 * MINUTE_MS);
    check((moved.pings > 0) === expect, `${JSON.stringify(auth).slice(0, 80)} ${yaml.trim() || '(default)'}: pings ${moved.pings}`);
    await agent.exit();
  }, { mode: 'compress' });
}

// Record mode is a byte-exact pipe: no pings.
await withStack('', async (proxy, mock) => {
  const agent = startAgent();
  const s = session(proxy, mock, { pid: agent.pid });
  for (let i = 0; i < 2; i++) await s.turn(i);
  check((await advance(proxy, 30 * MINUTE_MS)).pings === 0, 'record mode sends no pings');
  await agent.exit();
}, { mode: 'record' });

// Lifetime choice: a session whose pauses outlive 5 minutes gets 1-hour breakpoints.
await withStack('keepalive:\n  enabled: false\n', async (proxy, mock) => {
  const agent = startAgent();
  const s = session(proxy, mock, { pid: agent.pid });
  let oneHour = 0;
  for (let i = 0; i < 8; i++) {
    const { res } = await s.turn(i);
    if ((res.headers.get('x-cave-optimization') || '').includes('anthropic-cache-ttl')) oneHour++;
    await advance(proxy, 30 * MINUTE_MS);
  }
  const sent = mock.modelRequests();
  check(sent.every((r) => r.status === 200), 'the stand-in accepted every body (no 1h after a 5m)');
  const marked = sent.filter((r) => JSON.stringify(r.json).includes('"ttl":"1h"'));
  check(oneHour > 0 && marked.length === oneHour, `1-hour breakpoints chosen (${oneHour} of 8 requests)`);
  const hourWrites = s.usages.reduce((n, u) => n + (u.cache_creation?.ephemeral_1h_input_tokens ?? 0), 0);
  check(hourWrites > 0, `1-hour writes billed (${hourWrites} tokens)`);
  const afterHour = s.usages.findIndex((u, i) => i > 0 && JSON.stringify(sent[i - 1].json).includes('"ttl":"1h"'));
  check(afterHour > 0 && s.usages[afterHour].cache_read_input_tokens > 2000,
    `after a 30-minute pause the head is read, not written ${JSON.stringify(s.usages[afterHour])}`);
  const rows = recentRows(proxy.home, 50);
  check(rows.some((r) => r.cache_write_1h_tokens > 0), 'rows carry the 1-hour writes');
  await agent.exit();
});

// Expiry-aligned re-compaction (compress mode, no keepalive): after a pause past the lifetime the
// older tool results are compacted; a warm prefix never changes (each warm request reads at least
// everything the one before it cached: churn 0).
// Turn 1's result is a large log the engine cannot shrink (unique lines), so the prompt is large
// and cached; the later results are small logs whose lossy view (~1,300 tokens saved) does not
// pay for a retrieve re-reading that prompt, so they pass through live. Once the cache lapsed,
// re-compaction compacts them (an answered result is rarely retrieved; the prompt is written anyway).
const BIG = Array.from({ length: 1800 }, (_, k) =>
  `2026-12-07 10:${String(k % 60).padStart(2, '0')}:${String(k % 59).padStart(2, '0')} WARN module_${(k * 7919) % 1000}/file_${k}.c:${100 + k} ` +
  `deprecated call ${['alpha', 'beta', 'gamma', 'delta'][k % 4]}_${k * 31 % 997}()`).join('\n');
const SMALL = (i) => Array.from({ length: 60 }, (_, k) => k % 10 === 3
  ? `2026-12-07 10:${String(k % 60).padStart(2, '0')}:00 WARN module_${k}/file.c:${100 + k} deprecated call in job ${i}`
  : `2026-12-07 10:${String(k % 60).padStart(2, '0')}:00 INFO worker-${k % 7} processed batch ${k} in ${k % 13} ms status=ok`).join('\n');
const LOG = (i) => (i === 0 ? BIG : SMALL(i));
await withStack('keepalive:\n  enabled: false\n', async (proxy, mock) => {
  const agent = startAgent();
  const prefix = `/w/sdkagent/@${agent.pid}`;
  const tools = [{ name: 'run', description: 'Run a command', input_schema: { type: 'object', properties: { cmd: { type: 'string' } } } }];
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'Run the jobs and report failures.' }] }];
  const usages = [];
  const rows = [];
  async function turn(i) {
    mock.enqueue({ tool_use: { name: 'run', input: { cmd: `job ${i}` } } });
    const res = await fetch(`${proxy.url}${prefix}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-test' },
      body: JSON.stringify({ model: MODEL, max_tokens: 256, tools, system: [{ type: 'text', text: SYSTEM, cache_control: CC }], messages: withBreakpoints(messages) }),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`turn ${i}: ${res.status} ${JSON.stringify(body)}`);
    usages.push(body.usage);
    rows.push(res.headers.get('x-cave-optimization') || '');
    const use = body.content.find((b) => b.type === 'tool_use');
    messages.push({ role: 'assistant', content: body.content });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: LOG(i) }] });
  }
  const cachedTotal = (u) => u.cache_read_input_tokens + u.cache_creation_input_tokens;
  const gaps = [0, 3, 3, 20, 1, 2];  // minutes before each turn
  for (let i = 0; i < gaps.length; i++) {
    if (gaps[i]) await advance(proxy, gaps[i] * MINUTE_MS);
    await turn(i);
    if (i > 0 && gaps[i] < 5) {
      check(usages[i].cache_read_input_tokens >= cachedTotal(usages[i - 1]),
        `turn ${i + 1} (warm, ${gaps[i]} min): reads all turn ${i} cached (${usages[i].cache_read_input_tokens} >= ${cachedTotal(usages[i - 1])})`);
    }
  }
  check(rows.filter((o) => o.includes('caveman-recompact')).length === 1 && rows[3].includes('caveman-recompact'),
    `only the request after the 20-minute lapse re-compacts: ${JSON.stringify(rows)}`);
  const stats = recentRows(proxy.home, 50).filter((r) => r.recompact_saved_tokens > 0);
  check(stats.length === 1, `one row records the re-compaction (${stats.map((r) => r.recompact_saved_tokens)})`);
  await agent.exit();
}, { mode: 'compress' });

// Stubs: after a lapse, a result of an earlier task (before the latest human text: answered)
// that no view brings under 200 tokens becomes its first 3 lines and a line-range marker, with
// the handle; the current task's results stay as they were.
await withStack('keepalive:\n  enabled: false\n', async (proxy, mock) => {
  const agent = startAgent();
  const tools = [{ name: 'run', description: 'Run a command', input_schema: { type: 'object', properties: { cmd: { type: 'string' } } } }];
  const messages = [{ role: 'user', content: [{ type: 'text', text: 'Run job 0 and report failures.' }] }];
  async function send(reply) {
    mock.enqueue(reply);
    const res = await fetch(`${proxy.url}/w/sdkagent/@${agent.pid}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-test' },
      body: JSON.stringify({ model: MODEL, max_tokens: 256, tools, system: [{ type: 'text', text: SYSTEM, cache_control: CC }], messages: withBreakpoints(messages) }),
    });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    messages.push({ role: 'assistant', content: body.content });
    return { body, upstream: JSON.parse(mock.requests.at(-1).body.toString('utf8')) };
  }
  const result = (reply, text) => messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: reply.body.content.find((b) => b.type === 'tool_use').id, content: text }] });
  result(await send({ tool_use: { name: 'run', input: { cmd: 'job 0' } } }), BIG);
  await send({ text: 'Job 0 has no failures.' });
  messages.push({ role: 'user', content: [{ type: 'text', text: 'Now run job 1.' }] });
  result(await send({ tool_use: { name: 'run', input: { cmd: 'job 1' } } }), SMALL(1));
  await advance(proxy, 20 * MINUTE_MS);
  const { upstream } = await send({ text: 'Job 1 has one warning.' });
  const sent = upstream.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result').map((b) => b.content);
  const lines = BIG.split('\n');
  const stub = `${lines.slice(0, 3).join('\n')}\n… lines 4–${lines.length} elided (caveman): an earlier result, already answered; the handle below returns it …\n<<ccr:`;
  check(sent[0].startsWith(stub), `the answered result is a stub after the lapse: ${JSON.stringify(sent[0].slice(0, 400))}`);
  check(sent[1] === SMALL(1), 'the current task\'s result is as the agent sent it');
  const handle = sent[0].match(/<<ccr:(ccr_[0-9a-f]+)>>/)[1];
  const back = execFileSync(bin('caveman-engine'), ['retrieve', handle], {
    env: { PATH: process.env.PATH, HOME: proxy.home, CAVEMAN_HOME: proxy.home }, maxBuffer: 64 << 20,
  }).toString('utf8');
  check(back === BIG, 'its handle returns the exact result');
  await agent.exit();
}, { mode: 'compress' });

// OpenAI retention: "24h" where the price table lists it (gpt-5.4), not on gpt-5-mini.
await withStack('', async (proxy, mock) => {
  for (const [model, expect] of [['gpt-5.4', '24h'], ['gpt-5-mini', undefined]]) {
    mock.enqueue({ text: 'ok' });
    const res = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
      body: JSON.stringify({ model, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'hi' }] }),
    });
    check(res.status === 200, `${model}: 200 (${res.status})`);
    const sent = mock.modelRequests().at(-1).json;
    check(sent.prompt_cache_retention === expect, `${model}: prompt_cache_retention ${sent.prompt_cache_retention}`);
  }
  // A client that chose in_memory itself keeps it; the row says so (caveman stats counts them).
  mock.enqueue({ text: 'ok' });
  await fetch(`${proxy.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify({ model: 'gpt-5.4', prompt_cache_retention: 'in_memory', messages: [{ role: 'user', content: 'hi' }] }),
  });
  check(mock.modelRequests().at(-1).json.prompt_cache_retention === 'in_memory', 'the client\'s in_memory is kept');
  check((await rowsWhen(proxy.home, 5, (rs) => rs.some((r) => r.cache_retention === 'in_memory')))
    .some((r) => r.cache_retention === 'in_memory'), 'the row records the client\'s in_memory');
  // A 30-minute pause: the 24h entry is still read.
  await advance(proxy, 30 * MINUTE_MS);
  mock.enqueue({ text: 'ok' });
  const res = await fetch(`${proxy.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: JSON.stringify({ model: 'gpt-5.4', messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'hi' }] }),
  });
  const body = await res.json();
  check(body.usage.prompt_tokens_details.cached_tokens > 1000, `gpt-5.4 after 30 minutes: cached ${body.usage.prompt_tokens_details.cached_tokens}`);
});

finish('caveman-proxy prompt-cache lifetimes (keepalive, TTL choice, OpenAI retention)');
