// The Anthropic prompt-cache model of tests/e2e/lib/billing.mjs against the documented rules
// (https://platform.claude.com/docs/en/build-with-claude/prompt-caching). Token counts are
// o200k: ' cat'.repeat(n) is exactly n tokens, so every expectation below is plain arithmetic.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MINUTE_MS, billAnthropic, countTokens } from '../lib/billing.mjs';

const words = (n, w = ' cat') => w.repeat(n);
const cc = { type: 'ephemeral' };
const cc1h = { type: 'ephemeral', ttl: '1h' };
const MODEL = 'claude-sonnet-4-6'; // minimum cacheable prompt: 1,024 tokens

// One account: a cache and a clock that only moves when told to.
function account(model = MODEL) {
  const cache = new Map();
  let now = 0;
  return {
    bill: (body, output = 5) => billAnthropic(cache, { model, max_tokens: 64, ...body }, output, now),
    advance: (ms) => (now += ms),
  };
}

const tool = (name, desc) => ({ name, description: desc, input_schema: { type: 'object', properties: {} } });
const toolTokens = (t) => countTokens(JSON.stringify(t));

// A summary of the usage that reads like the documentation's terms.
const billed = (u) => ({ read: u.cache_read_input_tokens, written: u.cache_creation_input_tokens, input: u.input_tokens });

describe('Anthropic prompt cache: hits and misses', () => {
  const system = [{ type: 'text', text: words(2000), cache_control: cc }];
  const ask = (q) => ({ system, messages: [{ role: 'user', content: words(10, q) }] });

  test('the first request writes the prefix up to the breakpoint; input_tokens is what follows', () => {
    const a = account();
    const u = a.bill(ask(' dog'), 7);
    assert.deepEqual(billed(u), { read: 0, written: 2000, input: 10 });
    assert.deepEqual(u.cache_creation, { ephemeral_5m_input_tokens: 2000, ephemeral_1h_input_tokens: 0 });
    assert.equal(u.output_tokens, 7);
  });

  test('the same prefix again is read, whatever follows the breakpoint', () => {
    const a = account();
    a.bill(ask(' dog'));
    a.advance(MINUTE_MS);
    assert.deepEqual(billed(a.bill(ask(' bird'))), { read: 2000, written: 0, input: 10 });
  });

  test('read + written + input is the whole prompt', () => {
    const a = account();
    const u = a.bill({ tools: [tool('t', words(300))], ...ask(' dog') });
    assert.equal(u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens,
      toolTokens(tool('t', words(300))) + 2000 + 10);
  });

  test('a changed tool definition misses: tools come first in the prefix', () => {
    const a = account();
    a.bill({ tools: [tool('read', 'v1')], ...ask(' dog') });
    const u = a.bill({ tools: [tool('read', 'v2')], ...ask(' dog') });
    assert.equal(u.cache_read_input_tokens, 0);
    assert.equal(u.cache_creation_input_tokens, toolTokens(tool('read', 'v2')) + 2000);
  });

  test('a changed system prompt misses', () => {
    const a = account();
    a.bill(ask(' dog'));
    const other = [{ type: 'text', text: words(1999) + ' dog', cache_control: cc }];
    assert.deepEqual(billed(a.bill({ system: other, messages: ask(' dog').messages })), { read: 0, written: 2000, input: 10 });
  });

  test('a changed earlier message misses at the later breakpoint, but the system breakpoint still hits', () => {
    const a = account();
    const turn = (first) => ({ system, messages: [
      { role: 'user', content: words(50, first) },
      { role: 'assistant', content: words(20, ' ok') },
      { role: 'user', content: [{ type: 'text', text: words(30, ' go'), cache_control: cc }] }] });
    a.bill(turn(' dog'));
    assert.deepEqual(billed(a.bill(turn(' dog'))), { read: 2100, written: 0, input: 0 });
    assert.deepEqual(billed(a.bill(turn(' cow'))), { read: 2000, written: 100, input: 0 });
  });

  test('a growing conversation reads the previous turn and writes only the new blocks', () => {
    const a = account();
    const history = [{ role: 'user', content: words(40, ' dog') }];
    const withBreakpointOnLast = (msgs) => msgs.map((m, i) => (i < msgs.length - 1 ? m
      : { ...m, content: [{ type: 'text', text: m.content, cache_control: cc }] }));
    a.bill({ system, messages: withBreakpointOnLast(history) });
    history.push({ role: 'assistant', content: words(15, ' ok') }, { role: 'user', content: words(25, ' go') });
    // The breakpoint moved; cache_control is not content, so the old prefix still matches.
    assert.deepEqual(billed(a.bill({ system, messages: withBreakpointOnLast(history) })), { read: 2040, written: 40, input: 0 });
  });

  test('a string content and a single text block are the same prefix', () => {
    const a = account();
    const msgs = (content) => [{ role: 'user', content }, { role: 'user', content: [{ type: 'text', text: ' hi', cache_control: cc }] }];
    a.bill({ system: words(2000), messages: msgs(words(5, ' dog')) });
    assert.equal(a.bill({ system: [{ type: 'text', text: words(2000) }], messages: msgs([{ type: 'text', text: words(5, ' dog') }]) })
      .cache_read_input_tokens, 2006);
  });

  test('the model is part of the cache: another model misses', () => {
    const cache = new Map();
    const body = (model) => ({ model, ...ask(' dog') });
    billAnthropic(cache, body('claude-sonnet-4-6'), 1, 0);
    assert.equal(billAnthropic(cache, body('claude-opus-4-8'), 1, 0).cache_read_input_tokens, 0);
    assert.equal(billAnthropic(cache, body('claude-sonnet-4-6'), 1, 0).cache_read_input_tokens, 2000);
  });

  test('no breakpoint: everything is input', () => {
    assert.deepEqual(billed(account().bill({ system: words(3000), messages: [{ role: 'user', content: ' hi' }] })),
      { read: 0, written: 0, input: 3001 });
  });

  test('automatic caching (top-level cache_control) puts the breakpoint on the last block', () => {
    const a = account();
    const body = { cache_control: cc, system: words(2000), messages: [{ role: 'user', content: words(10, ' dog') }] };
    assert.deepEqual(billed(a.bill(body)), { read: 0, written: 2010, input: 0 });
    body.messages.push({ role: 'assistant', content: ' ok' }, { role: 'user', content: words(4, ' go') });
    assert.deepEqual(billed(a.bill(body)), { read: 2010, written: 5, input: 0 });
  });
});

