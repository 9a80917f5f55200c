// Acceptance 1 (issue 8): the real @anthropic-ai/sdk and openai SDKs through caveman-proxy in
// record mode. Every call succeeds; the mock upstream received exactly the bytes each SDK
// sent and each SDK received exactly the bytes the mock sent (JSON and SSE); caveman.db has
// one usage row per call carrying the mock's token numbers.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { check, finish } from '../lib/harness.mjs';
import { providersYaml, recentRows, recordingFetch, startProxy } from './harness.mjs';
import { USAGE, startMockUpstream } from '../lib/mock_upstream.mjs';

const mock = await startMockUpstream();
const proxy = await startProxy({ yaml: providersYaml(mock.url) });
const sdkLog = [];
const anthropic = new Anthropic({ baseURL: proxy.url, apiKey: 'sk-ant-test-key', fetch: recordingFetch(sdkLog), maxRetries: 0 });
const openai = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'sk-test-key', fetch: recordingFetch(sdkLog), maxRetries: 0 });

const calls = [];
async function call(name, provider, fn) {
  const before = mock.requests.length;
  try {
    const result = await fn();
    calls.push({ name, provider, upstream: mock.requests[before], sdk: sdkLog[sdkLog.length - 1], result });
    console.log(`PASS ${name}`);
  } catch (e) {
    check(false, `${name} threw: ${e.stack || e}`);
  }
}

const user = [{ role: 'user', content: 'Say hello. ' + 'x'.repeat(2000) }];
await call('anthropic messages.create', 'anthropic', async () => {
  const m = await anthropic.messages.create({ model: 'claude-mock', max_tokens: 64, messages: user });
  check(m.content[0].text === 'Hello from the mock upstream', 'anthropic JSON text');
  return m;
});
await call('anthropic messages.create stream', 'anthropic', async () => {
  const stream = await anthropic.messages.create({ model: 'claude-mock', max_tokens: 64, messages: user, stream: true });
  const types = [];
  for await (const ev of stream) types.push(ev.type);
  check(types.join(',') === 'message_start,content_block_start,content_block_delta,content_block_delta,content_block_stop,message_delta,message_stop',
    `anthropic stream events: ${types}`);
  return types;
});
await call('anthropic messages.stream().finalMessage()', 'anthropic', async () => {
  const m = await anthropic.messages.stream({ model: 'claude-mock', max_tokens: 64, messages: user }).finalMessage();
  check(m.content[0].text === 'Hello from the mock upstream', 'anthropic finalMessage text');
  check(m.usage.output_tokens === USAGE.anthropic.output_tokens, 'anthropic finalMessage usage');
  return m;
});
await call('openai chat.completions.create', 'openai', async () => {
  const c = await openai.chat.completions.create({ model: 'gpt-mock', messages: user });
  check(c.choices[0].message.content === 'Hello from the mock upstream', 'chat JSON text');
  return c;
});
await call('openai chat stream include_usage', 'openai', async () => {
  const stream = await openai.chat.completions.create({ model: 'gpt-mock', messages: user, stream: true, stream_options: { include_usage: true } });
  let text = '';
  let usage = null;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content || '';
    if (chunk.usage) usage = chunk.usage;
  }
  check(text === 'Hello from the mock upstream', `chat stream text: ${text}`);
  check(usage && usage.prompt_tokens === USAGE.chat.prompt_tokens, 'chat stream usage chunk');
  return text;
});
await call('openai responses.create', 'openai', async () => {
  const r = await openai.responses.create({ model: 'gpt-mock', input: 'Say hello' });
  check(r.output_text === 'Hello from the mock upstream', `responses output_text: ${r.output_text}`);
  return r;
});
await call('openai responses stream', 'openai', async () => {
  const stream = await openai.responses.create({ model: 'gpt-mock', input: 'Say hello', stream: true });
  const types = [];
  for await (const ev of stream) types.push(ev.type);
  check(types[types.length - 1] === 'response.completed', `responses stream events: ${types}`);
  return types;
});

