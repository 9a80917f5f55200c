// Prompt-cache lifetimes on the stand-in's virtual clock (issue 37, acceptance 1): lapse and
// refresh of Anthropic's 5-minute and 1-hour entries, their dollars, keepalive requests billed
// as the provider bills them (a read of the prefix + the smallest output), and OpenAI's
// retention policies (24h / in_memory, per model). Sources and dates: docs/economics.md,
// "Prompt-cache lifetimes". o200k counts: ' cat'.repeat(n) is exactly n tokens.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  MINUTE_MS, PRICES, billAnthropic, billOpenAI, createBiller, createVirtualClock, keepaliveRequest, price,
} from '../lib/billing.mjs';
import { startMockUpstream } from '../lib/mock_upstream.mjs';

const SECOND_MS = 1000;
const HOUR_MS = 60 * MINUTE_MS;
const words = (n, w = ' cat') => w.repeat(n);
const close = (a, b, what = '') => assert.ok(Math.abs(a - b) < 1e-12, `${what} ${a} != ${b}`);
const cc5m = { type: 'ephemeral' };
const cc1h = { type: 'ephemeral', ttl: '1h' };
const SONNET = 'claude-sonnet-4-6';
const rate = PRICES.anthropic.models[SONNET]; // USD per million tokens
const PREFIX = 3000; // tokens up to the breakpoint

// A Messages body whose 3,000-token system block carries the breakpoint, then a question.
const ask = (q, cc = cc5m) => ({
  model: SONNET, max_tokens: 256,
  system: [{ type: 'text', text: words(PREFIX), cache_control: cc }],
  messages: [{ role: 'user', content: words(10, q) }],
});

// One account on a virtual clock.
function account() {
  const clock = createVirtualClock();
  const cache = new Map();
  return {
    clock,
    bill: (body, output = 5) => {
      const usage = billAnthropic(cache, body, output, clock.now());
      return { usage, usd: price(usage, body.model).usd };
    },
  };
}

describe('Anthropic 5-minute lifetime on the virtual clock', () => {
  test('the first request writes the prefix at 1.25x input', () => {
    const { usage, usd } = account().bill(ask(' dog'));
    assert.equal(usage.cache_creation.ephemeral_5m_input_tokens, PREFIX);
    close(usd.cache_write_5m, (PREFIX * rate.input * 1.25) / 1e6, '5m write');
  });

  test('a hit at 4m59s reads at 0.1x and refreshes: a request 4m59s after that hit still reads', () => {
    const a = account();
    a.bill(ask(' dog'));
    a.clock.advance(4 * MINUTE_MS + 59 * SECOND_MS);
    const hit = a.bill(ask(' bird'));
    assert.equal(hit.usage.cache_read_input_tokens, PREFIX);
    assert.equal(hit.usage.cache_creation_input_tokens, 0);
    close(hit.usd.cache_read, (PREFIX * rate.input * 0.1) / 1e6, 'read');
    a.clock.advance(4 * MINUTE_MS + 59 * SECOND_MS); // 9m58s after the write, past its first expiry
    assert.equal(a.bill(ask(' cow')).usage.cache_read_input_tokens, PREFIX, 'the hit refreshed the lifetime');
  });

  test('a request 5m01s after the last hit writes the whole prefix again at 1.25x', () => {
    const a = account();
    a.bill(ask(' dog'));
    a.clock.advance(4 * MINUTE_MS + 59 * SECOND_MS);
    a.bill(ask(' bird')); // the last hit
    a.clock.advance(5 * MINUTE_MS + 1 * SECOND_MS);
    const lapsed = a.bill(ask(' cow'));
    assert.equal(lapsed.usage.cache_read_input_tokens, 0);
    assert.equal(lapsed.usage.cache_creation.ephemeral_5m_input_tokens, PREFIX);
    close(lapsed.usd.cache_write_5m, (PREFIX * rate.input * 1.25) / 1e6, 're-write');
    // The lapse costs 12.5x the read it replaced.
    close(lapsed.usd.cache_write_5m / ((PREFIX * rate.cache_read) / 1e6), 12.5, 'ratio');
  });

  test('the lifetime ends exactly at write/hit time + 5 minutes', () => {
    const a = account();
    a.bill(ask(' dog'));
    a.clock.advance(5 * MINUTE_MS - 1);
    assert.equal(a.bill(ask(' bird')).usage.cache_read_input_tokens, PREFIX);
    const b = account();
    b.bill(ask(' dog'));
    b.clock.advance(5 * MINUTE_MS);
    assert.equal(b.bill(ask(' bird')).usage.cache_read_input_tokens, 0);
  });
});