describe('Anthropic prompt cache: lifetime', () => {
  const body = { system: [{ type: 'text', text: words(2000), cache_control: cc }], messages: [{ role: 'user', content: ' hi' }] };

  test('a 5-minute entry is read at 4:59 and gone at 5:00', () => {
    const a = account();
    a.bill(body);
    a.advance(5 * MINUTE_MS - 1000);
    assert.equal(a.bill(body).cache_read_input_tokens, 2000);
    const b = account();
    b.bill(body);
    b.advance(5 * MINUTE_MS);
    assert.deepEqual(billed(b.bill(body)), { read: 0, written: 2000, input: 1 });
  });

  test('each hit refreshes the 5 minutes', () => {
    const a = account();
    a.bill(body);
    for (let i = 0; i < 6; i++) {
      a.advance(4 * MINUTE_MS);
      assert.equal(a.bill(body).cache_read_input_tokens, 2000, `hit ${i + 1} at ${4 * (i + 1)} min`);
    }
    a.advance(5 * MINUTE_MS + 1);
    assert.equal(a.bill(body).cache_read_input_tokens, 0);
  });

  test('ttl "1h" lives an hour and is billed as a 1-hour write', () => {
    const a = account();
    const long = { ...body, system: [{ type: 'text', text: words(2000), cache_control: cc1h }] };
    const u = a.bill(long);
    assert.deepEqual(u.cache_creation, { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2000 });
    a.advance(59 * MINUTE_MS);
    assert.equal(a.bill(long).cache_read_input_tokens, 2000);
    a.advance(60 * MINUTE_MS);
    assert.equal(a.bill(long).cache_read_input_tokens, 0);
  });

  test('1h and 5m breakpoints in one request: each written segment is billed at its own TTL', () => {
    const a = account();
    const u = a.bill({ system: [{ type: 'text', text: words(2000), cache_control: cc1h }],
      messages: [{ role: 'user', content: [{ type: 'text', text: words(300, ' dog'), cache_control: cc }] }] });
    assert.deepEqual(u.cache_creation, { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 2000 });
    a.advance(30 * MINUTE_MS); // the 5m entry is gone, the 1h one is not
    const later = a.bill({ system: [{ type: 'text', text: words(2000), cache_control: cc1h }],
      messages: [{ role: 'user', content: [{ type: 'text', text: words(300, ' dog'), cache_control: cc }] }] });
    assert.deepEqual(billed(later), { read: 2000, written: 300, input: 0 });
  });
});

