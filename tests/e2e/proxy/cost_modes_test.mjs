// Issue 22, acceptance 4: the cost modes end to end with the real @anthropic-ai/sdk and openai
// SDKs through caveman-proxy against the billing stand-in (mock_upstream `billing: true`).
//  - active: the frontier planner gives an SDK agent with no cache_control of its own cache
//    reads from turn 2 on, at most 4 breakpoints, and a bill well under record mode's; the
//    OpenAI requests get one stable prompt_cache_key per session and cached tokens.
//  - recommend / shadow / canary 0 %: the provider receives the SDK's exact bytes; the rows
//    say what would have changed. canary 100 %: like active.
//  - record mode's would_save_tokens equals what a compress-mode run of the same request removed.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { check, finish } from '../lib/harness.mjs';
import { providersYaml, recentRows, recordingFetch, startProxy } from './harness.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';
import { price } from '../lib/billing.mjs';

const SYSTEM = 'You are a careful build engineer. ' + 'Follow the house rules exactly. '.repeat(400);
const TOOLS = [{ name: 'run', description: 'Run a shell command', input_schema: { type: 'object', properties: { cmd: { type: 'string' } } } }];
const output = (i) => Array.from({ length: 120 }, (_, k) => `step ${i}.${k}: compiled unit_${k}.o in ${k % 9} ms`).join('\n');

// One SDK agent session of `turns` tool rounds; returns the usages the SDK reported.
async function anthropicSession(proxy, mock, turns, log = []) {
  const client = new Anthropic({ baseURL: proxy.url, apiKey: 'sk-ant-test', maxRetries: 0, fetch: recordingFetch(log) });
  const messages = [{ role: 'user', content: 'Build the project and report failures.' }];
  const usages = [];
  for (let i = 0; i < turns; i++) {
    mock.enqueue({ tool_use: { name: 'run', input: { cmd: `make step${i}` } } });
    const m = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 256, system: SYSTEM, tools: TOOLS, messages });
    usages.push(m.usage);
    const use = m.content.find((b) => b.type === 'tool_use');
    messages.push({ role: 'assistant', content: m.content });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use?.id ?? 'x', content: output(i) }] });
  }
  return usages;
}

const dollars = (usages, model) => usages.reduce((sum, u) => sum + price(u, model).usd.total, 0);

async function withProxy(mode, extraYaml, fn, env = {}) {
  const mock = await startMockUpstream({ billing: true, eventDelayMs: 0, uniqueIds: true });
  const proxy = await startProxy({ yaml: `mode: ${mode}\n` + providersYaml(mock.url, extraYaml), env });
  try {
    return await fn(proxy, mock);
  } finally {
    await proxy.stop();
    await mock.close();
  }
}

// Record vs active: the same 5-turn SDK session.
let recordUsd = 0;
await withProxy('record', '', async (proxy, mock) => {
  recordUsd = dollars(await anthropicSession(proxy, mock, 5), 'claude-sonnet-4-6');
});
await withProxy('active', '', async (proxy, mock) => {
  const usages = await anthropicSession(proxy, mock, 5);
  const activeUsd = dollars(usages, 'claude-sonnet-4-6');
  console.log(`anthropic SDK session: record $${recordUsd.toFixed(6)}, active $${activeUsd.toFixed(6)} (${(activeUsd / recordUsd).toFixed(3)}x)`);
  check(activeUsd <= 0.5 * recordUsd, `active costs <= 0.5x record (${activeUsd} vs ${recordUsd})`);
  check(usages[0].cache_creation_input_tokens > 0, 'turn 1 writes the prefix');
  for (let i = 1; i < usages.length; i++) check(usages[i].cache_read_input_tokens > 0, `turn ${i + 1} reads the cache ${JSON.stringify(usages[i])}`);
  for (const r of mock.modelRequests()) {
    const n = (JSON.stringify(r.json).match(/"cache_control"/g) || []).length;
    check(n >= 1 && n <= 4, `upstream body has 1..4 breakpoints (${n})`);
  }
  // OpenAI: a stable prompt_cache_key per session, cached tokens on turn 2.
  const openai = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
  const messages = [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'Summarize the build.' }];
  mock.enqueue({ text: 'first' }, { text: 'second' });
  const from = mock.modelRequests().length;
  await openai.chat.completions.create({ model: 'gpt-4.1', messages });
  const c2 = await openai.chat.completions.create({ model: 'gpt-4.1', messages: [...messages, { role: 'assistant', content: 'first' }, { role: 'user', content: 'More.' }] });
  const keys = mock.modelRequests().slice(from).map((r) => r.json.prompt_cache_key);
  check(/^cave-[0-9a-f]{16}$/.test(keys[0] || '') && keys[0] === keys[1], `one prompt_cache_key per session: ${keys}`);
  check(c2.usage.prompt_tokens_details.cached_tokens > 0, `chat turn 2 cached ${c2.usage.prompt_tokens_details.cached_tokens}`);
});

