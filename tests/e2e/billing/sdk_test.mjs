// The billing stand-in over loopback with the real SDKs: @anthropic-ai/sdk and openai talk to
// the mock upstream started with a biller (test clock), streamed and not. The usage each SDK
// reports is the usage the cache model computes for the exact request bodies the mock received
// (replayed through a second, independent biller), and it shows the cache working: turn 2
// reads what turn 1 wrote.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { MINUTE_MS, countTokens, createBiller } from '../lib/billing.mjs';
import { USAGE, startMockUpstream } from '../lib/mock_upstream.mjs';

const words = (n, w = ' cat') => w.repeat(n);
const cc = { type: 'ephemeral' };

let clock = 0;
let mock;
let anthropic;
let openai;
before(async () => {
  mock = await startMockUpstream({ billing: createBiller({ now: () => clock }), eventDelayMs: 0 });
  anthropic = new Anthropic({ baseURL: mock.url, apiKey: 'sk-ant-test', maxRetries: 0 });
  openai = new OpenAI({ baseURL: `${mock.url}/v1`, apiKey: 'sk-test', maxRetries: 0 });
});
after(() => mock.close());

// The usage the model gives for the model requests the mock saw (from `from` on), replayed
// in order on a fresh biller with the same clock readings.
function replay(from, times) {
  let t = 0;
  const fresh = createBiller({ now: () => t });
  return mock.modelRequests().slice(from).map((r, i) => {
    t = times[i];
    const kind = r.path.endsWith('/v1/messages') ? 'anthropic' : r.path.endsWith('/chat/completions') ? 'chat' : 'responses';
    return fresh.usage(kind, r.json, countTokens(r.reply.text));
  });
}

// Sends each turn at its clock time; returns what the SDK reported and what the model says.
async function session(turns) {
  const from = mock.modelRequests().length;
  const times = [];
  const reported = [];
  for (const { at, send } of turns) {
    clock = at;
    times.push(at);
    reported.push(await send());
  }
  return { reported, expected: replay(from, times) };
}

describe('Anthropic Messages through @anthropic-ai/sdk', () => {
  const system = [{ type: 'text', text: words(3000), cache_control: cc }];
  const body = (q) => ({ model: 'claude-sonnet-4-6', max_tokens: 64, system,
    messages: [{ role: 'user', content: [{ type: 'text', text: q, cache_control: cc }] }] });

  test('JSON: usage matches the model; turn 2 reads the system prompt turn 1 wrote', async () => {
    mock.enqueue({ text: 'first answer' }, { text: 'second answer here' });
    const { reported, expected } = await session([
      { at: 0, send: async () => (await anthropic.messages.create(body(' why json one'))).usage },
      { at: 2 * MINUTE_MS, send: async () => (await anthropic.messages.create(body(' why json two'))).usage },
    ]);
    assert.deepEqual(reported, expected);
    assert.equal(reported[0].cache_creation_input_tokens, 3000 + countTokens(' why json one'));
    assert.equal(reported[1].cache_read_input_tokens, 3000);
    assert.equal(reported[1].output_tokens, countTokens('second answer here'));
  });

  test('SSE: message_start carries the input side, the final message the whole usage', async () => {
    mock.enqueue({ text: 'streamed one' }, { text: 'streamed two' });
    const starts = [];
    const { reported, expected } = await session([
      { at: 100 * MINUTE_MS, send: async () => {
        const stream = await anthropic.messages.create({ ...body(' sse one'), stream: true });
        for await (const ev of stream) if (ev.type === 'message_start') starts.push(ev.message.usage);
        return null;
      } },
      { at: 101 * MINUTE_MS, send: async () => (await anthropic.messages.stream(body(' sse two')).finalMessage()).usage },
    ]);
    for (const key of ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']) {
      assert.equal(starts[0][key], expected[0][key], key);
    }
    assert.equal(starts[0].cache_read_input_tokens, 0, 'the 5-minute entry from the JSON test expired');
    assert.deepEqual(reported[1], expected[1]);
    assert.equal(reported[1].cache_read_input_tokens, expected[0].cache_creation_input_tokens - countTokens(' sse one'));
  });

  test('a 1h breakpoint: the SDK sees the cache_creation split', async () => {
    const long = { ...body(' hour'), system: [{ type: 'text', text: words(2500, ' dog'), cache_control: { type: 'ephemeral', ttl: '1h' } }] };
    clock = 200 * MINUTE_MS;
    const u = (await anthropic.messages.create(long)).usage;
    assert.deepEqual(u.cache_creation, { ephemeral_5m_input_tokens: countTokens(' hour'), ephemeral_1h_input_tokens: 2500 });
    clock += 50 * MINUTE_MS; // the 1h system entry lives, the 5m one on the question is gone
    const later = (await anthropic.messages.create(long)).usage;
    assert.equal(later.cache_read_input_tokens, 2500);
    assert.deepEqual(later.cache_creation, { ephemeral_5m_input_tokens: countTokens(' hour'), ephemeral_1h_input_tokens: 0 });
  });

  test('five breakpoints: the SDK gets the 400 invalid_request_error, and no scripted reply is used', async () => {
    const queued = mock.modelRequests().length;
    const content = Array.from({ length: 5 }, (_, i) => ({ type: 'text', text: `part ${i}`, cache_control: cc }));
    await assert.rejects(anthropic.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content }] }),
      (e) => e.status === 400 && e.error?.error?.type === 'invalid_request_error');
    assert.equal(mock.modelRequests().length, queued);
  });
});