describe('Anthropic prompt cache: breakpoint rules', () => {
  const blocks = (n, mark) => Array.from({ length: n }, (_, i) => ({ type: 'text', text: words(300, ` w${i}`), ...(mark(i) ? { cache_control: cc } : {}) }));

  test('four breakpoints are accepted', () => {
    assert.doesNotThrow(() => account().bill({ messages: [{ role: 'user', content: blocks(6, (i) => i < 4) }] }));
  });

  test('a fifth breakpoint is the API\'s 400', () => {
    assert.throws(() => account().bill({ tools: [{ ...tool('t', 'x'), cache_control: cc }], messages: [{ role: 'user', content: blocks(6, (i) => i < 4) }] }),
      (e) => e.status === 400 && /maximum of 4 blocks with cache_control/.test(e.message) && e.body.error.type === 'invalid_request_error');
  });

  test('automatic caching takes one of the four slots', () => {
    assert.throws(() => account().bill({ cache_control: cc, messages: [{ role: 'user', content: blocks(6, (i) => i < 4) }] }), { status: 400 });
  });

  test('a 1h breakpoint after a 5m one is a 400', () => {
    assert.throws(() => account().bill({ system: [{ type: 'text', text: 'a', cache_control: cc }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'b', cache_control: cc1h }] }] }), { status: 400 });
  });

  test('a breakpoint finds the cached prefix up to 20 blocks back', () => {
    const a = account();
    const head = [{ type: 'text', text: words(2000), cache_control: cc }];
    a.bill({ messages: [{ role: 'user', content: head }] });
    const tail = (n) => Array.from({ length: n }, (_, i) => ({ type: 'text', text: ` t${i}` }));
    const mark = (list) => list.map((b, i) => (i === list.length - 1 ? { ...b, cache_control: cc } : b));
    const unmarkedHead = [{ type: 'text', text: words(2000) }];
    const turn = (n) => ({ messages: [{ role: 'user', content: mark([...unmarkedHead, ...tail(n)]) }] });
    const tailTokens = (n) => tail(n).reduce((s, b) => s + countTokens(b.text), 0);
    assert.deepEqual(billed(a.bill(turn(20))), { read: 2000, written: tailTokens(20), input: 0 });
  });

  test('a breakpoint 21 blocks after the last cached point misses it', () => {
    const a = account();
    a.bill({ messages: [{ role: 'user', content: [{ type: 'text', text: words(2000), cache_control: cc }] }] });
    const tail = Array.from({ length: 21 }, (_, i) => ({ type: 'text', text: ` t${i}` }));
    tail[20].cache_control = cc;
    const u = a.bill({ messages: [{ role: 'user', content: [{ type: 'text', text: words(2000) }, ...tail] }] });
    assert.equal(u.cache_read_input_tokens, 0);
    assert.equal(u.cache_creation_input_tokens, 2000 + tail.reduce((s, b) => s + countTokens(b.text), 0));
  });
});

describe('Anthropic prompt cache: minimum cacheable length', () => {
  const body = (n) => ({ system: [{ type: 'text', text: words(n), cache_control: cc }], messages: [{ role: 'user', content: ' hi' }] });

  test('a prefix under the model\'s minimum is not cached, and is no error', () => {
    const a = account();
    assert.deepEqual(billed(a.bill(body(1000))), { read: 0, written: 0, input: 1001 });
    assert.deepEqual(billed(a.bill(body(1000))), { read: 0, written: 0, input: 1001 });
  });

  test('the minimum counts the whole prefix, tools and system together', () => {
    const t = tool('t', words(600, ' dog'));
    const u = account().bill({ tools: [t], system: [{ type: 'text', text: words(600), cache_control: cc }], messages: [{ role: 'user', content: ' hi' }] });
    assert.equal(u.cache_creation_input_tokens, toolTokens(t) + 600);
  });

  test('per model: 3,000 tokens cache on Sonnet 4.6 (1,024) but not on Haiku 4.5 or Opus 4.5 (4,096)', () => {
    assert.equal(account('claude-sonnet-4-6').bill(body(3000)).cache_creation_input_tokens, 3000);
    assert.equal(account('claude-haiku-4-5-20251001').bill(body(3000)).cache_creation_input_tokens, 0);
    assert.equal(account('claude-opus-4-5').bill(body(3000)).cache_creation_input_tokens, 0);
    assert.equal(account('claude-haiku-4-5').bill(body(4096)).cache_creation_input_tokens, 4096);
  });

  test('an unlisted model falls back by class: Haiku 2,048, others 1,024', () => {
    assert.equal(account('claude-haiku-9').bill(body(2000)).cache_creation_input_tokens, 0);
    assert.equal(account('claude-haiku-9').bill(body(2048)).cache_creation_input_tokens, 2048);
    assert.equal(account('claude-sonnet-9').bill(body(1024)).cache_creation_input_tokens, 1024);
  });
});