// Byte identity both ways.
check(calls.length === 7, `7 SDK calls succeeded (got ${calls.length})`);
for (const c of calls) {
  check(c.upstream && c.sdk, `${c.name}: upstream and SDK records exist`);
  if (!c.upstream || !c.sdk) continue;
  check(Buffer.compare(c.upstream.body, c.sdk.requestBody) === 0,
    `${c.name}: upstream received the SDK's exact bytes (${c.upstream.body.length} vs ${c.sdk.requestBody.length})`);
  const got = await c.sdk.responseBytes;
  const sent = mock.responseBytes(c.upstream);
  check(Buffer.compare(got, sent) === 0, `${c.name}: SDK received the mock's exact bytes (${got.length} vs ${sent.length})`);
  check(c.sdk.headers.get('x-cave-mode') === 'record', `${c.name}: x-cave-mode header`);
  check(/^[0-9a-f-]{36}$/.test(c.sdk.headers.get('x-cave-request-id') || ''), `${c.name}: x-cave-request-id`);
  // Credentials exactly as the SDK sent them; Bearer stays Bearer.
  check(c.upstream.headers.authorization === `Bearer ${c.provider === 'anthropic' ? 'sk-ant-test-key' : 'sk-test-key'}`,
    `${c.name}: Authorization forwarded verbatim`);
  check(c.upstream.headers['x-api-key'] === undefined, `${c.name}: no x-api-key invented`);
}

const { code } = await proxy.stop();
check(code === 0, `proxy exits 0 on SIGTERM (got ${code})`);
const rows = recentRows(proxy.home).reverse();
check(rows.length === 7, `7 usage rows (got ${rows.length})`);
const expected = [
  ['anthropic', false, USAGE.anthropic.input_tokens, USAGE.anthropic.output_tokens, USAGE.anthropic.cache_read_input_tokens, USAGE.anthropic.cache_creation_input_tokens],
  ['anthropic', true, USAGE.anthropic.input_tokens, USAGE.anthropic.output_tokens, USAGE.anthropic.cache_read_input_tokens, USAGE.anthropic.cache_creation_input_tokens],
  ['anthropic', true, USAGE.anthropic.input_tokens, USAGE.anthropic.output_tokens, USAGE.anthropic.cache_read_input_tokens, USAGE.anthropic.cache_creation_input_tokens],
  ['openai', false, USAGE.chat.prompt_tokens, USAGE.chat.completion_tokens, USAGE.chat.prompt_tokens_details.cached_tokens, null],
  ['openai', true, USAGE.chat.prompt_tokens, USAGE.chat.completion_tokens, USAGE.chat.prompt_tokens_details.cached_tokens, null],
  ['openai', false, USAGE.responses.input_tokens, USAGE.responses.output_tokens, USAGE.responses.input_tokens_details.cached_tokens, null],
  ['openai', true, USAGE.responses.input_tokens, USAGE.responses.output_tokens, USAGE.responses.input_tokens_details.cached_tokens, null],
];
rows.forEach((row, i) => {
  const [provider, stream, input, output, cacheRead, cacheWrite] = expected[i] || [];
  const label = `row ${i} (${calls[i]?.name})`;
  check(row.provider === provider, `${label}: provider ${row.provider}`);
  check(Boolean(row.stream) === stream, `${label}: stream ${row.stream}`);
  check(row.status_code === 200, `${label}: status ${row.status_code}`);
  check(row.input_tokens === input, `${label}: input_tokens ${row.input_tokens} want ${input}`);
  check(row.output_tokens === output, `${label}: output_tokens ${row.output_tokens} want ${output}`);
  check(row.cached_input_tokens === cacheRead, `${label}: cached_input_tokens ${row.cached_input_tokens} want ${cacheRead}`);
  check(row.cache_creation_input_tokens === cacheWrite, `${label}: cache_creation ${row.cache_creation_input_tokens} want ${cacheWrite}`);
  check(row.token_usage_basis === 'provider_complete', `${label}: basis ${row.token_usage_basis}`);
  check(row.basis === 'inferred', `${label}: evidence basis`);
  check(row.auth_mode === 'payg', `${label}: auth_mode ${row.auth_mode}`);
});
await mock.close();
finish('caveman-proxy record mode with the Anthropic and OpenAI SDKs');