describe('Anthropic 1-hour lifetime', () => {
  test('a 1h write is priced at 2x input and is read at 0.1x after a 30-minute pause', () => {
    const a = account();
    const first = a.bill(ask(' dog', cc1h));
    assert.deepEqual(first.usage.cache_creation, { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: PREFIX });
    close(first.usd.cache_write_1h, (PREFIX * rate.input * 2) / 1e6, '1h write');
    close(first.usd.cache_write_1h, (PREFIX * rate.cache_write_1h) / 1e6, 'table rate');
    a.clock.advance(30 * MINUTE_MS);
    const later = a.bill(ask(' bird', cc1h));
    assert.equal(later.usage.cache_read_input_tokens, PREFIX);
    assert.equal(later.usage.cache_creation_input_tokens, 0);
  });

  test('the same 30-minute pause lapses a 5m entry: prefix billed 1.25x + 1.25x against 2x + 0.1x', () => {
    const five = account();
    const one = account();
    const w5 = five.bill(ask(' dog')).usd;
    const w1 = one.bill(ask(' dog', cc1h)).usd;
    five.clock.advance(30 * MINUTE_MS);
    one.clock.advance(30 * MINUTE_MS);
    const r5 = five.bill(ask(' bird'));
    const r1 = one.bill(ask(' bird', cc1h));
    assert.equal(r5.usage.cache_creation.ephemeral_5m_input_tokens, PREFIX);
    assert.equal(r1.usage.cache_read_input_tokens, PREFIX);
    const prefixUsd = (m) => (PREFIX * rate.input * m) / 1e6;
    close(w5.cache_write_5m + r5.usd.cache_write_5m, prefixUsd(2.5), '5m: two writes');
    close(w1.cache_write_1h + r1.usd.cache_read, prefixUsd(2.1), '1h: one write, one read');
    assert.ok(w1.total + r1.usd.total < w5.total + r5.usd.total, 'the 1h entry is cheaper over a 30-minute pause');
  });

  test('a 1h entry lapses 60 minutes after its last hit; a hit at 45 minutes refreshes it', () => {
    const a = account();
    a.bill(ask(' dog', cc1h));
    a.clock.advance(45 * MINUTE_MS);
    assert.equal(a.bill(ask(' bird', cc1h)).usage.cache_read_input_tokens, PREFIX);
    a.clock.advance(59 * MINUTE_MS + 59 * SECOND_MS); // 1h44m59s after the write
    assert.equal(a.bill(ask(' cow', cc1h)).usage.cache_read_input_tokens, PREFIX);
    a.clock.advance(60 * MINUTE_MS + 1 * SECOND_MS);
    const lapsed = a.bill(ask(' ant', cc1h));
    assert.equal(lapsed.usage.cache_creation.ephemeral_1h_input_tokens, PREFIX);
    close(lapsed.usd.cache_write_1h, (PREFIX * rate.input * 2) / 1e6, '1h re-write');
  });

  test('mixed TTLs: 1h writes up to the last 1h breakpoint past the read point, 5m writes after it', () => {
    const a = account();
    const body = (q) => ({
      model: SONNET, max_tokens: 256,
      system: [{ type: 'text', text: words(PREFIX), cache_control: cc1h }],
      messages: [{ role: 'user', content: [{ type: 'text', text: words(500, ' dog'), cache_control: cc5m }] },
        { role: 'assistant', content: 'ok' }, { role: 'user', content: words(10, q) }],
    });
    const first = a.bill(body(' bird'));
    assert.deepEqual(first.usage.cache_creation, { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: PREFIX });
    close(first.usd.cache_write_1h + first.usd.cache_write_5m, (PREFIX * rate.input * 2 + 500 * rate.input * 1.25) / 1e6);
    a.clock.advance(30 * MINUTE_MS);
    const later = a.bill(body(' cow'));
    assert.equal(later.usage.cache_read_input_tokens, PREFIX, 'the 1h system entry is read');
    assert.deepEqual(later.usage.cache_creation, { ephemeral_5m_input_tokens: 500, ephemeral_1h_input_tokens: 0 });
  });
});