describe('OpenAI through the openai SDK', () => {
  const messages = (q) => [{ role: 'system', content: words(2000) }, { role: 'user', content: q }];

  test('Chat Completions JSON and stream (include_usage): usage matches the model', async () => {
    mock.enqueue({ text: 'chat one' }, { text: 'chat two' });
    const { reported, expected } = await session([
      { at: 300 * MINUTE_MS, send: async () => (await openai.chat.completions.create({ model: 'gpt-4.1', messages: messages('q1') })).usage },
      { at: 301 * MINUTE_MS, send: async () => {
        const stream = await openai.chat.completions.create({ model: 'gpt-4.1', messages: messages('q2'), stream: true,
          stream_options: { include_usage: true } });
        let usage = null;
        for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
        return usage;
      } },
    ]);
    assert.deepEqual(reported, expected);
    assert.equal(reported[0].prompt_tokens_details.cached_tokens, 0);
    assert.ok(reported[1].prompt_tokens_details.cached_tokens >= 1024);
  });

  test('Responses JSON and stream (response.completed): usage matches the model', async () => {
    mock.enqueue({ text: 'resp one' }, { text: 'resp two' });
    const req = (q) => ({ model: 'gpt-5', instructions: words(1800, ' dog'), input: q, prompt_cache_key: 'billing-e2e' });
    const { reported, expected } = await session([
      { at: 400 * MINUTE_MS, send: async () => (await openai.responses.create(req('r1'))).usage },
      { at: 401 * MINUTE_MS, send: async () => {
        const stream = await openai.responses.create({ ...req('r2'), stream: true });
        let usage = null;
        for await (const ev of stream) if (ev.type === 'response.completed') usage = ev.response.usage;
        return usage;
      } },
    ]);
    assert.deepEqual(reported, expected);
    assert.ok(reported[1].input_tokens_details.cached_tokens >= 1024);
  });
});

test('without billing the mock keeps its fixed usage numbers', async () => {
  const plain = await startMockUpstream();
  try {
    const client = new Anthropic({ baseURL: plain.url, apiKey: 'k', maxRetries: 0 });
    const m = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] });
    assert.deepEqual(m.usage, USAGE.anthropic);
    assert.equal(plain.biller, null);
  } finally {
    await plain.close();
  }
});