// recommend / shadow / canary: exact bytes unless the canary picks the session.
for (const [mode, yaml, expectExact, idPrefix] of [
  ['recommend', '', true, 'recommend:'],
  ['shadow', '', true, 'shadow:'],
  ['canary', 'canary:\n  percent: 0\n', true, null],
  ['canary', 'canary:\n  percent: 100\n', false, ''],
  ['active', 'optimizers:\n  anthropic-cache-breakpoints: false\n', true, null],
]) {
  await withProxy(mode, yaml, async (proxy, mock) => {
    const log = [];
    await anthropicSession(proxy, mock, 1, log);
    const sent = log[0].requestBody;
    const got = mock.modelRequests()[0].body;
    // Compressing modes send the caveman_retrieve tool whenever the request may be cached (a
    // stable prefix: canary 100% adds breakpoints). With the planner off, this SDK request has
    // no cache_control, is never cached and has nothing to compress: its bytes go unchanged.
    check((Buffer.compare(sent, got) === 0) === expectExact, `${mode} ${yaml.trim()}: upstream bytes ${expectExact ? 'exact' : 'changed'}`);
    const breakpoints = (got.toString().match(/"cache_control"/g) || []).length;
    if (idPrefix === null) check(breakpoints === 0, `${mode} ${yaml.trim()}: no breakpoint added (${breakpoints})`);
    await proxy.stop();
    const [row] = recentRows(proxy.home);
    const ids = row.optimization_ids || '';
    if (idPrefix === null) check(!ids.includes('anthropic-cache-breakpoints'), `${mode}: no optimizer (${ids})`);
    else check(ids.split(',').includes(`${idPrefix}anthropic-cache-breakpoints`), `${mode}: optimization_ids ${ids}`);
    if (mode === 'canary') check(row.runtime_mode === (expectExact ? 'canary/record' : 'canary/active'), `canary runtime_mode ${row.runtime_mode}`);
  });
}

// Record-mode estimate vs a compress-mode run of the same request.
const bigLog = Array.from({ length: 600 }, (_, i) => `2025-06-24 14:36:${10 + (i % 50)} INFO worker-${i % 7} processed batch ${i} in 12ms status=ok`).join('\n') +
  '\n2025-06-24 14:40:01 ERROR worker-3 batch 217 failed: disk quota exceeded\n';
const estimateBody = { model: 'claude-sonnet-4-6', max_tokens: 64, messages: [
  { role: 'user', content: 'why did the batch fail?' },
  { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'run', input: { cmd: 'cat log' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: bigLog }, { type: 'text', text: 'why did batch 217 fail?' }] }] };
const rowsOf = async (mode, env) => withProxy(mode, '', async (proxy, mock) => {
  mock.enqueue({ text: 'disk quota' });
  const client = new Anthropic({ baseURL: proxy.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  await client.messages.create(estimateBody);
  await proxy.stop();
  return recentRows(proxy.home);
}, env);
const [recordRow] = await rowsOf('record');
const [compressRow] = await rowsOf('compress', { CAVEMAN_RECOVERY: 'mcp' });
const removed = compressRow.compression_tokens_before - compressRow.compression_tokens_after;
console.log(`estimate: record would_save_tokens ${recordRow.would_save_tokens} ($${recordRow.would_save_usd}), compress removed ${removed}`);
check(recordRow.would_save_tokens > 0, `record row has an estimate (${recordRow.would_save_tokens})`);
check(recordRow.would_save_tokens === removed, `estimate ${recordRow.would_save_tokens} == compress removed ${removed}`);
check(Math.abs(recordRow.would_save_usd - removed * 3e-6) < 1e-12, `would_save_usd at the input price (${recordRow.would_save_usd})`);

finish('e2e_proxy_cost_modes');