describe('keepalive requests through the stand-in (HTTP, virtual clock)', () => {
  let mock;
  let biller;
  before(async () => {
    biller = createBiller({ clock: createVirtualClock(Date.parse('2026-12-01T10:00:00Z')) });
    mock = await startMockUpstream({ billing: biller, eventDelayMs: 0 });
  });
  after(() => mock.close());

  const post = async (path, body, headers = {}) => {
    const r = await fetch(mock.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: r.status, json: await r.json() };
  };
  // A growing session: tools + system + history, the breakpoint on the last block (as Claude Code does).
  // Turn n appends an answer and a question to turn n-1, so turn n-1's prompt is its prefix.
  const session = (turns) => ({
    model: SONNET, max_tokens: 32000,
    system: [{ type: 'text', text: words(PREFIX), cache_control: cc5m }],
    messages: Array.from({ length: turns }, (_, i) => [
      i > 0 ? { role: 'assistant', content: words(50, ` a${i}`) } : null,
      { role: 'user', content: [{ type: 'text', text: words(200, ` q${i}`), ...(i === turns - 1 ? { cache_control: cc5m } : {}) }] },
    ]).flat().filter(Boolean),
  });
  const promptTokens = (u) => u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;

  test('a keepalive (same prefix, max_tokens 1) is billed as a read of the prefix + 1 output token, and refreshes it', async () => {
    const turn = session(3);
    const first = await post('/v1/messages', turn);
    assert.equal(first.status, 200);
    const prompt = promptTokens(first.json.usage);
    assert.equal(first.json.usage.cache_creation_input_tokens, prompt);

    const ka = keepaliveRequest('anthropic', turn);
    assert.equal(ka.max_tokens, 1);
    const ping = await post('/v1/messages', ka, { 'x-mock-idle-ms': String(4 * MINUTE_MS + 30 * SECOND_MS) });
    assert.equal(ping.status, 200);
    assert.equal(ping.json.stop_reason, 'max_tokens');
    assert.deepEqual({ read: ping.json.usage.cache_read_input_tokens, written: ping.json.usage.cache_creation_input_tokens,
      input: ping.json.usage.input_tokens, output: ping.json.usage.output_tokens }, { read: prompt, written: 0, input: 0, output: 1 });
    const usd = price(ping.json.usage, SONNET).usd;
    close(usd.total, (prompt * rate.cache_read + 1 * rate.output) / 1e6, 'keepalive dollars');

    // The next turn 4m30s after the ping (9 minutes after the first write) still reads it all.
    const next = await post('/v1/messages', session(4), { 'x-mock-idle-ms': String(4 * MINUTE_MS + 30 * SECOND_MS) });
    assert.equal(next.json.usage.cache_read_input_tokens, prompt);
  });

  test('without the keepalive the same pause re-writes the prefix: the ping costs less than the write it avoids', async () => {
    const other = createBiller({ clock: createVirtualClock() });
    const m = await startMockUpstream({ billing: other, eventDelayMs: 0 });
    try {
      const send = async (body, idle) => (await fetch(m.url + '/v1/messages', { method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mock-idle-ms': String(idle) }, body: JSON.stringify(body) })).json();
      const w = await send(session(3), 0);
      const next = await send(session(4), 9 * MINUTE_MS);
      assert.equal(next.usage.cache_read_input_tokens, 0);
      const prompt = promptTokens(w.usage);
      assert.ok(next.usage.cache_creation_input_tokens >= prompt);
      const rewrite = (prompt * rate.cache_write_5m) / 1e6;
      const ping = (prompt * rate.cache_read + rate.output) / 1e6;
      assert.ok(ping < rewrite / 10, `ping ${ping} vs re-write ${rewrite}`);
    } finally {
      await m.close();
    }
  });

  test('POST /mock/clock advances the virtual clock; the mock and the biller agree', async () => {
    const t0 = biller.clock.now();
    const r = await post('/mock/clock', { advance_ms: 6 * MINUTE_MS });
    assert.deepEqual(r, { status: 200, json: { now_ms: t0 + 6 * MINUTE_MS } });
    mock.advance(MINUTE_MS);
    assert.equal(biller.clock.now(), t0 + 7 * MINUTE_MS);
    assert.equal(biller.live('anthropic').length, 0, 'seven idle minutes: every 5m entry has lapsed');
    assert.equal((await post('/mock/clock', { advance_ms: -1 })).status, 400);
  });

  test('a streamed keepalive reports the same usage in message_delta', async () => {
    const turn = session(2);
    await post('/v1/messages', turn);
    const r = await fetch(mock.url + '/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-idle-ms': '60000' },
      body: JSON.stringify({ ...keepaliveRequest('anthropic', turn), stream: true }) });
    const text = await r.text();
    const delta = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6))).find((e) => e.type === 'message_delta');
    assert.equal(delta.delta.stop_reason, 'max_tokens');
    assert.equal(delta.usage.output_tokens, 1);
    assert.equal(delta.usage.cache_creation_input_tokens, 0);
    assert.ok(delta.usage.cache_read_input_tokens > PREFIX);
  });

  test('with extended thinking the keepalive keeps the thinking settings and asks for budget + 1 tokens', () => {
    const ka = keepaliveRequest('anthropic', { ...session(1), stream: true, thinking: { type: 'enabled', budget_tokens: 2048 } });
    assert.equal(ka.max_tokens, 2049);
    assert.deepEqual(ka.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.equal(ka.stream, undefined);
  });

  test('OpenAI keepalives: Chat Completions max_completion_tokens 1 (finish_reason length); Responses needs 16', async () => {
    const chat = { model: 'gpt-4.1', messages: [{ role: 'system', content: words(3000) }, { role: 'user', content: 'hi' }] };
    const first = await post('/v1/chat/completions', chat);
    const ka = keepaliveRequest('chat', { ...chat, max_tokens: 500 });
    assert.deepEqual([ka.max_completion_tokens, ka.max_tokens], [1, undefined]);
    const ping = await post('/v1/chat/completions', ka, { 'x-mock-idle-ms': String(4 * MINUTE_MS) });
    assert.equal(ping.json.choices[0].finish_reason, 'length');
    assert.equal(ping.json.usage.completion_tokens, 1);
    assert.equal(ping.json.usage.prompt_tokens, first.json.usage.prompt_tokens);
    assert.equal(ping.json.usage.prompt_tokens_details.cached_tokens, 1024 + 128 * Math.floor((first.json.usage.prompt_tokens - 1024) / 128));

    const resp = { model: 'gpt-4.1', instructions: words(3000), input: 'hi' };
    assert.equal(keepaliveRequest('responses', resp).max_output_tokens, 16);
    const tooSmall = await post('/v1/responses', { ...resp, max_output_tokens: 1 });
    assert.equal(tooSmall.status, 400);
    assert.equal(tooSmall.json.error.code, 'integer_below_min_value');
    const ok = await post('/v1/responses', keepaliveRequest('responses', resp));
    assert.equal(ok.status, 200);
    assert.ok(ok.json.usage.output_tokens <= 16);
  });
});

describe('OpenAI retention on the virtual clock', () => {
  const PAUSE = 2 * HOUR_MS;
  const body = (model, retention) => ({ model, messages: [{ role: 'system', content: words(3000) }, { role: 'user', content: 'hi' }],
    ...(retention ? { prompt_cache_retention: retention } : {}) });
  function openai({ zdr = false } = {}) {
    const cache = new Map();
    const clock = createVirtualClock();
    return { clock, chat: (b) => billOpenAI(cache, 'chat', b, 3, clock.now(), { zdr }) };
  }
  const cachedAfter = (a, b, pause) => {
    a.chat(b);
    a.clock.advance(pause);
    return a.chat(b).prompt_tokens_details.cached_tokens;
  };

  test('"24h" on a supporting model: still cached after a 2-hour pause, and read at the cached rate', () => {
    for (const model of ['gpt-4.1', 'gpt-5', 'gpt-5.1', 'gpt-5.4']) {
      const a = openai();
      const cached = cachedAfter(a, body(model, '24h'), PAUSE);
      assert.ok(cached >= 1024, model);
      const row = PRICES.openai.models[model];
      const u = a.chat(body(model, '24h'));
      close(price(u, model).usd.cache_read, (u.prompt_tokens_details.cached_tokens * row.cache_read) / 1e6, model);
    }
  });

  test('"24h" entries lapse after 24 idle hours; a hit refreshes them', () => {
    const a = openai();
    const b = body('gpt-4.1', '24h');
    a.chat(b);
    a.clock.advance(23 * HOUR_MS);
    assert.ok(a.chat(b).prompt_tokens_details.cached_tokens > 0);
    a.clock.advance(23 * HOUR_MS);
    assert.ok(a.chat(b).prompt_tokens_details.cached_tokens > 0, '46 hours after the write, 23 after the hit');
    a.clock.advance(24 * HOUR_MS);
    assert.equal(a.chat(b).prompt_tokens_details.cached_tokens, 0);
  });

  test('"in_memory": lapses after 5 idle minutes (the low end of the documented 5-10), so a 2-hour pause misses', () => {
    assert.equal(cachedAfter(openai(), body('gpt-4.1', 'in_memory'), PAUSE), 0);
    assert.equal(cachedAfter(openai(), body('gpt-4.1', 'in_memory'), 5 * MINUTE_MS + SECOND_MS), 0);
    assert.ok(cachedAfter(openai(), body('gpt-4.1', 'in_memory'), 4 * MINUTE_MS + 59 * SECOND_MS) > 0);
  });

  test('no retention given: 24h on a model that offers it (organisation without ZDR), in_memory with ZDR', () => {
    assert.ok(cachedAfter(openai(), body('gpt-4.1'), PAUSE) > 0);
    assert.equal(cachedAfter(openai({ zdr: true }), body('gpt-4.1'), PAUSE), 0);
    assert.ok(cachedAfter(openai({ zdr: true }), body('gpt-4.1', '24h'), PAUSE) > 0, 'asked for explicitly');
  });

  test('a model without extended retention: in_memory by default, "24h" is the API\'s 400', () => {
    assert.equal(cachedAfter(openai(), body('gpt-4.1-mini'), PAUSE), 0);
    assert.equal(cachedAfter(openai(), body('gpt-5-mini'), PAUSE), 0);
    assert.throws(() => openai().chat(body('gpt-4.1-mini', '24h')), (e) => e.status === 400
      && e.body.error.param === 'prompt_cache_retention' && /not supported on this model/.test(e.message));
  });

  test('gpt-5.5 offers only 24h: the default keeps the prefix over the pause, "in_memory" is a 400', () => {
    assert.ok(cachedAfter(openai(), body('gpt-5.5'), PAUSE) > 0);
    assert.throws(() => openai().chat(body('gpt-5.5', 'in_memory')), { status: 400 });
  });

  test('over HTTP the mock answers the 400 and bills a supported retention', async () => {
    const mock = await startMockUpstream({ billing: createBiller({ clock: createVirtualClock() }), eventDelayMs: 0 });
    try {
      const send = async (b, idle = 0) => {
        const r = await fetch(`${mock.url}/v1/chat/completions`, { method: 'POST',
          headers: { 'content-type': 'application/json', 'x-mock-idle-ms': String(idle) }, body: JSON.stringify(b) });
        return { status: r.status, json: await r.json() };
      };
      const refused = await send(body('gpt-4.1-mini', '24h'));
      assert.equal(refused.status, 400);
      assert.equal(refused.json.error.message, 'prompt_cache_retention is not supported on this model');
      await send(body('gpt-4.1', '24h'));
      const later = await send(body('gpt-4.1', '24h'), PAUSE);
      assert.ok(later.json.usage.prompt_tokens_details.cached_tokens >= 1024);
    } finally {
      await mock.close();
    }
  });
});

describe('virtual clock', () => {
  test('moves only when told to, never backwards', () => {
    const c = createVirtualClock(100);
    assert.equal(c.now(), 100);
    assert.equal(c.advance(50), 150);
    assert.throws(() => c.advance(-1), RangeError);
    assert.throws(() => c.advance(Number.NaN), RangeError);
  });

  test('standalone: node mock_upstream.mjs --billing --virtual-clock serves POST /mock/clock', async () => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('../lib/mock_upstream.mjs', import.meta.url)), '--billing', '--virtual-clock'],
      { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const port = await new Promise((resolve, reject) => {
        child.stdout.once('data', (d) => resolve(Number(String(d).trim())));
        child.once('exit', (code) => reject(new Error(`mock exited ${code}`)));
      });
      const clock = async (ms) => (await fetch(`http://127.0.0.1:${port}/mock/clock`, { method: 'POST', body: JSON.stringify({ advance_ms: ms }) })).json();
      const t0 = (await clock(0)).now_ms;
      assert.equal((await clock(HOUR_MS)).now_ms, t0 + HOUR_MS);
    } finally {
      child.kill('SIGTERM');
    }
  });

  test('a biller on wall time refuses advance(); the mock refuses x-mock-idle-ms without a virtual clock', async () => {
    assert.throws(() => createBiller().advance(1000), /virtual clock/);
    const mock = await startMockUpstream({ billing: true, eventDelayMs: 0 });
    try {
      const r = await fetch(`${mock.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-idle-ms': '1000' },
        body: JSON.stringify(ask(' dog')) });
      assert.equal(r.status, 409);
      await r.body?.cancel();
    } finally {
      await mock.close();
    }
  });
});
